//! Replacing directories whole, so that a reader never sees half an adoption: each new directory
//! is written in full beside the one it replaces ([`stage`]), then [`swap`] renames each old one
//! aside and the new one into its place, and removes the old ones last. If a rename fails, every
//! directory already swapped is put back, and every staged directory is removed: the suite and
//! the proposal are left as they were.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use bqsuite_core::error::{Error, Result, describe_io};
use bqsuite_core::fsutil::temp_sibling;

/// A directory written in full beside the one it is to replace.
pub struct Staged {
    /// The directory replaced (a resolved path, so its parent is where it lives).
    target: PathBuf,
    /// The new directory, a hidden sibling of `target`.
    temp: PathBuf,
}

/// An old directory that was moved aside and could not be removed afterwards.
pub struct Leftover {
    pub path: PathBuf,
    pub why: String,
}

/// Writes a new directory beside `target` holding `files` (`/`-separated relative path →
/// bytes), the empty directories `dirs`, and a copy of every top-level entry of `target` that
/// `replaced` does not claim (what the command does not manage stays as it was).
pub fn stage(
    target: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    dirs: &[&str],
    replaced: impl Fn(&str) -> bool,
) -> Result<Staged> {
    let temp = temp_sibling(target, "adopt");
    fs::create_dir(&temp).map_err(|e| Error::io("create", &temp, e))?;
    let staged = Staged {
        target: target.to_path_buf(),
        temp,
    };
    let filled = fill(&staged, files, dirs, &replaced);
    if filled.is_err() {
        let _ = fs::remove_dir_all(&staged.temp);
    }
    filled.map(|()| staged)
}

fn fill(
    staged: &Staged,
    files: &BTreeMap<String, Vec<u8>>,
    dirs: &[&str],
    replaced: &dyn Fn(&str) -> bool,
) -> Result<()> {
    for dir in dirs {
        let path = staged.temp.join(dir);
        fs::create_dir_all(&path).map_err(|e| Error::io("create", &path, e))?;
    }
    for (rel, bytes) in files {
        write_file(&staged.temp.join(rel), bytes)?;
    }
    let entries = fs::read_dir(&staged.target).map_err(|e| Error::io("read", &staged.target, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("read", &staged.target, e))?;
        let name = entry.file_name();
        if name.to_str().is_some_and(replaced) {
            continue;
        }
        copy_entry(&entry.path(), &staged.temp.join(&name))?;
    }
    Ok(())
}

/// Writes `bytes` to the new file `path` (creating its directory) and flushes it to disk.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    let mut file = fs::File::create(path).map_err(|e| Error::io("create", path, e))?;
    file.write_all(bytes)
        .map_err(|e| Error::io("write", path, e))?;
    file.sync_all().map_err(|e| Error::io("flush", path, e))
}

