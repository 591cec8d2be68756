//! The limits the driver holds an adapter to, and how they read in a message.

use std::fmt;
use std::time::Duration;

/// The limits of one adapter session. Every one is enforced by the driver, whatever the adapter
/// does; [`Bounds::DEFAULT`] holds the protocol's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// How long one request may take, from sending it to its complete reply line (the start
    /// request too). Past it the adapter is killed. A request the adapter does not read counts:
    /// its write shares this bound.
    pub timeout: Duration,
    /// The longest reply line kept, in bytes (without its newline). A longer line is read to its
    /// newline and dropped as it is read, never held.
    pub max_line: usize,
    /// How many bytes of one over-long line are read and dropped before the driver gives up on
    /// finding its newline and kills the adapter (an adapter flooding its output).
    pub max_drain: u64,
    /// How many of the last bytes of the adapter's standard error are kept.
    pub stderr_tail: usize,
    /// How long an adapter may take to exit after the stop request (or after it closed its
    /// output) before it is killed.
    pub stop_grace: Duration,
}

impl Bounds {
    /// The protocol's defaults: 10 s per request, 4 MiB per reply line, 64 MiB drained of an
    /// over-long line, 64 KiB of stderr, 1 s to exit after stop.
    pub const DEFAULT: Bounds = Bounds {
        timeout: Duration::from_secs(10),
        max_line: 4 * MIB as usize,
        max_drain: 64 * MIB,
        stderr_tail: 64 * KIB as usize,
        stop_grace: Duration::from_secs(1),
    };
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds::DEFAULT
    }
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// A byte count as a person reads it: `4 MiB`, `64 KiB`, `1000 bytes`.
pub(crate) struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        if n >= MIB && n.is_multiple_of(MIB) {
            write!(f, "{} MiB", n / MIB)
        } else if n >= KIB && n.is_multiple_of(KIB) {
            write!(f, "{} KiB", n / KIB)
        } else if n == 1 {
            f.write_str("1 byte")
        } else {
            write!(f, "{n} bytes")
        }
    }
}

/// A duration as a person reads it: `10 s`, `1.5 s`, `300 ms`.
pub(crate) struct Span(pub Duration);

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms >= 1000 && ms.is_multiple_of(1000) {
            write!(f, "{} s", ms / 1000)
        } else if ms >= 1000 {
            let fraction = format!("{:03}", ms % 1000);
            write!(f, "{}.{} s", ms / 1000, fraction.trim_end_matches('0'))
        } else {
            write!(f, "{ms} ms")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_spans_read_as_words() {
        assert_eq!(Size(4 * MIB).to_string(), "4 MiB");
        assert_eq!(Size(64 * KIB).to_string(), "64 KiB");
        assert_eq!(Size(1000).to_string(), "1000 bytes");
        assert_eq!(Span(Duration::from_secs(10)).to_string(), "10 s");
        assert_eq!(Span(Duration::from_millis(1500)).to_string(), "1.5 s");
        assert_eq!(Span(Duration::from_millis(300)).to_string(), "300 ms");
    }
}
