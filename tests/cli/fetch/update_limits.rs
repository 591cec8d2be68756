//! Issue 20, item 2: one set of limits for the archive check, the loader and `fetch --update`; an
//! update never vendors part of a release, and never says it did.

use std::fs;
use std::path::Path;
use std::process::Command;

use bqsuite::commands::release::{Member, build_asset};
use bqsuite_suite::archive::verify::{self, Discard, Limits};
use bqsuite_suite::kind::Kind;
use bqsuite_suite::limits::{MAX_FILES, SuiteLimits};
use serde_json::Value;

use crate::kit::snapshot;
use crate::kit::tarball::Mirror;

const VERSION: &str = "1.0.0";

/// What the archive verifier says of `asset`, a BabelQueue release of [`VERSION`], under
/// `limits`.
fn verified(asset: &[u8], limits: &Limits) -> Result<verify::Summary, verify::Fault> {
    verify::verify(
        asset,
        &verify::Expected::babelqueue(),
        VERSION,
        limits,
        &mut Discard,
    )
}

/// The asset `bqsuite release` writes for a suite of `fixtures` (empty) fixture files, a schema
/// and a manifest: canonical, so only the limits can refuse it.
fn release_with_fixtures(fixtures: usize) -> Vec<u8> {
    let names: Vec<String> = (0..fixtures)
        .map(|i| format!("fixtures/f{i:06}.json"))
        .collect();
    let version = format!("{VERSION}\n");
    let manifest = b"{\"conformance_version\": \"1.0.0\", \"cases\": []}\n";
    let mut members = vec![Member {
        rel: "CONFORMANCE_VERSION",
        data: Some(version.as_bytes()),
    }];
    members.push(Member {
        rel: "fixtures",
        data: None,
    });
    members.extend(names.iter().map(|rel| Member {
        rel,
        data: Some(b""),
    }));
    members.push(Member {
        rel: "manifest.json",
        data: Some(manifest),
    });
    members.push(Member {
        rel: "schema",
        data: None,
    });
    members.push(Member {
        rel: "schema/s.json",
        data: Some(b"{}"),
    });
    build_asset(&Kind::babelqueue(), &members, b"MIT License\n", VERSION, 0)
        .unwrap()
        .bytes
}

/// A vendored copy of an older release, with the SDK's own files beside it.
fn vendored_copy(dir: &Path) {
    fs::create_dir_all(dir.join("fixtures")).unwrap();
    fs::create_dir_all(dir.join("schema")).unwrap();
    fs::write(dir.join("CONFORMANCE_VERSION"), "0.9.0\n").unwrap();
    fs::write(dir.join("manifest.json"), "{\"cases\": []}\n").unwrap();
    fs::write(dir.join("fixtures/old.json"), "{\"old\": true}\n").unwrap();
    fs::write(dir.join("schema/s.json"), "{\"old\": 1}\n").unwrap();
    fs::write(
        dir.join("ConformanceTest.php"),
        "<?php // the SDK's runner\n",
    )
    .unwrap();
}

fn update(mirror: &Mirror, dir: &Path) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bqsuite"))
        .args(["fetch", "--update", VERSION])
        .arg(dir)
        .args(["--format", "json"])
        .env("BQ_CONFORMANCE_BASE_URL", mirror.url())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let doc =
        serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("one JSON document: {stdout}"));
    (
        out.status.code().unwrap_or(-1),
        doc,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The finding of the review: a 50,051-fixture release (beyond the loader's 50,000 files) made
/// `--update` delete fixtures and all of schema/ and exit 0. It is refused before anything is
/// written, and the copy stays as it was.
#[test]
fn update_of_a_release_beyond_the_limits_fails_and_leaves_the_copy_as_it_was() {
    assert_eq!(MAX_FILES, 50_000);
    let asset = release_with_fixtures(50_051);
    let mirror = Mirror::new();
    mirror.publish(VERSION, &asset);
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("conformance");
    vendored_copy(&copy);
    let before = snapshot(work.path());

    let (code, doc, stderr) = update(&mirror, &copy);
    assert_eq!(code, 1, "{doc:#} {stderr}");
    assert_eq!(doc["ok"], false, "{doc:#}");
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "archive-too-many-entries", "{doc:#}");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("more than 50000 files"),
        "{doc:#}"
    );
    // Nothing written, nothing deleted, no staging left beside the copy.
    assert_eq!(snapshot(work.path()), before);
}

