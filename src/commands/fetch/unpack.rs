//! Unpacking a verified archive: into a private staging directory beside DEST, then one rename.
//! On every failure the staging directory is removed, so DEST is left as it was (or absent) and
//! its parent holds nothing new.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use bqsuite_core::error::{Error, Result};
use bqsuite_suite::archive::verify::{Fault, Sink};
use bqsuite_suite::archive::{DIR_MODE, FILE_MODE};

/// DEST as it was when the run began, resolved once to an absolute path: absent, or a real
/// directory (never a link) held open for the whole run, so that its device and inode cannot be
/// reused. [`Pinned::verify`] checks, right before the tree is renamed onto it or the vendored set
/// is written into it, that the path still names that same directory (or is still absent): a DEST
/// swapped for a symbolic link or another directory while the release downloaded is refused, and
/// nothing is written through it.
pub struct Pinned {
    /// The absolute path, resolved once; everything is written under it.
    path: PathBuf,
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// Device and inode of the directory, or `None` when DEST did not exist.
    id: Option<(u64, u64)>,
    /// Keeps the directory's inode alive (and so its identity unique) until the run ends.
    _handle: Option<File>,
}

impl Pinned {
    /// Pins `absolute` (DEST given as `shown`): it must be absent or a real directory.
    pub fn take(shown: &Path, absolute: PathBuf) -> Result<Pinned> {
        // The path as given must still name what `absolute` names (it was resolved a moment ago;
        // a link swapped in since would have been followed).
        let given = fs::symlink_metadata(shown);
        let meta = match fs::symlink_metadata(&absolute) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if let Ok(m) = given {
                    return Err(changed(shown, kind_of(&m)));
                }
                return Ok(Pinned {
                    path: absolute,
                    shown: shown.to_path_buf(),
                    id: None,
                    _handle: None,
                });
            }
            Err(e) => return Err(Error::io("read", shown, e)),
            Ok(m) => m,
        };
        if !meta.is_dir() {
            return Err(Error::bad_path(
                shown,
                format!(
                    "is {}; fetch writes only into a real directory",
                    kind_of(&meta)
                ),
            ));
        }
        let id = identity(&meta);
        match given {
            Ok(m) if m.is_dir() && identity(&m) == id => {}
            Ok(m) if m.is_dir() => return Err(changed(shown, "another directory")),
            Ok(m) => return Err(changed(shown, kind_of(&m))),
            Err(_) => return Err(changed(shown, "gone")),
        }
        let handle = File::open(&absolute).map_err(|e| Error::io("open", shown, e))?;
        let held = handle.metadata().map_err(|e| Error::io("read", shown, e))?;
        if identity(&held) != id {
            return Err(changed(shown, "another directory"));
        }
        Ok(Pinned {
            path: absolute,
            shown: shown.to_path_buf(),
            id: Some(id),
            _handle: Some(handle),
        })
    }

    /// The absolute path everything is written under.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses (exit 2) when the path no longer names the pinned directory (or, for an absent
    /// DEST, when something appeared there).
    pub fn verify(&self) -> Result<()> {
        let now = match fs::symlink_metadata(&self.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io("read", &self.shown, e)),
            Ok(m) => Some(m),
        };
        match (&now, self.id) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(changed(&self.shown, "gone")),
            (Some(m), Some(id)) if m.is_dir() && identity(m) == id => Ok(()),
            (Some(m), Some(_)) if m.is_dir() => Err(changed(&self.shown, "another directory")),
            (Some(m), _) => Err(changed(&self.shown, kind_of(m))),
        }
    }

    /// Where to write so that every write lands in the pinned directory itself. On Linux that is
    /// `/proc/self/fd/N` of the handle held since the start: it names the directory object, not
    /// the path, so a DIR swapped for a link (or renamed away) meanwhile is never written through.
    /// Elsewhere, or without `/proc`, it is the resolved path, checked by [`Pinned::verify`]
    /// before and after.
    pub fn write_root(&self) -> PathBuf {
        #[cfg(target_os = "linux")]
        if let Some(handle) = &self._handle {
            use std::os::fd::AsRawFd;
            let root = PathBuf::from(format!("/proc/self/fd/{}", handle.as_raw_fd()));
            // Only when it really is this directory (procfs mounted, the handle a directory).
            if fs::metadata(&root).is_ok_and(|m| m.is_dir() && Some(identity(&m)) == self.id) {
                return root;
            }
        }
        self.path.clone()
    }

    /// `e` with a path under [`Pinned::write_root`] shown under the path the user gave.
    pub fn shown_error(&self, e: Error) -> Error {
        let root = self.write_root();
        let shown = |path: PathBuf| match path.strip_prefix(&root) {
            Ok(rest) => self.shown.join(rest),
            Err(_) => path,
        };
        match e {
            Error::Io {
                action,
                path,
                source,
            } => Error::Io {
                action,
                path: shown(path),
                source,
            },
            Error::BadPath { path, problem } => Error::BadPath {
                path: shown(path),
                problem: problem.replace(
                    &root.display().to_string(),
                    &self.shown.display().to_string(),
                ),
            },
            other => other,
        }
    }

    /// [`Pinned::verify`] after the vendored set was written: a DEST swapped during the writing
    /// itself is reported as such (exit 2), never as a success.
    pub fn verify_written(&self) -> Result<()> {
        self.verify().map_err(|e| match e {
            Error::BadPath { path, .. } => Error::bad_path(
                path,
                "changed while the release was being written into it (it was swapped for a \
                 link or another directory): some files may have gone to where it now leads. \
                 Check both places, then run the same command again",
            ),
            other => other,
        })
    }
}

