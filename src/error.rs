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
            } => write!(f, "cannot {action} {}: {source}", path.display()),
            Error::BadPath { path, problem } => write!(f, "{}: {problem}", path.display()),
            Error::Usage(message) => f.write_str(message),
        }
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
