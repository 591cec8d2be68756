//! How many threads bqsuite works on: [`THREADS_VAR`], else one per core. Validation checks the
//! fixtures on that many threads and `release` compresses on that many; neither the findings nor
//! the asset's bytes depend on the number.

use std::ffi::OsString;

use crate::error::{Error, Result};

/// The environment variable that sets the number of threads (a whole number from 1 to
/// [`MAX_THREADS`]).
pub const THREADS_VAR: &str = "BQSUITE_THREADS";

/// The most threads [`THREADS_VAR`] may ask for.
pub const MAX_THREADS: usize = 256;

/// The cores this process may use (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The number of threads: [`THREADS_VAR`] when set (and not empty), else [`cores`]. A value that
/// is not a whole number from 1 to [`MAX_THREADS`] cannot be used (exit 2).
pub fn threads() -> Result<usize> {
    threads_from(std::env::var_os(THREADS_VAR), cores())
}

/// The number of threads [`THREADS_VAR`]'s `value` asks for, else `default`.
pub fn threads_from(value: Option<OsString>, default: usize) -> Result<usize> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(default);
    };
    let text = value.to_string_lossy();
    text.parse::<usize>()
        .ok()
        .filter(|n| text.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{THREADS_VAR}=`{}` is not a number of threads from 1 to {MAX_THREADS}; run \
                 `unset {THREADS_VAR}` (one thread per core), or set it to a number from 1 to \
                 {MAX_THREADS}",
                crate::error::escape_controls(&text),
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_from_the_environment() {
        assert!(cores() >= 1);
        assert_eq!(threads_from(None, 3).unwrap(), 3);
        assert_eq!(threads_from(Some("".into()), 3).unwrap(), 3);
        assert_eq!(threads_from(Some("1".into()), 3).unwrap(), 1);
        assert_eq!(threads_from(Some("256".into()), 3).unwrap(), 256);
        for bad in ["0", "257", "-1", "+2", " 2", "two", "1.0"] {
            let e = threads_from(Some(bad.into()), 3).unwrap_err().to_string();
            assert!(
                e.contains(THREADS_VAR) && e.contains("from 1 to 256"),
                "{bad}: {e}"
            );
        }
    }
}
