//! DEST before anything is downloaded: `--check` needs a directory; a plain fetch a new or empty
//! one, whose missing parents are made (and removed again when the run leaves them empty).

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use bqsuite_core::error::{Error, Result};
use bqsuite_suite::lock;

use super::unpack;

/// DEST of a plain fetch: checked ([`prepare_dest`]) and pinned.
pub(super) fn fresh(dest: &Path, created: &mut unpack::CreatedParents) -> Result<unpack::Pinned> {
    let absolute = prepare_dest(dest, created)?;
    unpack::Pinned::take(dest, absolute)
}

/// Takes DEST's lock (beside it, so DEST's parent is made first when missing, and recorded in
/// `created`), waiting up to `wait` for another writer; `again` is this run's command.
pub(super) fn lock(
    dest: &Path,
    created: &mut unpack::CreatedParents,
    wait: Duration,
    again: &str,
) -> Result<lock::Lock> {
    make_parent(dest, created)?;
    lock::acquire(dest, wait).map_err(|refusal| refusal.into_error(dest, wait, again))
}

/// A read-only run gives no verdict on a DEST another run is writing.
pub(super) fn not_being_written(dest: &Path, again: &str) -> Result<()> {
    match lock::holder(dest) {
        Some(holder) => Err(lock::being_written(dest, &holder, again)),
        None => Ok(()),
    }
}

/// `--check` needs an existing directory.
pub(super) fn check_dir(dir: &Path) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::bad_path(dir, "is not a directory")),
        Err(e) => Err(Error::io("read", dir, e)),
    }
}

/// DEST must not exist, or be an empty directory (not a link). Its missing parents are made, one
/// at a time and never through a link, and recorded in `created` (removed again if the fetch
/// leaves them empty). Returns the absolute path the tree will be renamed to.
fn prepare_dest(dest: &Path, created: &mut unpack::CreatedParents) -> Result<PathBuf> {
    match fs::symlink_metadata(dest) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(Error::bad_path(
                dest,
                "is a symbolic link; give a real directory",
            ));
        }
        Ok(m) if m.is_dir() => {
            let mut entries = fs::read_dir(dest).map_err(|e| Error::io("read", dest, e))?;
            if entries.next().is_some() {
                return Err(Error::bad_path(
                    dest,
                    "already exists and is not empty; fetch unpacks only into a new or empty \
                     directory",
                ));
            }
            let absolute = fs::canonicalize(dest).map_err(|e| Error::io("resolve", dest, e))?;
            if absolute.parent().is_none() {
                return Err(Error::bad_path(
                    dest,
                    "cannot unpack over the root directory",
                ));
            }
            return Ok(absolute);
        }
        Ok(_) => {
            return Err(Error::bad_path(
                dest,
                "already exists and is not a directory",
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io("read", dest, e)),
    }
    let Some(Component::Normal(name)) = dest.components().next_back() else {
        return Err(Error::bad_path(dest, "does not name a directory to create"));
    };
    let parent = make_parent(dest, created)?;
    let parent = fs::canonicalize(parent).map_err(|e| Error::io("resolve", parent, e))?;
    Ok(parent.join(name))
}

/// DEST's parent (the current directory for a bare name), made when missing (recorded in
/// `created`); anything but a directory there is refused.
fn make_parent<'a>(dest: &'a Path, created: &mut unpack::CreatedParents) -> Result<&'a Path> {
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(Error::bad_path(parent, "is not a directory")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => created.make(parent)?,
        Err(e) => return Err(Error::io("use the parent directory", parent, e)),
    }
    Ok(parent)
}
