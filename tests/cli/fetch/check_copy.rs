//! `bqsuite fetch --check`: a vendored copy compared with the release it came from.
#![cfg(unix)]

use std::fs;
use std::path::Path;

use bqsuite::commands::fetch;
use serde_json::Value;

use super::download::*;
use crate::kit;
use crate::kit::tarball::*;
use crate::kit::{real_release, snapshot};

/// A vendored copy made from the control archive (without LICENSE, as sync.sh vendors).
fn vendored(work: &Path, mirror: &Mirror) -> std::path::PathBuf {
    let dir = work.join("conformance");
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}");
    fs::remove_file(dir.join("LICENSE")).unwrap();
    dir
}

fn check(mirror: &Mirror, dir: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--check", VERSION, dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    let before = snapshot(dir.parent().unwrap());
    let (code, doc, stderr) = fetch_json(&mirror.url(), &args);
    assert_eq!(
        snapshot(dir.parent().unwrap()),
        before,
        "--check wrote something"
    );
    assert!(doc.is_object(), "{stderr}");
    (code, doc)
}

/// The per-file findings (code, severity, file); a drifted copy's one summary finding
/// (`copy-drift`, first) is checked to be there, with the fix, and left out.
fn findings(doc: &Value) -> Vec<(String, String, String)> {
    let all = doc["diagnostics"].as_array().unwrap();
    let drifted = all
        .iter()
        .any(|d| d["code"].as_str().unwrap().starts_with("drift-"));
    assert_eq!(
        all.first().is_some_and(|d| d["code"] == "copy-drift"),
        drifted,
        "{doc:#}"
    );
    if drifted {
        assert!(
            all[0]["help"].as_str().unwrap().contains("fetch --update"),
            "{doc:#}"
        );
    }
    all.iter()
        .filter(|d| d["code"] != "copy-drift")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn check_passes_on_an_identical_copy_and_ignores_license_and_notes_unmanaged_files() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(findings(&doc), vec![]);
    // LICENSE (not vendored) is ignored; an SDK's own test file is a note, not drift.
    fs::write(dir.join("LICENSE"), "a different license").unwrap();
    fs::write(dir.join("ConformanceTest.php"), "<?php").unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        findings(&doc),
        vec![(
            "unmanaged-file".into(),
            "note".into(),
            "ConformanceTest.php".into()
        )]
    );
    // Human output says so too.
    let out = run(
        &mirror.url(),
        &["fetch", "--check", VERSION, dir.to_str().unwrap()],
    );
    assert_eq!(kit::code(&out), 0);
    let text = kit::stdout(&out);
    assert!(
        text.contains(&format!("matches release {VERSION}")),
        "{text}"
    );
}

#[test]
fn check_lists_changed_missing_and_extra_files_with_diffs() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    fs::write(
        dir.join("fixtures/order-created.json"),
        "{\n  \"job\": \"orders.cancelled\",\n  \"data\": {\"id\": 1}\n}\n",
    )
    .unwrap();
    fs::remove_file(dir.join("schema/message-envelope.schema.json")).unwrap();
    fs::write(dir.join("fixtures/local-only.json"), "{}").unwrap();
    fs::write(dir.join("manifest.json"), [0xff, 0xfe, 0x00]).unwrap();
    let (code, doc) = check(&mirror, &dir, &["--diff"]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&doc),
        vec![
            (
                "drift-extra".into(),
                "error".into(),
                "fixtures/local-only.json".into()
            ),
            (
                "drift-changed".into(),
                "error".into(),
                "fixtures/order-created.json".into()
            ),
            (
                "drift-changed".into(),
                "error".into(),
                "manifest.json".into()
            ),
            (
                "drift-missing".into(),
                "error".into(),
                "schema/message-envelope.schema.json".into()
            ),
        ]
    );
    let diff = doc["diagnostics"][2]["detail"].as_str().unwrap();
    assert!(
        diff.contains("-  \"job\": \"orders.created\",")
            && diff.contains("+  \"job\": \"orders.cancelled\",")
            && diff.contains("@@"),
        "{diff}"
    );
    let binary = doc["diagnostics"][3]["detail"].as_str().unwrap();
    assert!(binary.contains("binary files differ"), "{binary}");
    // Without --diff: the same findings, no detail.
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 1);
    assert!(doc["diagnostics"][2]["detail"].is_null());
    assert_eq!(findings(&doc).len(), 4);
}

