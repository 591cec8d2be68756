//! What a vendored copy is: its version (CONFORMANCE_VERSION, else the manifest's
//! `conformance_version`, else none: *unversioned*), and, when bqsuite knows the release, whether
//! the copy is that release unmodified or with some files edited.
//!
//! bqsuite ships a digest index of every real release (`releases.json` beside this file: for each
//! version, the sha256 of each vendored file). It is generated from `tests/data/real-releases`
//! by the test `index_is_current` (`BQSUITE_BLESS=1 cargo test --lib releases` rewrites it), which
//! fails when the index is stale, so it cannot rot.
//!
//! A copy is *interrupted* only where the evidence says so: its manifest names a version but the
//! CONFORMANCE_VERSION file (which a sync or an update writes last) is missing. A copy with no
//! version anywhere (the upstream copies vendored before the suite carried one) is *unversioned*,
//! never interrupted.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use crate::suite::load::{MANIFEST, VENDORED_DIRS, VENDORED_FILES, VERSION_FILE};

/// The digest index: version -> (vendored path -> sha256 hex).
const INDEX_JSON: &str = include_str!("releases.json");

/// Files larger than this are not hashed (no release file comes near it).
const MAX_HASHED_BYTES: u64 = 8 * 1024 * 1024;
/// Files looked at per copy, at most (a release has under 100).
const MAX_HASHED_FILES: usize = 4096;
/// Bytes hashed per copy, at most (a release is well under 1 MiB): past it the copy is not
/// matched against any release, so a huge copy costs bounded time.
const MAX_HASHED_TOTAL: u64 = 32 * 1024 * 1024;

type Digests = BTreeMap<String, String>;

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
    /// The manifest names a version but CONFORMANCE_VERSION is missing: an interrupted sync or
    /// update.
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
                crate::diag::count(self.edited, "file", "files") + " edited"
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
            text = format!(
                "interrupted: manifest.json names {version} but CONFORMANCE_VERSION is missing, as \
                 an interrupted sync or update leaves it; otherwise {text}"
            );
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

/// The manifest's `conformance_version`, when it is a JSON object naming one.
fn manifest_version(dir: &Path) -> Option<String> {
    let bytes = read_small(&dir.join(MANIFEST), MAX_HASHED_BYTES)?;
    let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let v = value.get("conformance_version")?.as_str()?.trim();
    (!v.is_empty() && v.len() <= 64).then(|| crate::shell::escape(v))
}

/// The CONFORMANCE_VERSION file's text, when it is a small regular file.
fn file_version(dir: &Path) -> Option<String> {
    let bytes = read_small(&dir.join(VERSION_FILE), 256)?;
    let text = String::from_utf8_lossy(&bytes);
    let v = text.trim();
    (!v.is_empty()).then(|| crate::shell::escape(v))
}

/// The manifest names a version but CONFORMANCE_VERSION is missing.
pub fn is_interrupted(dir: &Path) -> bool {
    !fs::symlink_metadata(dir.join(VERSION_FILE)).is_ok_and(|m| m.is_file())
        && manifest_version(dir).is_some()
}

/// What the copy in `dir` is.
pub fn identify(dir: &Path) -> Identity {
    let from_file = file_version(dir);
    let version_file_present =
        fs::symlink_metadata(dir.join(VERSION_FILE)).is_ok_and(|m| m.is_file());
    let from_manifest = manifest_version(dir);
    let (version, source) = match (from_file, &from_manifest) {
        (Some(v), _) => (Some(v), Some(VersionSource::File)),
        (None, Some(v)) => (Some(v.clone()), Some(VersionSource::Manifest)),
        (None, None) => (None, None),
    };
    let interrupted = from_manifest.is_some() && !version_file_present;
    let known = version.as_deref().and_then(|v| index().get_key_value(v));
    // Hashed only when there is a release to compare with.
    let digests = if known.is_some() || version.is_none() {
        digests_of(dir)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn real_releases() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/real-releases")
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
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/suite/releases.json");
            fs::write(path, &fresh).unwrap();
            return;
        }
        assert!(
            fresh == INDEX_JSON,
            "src/suite/releases.json is stale: run `BQSUITE_BLESS=1 cargo test --lib \
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
