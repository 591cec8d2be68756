//! Validation costs time linear in the suite's bytes plus its cases: a fixture that a thousand
//! cases share is decoded once per evaluation, not once per case (issue #13's amplification
//! suite took 34 s when every case decoded and re-encoded it). Work is counted, not timed; the
//! timings are in bench/amplification.sh and the README.
//!
//! One test in this binary, so the process-wide decode counter sees only this evaluation.
//!
//! Measured on the real 1.8.0 (710 cases, 56 fixtures): validating it decodes 62
//! texts (its fixtures and the version gates' incoming bodies), and with the thousand cases 63.
//! The real 1.8.0 must validate clean: this needs the redis_layout evaluator.

use std::fs;

use bqsuite_eval::model::decode::texts_decoded;
use serde_json::{Value, json};

use crate::kit;

#[test]
fn a_fixture_shared_by_a_thousand_cases_is_decoded_once() {
    // The real 1.8.0, whose counts are pinned below (suite/ holds it only until the proposal is
    // adopted).
    let s = kit::suite_copy_of(&kit::real_1_8_0());
    let before = texts_decoded();
    let report = bqsuite::commands::validate::validate(&s.path()).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    let baseline = texts_decoded() - before;
    let mut envelope: Value = serde_json::from_str(
        &fs::read_to_string(s.file("fixtures/empty-data-roundtrip.json")).unwrap(),
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
    let report = bqsuite::commands::validate::validate(&s.path()).unwrap();
    let decoded = texts_decoded() - before;

    assert!(report.is_clean(), "{:?}", report.diagnostics);
    // Every case ran and passed: the real 1.8.0's 710 and the thousand.
    assert_eq!(
        report.summary,
        ["1710 cases in 32 sections, 57 fixtures; reference evaluator: 1710 pass, 0 skip"],
        "every case ran"
    );
    // The thousand cases add one decode: their shared fixture's.
    assert_eq!(
        decoded,
        baseline + 1,
        "the real 1.8.0 needs {baseline} decodes; a thousand cases over one more fixture \
         needed {decoded}"
    );
}