#[test]
fn check_reports_type_changes_and_never_follows_links() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    // schema/ replaced by a link to an identical copy elsewhere: still drift.
    let elsewhere = work.path().join("elsewhere");
    fs::rename(dir.join("schema"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.join("schema")).unwrap();
    // A file replaced by a link to identical content.
    let target = work.path().join("urn.json");
    fs::copy(dir.join("fixtures/urn-alias.json"), &target).unwrap();
    fs::remove_file(dir.join("fixtures/urn-alias.json")).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("fixtures/urn-alias.json")).unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&doc),
        vec![
            (
                "drift-type".into(),
                "error".into(),
                "fixtures/urn-alias.json".into()
            ),
            ("drift-type".into(), "error".into(), "schema".into()),
        ]
    );
}

#[test]
fn check_of_a_refused_or_tampered_archive_reports_the_archive_not_drift() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    fs::write(dir.join("manifest.json"), "changed").unwrap();
    let mirror2 = Mirror::new();
    mirror2.publish(
        VERSION,
        &gz(&with(vec![
            Entry::new(b'2', root("fixtures/l.json").as_bytes(), b"").link("/etc/passwd"),
        ])),
    );
    let (code, doc) = check(&mirror2, &dir, &[]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["archive-symlink".to_string()])
    );
    let mut tampered = control();
    let mid = tampered.len() / 2;
    tampered[mid] ^= 1;
    fs::write(mirror.path().join(asset_name(VERSION)), tampered).unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["checksum-mismatch".to_string()])
    );
    // A missing directory is exit 2.
    let (code, _, _) = fetch_json(
        &mirror.url(),
        &[
            "--check",
            VERSION,
            work.path().join("nope").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
}

#[test]
fn the_comparison_is_reusable_on_two_directories() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let canonical = work.path().join("canonical");
    let (code, _, _) = fetch_json(&mirror.url(), &[VERSION, canonical.to_str().unwrap()]);
    assert_eq!(code, 0);
    let copy = work.path().join("copy");
    kit::copy_tree(&canonical, &copy);
    let opts = fetch::CompareOptions {
        diff: true,
        expected_label: "the canonical suite".into(),
        ..Default::default()
    };
    let same = fetch::compare_dirs(&canonical, &copy, &opts).unwrap();
    assert!(
        same.is_clean() && same.findings.is_empty(),
        "{:?}",
        same.findings
    );
    assert_eq!(same.matched, 5);
    fs::write(copy.join("fixtures/urn-alias.json"), "{}").unwrap();
    let drift = fetch::compare_dirs(&canonical, &copy, &opts).unwrap();
    assert_eq!(drift.findings.len(), 1);
    assert_eq!(drift.findings[0].code.as_str(), "drift-changed");
    assert!(drift.findings[0].message.contains("the canonical suite"));
}

#[test]
fn fetch_check_of_the_bundled_suite_against_its_own_release_is_clean() {
    let suite = kit::bundled_suite();
    let version = kit::bundled_version();
    let dist = tempfile::tempdir().unwrap();
    kit::released(&suite, dist.path());
    let base = kit::file_url(dist.path());
    let (code, doc, stderr) = fetch_json(&base, &["--check", &version, suite.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    // Clean: suite/ is byte for byte the release (the targets file sits at the repository root),
    // so there is not even a note about a file outside the vendored set.
    assert!(findings(&doc).is_empty(), "{doc:#}");
    // The real published release kept in the tests checks clean against it too while suite/ is
    // that release, byte for byte (until the proposal is adopted: then no real release has its
    // version yet).
    let real = real_release(&version);
    if real.is_dir() {
        let args = ["--check", &version, real.to_str().unwrap()];
        let (code, doc, stderr) = fetch_json(&base, &args);
        assert_eq!(code, 0, "{doc:#} {stderr}");
        assert!(findings(&doc).is_empty(), "{doc:#}");
    }
    // And it unpacks to the same vendored set.
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("conformance");
    let (code, doc, stderr) = fetch_json(&base, &[&version, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    let same = fetch::compare_dirs(&suite, &dest, &fetch::CompareOptions::default()).unwrap();
    assert!(same.findings.is_empty(), "{:?}", same.findings);
}
