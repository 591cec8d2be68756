//! The verdict of `sync --check` counts the copies it checked: a target whose SDK repository is
//! not in the workspace is absent, not one of the copies.

use std::fs;

use crate::kit::*;

#[test]
fn the_verdict_counts_only_the_copies_present() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let present = [
        "php-sdk/tests/conformance",
        "babelqueue-python/tests/conformance",
        "babelqueue-go/testdata/conformance",
    ];
    for target in present {
        vendor_set(&bundled_suite(), &ws.join(target));
    }
    fs::write(
        ws.join("php-sdk/tests/conformance/fixtures/order-created.json"),
        "{}",
    )
    .unwrap();
    let args = sync_args(&bundled_suite(), &ws, &repo_targets(), &["--check"]);
    let out = bqsuite(&args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let doc = json(&bqsuite(
        &[&args[..], &["--format".into(), "json".into()]].concat(),
    ));
    let absent = doc["data"]["counts"]["missing-repo"].as_u64().unwrap() as usize;
    assert!(absent > 0, "{doc:#}");
    let verdict = format!("FAILED: 1 of {} copies checked drifted (", present.len());
    assert!(text.contains(&verdict), "{verdict}:\n{text}");
    assert!(text.contains(&format!("{absent} targets of ")), "{text}");
    assert_eq!(doc["summary"][0].as_str().unwrap().find(&verdict), Some(0));
}