/// Device and inode (unix); elsewhere nothing to compare.
fn identity(meta: &fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        (0, 0)
    }
}

fn kind_of(meta: &fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a file"
    } else {
        "a special file"
    }
}

fn changed(shown: &Path, now: &str) -> Error {
    Error::bad_path(
        shown,
        format!(
            "changed while the release was being fetched (it is now {now}); nothing was written \
             through it. Check what replaced it, then run the same command again"
        ),
    )
}

/// The directories a fetch made above DEST (`mkdir -p`), outermost first. When dropped, each that
/// is still empty is removed again, innermost first: a fetch that wrote nothing leaves nothing.
#[derive(Debug, Default)]
pub struct CreatedParents {
    dirs: Vec<PathBuf>,
}

impl CreatedParents {
    /// Makes `dir` and every missing directory above it, one component at a time. An existing
    /// component must be a directory; one that appears meanwhile must be a real directory, never
    /// a link.
    pub fn make(&mut self, dir: &Path) -> Result<()> {
        let mut missing = Vec::new();
        let mut at = dir;
        loop {
            match fs::symlink_metadata(at) {
                Ok(m) if m.is_dir() => break,
                Ok(m)
                    if m.file_type().is_symlink() && fs::metadata(at).is_ok_and(|t| t.is_dir()) =>
                {
                    // An existing link to a directory is used as the user's own path, as DEST's
                    // parent always was; nothing is created through a link made meanwhile.
                    break;
                }
                Ok(_) => return Err(Error::bad_path(at, "is not a directory")),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io("read", at, e)),
            }
            match at.components().next_back() {
                Some(std::path::Component::Normal(_)) => missing.push(at.to_path_buf()),
                _ => {
                    return Err(Error::bad_path(
                        dir,
                        "cannot be created: a missing part of it is `..` or a root",
                    ));
                }
            }
            at = match at.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => break,
            };
        }
        for path in missing.into_iter().rev() {
            match fs::create_dir(&path) {
                Ok(()) => self.dirs.push(path),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    let m = fs::symlink_metadata(&path).map_err(|e| Error::io("read", &path, e))?;
                    if !m.is_dir() {
                        return Err(Error::bad_path(
                            &path,
                            "appeared while fetch was making it, and is not a directory",
                        ));
                    }
                }
                Err(e) => return Err(Error::io("create the directory", &path, e)),
            }
        }
        Ok(())
    }
}

