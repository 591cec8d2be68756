//! Writing a vendored copy: make a directory's vendored set (CONFORMANCE_VERSION, manifest.json,
//! suite.json when the suite has one, schema/, fixtures/) equal to an expected tree, for `bqsuite sync` and `bqsuite fetch --update`.
//!
//! The rules both commands share:
//! - every path on the way to the copy, and every entry of its vendored set, must be a real
//!   directory or regular file: a symbolic link (or a special file) is refused before anything is
//!   written, so nothing is ever written outside the copy;
//! - a changed or new file is written to a temporary file beside it and renamed over it, so an
//!   interrupted run leaves each file either old or new, never torn;
//! - a copy never claims a version it does not hold: when the version changes, the old
//!   CONFORMANCE_VERSION is removed before any other file is written and the new one is written
//!   last (and manifest.json, which names it, first), so an interrupted run leaves a copy whose
//!   manifest names a version it has no CONFORMANCE_VERSION for, or (stopped before the new
//!   manifest, over a release whose manifest names none) a known release without its version
//!   file, which a check reports as interrupted ([`is_incomplete`]);
//! - the whole write is planned first ([`plan`]): a directory where the suite has a file, a file
//!   where it has a directory, or a directory this user cannot write refuses the copy before
//!   anything in it changes;
//! - files the expected tree does not have are deleted from the vendored schema/ and fixtures/;
//!   byte-identical files are left untouched (no mtime churn); nothing else in the directory
//!   (an SDK's own test file, LICENSE) is touched.

use std::collections::BTreeMap;
use std::fs;
use std::io::ErrorKind;
use std::path::Path;

mod plan;

pub use plan::{Plan, plan};

use crate::load::{VENDORED_DIRS, VENDORED_FILES, VERSION_FILE};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil;

/// What [`apply`] changed, by path relative to the copy (`/`-separated, sorted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Every file written: new ones and changed ones.
    pub written: Vec<String>,
    /// The files of `written` that the copy did not have before.
    pub added: Vec<String>,
    pub deleted: Vec<String>,
}

impl Applied {
    pub fn is_empty(&self) -> bool {
        self.written.is_empty() && self.deleted.is_empty()
    }

    /// The files of `written` that replaced a file with other bytes.
    pub fn changed(&self) -> Vec<&String> {
        self.written
            .iter()
            .filter(|rel| self.added.binary_search(rel).is_err())
            .collect()
    }
}

/// What is in the way of a vendored copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsafeKind {
    Symlink,
    NotADirectory,
    SpecialFile,
}

/// Why a vendored copy cannot be written through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsafe {
    pub kind: UnsafeKind,
    /// The offending path, relative to the base it was checked from.
    pub path: String,
}

impl Unsafe {
    /// What the entry is, in words (`a symbolic link`).
    pub fn what(&self) -> &'static str {
        match self.kind {
            UnsafeKind::Symlink => "a symbolic link",
            UnsafeKind::NotADirectory => "not a directory",
            UnsafeKind::SpecialFile => "neither a regular file nor a directory",
        }
    }
}

/// What a vendored copy's parent path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathState {
    /// The first component (the SDK repository) is missing.
    RepoMissing,
    /// Some component below the first is missing (the copy does not exist yet).
    TargetMissing,
    /// Every component is a real directory.
    Present,
}

/// Walks `rel` (a `/`-separated relative path) under `base` component by component, never
/// following a link. `Err(Unsafe)` when a component is a link or not a directory; `Err(Error)`
/// when one cannot be read.
pub fn check_path(base: &Path, rel: &str) -> Result<std::result::Result<PathState, Unsafe>> {
    let mut path = base.to_path_buf();
    let parts: Vec<&str> = rel.split('/').filter(|c| !c.is_empty()).collect();
    for (i, component) in parts.iter().enumerate() {
        path.push(component);
        let shown = parts[..=i].join("/");
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Ok(Ok(if i == 0 {
                    PathState::RepoMissing
                } else {
                    PathState::TargetMissing
                }));
            }
            Err(e) => return Err(Error::io("read", &path, e)),
            Ok(m) if m.file_type().is_symlink() => {
                return Ok(Err(Unsafe {
                    kind: UnsafeKind::Symlink,
                    path: shown,
                }));
            }
            Ok(m) if !m.is_dir() => {
                return Ok(Err(Unsafe {
                    kind: UnsafeKind::NotADirectory,
                    path: shown,
                }));
            }
            Ok(_) => {}
        }
    }
    Ok(Ok(PathState::Present))
}

