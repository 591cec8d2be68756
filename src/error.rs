//! Errors that stop a command from running at all (exit code 2). Problems a check *finds* are
//! [`crate::diag::Diagnostic`]s instead.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A failure that prevented a command from doing its job. Always names the path involved.
#[derive(Debug)]
pub enum Error {
    /// An I/O operation on `path` failed.
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    /// A path the command needs does not exist or is of the wrong kind.
    BadPath { path: PathBuf, problem: String },
    /// The command line or an environment setting is not usable.
    Usage(String),
}

impl Error {
    pub fn io(action: &'static str, path: impl AsRef<Path>, source: io::Error) -> Self {
        Error::Io {
            action,
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    pub fn bad_path(path: impl AsRef<Path>, problem: impl Into<String>) -> Self {
        Error::BadPath {
            path: path.as_ref().to_path_buf(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io {
                action,
                path,
                source,
            } => write!(
                f,
                "cannot {action} {}: {}",
                path.display(),
                without_os_code(source)
            ),
            Error::BadPath { path, problem } => write!(f, "{}: {problem}", path.display()),
            Error::Usage(message) => f.write_str(message),
        }
    }
}

/// The text of an I/O error without the `(os error N)` suffix the standard library appends:
/// users get the description ("No such file or directory"), not the errno.
pub fn without_os_code(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_show_no_os_code() {
        let e = Error::io(
            "read",
            "/x/y",
            io::Error::from_raw_os_error(2), // ENOENT
        );
        let text = e.to_string();
        assert!(text.starts_with("cannot read /x/y: "), "{text}");
        assert!(!text.contains("os error"), "{text}");
        let custom = io::Error::other("disk on fire");
        assert_eq!(without_os_code(&custom), "disk on fire");
    }
}