/// Copies `from` (a file, a directory with its content, or a link as a link) to `to`.
fn copy_entry(from: &Path, to: &Path) -> Result<()> {
    let meta = fs::symlink_metadata(from).map_err(|e| Error::io("read", from, e))?;
    let kind = meta.file_type();
    if kind.is_symlink() {
        return copy_link(from, to);
    }
    if kind.is_dir() {
        fs::create_dir(to).map_err(|e| Error::io("create", to, e))?;
        for entry in fs::read_dir(from).map_err(|e| Error::io("read", from, e))? {
            let entry = entry.map_err(|e| Error::io("read", from, e))?;
            copy_entry(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    if !kind.is_file() {
        return Err(Error::bad_path(
            from,
            "is not a regular file, directory or link, so it cannot be carried over; move it out \
             of the directory, then run again",
        ));
    }
    fs::copy(from, to).map_err(|e| Error::io("copy", from, e))?;
    Ok(())
}

#[cfg(unix)]
fn copy_link(from: &Path, to: &Path) -> Result<()> {
    let points_to = fs::read_link(from).map_err(|e| Error::io("read", from, e))?;
    std::os::unix::fs::symlink(points_to, to).map_err(|e| Error::io("create", to, e))
}

#[cfg(not(unix))]
fn copy_link(from: &Path, _to: &Path) -> Result<()> {
    Err(Error::bad_path(
        from,
        "is a link, which cannot be carried over here; replace it with a copy, then run again",
    ))
}

/// Puts every staged directory in the place of its target, all or none; then removes the old
/// ones, reporting those that stay.
pub fn swap(staged: Vec<Staged>) -> Result<Vec<Leftover>> {
    let mut done: Vec<(Staged, PathBuf)> = Vec::new();
    let mut waiting = staged.into_iter();
    while let Some(next) = waiting.next() {
        let aside = temp_sibling(&next.target, "old");
        let moved = fs::rename(&next.target, &aside)
            .map_err(|e| Error::io("move aside", &next.target, e))
            .and_then(|()| {
                fs::rename(&next.temp, &next.target).map_err(|e| {
                    let _ = fs::rename(&aside, &next.target);
                    Error::io("rename into place", &next.target, e)
                })
            });
        if let Err(e) = moved {
            undo(done);
            for left in std::iter::once(next).chain(waiting) {
                let _ = fs::remove_dir_all(&left.temp);
            }
            return Err(e);
        }
        done.push((next, aside));
    }
    Ok(done
        .into_iter()
        .filter_map(|(_, aside)| {
            fs::remove_dir_all(&aside).err().map(|e| Leftover {
                why: describe_io(&e),
                path: aside,
            })
        })
        .collect())
}

/// Puts back the directories already swapped, last first.
fn undo(done: Vec<(Staged, PathBuf)>) {
    for (staged, aside) in done.into_iter().rev() {
        if fs::rename(&staged.target, &staged.temp).is_ok() {
            let _ = fs::rename(&aside, &staged.target);
        }
        let _ = fs::remove_dir_all(&staged.temp);
    }
}

/// Removes staged directories that will not be swapped in.
pub fn discard(staged: Vec<Staged>) {
    for s in staged {
        let _ = fs::remove_dir_all(&s.temp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(root: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = root.join(name);
        for (rel, text) in files {
            write_file(&dir.join(rel), text.as_bytes()).unwrap();
        }
        dir
    }

    fn new_files(files: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        files
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn the_new_directory_replaces_the_old_and_keeps_what_it_does_not_manage() {
        let root = tempfile::tempdir().unwrap();
        let dir = dir_with(
            root.path(),
            "suite",
            &[
                ("manifest.json", "old"),
                ("fixtures/a.json", "a"),
                ("README", "kept"),
            ],
        );
        let staged = stage(
            &dir,
            &new_files(&[("manifest.json", "new")]),
            &["fixtures"],
            |name| name == "manifest.json" || name == "fixtures",
        )
        .unwrap();
        assert!(swap(vec![staged]).unwrap().is_empty());
        assert_eq!(
            fs::read_to_string(dir.join("manifest.json")).unwrap(),
            "new"
        );
        assert_eq!(fs::read_to_string(dir.join("README")).unwrap(), "kept");
        assert!(!dir.join("fixtures/a.json").exists());
        assert!(dir.join("fixtures").is_dir());
        // Nothing else is left beside it.
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_swap_puts_back_what_was_swapped() {
        let root = tempfile::tempdir().unwrap();
        let first = dir_with(root.path(), "suite", &[("manifest.json", "old suite")]);
        let second = dir_with(
            root.path(),
            "proposal",
            &[("manifest.json", "old proposal")],
        );
        let all = |_: &str| true;
        let one = stage(&first, &new_files(&[("manifest.json", "new")]), &[], all).unwrap();
        let two = stage(&second, &new_files(&[("manifest.json", "{}")]), &[], all).unwrap();
        // The second target vanishes before the swap: moving it aside fails.
        fs::rename(&second, root.path().join("elsewhere")).unwrap();
        assert!(swap(vec![one, two]).is_err());
        let text = fs::read_to_string(first.join("manifest.json")).unwrap();
        assert_eq!(text, "old suite");
        let mut left: Vec<String> = fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["elsewhere", "suite"]);
    }
}
