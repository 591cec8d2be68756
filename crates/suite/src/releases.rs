//! What a vendored copy is: its version (CONFORMANCE_VERSION, else the manifest's
//! `conformance_version`, else none: *unversioned*), and, when bqsuite knows the release, whether
//! the copy is that release unmodified or with some files edited.
//!
//! bqsuite ships a digest index of every real release (`releases.json` beside this file: for each
//! version, the sha256 of each vendored file). It is generated from `tests/data/real-releases`
//! by the test `index_is_current` (`BQSUITE_BLESS=1 cargo test -p bqsuite-suite releases` rewrites it), which
//! fails when the index is stale, so it cannot rot.
//!
//! Telling what a copy is costs a read and a hash of every vendored file, and a parse of its
//! manifest. [`identify`] pays that for a copy on disk; [`identify_files`] tells the same from
//! bytes already in memory, so that `sync --check` pays it once for the canonical suite and never
//! for a copy equal to it byte for byte, and [`identify_hashed`] takes digests the caller already
//! made, so that a drifted copy is hashed once.
//!
//! A copy is *interrupted* only where the evidence says so: its manifest names a version but the
//! CONFORMANCE_VERSION file (which a sync or an update writes last) is missing. A copy with no
//! version anywhere (the upstream copies vendored before the suite carried one) is *unversioned*,
//! never interrupted.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use crate::load::{MANIFEST, VENDORED_DIRS, VENDORED_FILES, VERSION_FILE};

/// The digest index: version -> (vendored path -> sha256 hex).
const INDEX_JSON: &str = include_str!("releases.json");

/// Files larger than this are not hashed (no release file comes near it).
const MAX_HASHED_BYTES: u64 = 8 * 1024 * 1024;
/// Files looked at per copy, at most (a release has under 100).
const MAX_HASHED_FILES: usize = 4096;
/// Bytes hashed per copy, at most (a release is well under 1 MiB): past it the copy is not
/// matched against any release, so a huge copy costs bounded time.
const MAX_HASHED_TOTAL: u64 = 32 * 1024 * 1024;

/// Vendored path -> sha256 hex, as [`digests_of`] makes it.
pub type Digests = BTreeMap<String, String>;

fn index() -> &'static BTreeMap<String, Digests> {
    static INDEX: OnceLock<BTreeMap<String, Digests>> = OnceLock::new();
    INDEX.get_or_init(|| serde_json::from_str(INDEX_JSON).unwrap_or_default())
}

/// The versions of the real releases bqsuite knows, oldest first.
pub fn known_versions() -> Vec<String> {
    let mut versions: Vec<String> = index().keys().cloned().collect();
    versions.sort_by_key(|v| semver::Version::parse(v).ok());
    versions
}

/// Where a copy's version was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionSource {
    /// The CONFORMANCE_VERSION file.
    File,
    /// The manifest's `conformance_version` (the version file is missing).
    Manifest,
}

/// What a vendored copy is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// CONFORMANCE_VERSION, else the manifest's `conformance_version` (escaped for display).
    pub version: Option<String>,
    pub source: Option<VersionSource>,
    /// CONFORMANCE_VERSION is missing but the manifest names a version, or (for a manifest that
    /// names none) the files are a known release's byte for byte but for it: an interrupted sync
    /// or update.
    pub interrupted: bool,
    /// The known release the copy was compared with (its version's, or for an unversioned copy
    /// the release it is byte for byte).
    pub release: Option<String>,
    /// With `release`: how many vendored files differ from it (edited, missing or added).
    pub edited: usize,
}

impl Identity {
    pub fn unversioned(&self) -> bool {
        self.version.is_none()
    }

    /// One phrase: "release 1.8.0 unmodified", "1.8.0 with 2 files edited", "unversioned",
    /// "interrupted: ...".
    pub fn describe(&self) -> String {
        let version = self.version.as_deref().unwrap_or_default();
        let mut text = match (&self.release, self.version.is_some()) {
            (Some(r), _) if self.edited == 0 => {
                if self.version.is_some() {
                    format!("release {r} unmodified")
                } else {
                    format!("unversioned, byte for byte release {r}")
                }
            }
            (Some(r), _) => format!(
                "release {r} with {}",
                bqsuite_core::diag::count(self.edited, "file", "files") + " edited"
            ),
            (None, true) if index().contains_key(version) => format!(
                "version {version} (larger than any release, so not compared with release \
                 {version})"
            ),
            (None, true) => format!("version {version} (not a release bqsuite knows)"),
            (None, false) => "unversioned (no CONFORMANCE_VERSION, no conformance_version in \
                              manifest.json)"
                .to_string(),
        };
        if self.interrupted {
            text = match &self.release {
                Some(r) if self.version.is_none() => format!(
                    "interrupted: every file is release {r}'s but CONFORMANCE_VERSION is \
                     missing, as an interrupted sync or update leaves it (or it was deleted)"
                ),
                _ => format!(
                    "interrupted: manifest.json names {version} but CONFORMANCE_VERSION is \
                     missing, as an interrupted sync or update leaves it; otherwise {text}"
                ),
            };
        }
        text
    }

