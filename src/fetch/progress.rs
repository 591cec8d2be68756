//! A download progress bar. The library never prints: the binary creates a bar on standard error
//! (a terminal, outside CI) and passes `|done, total| bar.update(done, total)` as the progress
//! sink of [`crate::fetch::fetch_with_progress`].

use std::io::Write;
use std::time::{Duration, Instant};

/// Downloads smaller than this never show a bar.
pub const MIN_BYTES: u64 = 1024 * 1024;
/// Nothing is drawn before the download has run this long (fast downloads stay silent).
const DELAY: Duration = Duration::from_millis(300);
/// At most one redraw per interval.
const INTERVAL: Duration = Duration::from_millis(100);
const WIDTH: usize = 30;

/// A one-line bar redrawn in place with `\r`.
pub struct ProgressBar<W: Write> {
    out: W,
    started: Instant,
    last: Option<Instant>,
    drawn: bool,
}

impl<W: Write> ProgressBar<W> {
    pub fn new(out: W) -> Self {
        ProgressBar {
            out,
            started: Instant::now(),
            last: None,
            drawn: false,
        }
    }

    /// Records progress; redraws when it is worth it.
    pub fn update(&mut self, done: u64, total: Option<u64>) {
        if total.is_some_and(|t| t < MIN_BYTES) {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.started) < DELAY
            || self.last.is_some_and(|l| now.duration_since(l) < INTERVAL)
        {
            return;
        }
        self.last = Some(now);
        let line = render(done, total, now.duration_since(self.started));
        let _ = write!(self.out, "\r\x1b[2K{line}");
        let _ = self.out.flush();
        self.drawn = true;
    }

    /// Clears the bar, if one was drawn.
    pub fn finish(&mut self) {
        if self.drawn {
            let _ = write!(self.out, "\r\x1b[2K");
            let _ = self.out.flush();
            self.drawn = false;
        }
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// `downloading [=======>       ]  42%  84.0 / 200.0 MiB  35.1 MiB/s`
pub fn render(done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let rate = mib(done) / elapsed.as_secs_f64().max(0.001);
    match total {
        Some(total) if total > 0 => {
            let fraction = (done as f64 / total as f64).clamp(0.0, 1.0);
            let filled = (fraction * WIDTH as f64) as usize;
            let mut bar = "=".repeat(filled);
            if filled < WIDTH {
                bar.push('>');
                bar.push_str(&" ".repeat(WIDTH - filled - 1));
            }
            format!(
                "downloading [{bar}] {:3.0}%  {:.1} / {:.1} MiB  {rate:.1} MiB/s",
                fraction * 100.0,
                mib(done),
                mib(total)
            )
        }
        _ => format!("downloading {:.1} MiB  {rate:.1} MiB/s", mib(done)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_and_clears() {
        let line = render(50 << 20, Some(100 << 20), Duration::from_secs(2));
        assert!(line.contains(" 50%"), "{line}");
        assert!(line.contains("50.0 / 100.0 MiB"), "{line}");
        assert!(line.contains("25.0 MiB/s"), "{line}");
        assert!(render(3 << 20, None, Duration::from_secs(1)).contains("3.0 MiB"));

        let mut out = Vec::new();
        let mut bar = ProgressBar::new(&mut out);
        bar.update(10, Some(100)); // small: never drawn
        bar.started -= DELAY * 2;
        bar.update(2 << 20, Some(4 << 20));
        bar.finish();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("downloading ["), "{text:?}");
        assert!(text.ends_with("\r\x1b[2K"));
    }
}
