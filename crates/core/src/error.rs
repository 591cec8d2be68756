//! Errors that stop a command from running at all (exit code 2). Problems a check *finds* are
//! [`crate::diag::Diagnostic`]s instead.
//!
//! Every error has a stable [`Error::kind`] (matched on by CI through `--format json`), names the
//! path or URL involved and, where there is one, says what to do ([`Error::help`]). I/O errors
//! are described in plain words ([`describe_io`]), never as `(os error N)`.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The environment variable naming a mirror of the release assets.
pub const BASE_URL_ENV: &str = "BQ_CONFORMANCE_BASE_URL";

/// The stable kind of an [`Error`] (JSON `error.kind`, the annotation's title).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    NotFound,
    PermissionDenied,
    Io,
    BadPath,
    Usage,
    Network,
    NotReleased,
}

impl Kind {
    /// The stable kebab-case text.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::NotFound => "not-found",
            Kind::PermissionDenied => "permission-denied",
            Kind::Io => "io",
            Kind::BadPath => "bad-path",
            Kind::Usage => "usage",
            Kind::Network => "network",
            Kind::NotReleased => "not-released",
        }
    }
}

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
    /// A download failed: `what` says what went wrong, in words.
    Network { url: String, what: String },
    /// The mirror has no asset for `version` (HTTP 404/410, no such file, no checksum line);
    /// `asset` is the file name the release would have (the suite's description spells it).
    NotReleased {
        version: String,
        asset: String,
        url: String,
        why: String,
    },
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

    pub fn network(url: impl Into<String>, what: impl Into<String>) -> Self {
        Error::Network {
            url: url.into(),
            what: what.into(),
        }
    }

    pub fn not_released(
        version: impl Into<String>,
        asset: impl Into<String>,
        url: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        Error::NotReleased {
            version: version.into(),
            asset: asset.into(),
            url: url.into(),
            why: why.into(),
        }
    }

    /// A stable kebab-case name for the kind of failure (the `error.kind` of `--format json`):
    /// `usage`, `not-found`, `bad-path`, `permission-denied`, `io`, `network`, `not-released`.
    pub fn kind(&self) -> Kind {
        match self {
            Error::Io { source, .. } if source.kind() == io::ErrorKind::NotFound => Kind::NotFound,
            Error::Io { source, .. } if source.kind() == io::ErrorKind::PermissionDenied => {
                Kind::PermissionDenied
            }
            // Downloads that fail inside a reader travel as I/O errors on the URL.
            Error::Io { action, .. } if *action == "download" => Kind::Network,
            Error::Io { .. } => Kind::Io,
            Error::BadPath { .. } => Kind::BadPath,
            Error::Usage(_) => Kind::Usage,
            Error::Network { .. } => Kind::Network,
            Error::NotReleased { .. } => Kind::NotReleased,
        }
    }

    /// The path (or URL) the error is about, when there is one.
    pub fn path(&self) -> Option<String> {
        match self {
            Error::Io { path, .. } | Error::BadPath { path, .. } => {
                Some(path.display().to_string())
            }
            Error::Network { url, .. } | Error::NotReleased { url, .. } => Some(url.clone()),
            Error::Usage(_) => None,
        }
    }

    /// What to do about it, when something general can be said.
    pub fn help(&self) -> Option<String> {
        match self {
            Error::Network { .. } => Some(format!(
                "check the network connection and try again; to download from a mirror, set \
                 {BASE_URL_ENV} (http://, https:// or file:///, `{{version}}` is replaced)"
            )),
            Error::Io { action, .. } if *action == "download" => Some(format!(
                "check the network connection and try again; to download from a mirror, set \
                 {BASE_URL_ENV}"
            )),
            Error::NotReleased { asset, .. } => Some(format!(
                "check the version (released versions are tags vX.Y.Z of the conformance \
                 repository); a mirror must hold {asset} and SHA256SUMS (set {BASE_URL_ENV} to \
                 use another one)"
            )),
            Error::Io { source, .. } if source.kind() == io::ErrorKind::PermissionDenied => {
                Some("check the permissions of the path, or use another one".into())
            }
            Error::Io { source, .. }
                if matches!(
                    source.kind(),
                    io::ErrorKind::StorageFull
                        | io::ErrorKind::QuotaExceeded
                        | io::ErrorKind::FileTooLarge
                ) =>
            {
                Some(
                    "free some space (or raise the file-size limit, `ulimit -f`) and run again; \
                     what was being written was removed or left as it was"
                        .into(),
                )
            }
            _ => None,
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
                shown_path(path),
                describe_io(source)
            ),
            Error::BadPath { path, problem } => write!(f, "{}: {problem}", shown_path(path)),
            Error::Usage(message) => f.write_str(message),
            Error::Network { url, what } => write!(f, "cannot download {url}: {what}"),
            Error::NotReleased {
                version, url, why, ..
            } => {
                write!(f, "version {version} is not released at {url} ({why})")
            }
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

/// A path as shown in a message: control characters escaped, so a hostile file name cannot
/// rewrite the terminal or forge a log line.
pub fn shown_path(path: &Path) -> String {
    escape_controls(&path.display().to_string())
}

/// `text` with every control character (newlines included) escaped: see [`crate::shell::escape`].
pub fn escape_controls(text: &str) -> String {
    crate::shell::escape(text)
}

/// An I/O error in plain words: `no such file or directory`, `permission denied`... The operating
/// system's error number (`(os error 2)`) is never shown; an error with a message of its own
/// (e.g. from a reader) keeps that message.
pub fn describe_io(e: &io::Error) -> String {
    use io::ErrorKind as K;
    if e.raw_os_error().is_none()
        && let Some(inner) = e.get_ref()
    {
        return strip_os_error(&inner.to_string());
    }
    let words = match e.kind() {
        K::NotFound => "no such file or directory",
        K::PermissionDenied => "permission denied",
        K::AlreadyExists => "it already exists",
        K::NotADirectory => "a component of the path is not a directory",
        K::IsADirectory => "it is a directory",
        K::DirectoryNotEmpty => "the directory is not empty",
        K::ReadOnlyFilesystem => "the file system is read-only",
        K::StorageFull => "no space left on the device",
        K::QuotaExceeded => "the disk quota is exceeded",
        K::FileTooLarge => "the file is too large",
        K::InvalidFilename => "the file name is not valid here",
        K::CrossesDevices => "it would cross file systems",
        K::TooManyLinks => "too many links",
        K::Interrupted => "interrupted",
        K::UnexpectedEof => "the file ended early",
        K::OutOfMemory => "out of memory",
        K::TimedOut => "timed out",
        K::ConnectionRefused => "the connection was refused",
        K::ConnectionReset => "the connection was reset",
        K::ResourceBusy => "the resource is busy",
        K::ExecutableFileBusy => "the file is being executed",
        K::Deadlock => "a file lock would deadlock",
        K::InvalidData => "the data is not valid",
        _ => "",
    };
    if words.is_empty() {
        lowercase_first(&strip_os_error(&e.to_string()))
    } else {
        words.to_string()
    }
}

/// Removes a trailing ` (os error N)` that the standard library appends to system errors.
pub fn strip_os_error(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(" (os error ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + " (os error ".len()..];
        match after.find(')') {
            Some(j) if after[..j].bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
                rest = &after[j + 1..];
            }
            _ => {
                out.push_str(" (os error ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_ascii_uppercase() && !chars.next().is_some_and(|n| n.is_uppercase()) => {
            let mut out = c.to_ascii_lowercase().to_string();
            out.push_str(&text[1..]);
            out
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_are_words_without_os_error_numbers() {
        let e = Error::io(
            "read suite directory",
            "suite",
            io::Error::from_raw_os_error(2),
        );
        assert_eq!(
            e.to_string(),
            "cannot read suite directory suite: no such file or directory"
        );
        assert_eq!(e.kind(), Kind::NotFound);
        let e = Error::io("open", "x", io::Error::from_raw_os_error(13));
        assert_eq!(e.to_string(), "cannot open x: permission denied");
        let e = Error::io("read", "x", io::Error::other("the archive is cut short"));
        assert_eq!(e.to_string(), "cannot read x: the archive is cut short");
        assert_eq!(
            strip_os_error("a: Connection refused (os error 111) (gave up)"),
            "a: Connection refused (gave up)"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_full_disk_or_file_size_limit_says_what_to_do() {
        for code in [28, 27] {
            // ENOSPC, EFBIG
            let e = Error::io("write", "d/x", io::Error::from_raw_os_error(code));
            let text = e.to_string();
            assert!(!text.contains("os error"), "{text}");
            assert!(e.help().unwrap().contains("free some space"), "{text}");
        }
        assert_eq!(
            Error::io("write", "x", io::Error::from_raw_os_error(27)).to_string(),
            "cannot write x: the file is too large"
        );
    }

    #[test]
    fn kinds_and_paths() {
        let e = Error::not_released("9.9.9", "x.tar.gz", "file:///m/x.tar.gz", "no such file");
        assert_eq!(e.kind(), Kind::NotReleased);
        assert!(
            e.help()
                .unwrap()
                .contains("must hold x.tar.gz and SHA256SUMS")
        );
        assert_eq!(
            e.to_string(),
            "version 9.9.9 is not released at file:///m/x.tar.gz (no such file)"
        );
        assert_eq!(e.path().as_deref(), Some("file:///m/x.tar.gz"));
        let e = Error::network("https://x/y", "the host was not found");
        assert_eq!(e.kind(), Kind::Network);
        assert!(e.help().unwrap().contains(BASE_URL_ENV));
        assert_eq!(Error::Usage("u".into()).kind(), Kind::Usage);
        assert_eq!(Error::bad_path("p", "q").kind(), Kind::BadPath);
    }

    #[test]
    fn control_characters_are_escaped_in_paths() {
        assert_eq!(shown_path(Path::new("a\nb\u{1b}[31m")), "a\\nb\\u{1b}[31m");
    }
}