/// At the limit exactly, the same release shape is vendored whole (the limits are one, not
/// merely close: the verifier and the loader agree on the last file).
#[test]
fn a_release_at_the_limits_is_vendored_whole() {
    let suite = SuiteLimits {
        max_files: 12,
        ..SuiteLimits::SUITE
    };
    let limits = Limits::for_suite(&suite);
    // 12 files besides LICENSE: CONFORMANCE_VERSION, manifest.json, schema/s.json, 9 fixtures.
    let at = release_with_fixtures(9);
    let summary = verified(&at, &limits).unwrap();
    assert_eq!(summary.vendored_files, 12);
    let over = release_with_fixtures(10);
    let refused = verified(&over, &limits).unwrap_err();
    assert_eq!(
        refused.diagnostic().unwrap().code.as_str(),
        "archive-too-many-entries"
    );

    // Through the library with the same (injected) limits: over is refused, nothing written;
    // at is vendored, every file.
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("conformance");
    vendored_copy(&copy);
    let before = snapshot(&copy);
    let mirror = Mirror::new();
    mirror.publish(VERSION, &over);
    let options = |dest: &Path| bqsuite::commands::fetch::Options {
        version: VERSION.into(),
        dest: dest.to_path_buf(),
        update: true,
        base_url: Some(mirror.url()),
        limits: limits.clone(),
        ..Default::default()
    };
    let report = bqsuite::commands::fetch::fetch(&options(&copy)).unwrap();
    assert_eq!(
        report.diagnostics[0].code.as_str(),
        "archive-too-many-entries"
    );
    assert_eq!(snapshot(&copy), before);

    mirror.publish(VERSION, &at);
    let report = bqsuite::commands::fetch::fetch(&options(&copy)).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    let fixtures = fs::read_dir(copy.join("fixtures")).unwrap().count();
    assert_eq!(fixtures, 9);
    assert!(copy.join("schema/s.json").is_file());
    assert!(copy.join("ConformanceTest.php").is_file());
    assert_eq!(
        fs::read_to_string(copy.join("CONFORMANCE_VERSION")).unwrap(),
        "1.0.0\n"
    );
}

/// The update itself reads the unpacked release with the verifier's limits and refuses, before
/// writing, a tree it cannot read whole (should the two ever disagree again).
#[test]
fn the_update_refuses_a_tree_it_cannot_read_whole_before_writing() {
    let work = tempfile::tempdir().unwrap();
    let tree = work.path().join("tree");
    fs::create_dir_all(tree.join("fixtures")).unwrap();
    fs::write(tree.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
    fs::write(tree.join("manifest.json"), "{}").unwrap();
    for i in 0..5 {
        fs::write(tree.join(format!("fixtures/f{i}.json")), "{}").unwrap();
    }
    let asset = release_with_fixtures(5);
    let summary = verified(&asset, &Limits::default()).unwrap();
    let copy = work.path().join("conformance");
    vendored_copy(&copy);
    let before = snapshot(&copy);
    // The loader may read 4 files only: it stops early, and nothing is written.
    let small = Limits::for_suite(&SuiteLimits {
        max_files: 4,
        ..SuiteLimits::SUITE
    });
    let fault = bqsuite::commands::fetch::update::vendor_staged(&copy, &tree, &summary, &small)
        .unwrap_err();
    assert_eq!(
        fault.diagnostic().unwrap().code.as_str(),
        "archive-too-large"
    );
    assert_eq!(snapshot(&copy), before);
    // A tree with fewer files than the verifier counted (one went missing): refused too.
    fs::remove_file(tree.join("fixtures/f4.json")).unwrap();
    let fault =
        bqsuite::commands::fetch::update::vendor_staged(&copy, &tree, &summary, &Limits::default())
            .unwrap_err();
    let d = fault.diagnostic().unwrap();
    assert!(d.message.contains("were read"), "{}", d.message);
    assert_eq!(snapshot(&copy), before);
}

/// The size limit is the loader's too: the vendored files' total, LICENSE apart (the loader never
/// reads it), at the limit accepted, one byte over refused.
#[test]
fn the_total_size_limit_is_the_loaders() {
    let asset = release_with_fixtures(3);
    let summary = verified(&asset, &Limits::default()).unwrap();
    assert_eq!(
        summary.bytes,
        summary.vendored_bytes + b"MIT License\n".len() as u64
    );
    let with_total = |max_total_bytes| {
        Limits::for_suite(&SuiteLimits {
            max_total_bytes,
            ..SuiteLimits::SUITE
        })
    };
    let at = with_total(summary.vendored_bytes);
    assert_eq!(verified(&asset, &at).unwrap(), summary);
    let over = with_total(summary.vendored_bytes - 1);
    let fault = verified(&asset, &over).unwrap_err();
    assert_eq!(
        fault.diagnostic().unwrap().code.as_str(),
        "archive-too-large"
    );
    // The same limits, in the loader: the unpacked tree at the limit is read whole.
    let work = tempfile::tempdir().unwrap();
    let tree = work.path();
    fs::create_dir_all(tree.join("fixtures")).unwrap();
    fs::create_dir_all(tree.join("schema")).unwrap();
    fs::write(tree.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
    fs::write(
        tree.join("manifest.json"),
        "{\"conformance_version\": \"1.0.0\", \"cases\": []}\n",
    )
    .unwrap();
    fs::write(tree.join("schema/s.json"), "{}").unwrap();
    for i in 0..3 {
        fs::write(tree.join(format!("fixtures/f{i:06}.json")), "").unwrap();
    }
    fs::write(tree.join("LICENSE"), "MIT License\n").unwrap();
    let loaded = bqsuite_suite::load::load_bytes_within(tree, &at.suite()).unwrap();
    assert!(loaded.problems.is_empty());
    assert_eq!(loaded.files.len(), summary.vendored_files);
    assert!(bqsuite_suite::load::load_bytes_within(tree, &over.suite()).is_err());
}
