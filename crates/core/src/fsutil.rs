//! Writing files so that nothing is ever half-written: data goes to a temporary file beside the
//! target, is flushed to disk, and is renamed over the target in one step.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::{Error, Result};

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A fresh name for a temporary sibling of `target` (same directory, hidden, unique per call).
pub fn temp_sibling(target: &Path, tag: &str) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = format!(".{name}.{tag}-{}-{n}", std::process::id());
    target.with_file_name(temp)
}

/// The process that made `name` with [`temp_sibling`] and `tag` (`.<target>.<tag>-<pid>-<n>`), if
/// `name` is shaped so.
pub fn temp_owner(name: &str, tag: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(&format!(".{tag}-"))?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether process `pid` is alive; `None` where this cannot be told (no `/proc`).
pub fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return None;
    }
    Some(proc.join(pid.to_string()).exists())
}

/// Refuses a `target` that exists and is not a regular file: the rename of [`write_atomic`] would
/// replace a symbolic link, a FIFO or a device (`/dev/null` included) with a regular file.
pub fn check_writable_target(target: &Path) -> Result<()> {
    let kind = match fs::symlink_metadata(target) {
        Ok(m) => m.file_type(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io("read", target, e)),
    };
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device"
    };
    Err(Error::bad_path(
        target,
        format!(
            "is {what}, not a regular file; bqsuite writes its output only to a new or regular \
             file, never through a link or into a special file (give another path)"
        ),
    ))
}

/// Writes `bytes` to `target` atomically: a reader sees either the old file or the whole new one.
/// A `target` that exists and is not a regular file is refused ([`check_writable_target`]).
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    check_writable_target(target)?;
    let temp = temp_sibling(target, "tmp");
    let result = (|| {
        let mut file = fs::File::create(&temp).map_err(|e| Error::io("create", &temp, e))?;
        file.write_all(bytes)
            .map_err(|e| Error::io("write", &temp, e))?;
        file.sync_all().map_err(|e| Error::io("flush", &temp, e))?;
        fs::rename(&temp, target).map_err(|e| Error::io("rename into place", target, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_to_replace_links_and_special_files() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        fs::write(&real, "keep").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let err = write_atomic(&link, b"x").unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"keep");
        let err = write_atomic(dir.path(), b"x").unwrap_err().to_string();
        assert!(err.contains("a directory"), "{err}");
        let err = write_atomic(Path::new("/dev/null"), b"x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("device"), "{err}");
        assert!(!err.contains("os error"), "{err}");
    }

    #[test]
    fn failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing-dir").join("out.json");
        assert!(write_atomic(&target, b"x").is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
