//! The whole write of a copy, worked out before its first byte: which files are new, changed or
//! to be deleted, which directories to make, and whether each directory that changes can be
//! written by this user. Anything in the way (a directory where the suite has a file, a file
//! where it has a directory, a link, a directory this user cannot write) refuses the copy with it
//! untouched.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::{Applied, relative, same_content, sync_dir, write_one, write_order};
use crate::load::{VENDORED_DIRS, VENDORED_FILES, VERSION_FILE};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil;

/// What a write of a copy will do; [`Plan::write`] does it.
#[derive(Debug)]
pub struct Plan<'a> {
    dir: PathBuf,
    expected: &'a BTreeMap<String, Vec<u8>>,
    /// The vendored files that differ from the copy's (new or changed), in write order.
    writes: Vec<&'a String>,
    /// Files of the copy's vendored directories that the suite does not have.
    deletes: Vec<String>,
    /// Directories of the vendored directories the suite does not have, children first: removed
    /// when the deletions leave them empty.
    emptied: Vec<PathBuf>,
    /// The version changes along with other files: the old CONFORMANCE_VERSION goes first.
    version_first: bool,
    /// Temporary files that a killed writer left beside the copy's own files (removed quietly).
    leftovers: Vec<PathBuf>,
}

impl Plan<'_> {
    /// True when the copy already is the expected tree.
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty() && self.deletes.is_empty()
    }

    /// Does the plan: the old version out first when it changes, then every other file (each to
    /// a temporary sibling, renamed over it), the deletions, and the new version last.
    pub fn write(self) -> Result<Applied> {
        let dir = self.dir.as_path();
        let mut applied = Applied::default();
        if self.version_first {
            let path = dir.join(VERSION_FILE);
            fs::remove_file(&path).map_err(|e| Error::io("remove", &path, e))?;
            sync_dir(dir);
        }
        let (version, rest): (Vec<&String>, Vec<&String>) = self
            .writes
            .iter()
            .partition(|rel| rel.as_str() == VERSION_FILE);
        for rel in rest {
            write_one(dir, rel, &self.expected[rel.as_str()], &mut applied)?;
        }
        for rel in self.deletes {
            let path = dir.join(&rel);
            fs::remove_file(&path).map_err(|e| Error::io("delete", &path, e))?;
            applied.deleted.push(rel);
        }
        for leftover in &self.leftovers {
            let _ = fs::remove_file(leftover);
        }
        for emptied in &self.emptied {
            // Fails, and so keeps the directory, when anything is still inside.
            let _ = fs::remove_dir(emptied);
        }
        for rel in version {
            write_one(dir, rel, &self.expected[rel.as_str()], &mut applied)?;
        }
        if !applied.is_empty() {
            sync_dir(dir);
        }
        applied.written.sort();
        applied.added.sort();
        applied.deleted.sort();
        Ok(applied)
    }
}

/// Works out how to make the vendored set of `dir` (an existing directory whose entries were
/// checked for links) equal to `expected`, refusing (an error, nothing written) whatever is in
/// the way.
pub fn plan<'a>(dir: &Path, expected: &'a BTreeMap<String, Vec<u8>>) -> Result<Plan<'a>> {
    let mut writes = Vec::new();
    let mut changed_dirs = BTreeSet::new();
    for rel in write_order(expected.keys()) {
        let path = dir.join(rel);
        let parent = existing_parent(dir, rel)?;
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("read", &path, e)),
            Ok(m) if m.is_dir() => return Err(in_the_way(&path, "a directory", "a file")),
            Ok(m) if !m.is_file() => {
                return Err(in_the_way(&path, "not a regular file", "a file"));
            }
            Ok(_) if same_content(&path, &expected[rel.as_str()]) => continue,
            Ok(_) => {}
        }
        writes.push(rel);
        changed_dirs.insert(parent);
    }
    let (deletes, emptied) = extras(dir, expected)?;
    for rel in &deletes {
        if let Some(parent) = dir.join(rel).parent() {
            changed_dirs.insert(parent.to_path_buf());
        }
    }
    let version_path = dir.join(VERSION_FILE);
    let version_first = writes.iter().any(|rel| rel.as_str() == VERSION_FILE)
        && fs::symlink_metadata(&version_path).is_ok_and(|m| m.is_file())
        && (writes.len() > 1 || !deletes.is_empty());
    if version_first {
        changed_dirs.insert(dir.to_path_buf());
    }
    for changed in &changed_dirs {
        if !writable(changed) {
            return Err(Error::bad_path(
                changed,
                "cannot be written by this user (permission denied), so nothing was written to \
                 the copy; make the directory writable, then run again",
            ));
        }
    }
    Ok(Plan {
        dir: dir.to_path_buf(),
        expected,
        writes,
        deletes,
        emptied,
        version_first,
        leftovers: leftovers(dir),
    })
}