impl Drop for CreatedParents {
    fn drop(&mut self) {
        for dir in self.dirs.iter().rev() {
            // Fails, and so keeps the directory, as soon as anything is in it.
            let _ = fs::remove_dir(dir);
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
pub(super) fn dir_builder(mode: u32) -> DirBuilder {
    let mut builder = DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
    #[cfg(not(unix))]
    let _ = mode;
    builder
}

/// Options creating a new file (never an existing one) with `mode`.
pub(super) fn new_file(mode: u32) -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    options
}

/// Sets exactly `mode`, whatever the umask.
pub(super) fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
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

    #[cfg(unix)]
    #[test]
    #[cfg(target_os = "linux")]
    fn writes_through_the_handle_land_in_the_pinned_directory_even_after_a_swap() {
        let dir = tempfile::tempdir().unwrap();
        let d = fs::canonicalize(dir.path()).unwrap();
        let dest = d.join("dest");
        fs::create_dir(&dest).unwrap();
        let pinned = Pinned::take(&dest, dest.clone()).unwrap();
        let root = pinned.write_root();
        assert!(root.starts_with("/proc/self/fd"), "{}", root.display());
        // DIR swapped for a link to another directory after it was pinned.
        fs::rename(&dest, d.join("moved")).unwrap();
        fs::create_dir(d.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere"), &dest).unwrap();
        let mut expected = std::collections::BTreeMap::new();
        expected.insert("manifest.json".to_string(), b"{}".to_vec());
        expected.insert("fixtures/a.json".to_string(), b"{}".to_vec());
        bqsuite_suite::vendor::apply(&pinned.write_root(), &expected).unwrap();
        // Everything went into the pinned directory (now at `moved`), nothing through the link.
        assert_eq!(fs::read(d.join("moved/fixtures/a.json")).unwrap(), b"{}");
        assert_eq!(fs::read_dir(d.join("elsewhere")).unwrap().count(), 0);
        // Errors name the path the user gave, not the handle.
        let e = pinned.shown_error(Error::io(
            "write",
            pinned.write_root().join("fixtures/a.json"),
            io::Error::other("x"),
        ));
        assert!(
            e.to_string()
                .contains(&dest.join("fixtures/a.json").display().to_string()),
            "{e}"
        );
    }

    #[test]
    fn a_pinned_dest_must_stay_the_same_directory() {
        let dir = tempfile::tempdir().unwrap();
        let d = fs::canonicalize(dir.path()).unwrap();
        let dest = d.join("dest");
        fs::create_dir(&dest).unwrap();
        let pinned = Pinned::take(&dest, dest.clone()).unwrap();
        pinned.verify().unwrap();
        // Swapped for a link to another directory.
        fs::rename(&dest, d.join("moved")).unwrap();
        fs::create_dir(d.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere"), &dest).unwrap();
        let err = pinned.verify().unwrap_err().to_string();
        assert!(
            err.contains("changed while") && err.contains("symbolic link"),
            "{err}"
        );
        // Replaced by another directory.
        fs::remove_file(&dest).unwrap();
        fs::create_dir(&dest).unwrap();
        let err = pinned.verify().unwrap_err().to_string();
        assert!(err.contains("another directory"), "{err}");
        let err = pinned.verify_written().unwrap_err().to_string();
        assert!(err.contains("being written into it"), "{err}");
        // An absent DEST must stay absent.
        let new = d.join("new");
        let pinned = Pinned::take(&new, new.clone()).unwrap();
        pinned.verify().unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere"), &new).unwrap();
        assert!(pinned.verify().is_err());
        // Given path and resolved path disagree (a link swapped in after resolving).
        let err = Pinned::take(&new, d.join("elsewhere"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("symbolic link"), "{err}");
    }
}
