//! The download progress bar, drawn by indicatif: a terminal UI, so it lives in the binary. The
//! library never prints; it reports progress through a callback. The binary creates a bar (only
//! when standard error is a terminal, outside CI, in human format) and passes
//! `|done, total| bar.update(done, total)` as the progress sink of
//! `bqsuite::commands::fetch::fetch_with_progress`. indicatif itself draws nothing when standard
//! error is not a terminal, and limits redraws.

use std::time::{Duration, Instant};

use indicatif::{ProgressDrawTarget, ProgressStyle};

/// Downloads smaller than this never show a bar.
pub const MIN_BYTES: u64 = 1024 * 1024;
/// Nothing is drawn before the download has run this long (fast downloads stay silent).
const DELAY: Duration = Duration::from_millis(300);

const TEMPLATE: &str =
    "downloading [{bar:30}] {percent:>3}%  {bytes} / {total_bytes}  {bytes_per_sec}";
const TEMPLATE_UNKNOWN: &str = "downloading {bytes}  {bytes_per_sec}";

/// A bar on standard error, created once the download is large and slow enough to deserve one.
pub struct ProgressBar {
    started: Instant,
    target: fn() -> ProgressDrawTarget,
    bar: Option<indicatif::ProgressBar>,
}

impl Default for ProgressBar {
    fn default() -> Self {
        Self::new()
    }
}

impl ProgressBar {
    /// A bar that draws on standard error.
    pub fn new() -> Self {
        Self::with_target(ProgressDrawTarget::stderr)
    }

    /// A bar that draws on `target` (tests use a hidden one).
    pub fn with_target(target: fn() -> ProgressDrawTarget) -> Self {
        ProgressBar {
            started: Instant::now(),
            target,
            bar: None,
        }
    }

    /// Records progress; creates the bar when it is worth showing.
    pub fn update(&mut self, done: u64, total: Option<u64>) {
        if self.bar.is_none() {
            if total.is_some_and(|t| t < MIN_BYTES) || self.started.elapsed() < DELAY {
                return;
            }
            self.bar = Some(make_bar(total, (self.target)()));
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Whether a bar has been created (and not yet cleared).
    #[cfg(test)]
    pub fn shown(&self) -> bool {
        self.bar.is_some()
    }

    /// Clears the bar, if one was drawn.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

fn make_bar(total: Option<u64>, target: ProgressDrawTarget) -> indicatif::ProgressBar {
    let (bar, template) = match total {
        Some(total) if total > 0 => (indicatif::ProgressBar::new(total), TEMPLATE),
        _ => (indicatif::ProgressBar::new_spinner(), TEMPLATE_UNKNOWN),
    };
    bar.set_draw_target(target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_parse_and_small_or_fast_downloads_show_nothing() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
        assert!(ProgressStyle::with_template(TEMPLATE_UNKNOWN).is_ok());
        let mut bar = ProgressBar::with_target(ProgressDrawTarget::hidden);
        bar.update(10, Some(100)); // small: never drawn
        assert!(!bar.shown());
        bar.update(1, Some(4 << 20)); // large but just started
        assert!(!bar.shown());
        bar.started -= DELAY * 2;
        bar.update(2 << 20, Some(4 << 20));
        assert!(bar.shown());
        bar.finish();
        assert!(!bar.shown());
    }
}