    /// The short form for a table column: "1.8.0", "1.8.0 +2 edited", "unversioned".
    pub fn short(&self) -> String {
        let base = self
            .version
            .clone()
            .unwrap_or_else(|| "unversioned".to_string());
        if self.interrupted {
            format!("{base} (interrupted)")
        } else if self.release.is_some() && self.edited > 0 {
            format!("{base} +{} edited", self.edited)
        } else {
            base
        }
    }

    /// The JSON fields (`version`, `version_source`, `unversioned`, `interrupted`,
    /// `known_release`, `edited_files`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "version": self.version,
            "version_source": self.source.map(|s| match s {
                VersionSource::File => "CONFORMANCE_VERSION",
                VersionSource::Manifest => "manifest",
            }),
            "unversioned": self.unversioned(),
            "interrupted": self.interrupted,
            "known_release": self.release,
            "edited_files": self.release.as_ref().map(|_| self.edited),
        })
    }
}

/// A regular file of at most `max` bytes (never through a link).
fn read_small(path: &Path, max: u64) -> Option<Vec<u8>> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    fs::read(path).ok()
}

/// The sha256 of every vendored file of the copy in `dir` (never following a link; unreadable
/// files are left out). `None` when the copy is larger than any release could be (more than
/// `MAX_HASHED_FILES` files, or `MAX_HASHED_BYTES` in one, or `MAX_HASHED_TOTAL` in all).
pub fn digests_of(dir: &Path) -> Option<Digests> {
    let mut out = Digests::new();
    let mut total = 0u64;
    let mut hash = |rel: String, path: &Path, out: &mut Digests| -> Option<()> {
        let Ok(meta) = fs::symlink_metadata(path) else {
            return Some(());
        };
        if !meta.is_file() {
            return Some(());
        }
        total += meta.len();
        if meta.len() > MAX_HASHED_BYTES || total > MAX_HASHED_TOTAL {
            return None;
        }
        if let Some(bytes) = read_small(path, MAX_HASHED_BYTES) {
            out.insert(rel, crate::archive::sha256_hex(&bytes));
        }
        Some(())
    };
    for name in VENDORED_FILES {
        hash(name.to_string(), &dir.join(name), &mut out)?;
    }
    for sub in VENDORED_DIRS {
        let root = dir.join(sub);
        if !fs::symlink_metadata(&root).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        for entry in walkdir::WalkDir::new(&root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file())
        {
            if out.len() >= MAX_HASHED_FILES {
                return None;
            }
            let Ok(rel) = entry.path().strip_prefix(dir) else {
                continue;
            };
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            hash(rel.join("/"), entry.path(), &mut out)?;
        }
    }
    Some(out)
}

/// How many paths differ between two digest maps (changed, missing or added).
fn differing(a: &Digests, b: &Digests) -> usize {
    let changed_or_missing = b.iter().filter(|(k, v)| a.get(*k) != Some(*v)).count();
    let added = a.keys().filter(|k| !b.contains_key(*k)).count();
    changed_or_missing + added
}

/// Largest CONFORMANCE_VERSION file read for a version.
const MAX_VERSION_FILE_BYTES: u64 = 256;

/// The `conformance_version` of a manifest's bytes, when they are a JSON object naming one.
fn manifest_version_of(bytes: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let v = value.get("conformance_version")?.as_str()?.trim();
    (!v.is_empty() && v.len() <= 64).then(|| bqsuite_core::shell::escape(v))
}

/// The version a CONFORMANCE_VERSION file's bytes name, when they name one.
fn file_version_of(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let v = text.trim();
    (!v.is_empty()).then(|| bqsuite_core::shell::escape(v))
}

/// The manifest's `conformance_version`, when it is a JSON object naming one.
fn manifest_version(dir: &Path) -> Option<String> {
    manifest_version_of(&read_small(&dir.join(MANIFEST), MAX_HASHED_BYTES)?)
}

