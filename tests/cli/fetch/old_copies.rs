//! Issue 21 items 2, 4 and 5 for `fetch --check`: on an old copy (the upstream copy the real
//! fleet holds, without CONFORMANCE_VERSION) the report is under 40 lines with the fix once, in
//! the human and the github format; its JSON carries the release (version, sha256, destination)
//! and the same drift object as a `sync --check` row; its case counts agree with an independent
//! count for the upstream copy and every real release.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::kit::fleet::*;
use crate::kit::{
    code, copy_tree, json, real_1_8_0, released, row, run_in, stderr, stdout, suite_copy_of,
    unversioned_copy, upstream,
};

/// The release the copies are checked against, on a file:// mirror: the real 1.8.0 (the fleet's
/// canonical suite too; `suite/` holds it only until the proposal is adopted).
fn mirror() -> tempfile::TempDir {
    let dist = tempfile::tempdir().unwrap();
    released(&suite_copy_of(&real_1_8_0()).path(), dist.path());
    dist
}

fn fetch_check(mirror: &Path, cwd: &Path, copy: &str, format: &str) -> Output {
    let version = "1.8.0";
    let url = format!("file://{}", mirror.display());
    run_in(
        cwd,
        &["fetch", "--check", version, copy, "--format", format],
        &[("BQ_CONFORMANCE_BASE_URL", url.as_str()), ("CI", "true")],
    )
}

/// An SDK checkout holding the upstream copy and its own test file beside it.
fn old_sdk() -> tempfile::TempDir {
    let sdk = tempfile::tempdir().unwrap();
    unversioned_copy(&sdk.path().join("tests/conformance"));
    fs::write(
        sdk.path().join("tests/conformance/ConformanceTest.php"),
        "<?php\n",
    )
    .unwrap();
    sdk
}

#[test]
fn fetch_check_on_an_old_copy_is_short_with_the_fix_once() {
    let dist = mirror();
    let sdk = old_sdk();
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "human");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().count() <= 40, "{text}");
    let fix = "bqsuite fetch --update 1.8.0 tests/conformance";
    assert_eq!(text.matches(fix).count(), 1, "{text}");
    assert!(text.lines().last().unwrap().starts_with("fix: `"), "{text}");
    assert!(
        !text.contains("interrupted") && !text.contains("incomplete"),
        "{text}"
    );
    assert!(text.contains("\n  copy:  unversioned"), "{text}");
    assert!(
        text.contains(
            "\n  cases: 654 of 710 missing, 0 changed, 0 extra; 22 of 32 sections missing"
        ),
        "{text}"
    );
    let files: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("    missing ") || l.starts_with("    changed "))
        .collect();
    assert_eq!(files[0], "    changed  manifest.json", "{text}");
    assert!(files.len() <= 10, "{text}");
    assert!(
        text.contains(
            "left alone (the SDK's own, not part of the vendored set): ConformanceTest.php"
        ),
        "{text}"
    );

    // The github format: the fix once in the whole log (the copy's annotation carries it), one
    // annotation, one notice.
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "github");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(text.matches(fix).count(), 1, "{text}");
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 2, "{text}");
    assert!(
        annotations[0].starts_with("::error ") && annotations[0].contains("title=copy-drift::"),
        "{text}"
    );
    assert!(annotations[0].contains(fix), "{text}");
    assert!(
        annotations[1].starts_with(
            "::notice title=bqsuite%3A more findings::54 per-file findings are summed up in the \
             annotation of their copies"
        ),
        "{text}"
    );
}

#[test]
fn fetch_check_json_carries_the_release_and_the_drift_object_of_a_sync_target() {
    let dist = mirror();
    let sdk = old_sdk();
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "json");
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let d = &doc["data"];
    let asset = fs::read(dist.path().join("babelqueue-conformance-1.8.0.tar.gz")).unwrap();
    use sha2::Digest;
    let sha: String = sha2::Sha256::digest(&asset)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(d["version"], "1.8.0");
    assert_eq!(d["asset"]["sha256"], sha);
    assert_eq!(d["asset"]["size"], asset.len());
    assert_eq!(d["dest"], "tests/conformance");
    assert_eq!(d["mode"], "check");
    assert_eq!(d["checksum"]["matched"], true);
    assert_eq!(d["status"], "drift");
    assert!(
        d["fix"]
            .as_str()
            .unwrap()
            .ends_with("bqsuite fetch --update 1.8.0 tests/conformance")
    );
    let copy = &d["copy"];
    assert_eq!(counted(copy), independent(&upstream(), &real_1_8_0()));
    assert_eq!(copy["unversioned"], true);
    assert_eq!(copy["interrupted"], false);
    assert_eq!(
        (
            copy["missing"].as_u64(),
            copy["changed"].as_u64(),
            copy["extra"].as_u64()
        ),
        (Some(53), Some(1), Some(0))
    );
    assert_eq!(copy["files"][0]["path"], "manifest.json");
    assert_eq!(
        copy["unmanaged"],
        serde_json::json!(["ConformanceTest.php"])
    );

    // The same keys as a sync --check row.
    let fleet = Fleet::new();
    let sync = json(&fleet.check(&["--format", "json"]));
    let sync_row = row(&sync, &real_targets()[0]);
    let keys = |v: &Value| {
        v.as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    let missing: Vec<String> = keys(copy)
        .difference(&keys(sync_row))
        .filter(|k| !["matched", "unmanaged"].contains(&k.as_str()))
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "fetch's copy has keys a sync row lacks: {missing:?}"
    );
    for key in [
        "cases",
        "missing_sections",
        "files",
        "version",
        "unversioned",
        "known_release",
    ] {
        assert_eq!(copy[key], sync_row[key], "{key}");
    }
}

#[test]
fn fetch_check_counts_every_real_release_like_the_independent_count() {
    let dist = mirror();
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in old_copies(&dir.path().join("copies")) {
        let copy = dir.path().join(format!("sdk-{name}"));
        copy_tree(&path, &copy);
        if name == "upstream" {
            let _ = fs::remove_file(copy.join("CONFORMANCE_VERSION"));
        }
        let out = fetch_check(dist.path(), dir.path(), &format!("sdk-{name}"), "json");
        let doc = json(&out);
        assert_eq!(
            counted(&doc["data"]["copy"]),
            independent(&path, &real_1_8_0()),
            "{name}"
        );
    }
}
