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

/// The text of an I/O error without the ` (os error N)` the standard library appends to an OS
/// error's description, wherever it stands (a wrapped error may add text after it): users get
/// the description ("No such file or directory"), not the errno.
pub fn without_os_code(error: &io::Error) -> String {
    const MARK: &str = " (os error ";
    let mut text = error.to_string();
    let mut from = 0;
    while let Some(found) = text[from..].find(MARK) {
        let start = from + found;
        let digits = start + MARK.len();
        let len = text[digits..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if len > 0 && text[digits + len..].starts_with(')') {
            text.replace_range(start..digits + len + 1, "");
            from = start;
        } else {
            from = digits;
        }
    }
    text
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
        let wrapped = io::Error::other("refused (os error 111) (gave up after 4 attempts)");
        assert_eq!(
            without_os_code(&wrapped),
            "refused (gave up after 4 attempts)"
        );
        let not_a_code = io::Error::other("x (os error y)");
        assert_eq!(without_os_code(&not_a_code), "x (os error y)");
    }
}
