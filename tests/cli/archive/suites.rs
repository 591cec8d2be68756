//! One suite's asset is never taken for another's: the verifier learns which suite it expects
//! from its caller, and an archive whose root or carried description (`suite.json`) is another
//! suite's is refused, naming both, before anything is written.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::kit::tarball::{Mirror, dir, file, gz, tar};
use crate::kit::*;

/// A gzip'd tar of `files` under the single root `root/`.
fn asset_of(root: &str, files: &BTreeMap<String, Vec<u8>>) -> Vec<u8> {
    let mut entries = vec![dir(&format!("{root}/"))];
    entries.extend(
        files
            .iter()
            .map(|(rel, bytes)| file(&format!("{root}/{rel}"), bytes)),
    );
    gz(&tar(&entries))
}

fn sbp_version() -> String {
    fs::read_to_string(sbp_suite().join("CONFORMANCE_VERSION"))
        .unwrap()
        .trim()
        .to_string()
}

/// `bqsuite diff ASSET sbp-suite`, which must stop (exit 2); returns what it said.
fn diff_refused(asset: &Path) -> String {
    let out = bqsuite(&["diff", s(asset), s(&sbp_suite())]);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("[archive-wrong-suite]"), "{err}");
    err
}

/// SBP's real release, published on a file:// mirror under BabelQueue's asset name: `fetch`
/// (which expects BabelQueue's suite) refuses it by its root and writes nothing.
#[test]
fn fetch_refuses_the_sbp_asset_in_place_of_babelqueues() {
    let dist = tempfile::tempdir().unwrap();
    let sbp_asset = fs::read(released(&sbp_suite(), dist.path())).unwrap();
    let version = sbp_version();
    let mirror = Mirror::new();
    mirror.publish(&version, &sbp_asset);
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("conformance");
    let out = command()
        .args(["fetch", &version, s(&dest), "--format", "json"])
        .env("BQ_CONFORMANCE_BASE_URL", mirror.url())
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let finding = &doc["diagnostics"][0];
    assert_eq!(finding["code"], "archive-wrong-suite", "{doc:#}");
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("`sbp-conformance-{version}/`")),
        "{message}"
    );
    assert!(
        message.contains(&format!("`babelqueue-conformance-{version}/`")),
        "{message}"
    );
    assert!(!dest.exists(), "fetch wrote {}", dest.display());
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

/// The reverse: SBP's files under BabelQueue's root. The description the archive carries says
/// it is SBP's, so it is not read as BabelQueue's release.
#[test]
fn an_archive_whose_description_is_another_suites_is_refused() {
    let version = sbp_version();
    let work = tempfile::tempdir().unwrap();
    let asset = work
        .path()
        .join(format!("babelqueue-conformance-{version}.tar.gz"));
    let root = format!("babelqueue-conformance-{version}");
    fs::write(&asset, asset_of(&root, &files(&sbp_suite()))).unwrap();
    let err = diff_refused(&asset);
    assert!(err.contains("Sideband SBP v1 (`sbp`)"), "{err}");
    assert!(err.contains("not BabelQueue (`babelqueue`)"), "{err}");
}

/// SBP's root, but no description: nothing in the archive says it is SBP's, so it is refused
/// rather than guessed at.
#[test]
fn an_archive_under_a_described_suites_root_must_carry_its_description() {
    let version = sbp_version();
    let work = tempfile::tempdir().unwrap();
    let asset = work
        .path()
        .join(format!("sbp-conformance-{version}.tar.gz"));
    let mut files = files(&sbp_suite());
    files
        .remove("suite.json")
        .expect("SBP's suite has a description");
    fs::write(
        &asset,
        asset_of(&format!("sbp-conformance-{version}"), &files),
    )
    .unwrap();
    let err = diff_refused(&asset);
    assert!(err.contains("carries no"), "{err}");
    assert!(err.contains("a release of BabelQueue"), "{err}");
}