/// The temporary files at the copy's top that a writer killed while replacing one of its files
/// left (`.manifest.json.tmp-<pid>-<n>`, of a process that is gone). Those inside schema/ and
/// fixtures/ are extra files there, deleted as such.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return false;
            };
            let of_ours = VENDORED_FILES
                .iter()
                .any(|f| name.starts_with(&format!(".{f}.tmp-")));
            of_ours
                && fsutil::temp_owner(name, "tmp")
                    .is_some_and(|pid| fsutil::process_alive(pid) == Some(false))
                && entry.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|entry| entry.path())
        .collect()
}

/// The deepest directory on the way to `rel` (under `dir`) that exists: where a new directory or
/// file will be made. Anything but a directory on the way is in the way.
fn existing_parent(dir: &Path, rel: &str) -> Result<PathBuf> {
    let mut at = dir.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len() - 1] {
        let next = at.join(part);
        match fs::symlink_metadata(&next) {
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(Error::io("read", &next, e)),
            Ok(m) if m.is_dir() => at = next,
            Ok(m) if m.is_file() => return Err(in_the_way(&next, "a file", "a directory")),
            Ok(_) => return Err(in_the_way(&next, "not a directory", "a directory")),
        }
    }
    Ok(at)
}

fn in_the_way(path: &Path, found: &str, wanted: &str) -> Error {
    Error::bad_path(
        path,
        format!(
            "is {found} where the suite has {wanted}, so nothing was written to the copy; move it \
             away, then run again"
        ),
    )
}

/// What the copy's vendored directories hold beyond `expected`: the files to delete, and the
/// directories the suite does not have (children first), removed once emptied.
fn extras(dir: &Path, expected: &BTreeMap<String, Vec<u8>>) -> Result<(Vec<String>, Vec<PathBuf>)> {
    let expected_dirs: BTreeSet<&str> = expected
        .keys()
        .flat_map(|rel| rel.match_indices('/').map(move |(i, _)| &rel[..i]))
        .collect();
    let (mut deletes, mut emptied) = (Vec::new(), Vec::new());
    for top in VENDORED_DIRS {
        let root = dir.join(top);
        if fs::symlink_metadata(&root).is_err() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&root)
            .follow_links(false)
            .contents_first(true)
        {
            let entry = entry.map_err(|e| Error::io("walk", &root, e.into()))?;
            let rel = relative(dir, entry.path());
            if entry.file_type().is_dir() {
                if !expected_dirs.contains(rel.as_str()) {
                    emptied.push(entry.path().to_path_buf());
                }
            } else if !expected.contains_key(&rel) {
                deletes.push(rel);
            }
        }
    }
    Ok((deletes, emptied))
}

/// Whether this user may make and remove entries in `dir` (the platform's own answer, which knows
/// about owners, groups, ACLs, read-only mounts and immutable directories).
#[cfg(unix)]
fn writable(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a valid NUL-terminated string that outlives the call.
    unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::W_OK | libc::X_OK,
            libc::AT_EACCESS,
        ) == 0
    }
}

#[cfg(not(unix))]
fn writable(dir: &Path) -> bool {
    fs::metadata(dir).is_ok_and(|m| !m.permissions().readonly())
}
