//! Validation costs time linear in the suite's bytes plus its cases: a fixture that a thousand
//! cases share is decoded once per evaluation, not once per case (issue #13's amplification
//! suite took 34 s when every case decoded and re-encoded it). Work is counted, not timed; the
//! timings are in bench/amplification.sh and the README.
//!
//! One test in this binary, so the process-wide decode counter sees only this evaluation.

mod common;

use std::fs;

use bqsuite::eval::model::decode::texts_decoded;
use serde_json::{Value, json};

#[test]
fn a_fixture_shared_by_a_thousand_cases_is_decoded_once() {
    let s = common::SuiteCopy::new();
    let before = texts_decoded();
    assert!(bqsuite::validate::validate(&s.path()).unwrap().is_clean());
    let baseline = texts_decoded() - before;
    let mut envelope: Value = serde_json::from_str(
        &fs::read_to_string(s.file("fixtures/roundtrip-empty-data.json")).unwrap(),
    )
    .unwrap();
    envelope["data"] = json!({
        "lines": (0..2000).map(|i| json!({"sku": format!("SKU-{i:06}"), "qty": i % 7})).collect::<Vec<_>>()
    });
    fs::write(s.file("fixtures/shared.json"), envelope.to_string()).unwrap();
    s.edit_manifest(|m| {
        let cases = m["roundtrip"]["cases"].as_array_mut().unwrap();
        for i in 0..1000 {
            cases.push(json!({
                "name": format!("shared-{i:04}"),
                "file": "fixtures/shared.json",
                "description": "One of a thousand cases over the same fixture.",
                "expect_attempts": 1,
                "expect_preserved": {"/data/lines/0/sku": "SKU-000000"},
            }));
        }
    });

    let before = texts_decoded();
    let report = bqsuite::validate::validate(&s.path()).unwrap();
    let decoded = texts_decoded() - before;

    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert!(
        report.summary.iter().any(|l| l.contains("1261 pass")),
        "every case ran: {:?}",
        report.summary
    );
    // The thousand cases add one decode: their shared fixture's.
    assert_eq!(
        decoded,
        baseline + 1,
        "the bundled suite needs {baseline} decodes; a thousand cases over one more fixture \
         needed {decoded}"
    );
}
