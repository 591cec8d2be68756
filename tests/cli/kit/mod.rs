//! The support kit of the CLI tests: every helper more than one test module uses, once.
//!
//! At the top: the repository's files and test data, a tree read into a map, hashes; running the
//! binary and reading what it printed ([`run`]); a private copy of the bundled suite ([`suite`]).
//! By subject, under their own names: hand-made release assets ([`tarball`]), an HTTP server on
//! 127.0.0.1 ([`server`]), a workspace shaped like the real fleet ([`fleet`]), a grown suite
//! ([`grown`]), install.sh's releases and action.yml's steps ([`installer`]), the `--format json`
//! schema ([`schema`]), the report examples of the Markdown ([`markdown`]) and the environment
//! variables the program's source reads ([`source`]), writers racing on one copy ([`writers`]).

mod repo;
mod run;
mod suite;

pub mod fleet;
pub mod grown;
pub mod installer;
pub mod markdown;
pub mod schema;
pub mod server;
pub mod source;
pub mod tarball;
pub mod writers;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub use repo::{ADOPTED_FIXTURE, PROPOSED_CASE, PROPOSED_FIXTURE, Repo, kafka_reconciliation};
pub use run::*;
pub use suite::*;

/// The repository (the package root).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file or directory under `tests/data`.
pub fn data(rel: &str) -> PathBuf {
    root().join("tests/data").join(rel)
}

/// A real published release under `tests/data/real-releases/`.
pub fn real_release(version: &str) -> PathBuf {
    data("real-releases").join(version)
}

/// The real release 1.8.0: the release whose facts (its cases, the mutants it lets through)
/// tests pin. `suite/` holds it byte for byte only until the proposal is adopted (`bqsuite adopt`
/// makes it 1.9.0), so a test of a 1.8.0 fact reads it here.
pub fn real_1_8_0() -> PathBuf {
    real_release("1.8.0")
}

/// The Sideband SBP suite, with its description (`sbp-suite/suite.json`).
pub fn sbp_suite() -> PathBuf {
    root().join("sbp-suite")
}

/// A temporary copy of the SBP suite, laid out as [`SuiteCopy::new`] lays out the bundled one:
/// `<dir>/suite/`, with SBP's licence beside it (as `LICENSE-suite`, the name the licence rule
/// looks for beside a directory called `suite`).
pub fn sbp_copy() -> SuiteCopy {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&sbp_suite(), &dir.path().join("suite"));
    fs::copy(
        root().join("LICENSE-sbp-suite"),
        dir.path().join(SUITE_LICENSE),
    )
    .unwrap();
    SuiteCopy { dir }
}

/// A temporary copy of the suite at `from`, laid out as [`SuiteCopy::new`] lays out the bundled
/// one (with the suite's licence beside it).
pub fn suite_copy_of(from: &Path) -> SuiteCopy {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(from, &dir.path().join("suite"));
    fs::copy(suite_license(), dir.path().join(SUITE_LICENSE)).unwrap();
    SuiteCopy { dir }
}

/// A results file (or a known-gaps file, or the gate's output) under `tests/data/real-results/`.
pub fn real_results(name: &str) -> PathBuf {
    data("real-results").join(name)
}

/// The upstream earlier revision of the suite (`tests/data/upstream-suite`, with the
/// CONFORMANCE_VERSION the test data adds).
pub fn upstream() -> PathBuf {
    data("upstream-suite")
}

/// The upstream copy exactly as the real SDK repositories vendor it: the test data's copy without
/// its CONFORMANCE_VERSION (the real copies have none).
pub fn unversioned_copy(to: &Path) {
    copy_tree(&upstream(), to);
    fs::remove_file(to.join("CONFORMANCE_VERSION")).unwrap();
}

/// The shipped targets file: at the repository root, beside suite/.
pub fn repo_targets() -> PathBuf {
    root().join("sync-targets.txt")
}

/// The bundled suite's CONFORMANCE_VERSION.
pub fn bundled_version() -> String {
    fs::read_to_string(bundled_suite().join("CONFORMANCE_VERSION"))
        .unwrap()
        .trim()
        .to_string()
}

/// A path as an argument.
pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every regular file under `dir` (relative `/`-separated path → bytes); links and directories
/// aside.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap();
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.insert(rel, fs::read(entry.path()).unwrap());
        }
    }
    out
}

/// The names of the entries of `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every path under `dir` (relative), with its content for files, sorted.
pub fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    if !dir.exists() {
        return out;
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name().min_depth(1) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let content = entry
            .file_type()
            .is_file()
            .then(|| fs::read(entry.path()).unwrap());
        out.push((rel, content));
    }
    out
}

/// Copies the vendored set of `suite` (everything a copy holds but LICENSE: CONFORMANCE_VERSION,
/// manifest.json, suite.json when the suite has one, fixtures/ and schema/) into `dest`.
pub fn vendor_set(suite: &Path, dest: &Path) {
    fs::create_dir_all(dest).unwrap();
    for name in ["CONFORMANCE_VERSION", "manifest.json"] {
        fs::copy(suite.join(name), dest.join(name)).unwrap();
    }
    if suite.join("suite.json").exists() {
        fs::copy(suite.join("suite.json"), dest.join("suite.json")).unwrap();
    }
    for dir in ["fixtures", "schema"] {
        copy_tree(&suite.join(dir), &dest.join(dir));
    }
}

/// `text` without SGR sequences (`ESC [ digits;… m`).
pub fn strip_styles(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\u{1b}') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let body = after.strip_prefix('[').unwrap_or("");
        let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'));
        match end {
            Some(e) if after.starts_with('[') && body[e..].starts_with('m') => {
                rest = &body[e + 1..];
            }
            _ => {
                out.push('\u{1b}');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `file://` URL of a local directory (a mirror, a release).
pub fn file_url(dir: &Path) -> String {
    format!("file://{}", dir.display())
}
