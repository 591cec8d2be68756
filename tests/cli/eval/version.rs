//! `bqsuite eval` never reports a made-up suite version.

use std::fs;

use serde_json::Value;

use crate::kit::*;

#[test]
fn a_suite_without_conformance_version_names_its_conformance_version_file() {
    let upstream = upstream();
    let out = bqsuite(&["eval", upstream.to_str().unwrap()]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["conformance_version"], "1.0.0");
    assert!(
        stderr(&out).contains("has no conformance_version"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_suite_with_no_version_at_all_cannot_be_evaluated() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m.as_object_mut().unwrap().remove("conformance_version");
    });
    fs::remove_file(s.file("CONFORMANCE_VERSION")).unwrap();
    let out = bqsuite(&["eval", s.path().to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).is_empty() || !stdout(&out).contains("0.0.0"));
    assert!(
        stderr(&out).contains("version is unknown"),
        "{}",
        stderr(&out)
    );
}