/// Refuses a copy with a link or a special file anywhere in its vendored set (the entries other
/// than regular files and directories). Paths in the answer are relative to `dir`.
pub fn check_entries(dir: &Path) -> Result<std::result::Result<(), Unsafe>> {
    let roots = VENDORED_FILES.iter().chain(VENDORED_DIRS.iter());
    for name in roots {
        let root = dir.join(name);
        if fs::symlink_metadata(&root).is_err() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&root).follow_links(false) {
            let entry = entry.map_err(|e| {
                let p = e.path().unwrap_or(&root).to_path_buf();
                Error::io("walk", &p, e.into())
            })?;
            let kind = entry.file_type();
            if kind.is_file() || kind.is_dir() {
                continue;
            }
            return Ok(Err(Unsafe {
                kind: if kind.is_symlink() {
                    UnsafeKind::Symlink
                } else {
                    UnsafeKind::SpecialFile
                },
                path: relative(dir, entry.path()),
            }));
        }
    }
    Ok(Ok(()))
}

/// Makes the vendored set of `dir` (which exists and was checked by [`check_entries`]) equal to
/// `expected` (relative path → bytes; paths outside the vendored set are ignored): the whole
/// [`plan`] first, so that anything in the way refuses the copy before its first byte changes,
/// then the writes.
pub fn apply(dir: &Path, expected: &BTreeMap<String, Vec<u8>>) -> Result<Applied> {
    plan(dir, expected)?.write()
}

/// The vendored paths among `paths`, in the order they are written. CONFORMANCE_VERSION last: an
/// interrupted run never claims the new version. manifest.json first: it names the version
/// being written (`conformance_version`), which is the evidence a check reads to call a copy
/// without CONFORMANCE_VERSION interrupted. Before it, the description (suite.json, when the
/// suite has one): a copy with a manifest says which suite it is, even when a run is
/// interrupted.
fn write_order<'a>(paths: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut order: Vec<&String> = paths.filter(|rel| crate::load::is_vendored(rel)).collect();
    order.sort_by_key(|rel| {
        (
            rel.as_str() == VERSION_FILE,
            rel.as_str() != crate::kind::DESCRIPTION,
            rel.as_str() != crate::load::MANIFEST,
            rel.as_str(),
        )
    });
    order
}

/// Flushes a directory's entries (renames, removals) to disk, where the platform allows it.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// True when `dir` holds a copy whose writing was interrupted, as far as the evidence says: it
/// has no CONFORMANCE_VERSION (which [`apply`] removes first and writes last), and its
/// manifest.json names a version (`conformance_version`) or, for a manifest that names none,
/// every other file is a known release's. A copy with no version anywhere is otherwise
/// unversioned, not interrupted.
pub fn is_incomplete(dir: &Path) -> bool {
    crate::releases::is_interrupted(dir)
}

fn write_one(dir: &Path, rel: &str, bytes: &[u8], applied: &mut Applied) -> Result<()> {
    let path = dir.join(rel);
    // Only the directories inside `dir` are checked here (`dir` itself is the caller's, and may
    // be reached through a handle such as `/proc/self/fd/N`).
    let inner = Path::new(rel)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    if let Some(parent) = inner.map(|p| dir.join(p)) {
        let parent = parent.as_path();
        match fs::symlink_metadata(parent) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::bad_path(
                    parent,
                    "is in the way: a directory of the suite belongs here",
                ));
            }
            Err(_) => fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?,
        }
    }
    let existed = match fs::symlink_metadata(&path) {
        Ok(m) if m.is_dir() => {
            return Err(Error::bad_path(
                &path,
                "is a directory where the suite has a file; move it away and run again",
            ));
        }
        _ if same_content(&path, bytes) => return Ok(()),
        Ok(_) => true,
        Err(_) => false,
    };
    // A failure names the file being replaced, not its temporary sibling.
    fsutil::write_atomic(&path, bytes).map_err(|e| match e {
        Error::Io { source, .. } => Error::io("replace", &path, source),
        other => other,
    })?;
    applied.written.push(rel.to_string());
    if !existed {
        applied.added.push(rel.to_string());
    }
    Ok(())
}