/// The CONFORMANCE_VERSION file's text, when it is a small regular file.
fn file_version(dir: &Path) -> Option<String> {
    file_version_of(&read_small(
        &dir.join(VERSION_FILE),
        MAX_VERSION_FILE_BYTES,
    )?)
}

/// CONFORMANCE_VERSION is missing, and the manifest names a version or the files are a known
/// release's but for it ([`Identity::interrupted`]).
pub fn is_interrupted(dir: &Path) -> bool {
    identify(dir).interrupted
}

/// The version evidence of a copy: its CONFORMANCE_VERSION (the version it names, and whether
/// it is there as a regular file at all), and how to read the version its manifest names (a
/// parse of the whole manifest, done only when the version file names none).
struct Evidence<M: FnOnce() -> Option<String>> {
    file_version: Option<String>,
    version_file_present: bool,
    manifest_version: M,
}

fn evidence_of_dir(dir: &Path) -> Evidence<impl FnOnce() -> Option<String>> {
    Evidence {
        file_version: file_version(dir),
        version_file_present: fs::symlink_metadata(dir.join(VERSION_FILE))
            .is_ok_and(|m| m.is_file()),
        manifest_version: || manifest_version(dir),
    }
}

/// As [`evidence_of_dir`] reads it from a copy holding these files.
fn evidence_of_files(
    files: &BTreeMap<String, Vec<u8>>,
) -> Evidence<impl FnOnce() -> Option<String>> {
    let version = files.get(VERSION_FILE);
    Evidence {
        file_version: version
            .filter(|b| b.len() as u64 <= MAX_VERSION_FILE_BYTES)
            .and_then(|b| file_version_of(b)),
        version_file_present: version.is_some(),
        manifest_version: || {
            files
                .get(MANIFEST)
                .filter(|b| b.len() as u64 <= MAX_HASHED_BYTES)
                .and_then(|b| manifest_version_of(b))
        },
    }
}

/// The identity the evidence and the digests say; `digests` is asked only when a release is to
/// be compared with (the copy names a version bqsuite knows, or none).
fn identify_from(
    evidence: Evidence<impl FnOnce() -> Option<String>>,
    digests: impl FnOnce() -> Option<Digests>,
) -> Identity {
    let Evidence {
        file_version,
        version_file_present,
        manifest_version,
    } = evidence;
    // A version file that names a version is the version, and a copy that has one is not
    // interrupted, whatever its manifest says: the manifest is read only without one.
    let (version, source, mut interrupted) = match file_version {
        Some(v) => (Some(v), Some(VersionSource::File), false),
        None => match manifest_version() {
            Some(v) => (
                Some(v),
                Some(VersionSource::Manifest),
                !version_file_present,
            ),
            None => (None, None, false),
        },
    };
    let known = version.as_deref().and_then(|v| index().get_key_value(v));
    // Hashed only when there is a release to compare with.
    let digests = if known.is_some() || version.is_none() {
        digests()
    } else {
        None
    };
    let (release, edited) = match (known, digests) {
        (_, None) => (None, 0),
        (Some((v, known)), Some(digests)) => {
            let mut have = digests;
            let mut known = known.clone();
            if interrupted {
                // The missing version file is reported as the interruption, not as an edit.
                have.remove(VERSION_FILE);
                known.remove(VERSION_FILE);
            }
            (Some(v.clone()), differing(&have, &known))
        }
        (None, Some(digests)) => match index().iter().find(|(_, d)| **d == digests) {
            Some((v, _)) => (Some(v.clone()), 0),
            None if !version_file_present => match release_but_its_version_file(&digests) {
                Some(v) => {
                    interrupted = true;
                    (Some(v), 0)
                }
                None => (None, 0),
            },
            None => (None, 0),
        },
    };
    Identity {
        version,
        source,
        interrupted,
        release,
        edited,
    }
}

/// The release whose files these are, byte for byte, all but its CONFORMANCE_VERSION: what an
/// update of a copy whose manifest names no version (releases before 1.5.0) leaves when it is
/// stopped after removing the old version file and before writing the new manifest.
fn release_but_its_version_file(digests: &Digests) -> Option<String> {
    index().iter().find_map(|(v, known)| {
        let mut known = known.clone();
        known.remove(VERSION_FILE)?;
        (known == *digests).then(|| v.clone())
    })
}

/// What the copy in `dir` is.
pub fn identify(dir: &Path) -> Identity {
    identify_from(evidence_of_dir(dir), || digests_of(dir))
}

