//! The private staging directory a fetch unpacks into, beside DEST, and the clean-up of those
//! that killed fetches left: a staging directory is recognised by the marker file a fetch writes
//! into it first, never by the shape of its name alone.

use std::fs::{self, DirBuilder, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil::{self, temp_sibling};
use bqsuite_suite::archive::DIR_MODE;

use super::unpack::{dir_builder, new_file, set_mode};

/// The file a fetch writes first into its staging directory: the proof that the directory is one.
pub const MARKER: &str = ".bqsuite-staging";

/// A private directory beside the target (`.<name>.fetch-<pid>-<n>`, holding the [`MARKER`]),
/// removed unless committed.
pub struct Staging {
    dir: PathBuf,
}

impl Staging {
    /// Creates the staging directory beside `target` (mode 0700 until it is committed), first
    /// removing the staging directories that fetches which died left beside it.
    pub fn create(target: &Path) -> Result<Staging> {
        // A bare name (`conformance`) has the empty path as its parent: that is the current
        // directory, where its staging directories are.
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        remove_stale(parent);
        let dir = temp_sibling(target, "fetch");
        dir_builder(0o700)
            .create(&dir)
            .map_err(|e| Error::io("create", &dir, e))?;
        let staging = Staging { dir };
        let marker = staging.dir.join(MARKER);
        new_file(0o600)
            .open(&marker)
            .and_then(|mut f| f.write_all(marker_text(std::process::id()).as_bytes()))
            .map_err(|e| Error::io("create", &marker, e))?;
        Ok(staging)
    }

    /// Where the unpacked tree is built.
    pub fn tree(&self) -> PathBuf {
        self.dir.join("tree")
    }

    /// Where a downloaded asset is kept between the verifying and the unpacking pass.
    pub fn download(&self) -> PathBuf {
        self.dir.join("asset.tar.gz")
    }

    /// Creates the download file (private, new).
    pub fn create_download(&self) -> Result<File> {
        let path = self.download();
        new_file(0o600)
            .open(&path)
            .map_err(|e| Error::io("create", &path, e))
    }

    /// Sets the tree's modes (dirs 0755), flushes it and renames it to `target` (which is absent
    /// or an empty directory), then removes the staging directory.
    pub fn commit(self, target: &Path) -> Result<()> {
        let tree = self.tree();
        if !tree.exists() {
            DirBuilder::new()
                .create(&tree)
                .map_err(|e| Error::io("create", &tree, e))?;
        }
        for entry in walkdir::WalkDir::new(&tree).follow_links(false) {
            let entry = entry.map_err(|e| Error::io("walk", &tree, e.into()))?;
            if entry.file_type().is_dir() {
                set_mode(entry.path(), DIR_MODE)
                    .map_err(|e| Error::io("set the mode of", entry.path(), e))?;
                if let Ok(d) = File::open(entry.path()) {
                    let _ = d.sync_all();
                }
            }
        }
        fs::rename(&tree, target).map_err(|e| Error::io("move the unpacked tree to", target, e))?;
        if let Some(parent) = target.parent()
            && let Ok(d) = File::open(parent)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        remove_marked(&self.dir);
    }
}

/// Removes a marked staging directory with its marker last, so that a run killed while removing
/// it leaves a directory still known as a staging directory (the next fetch finishes the job).
fn remove_marked(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten().filter(|e| e.file_name() != MARKER) {
            let path = entry.path();
            let _ = if entry.file_type().is_ok_and(|t| t.is_dir()) {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
        }
    }
    let _ = fs::remove_file(dir.join(MARKER));
    let _ = fs::remove_dir(dir);
}

/// The process id in a staging directory's name (`.<name>.fetch-<pid>-<n>`), if it is one.
fn staging_pid(name: &str) -> Option<u32> {
    fsutil::temp_owner(name, "fetch")
}

/// Removes, in `parent`, the staging directories of fetches whose process is gone: only
/// directories named as [`Staging`] names them that hold the marker a fetch writes first, naming
/// the same process, never one of a live process. A directory that merely looks like one (a
/// user's, or anything without the marker) is never touched. Best effort: failures are ignored.
fn remove_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(staging_pid) else {
            continue;
        };
        if pid == std::process::id() || fsutil::process_alive(pid) != Some(false) {
            continue;
        }
        let path = entry.path();
        if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        if marked_by(&path, pid) {
            remove_marked(&path);
        } else if unmarked_yet(&path) {
            // Killed between making the directory and marking it: nothing in it to lose.
            let _ = fs::remove_file(path.join(MARKER));
            let _ = fs::remove_dir(&path);
        }
    }
}