/// `path` relative to `dir`, `/`-separated.
fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// True when `path` is a regular file holding exactly `bytes` (never follows a link).
pub fn same_content(path: &Path, bytes: &[u8]) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => {
            fs::read(path).map(|b| b == bytes).unwrap_or(false)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn the_description_and_manifest_come_first_and_the_version_last() {
        let paths: Vec<String> = [
            "schema/envelope.schema.json",
            "CONFORMANCE_VERSION",
            "fixtures/a.json",
            "manifest.json",
            "suite.json",
            "LICENSE",
        ]
        .map(String::from)
        .to_vec();
        let order: Vec<&str> = write_order(paths.iter())
            .into_iter()
            .map(String::as_str)
            .collect();
        assert_eq!(
            order,
            [
                "suite.json",
                "manifest.json",
                "fixtures/a.json",
                "schema/envelope.schema.json",
                "CONFORMANCE_VERSION"
            ]
        );
    }

    #[test]
    fn writes_changes_deletes_extras_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("fixtures/old")).unwrap();
        fs::write(d.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
        fs::write(d.join("manifest.json"), "{}").unwrap();
        fs::write(d.join("fixtures/old/x.json"), "{}").unwrap();
        fs::write(d.join("Test.cs"), "class T {}").unwrap();
        fs::write(d.join("LICENSE"), "mine").unwrap();
        let expected = map(&[
            ("CONFORMANCE_VERSION", "2.0.0\n"),
            ("manifest.json", "{}"),
            ("fixtures/a.json", "{\"a\": 1}"),
            ("LICENSE", "theirs"),
        ]);
        let applied = apply(d, &expected).unwrap();
        assert_eq!(applied.written, ["CONFORMANCE_VERSION", "fixtures/a.json"]);
        assert_eq!(applied.deleted, ["fixtures/old/x.json"]);
        assert!(!d.join("fixtures/old").exists());
        assert_eq!(fs::read_to_string(d.join("Test.cs")).unwrap(), "class T {}");
        assert_eq!(fs::read_to_string(d.join("LICENSE")).unwrap(), "mine");
        assert!(apply(d, &expected).unwrap().is_empty());
    }

    /// Makes `dir` unwritable for everyone this test can be (the mode for a user, the immutable
    /// attribute for root where the file system has it); whether that holds here.
    #[cfg(unix)]
    fn lock_dir(dir: &Path) -> bool {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
        let _ = std::process::Command::new("chattr")
            .arg("+i")
            .arg(dir)
            .output();
        let probe = dir.join("probe");
        let enforced = fs::write(&probe, "").is_err();
        let _ = fs::remove_file(probe);
        enforced
    }

    #[cfg(unix)]
    fn unlock_dir(dir: &Path) {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(dir)
            .output();
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Every path under `dir` with its bytes (directories as `None`).
    fn snapshot(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap())
            .map(|e| {
                let bytes = e.file_type().is_file().then(|| fs::read(e.path()).unwrap());
                (relative(dir, e.path()), bytes)
            })
            .collect()
    }

    fn old_copy(d: &Path) {
        fs::create_dir_all(d.join("fixtures/old")).unwrap();
        fs::write(d.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
        fs::write(
            d.join("manifest.json"),
            r#"{"conformance_version": "1.0.0"}"#,
        )
        .unwrap();
        fs::write(d.join("fixtures/old/x.json"), "{}").unwrap();
    }

    fn new_release() -> BTreeMap<String, Vec<u8>> {
        map(&[
            ("CONFORMANCE_VERSION", "2.0.0\n"),
            ("manifest.json", r#"{"conformance_version": "2.0.0"}"#),
            ("fixtures/a.json", "{}"),
            ("schema/s.json", "{}"),
        ])
    }

    #[test]
    fn anything_in_the_way_refuses_the_copy_before_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // A directory where the release has a file, at the top and deep down; a file where it
        // has a directory.
        type Plant = fn(&Path);
        let in_the_way: [(&str, Plant); 3] = [
            ("CONFORMANCE_VERSION", |p| {
                fs::remove_file(p).unwrap();
                fs::create_dir(p).unwrap();
            }),
            ("fixtures/a.json", |p| {
                fs::create_dir_all(p.join("mine")).unwrap()
            }),
            ("schema", |p| fs::write(p, "not a directory").unwrap()),
        ];
        for (rel, plant) in in_the_way {
            let _ = fs::remove_dir_all(d);
            fs::create_dir_all(d).unwrap();
            old_copy(d);
            plant(&d.join(rel));
            let before = snapshot(d);
            let err = apply(d, &new_release()).unwrap_err().to_string();
            assert!(
                err.contains(rel) && err.contains("nothing was written"),
                "{err}"
            );
            assert_eq!(snapshot(d), before, "{rel}: the copy changed");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_writers_temporary_files_go_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        old_copy(d);
        let dead = (4_000_000..u32::MAX)
            .find(|p| !Path::new(&format!("/proc/{p}")).exists())
            .unwrap();
        let left = format!(".manifest.json.tmp-{dead}-0");
        // pid 1 is always alive; the other is not a name bqsuite makes.
        let kept = [".manifest.json.tmp-1-0", ".notes.tmp-4000000-0"];
        for name in std::iter::once(left.as_str()).chain(kept) {
            fs::write(d.join(name), "x").unwrap();
        }
        apply(d, &new_release()).unwrap();
        assert!(!d.join(&left).exists());
        for name in kept {
            assert!(d.join(name).exists(), "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_this_user_cannot_write_refuses_the_copy_before_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        old_copy(d);
        let fixtures = d.join("fixtures");
        let enforced = lock_dir(&fixtures);
        let before = snapshot(d);
        let result = apply(d, &new_release());
        unlock_dir(&fixtures);
        if !enforced {
            eprintln!("skipped: read-only directories are not enforced for this user here");
            return;
        }
        let err = result.unwrap_err().to_string();
        assert!(
            err.contains("fixtures") && err.contains("permission denied"),
            "{err}"
        );
        assert_eq!(snapshot(d), before);
    }

    #[cfg(unix)]
    #[test]
    fn a_write_stopped_half_way_never_claims_a_version() {
        // The plan finds nothing in the way; fixtures/ turns read-only before the write reaches it.
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        old_copy(d);
        let expected = new_release();
        let planned = plan(d, &expected).unwrap();
        let fixtures = d.join("fixtures");
        let enforced = lock_dir(&fixtures);
        let result = planned.write();
        unlock_dir(&fixtures);
        if !enforced {
            eprintln!("skipped: read-only directories are not enforced for this user here");
            return;
        }
        assert!(result.is_err());
        assert!(!d.join("CONFORMANCE_VERSION").exists());
        assert!(is_incomplete(d));
    }

    #[cfg(unix)]
    #[test]
    fn links_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("sdk/tests")).unwrap();
        std::os::unix::fs::symlink("/tmp", d.join("sdk/tests/conformance")).unwrap();
        let found = check_path(d, "sdk/tests/conformance").unwrap().unwrap_err();
        assert_eq!(found.kind, UnsafeKind::Symlink);
        assert_eq!(found.path, "sdk/tests/conformance");
        assert_eq!(
            check_path(d, "other/tests/conformance").unwrap(),
            Ok(PathState::RepoMissing)
        );
        assert_eq!(
            check_path(d, "sdk/tests/x").unwrap(),
            Ok(PathState::TargetMissing)
        );
        fs::create_dir_all(d.join("copy/fixtures")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("copy/fixtures/a.json")).unwrap();
        let found = check_entries(&d.join("copy")).unwrap().unwrap_err();
        assert_eq!(found.path, "fixtures/a.json");
    }
}
