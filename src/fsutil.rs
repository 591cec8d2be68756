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

/// Writes `bytes` to `target` atomically: a reader sees either the old file or the whole new one.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
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

    #[test]
    fn failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing-dir").join("out.json");
        assert!(write_atomic(&target, b"x").is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