/// What the copy in `dir` is, given its digests as [`digests_of`] made them (for a caller that
/// needs them anyway: the copy is read and hashed once).
pub fn identify_hashed(dir: &Path, digests: Option<&Digests>) -> Identity {
    identify_from(evidence_of_dir(dir), || digests.cloned())
}

/// What a copy is whose vendored files hold exactly `files` (relative path -> bytes; paths
/// outside the vendored set are left out): the same answer [`identify`] gives for such a copy
/// on disk, without reading it.
pub fn identify_files(files: &BTreeMap<String, Vec<u8>>) -> Identity {
    identify_from(evidence_of_files(files), || digests_of_files(files))
}

/// The digests [`digests_of`] makes of a copy holding exactly `files`, within the same bounds.
pub fn digests_of_files(files: &BTreeMap<String, Vec<u8>>) -> Option<Digests> {
    let vendored = |rel: &str| match rel.split_once('/') {
        None => VENDORED_FILES.contains(&rel),
        Some((top, rest)) => VENDORED_DIRS.contains(&top) && !rest.is_empty(),
    };
    let held: Vec<(&String, &Vec<u8>)> = files.iter().filter(|(rel, _)| vendored(rel)).collect();
    // The bounds of the walk on disk: no file over MAX_HASHED_BYTES, at most MAX_HASHED_TOTAL in
    // all, at most MAX_HASHED_FILES files (the walk gives up on the file past that number).
    let total: u64 = held.iter().map(|(_, b)| b.len() as u64).sum();
    if held.len() > MAX_HASHED_FILES
        || total > MAX_HASHED_TOTAL
        || held.iter().any(|(_, b)| b.len() as u64 > MAX_HASHED_BYTES)
    {
        return None;
    }
    Some(
        held.into_iter()
            .map(|(rel, bytes)| (rel.clone(), crate::archive::sha256_hex(bytes)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real_releases() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/real-releases")
    }

    /// The index as generated from tests/data/real-releases.
    fn generated() -> String {
        let mut all = BTreeMap::new();
        for entry in fs::read_dir(real_releases()).expect("tests/data/real-releases") {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_dir() && semver::Version::parse(&name).is_ok() {
                all.insert(name, digests_of(&entry.path()).unwrap());
            }
        }
        let mut text = serde_json::to_string_pretty(&all).unwrap();
        text.push('\n');
        text
    }

    #[test]
    fn index_is_current() {
        let fresh = generated();
        if std::env::var_os("BQSUITE_BLESS").is_some() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/releases.json");
            fs::write(path, &fresh).unwrap();
            return;
        }
        assert!(
            fresh == INDEX_JSON,
            "crates/suite/src/releases.json is stale: run `BQSUITE_BLESS=1 cargo test -p bqsuite-suite \
             releases::tests::index_is_current` and commit it"
        );
        assert!(known_versions().len() >= 8);
    }

    #[test]
    fn every_real_release_is_itself_unmodified() {
        for v in known_versions() {
            let id = identify(&real_releases().join(&v));
            assert_eq!(id.version.as_deref(), Some(v.as_str()));
            assert_eq!(id.release.as_deref(), Some(v.as_str()));
            assert_eq!(id.edited, 0, "{v}");
            assert!(!id.interrupted);
        }
    }

    /// A copy of the real release `v` at `to`.
    fn copy_release(v: &str, to: &Path) {
        let from = real_releases().join(v);
        for entry in walkdir::WalkDir::new(&from) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(&from).unwrap();
            if entry.file_type().is_dir() {
                fs::create_dir_all(to.join(rel)).unwrap();
            } else {
                fs::copy(entry.path(), to.join(rel)).unwrap();
            }
        }
    }

    /// The vendored files of the copy in `dir`, as `sync --check` holds the canonical suite.
    fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        crate::load::load_bytes(dir)
            .unwrap()
            .files
            .into_iter()
            .map(|(rel, file)| (rel, file.bytes))
            .collect()
    }

    #[test]
    fn the_identity_of_bytes_in_memory_is_the_identity_of_the_same_copy_on_disk() {
        let scratch = tempfile::tempdir().unwrap();
        let mut dirs: Vec<std::path::PathBuf> = known_versions()
            .iter()
            .map(|v| real_releases().join(v))
            .collect();
        dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/upstream-suite"));
        // Without its version file: 1.8.0's manifest names its version (interrupted); 1.2.0's
        // does not, but every other file is 1.2.0's (interrupted too); with one of them edited
        // as well, nothing says a version (unversioned).
        for (v, name) in [
            ("1.8.0", "interrupted"),
            ("1.2.0", "interrupted-before-manifest"),
            ("1.2.0", "unversioned"),
        ] {
            let copy = scratch.path().join(name);
            copy_release(v, &copy);
            fs::remove_file(copy.join(VERSION_FILE)).unwrap();
            if name == "unversioned" {
                fs::write(copy.join(MANIFEST), "{}").unwrap();
            }
            dirs.push(copy);
        }
        // A version file that names nothing (the manifest's version counts, and the copy is not
        // interrupted), and one that names another version than the manifest (the file wins).
        for (name, text) in [("blank-version", "\n"), ("other-version", "1.7.0\n")] {
            let copy = scratch.path().join(name);
            copy_release("1.8.0", &copy);
            fs::write(copy.join(VERSION_FILE), text).unwrap();
            dirs.push(copy);
        }
        let mut seen = Vec::new();
        for dir in &dirs {
            let files = files_of(dir);
            let on_disk = identify(dir);
            assert_eq!(identify_files(&files), on_disk, "{}", dir.display());
            assert_eq!(
                digests_of_files(&files),
                digests_of(dir),
                "{}",
                dir.display()
            );
            let digests = digests_of(dir);
            assert_eq!(identify_hashed(dir, digests.as_ref()), on_disk);
            seen.push((on_disk.unversioned(), on_disk.interrupted));
        }
        // The cases the comparison must cover: versioned, unversioned and interrupted copies,
        // and a version read from the manifest and from the file.
        for case in [(false, false), (true, false), (false, true)] {
            assert!(seen.contains(&case), "{case:?} not covered: {seen:?}");
        }
        let blank = identify(&scratch.path().join("blank-version"));
        assert_eq!(blank.source, Some(VersionSource::Manifest));
        assert!(!blank.interrupted);
        let other = identify(&scratch.path().join("other-version"));
        assert_eq!(
            (other.version.as_deref(), other.source),
            (Some("1.7.0"), Some(VersionSource::File))
        );
    }

    #[test]
    fn the_bounds_of_hashing_are_the_same_in_memory_and_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("fixtures")).unwrap();
        fs::write(d.join(VERSION_FILE), "1.8.0\n").unwrap();
        fs::write(d.join(MANIFEST), "{}").unwrap();
        let mut files = BTreeMap::from([
            (VERSION_FILE.to_string(), b"1.8.0\n".to_vec()),
            (MANIFEST.to_string(), b"{}".to_vec()),
        ]);
        let add = |files: &mut BTreeMap<String, Vec<u8>>, name: String| {
            let rel = format!("fixtures/{name}.json");
            fs::write(d.join(&rel), "{}").unwrap();
            files.insert(rel, b"{}".to_vec());
        };
        // The two top-level files and fixtures up to the file count bound: both hash.
        for i in 0..MAX_HASHED_FILES - 2 {
            add(&mut files, format!("f{i}"));
        }
        assert!(digests_of(d).is_some());
        assert!(digests_of_files(&files).is_some());
        assert_eq!(files.len(), MAX_HASHED_FILES);
        // One file past it: neither does.
        add(&mut files, "one-more".into());
        assert!(digests_of(d).is_none());
        assert!(digests_of_files(&files).is_none());
        assert_eq!(identify_files(&files), identify(d));
        // One file over the size bound.
        let big = vec![b' '; (MAX_HASHED_BYTES + 1) as usize];
        let files = BTreeMap::from([("fixtures/big.json".to_string(), big)]);
        assert!(digests_of_files(&files).is_none());
    }

    #[test]
    fn a_copy_larger_than_any_release_is_not_matched() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("fixtures")).unwrap();
        fs::write(d.join(VERSION_FILE), "1.8.0\n").unwrap();
        fs::write(d.join(MANIFEST), "{}").unwrap();
        let big = vec![b' '; (MAX_HASHED_BYTES + 1) as usize];
        fs::write(d.join("fixtures/big.json"), big).unwrap();
        assert!(digests_of(d).is_none());
        let id = identify(d);
        assert_eq!(id.version.as_deref(), Some("1.8.0"));
        assert_eq!(id.release, None);
        assert!(
            id.describe().contains("larger than any release"),
            "{}",
            id.describe()
        );
    }

    #[test]
    fn hostile_version_text_is_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(
            d.join(MANIFEST),
            r#"{"conformance_version": "::warning x\u001b[31m"}"#,
        )
        .unwrap();
        let id = identify(d);
        assert!(id.interrupted);
        let text = id.describe();
        assert!(!text.contains('\u{1b}'), "{text}");
    }
}
