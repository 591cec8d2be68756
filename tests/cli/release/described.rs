//! `release` of a suite that says what it is (`suite.json`): the asset and its root are named by
//! the description, the asset carries the description, it is as reproducible as BabelQueue's, and
//! what it holds reads back through the archive verifier as the suite it was made from.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::kit::*;

fn version_of(suite: &Path) -> String {
    fs::read_to_string(suite.join("CONFORMANCE_VERSION"))
        .unwrap()
        .trim()
        .to_string()
}

/// Unpacks `asset` with GNU tar into a fresh directory; returns it and the names at its top.
fn unpacked(asset: &Path) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("tar")
        .args(["-xzf", s(asset), "-C", s(dir.path())])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut top: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    top.sort();
    (dir, top)
}

#[test]
fn the_sbp_suite_is_released_under_its_own_name_carrying_its_description() {
    let suite = sbp_suite();
    let version = version_of(&suite);
    let out = tempfile::tempdir().unwrap();
    let asset = released(&suite, out.path());
    let name = format!("sbp-conformance-{version}.tar.gz");
    assert_eq!(asset, out.path().join(&name));
    let bytes = fs::read(&asset).unwrap();
    assert_eq!(
        fs::read_to_string(out.path().join("SHA256SUMS")).unwrap(),
        format!("{}  {name}\n", sha256_hex(&bytes))
    );
    // One root named by the description, holding the suite's files (its description among
    // them) and SBP's own licence.
    let (dir, top) = unpacked(&asset);
    let root = format!("sbp-conformance-{version}");
    assert_eq!(top, std::slice::from_ref(&root));
    let mut want = files(&suite);
    want.insert(
        "LICENSE".into(),
        fs::read(crate::kit::root().join("LICENSE-sbp-suite")).unwrap(),
    );
    assert!(want.contains_key("suite.json"));
    assert_eq!(files(&dir.path().join(&root)), want);
}

#[test]
fn a_described_release_is_the_same_bytes_from_any_copy() {
    let out = tempfile::tempdir().unwrap();
    let first = fs::read(released(&sbp_suite(), out.path())).unwrap();
    // A copy elsewhere, written in another order, with other modes and times.
    let copy = sbp_copy();
    for (rel, bytes) in files(&copy.path()).iter().rev() {
        fs::remove_file(copy.file(rel)).unwrap();
        fs::write(copy.file(rel), bytes).unwrap();
    }
    let again = tempfile::tempdir().unwrap();
    let second = fs::read(released(&copy.path(), again.path())).unwrap();
    assert!(
        first == second,
        "{} vs {}",
        sha256_hex(&first),
        sha256_hex(&second)
    );
}

/// The bundled cases under a description of their own: the name comes from the description, not
/// from the cases, and BabelQueue's own release is untouched by it.
#[test]
fn any_described_suite_is_released_under_its_asset_name() {
    let copy = SuiteCopy::new();
    copy.write(
        "suite.json",
        r#"{"description_version": 1, "name": "renamed", "title": "Renamed", "model": "babelqueue",
  "asset": "renamed-conformance", "release_url": "https://example.org/v{version}",
  "scopes": ["core", "redis", "amqp", "sqs", "asb", "pulsar", "kafka", "artemis", "otel"]}"#,
    );
    let out = tempfile::tempdir().unwrap();
    let asset = released(&copy.path(), out.path());
    let root = format!("renamed-conformance-{}", version_of(&copy.path()));
    assert_eq!(asset, out.path().join(format!("{root}.tar.gz")));
    let (_dir, top) = unpacked(&asset);
    assert_eq!(top, [root]);
}

/// Released, then read back through the archive verifier (as `diff` and `validate --since` read
/// an asset): the asset is the suite it was made from, change for change.
#[test]
fn a_described_release_reads_back_through_the_verifier_as_its_suite() {
    let dist = tempfile::tempdir().unwrap();
    let asset = released(&sbp_suite(), dist.path());
    let out = bqsuite(&["diff", s(&asset), s(&sbp_suite()), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["data"]["changes"], 0, "{doc:#}");
    assert_eq!(doc["data"]["old"]["version"], version_of(&sbp_suite()));
    // And `validate --since` takes the asset as the release before.
    let since = bqsuite(&["validate", s(&sbp_suite()), "--since", s(&asset)]);
    assert_eq!(code(&since), 0, "{}{}", stdout(&since), stderr(&since));
}

/// A described suite is tagged as its release URL says (`sbp-vX.Y.Z` for SBP, so its releases
/// never share BabelQueue's `vX.Y.Z` tags): `--tag` takes that tag and refuses BabelQueue's,
/// naming the tag expected.
#[test]
fn a_described_release_is_tagged_as_its_release_url_says() {
    let suite = sbp_suite();
    let version = version_of(&suite);
    let out = tempfile::tempdir().unwrap();
    let wrong = format!("v{version}");
    let refused = bqsuite(&[
        "release",
        s(&suite),
        "--out",
        s(out.path()),
        "--tag",
        &wrong,
        "--format",
        "json",
    ]);
    assert_eq!(
        code(&refused),
        1,
        "{}{}",
        stdout(&refused),
        stderr(&refused)
    );
    let doc: Value = serde_json::from_str(&stdout(&refused)).unwrap();
    assert_eq!(doc["diagnostics"][0]["code"], "tag-mismatch", "{doc:#}");
    let message = doc["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains(&format!("`sbp-v{version}`")), "{message}");
    assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0);

    let tag = format!("sbp-v{version}");
    let ok = bqsuite(&["release", s(&suite), "--out", s(out.path()), "--tag", &tag]);
    assert_eq!(code(&ok), 0, "{}{}", stdout(&ok), stderr(&ok));
    assert!(
        out.path()
            .join(format!("sbp-conformance-{version}.tar.gz"))
            .is_file()
    );
}