/// Whether `dir` holds nothing, or nothing but an empty marker: what a fetch killed between
/// making its staging directory and writing the marker leaves. Removing it loses nothing.
fn unmarked_yet(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().all(|e| {
        e.file_name() == MARKER
            && fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file() && m.len() == 0)
    })
}

/// Whether `dir` holds the marker of a staging directory made by process `pid`: a regular file
/// (not a link) with exactly the text a fetch writes.
fn marked_by(dir: &Path, pid: u32) -> bool {
    let marker = dir.join(MARKER);
    let expected = marker_text(pid);
    match fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() && m.len() == expected.len() as u64 => {
            fs::read(&marker).is_ok_and(|bytes| bytes == expected.as_bytes())
        }
        _ => false,
    }
}

/// The marker's text for a staging directory of process `pid`.
fn marker_text(pid: u32) -> String {
    format!("bqsuite fetch staging directory of process {pid}; removed when that process is gone\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_names() {
        assert_eq!(staging_pid(".conformance.fetch-123-0"), Some(123));
        assert_eq!(staging_pid(".a.b.fetch-7-12"), Some(7));
        for not in [
            ".conformance",
            "conformance.fetch-1-0",
            ".x.fetch-1",
            ".x.fetch-a-0",
        ] {
            assert_eq!(staging_pid(not), None, "{not}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn stale_staging_of_dead_fetches_is_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // A pid no process has: above every live one.
        let dead = (1..u32::MAX / 2)
            .map(|i| 4_000_000 + i)
            .find(|p| !Path::new(&format!("/proc/{p}")).exists())
            .unwrap();
        let plant = |name: String, marker: Option<String>| {
            let path = d.join(name);
            fs::create_dir_all(path.join("tree/fixtures")).unwrap();
            fs::write(path.join("asset.tar.gz"), "x").unwrap();
            if let Some(text) = marker {
                fs::write(path.join(MARKER), text).unwrap();
            }
            path
        };
        let stale = plant(
            format!(".conformance.fetch-{dead}-0"),
            Some(marker_text(dead)),
        );
        // pid 1 (init) is always alive.
        let live = plant(".conformance.fetch-1-3".into(), Some(marker_text(1)));
        // Shaped like a staging directory, but without the marker, or with another process's.
        let look_alike = plant(format!(".conformance.fetch-{dead}-1"), None);
        let other = plant(
            format!(".conformance.fetch-{dead}-2"),
            Some(marker_text(dead + 1)),
        );
        // Killed before it was marked (or while): empty, or an empty marker alone.
        let unmarked = d.join(format!(".conformance.fetch-{dead}-3"));
        fs::create_dir(&unmarked).unwrap();
        let half_marked = d.join(format!(".conformance.fetch-{dead}-4"));
        fs::create_dir(&half_marked).unwrap();
        fs::write(half_marked.join(MARKER), "").unwrap();
        remove_stale(d);
        assert!(!stale.exists());
        assert!(!unmarked.exists() && !half_marked.exists());
        assert!(live.exists());
        assert!(look_alike.join("asset.tar.gz").exists());
        assert!(other.join("asset.tar.gz").exists());
    }
}
