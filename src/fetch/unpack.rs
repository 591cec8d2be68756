//! Unpacking a verified archive: into a private staging directory beside DEST, then one rename.
//! On every failure the staging directory is removed, so DEST is left as it was (or absent) and
//! its parent holds nothing new.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::archive::verify::{Fault, Sink};
use crate::archive::{DIR_MODE, FILE_MODE};
use crate::error::{Error, Result};
use crate::fsutil::temp_sibling;

/// A private directory beside the target (`.<name>.fetch-<pid>-<n>`), removed unless committed.
pub struct Staging {
    dir: PathBuf,
}

impl Staging {
    /// Creates the staging directory beside `target` (mode 0700 until it is committed), first
    /// removing the staging directories that fetches which died left beside it.
    pub fn create(target: &Path) -> Result<Staging> {
        if let Some(parent) = target.parent() {
            remove_stale(parent);
        }
        let dir = temp_sibling(target, "fetch");
        dir_builder(0o700)
            .create(&dir)
            .map_err(|e| Error::io("create", &dir, e))?;
        Ok(Staging { dir })
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
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// The process id in a staging directory's name (`.<name>.fetch-<pid>-<n>`), if it is one.
fn staging_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(".fetch-")?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether process `pid` is alive; `None` where this cannot be told (no /proc).
fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return None;
    }
    Some(proc.join(pid.to_string()).exists())
}

/// Removes, in `parent`, the staging directories of fetches whose process is gone: only
/// directories named as [`Staging`] names them, holding nothing but what a fetch puts there
/// (`tree/`, `asset.tar.gz`), never one of a live process. Best effort: failures are ignored.
fn remove_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(staging_pid) else {
            continue;
        };
        if pid == std::process::id() || process_alive(pid) != Some(false) {
            continue;
        }
        let path = entry.path();
        let is_dir = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        let ours = is_dir
            && fs::read_dir(&path).is_ok_and(|inside| {
                inside.flatten().all(|e| {
                    let n = e.file_name();
                    n == "tree" || n == "asset.tar.gz"
                })
            });
        if ours {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// Writes verified entries under `root`: files 0644, directories 0755, nothing else taken from
/// the archive (no owner, mode, mtime or xattr).
pub struct Extract {
    root: PathBuf,
    buf: Vec<u8>,
}

impl Extract {
    pub fn new(root: PathBuf) -> Result<Extract> {
        dir_builder(DIR_MODE)
            .create(&root)
            .map_err(|e| Error::io("create", &root, e))?;
        Ok(Extract {
            root,
            buf: vec![0u8; 256 * 1024],
        })
    }

    fn mkdirs(&self, path: &Path) -> std::result::Result<(), Fault> {
        dir_builder(DIR_MODE)
            .recursive(true)
            .create(path)
            .map_err(|e| Fault::Failed(Error::io("create", path, e)))
    }
}

impl Sink for Extract {
    fn directory(&mut self, rel: &str) -> std::result::Result<(), Fault> {
        self.mkdirs(&self.root.join(rel))
    }

    fn file(
        &mut self,
        rel: &str,
        _size: u64,
        content: &mut dyn Read,
    ) -> std::result::Result<(), Fault> {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            self.mkdirs(parent)?;
        }
        let failed = |action, e| Fault::Failed(Error::io(action, &path, e));
        let mut file = new_file(FILE_MODE)
            .open(&path)
            .map_err(|e| failed("create", e))?;
        loop {
            let n = match content.read(&mut self.buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(Fault::from_io(e, |e| {
                        Fault::Failed(Error::io("read the archive for", rel, e))
                    }));
                }
            };
            file.write_all(&self.buf[..n])
                .map_err(|e| failed("write", e))?;
        }
        set_mode(&path, FILE_MODE).map_err(|e| failed("set the mode of", e))?;
        file.sync_all().map_err(|e| failed("flush", e))?;
        Ok(())
    }
}

/// A directory builder creating directories with `mode` (before the umask; fixed at commit).
fn dir_builder(mode: u32) -> DirBuilder {
    let mut builder = DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
    #[cfg(not(unix))]
    let _ = mode;
    builder
}

/// Options creating a new file (never an existing one) with `mode`.
fn new_file(mode: u32) -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    options
}

/// Sets exactly `mode`, whatever the umask.
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
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
        let stale = d.join(format!(".conformance.fetch-{dead}-0"));
        fs::create_dir_all(stale.join("tree/fixtures")).unwrap();
        fs::write(stale.join("asset.tar.gz"), "x").unwrap();
        // pid 1 (init) is always alive.
        let live = d.join(".conformance.fetch-1-3");
        fs::create_dir_all(live.join("tree")).unwrap();
        let foreign = d.join(format!(".notes.fetch-{dead}-1"));
        fs::create_dir_all(&foreign).unwrap();
        fs::write(foreign.join("mine.txt"), "keep").unwrap();
        remove_stale(d);
        assert!(!stale.exists());
        assert!(live.exists());
        assert!(foreign.join("mine.txt").exists());
    }
}
