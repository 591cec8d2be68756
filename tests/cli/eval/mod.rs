//! `bqsuite eval`: the reference model's results.json is schema-valid, lists every case of every
//! section of the manifest under the spec's ids, and every case passes.
//!
//! The bundled suite is the real release 1.8.0 (710 cases in 32 sections) until the proposal is
//! adopted; the counts are read from its manifest. Every case passing
//! includes redis_layout's 59, which need the redis_layout evaluator (the first two tests fail
//! with `case-shape` in redis_layout until it lands).

mod amplification;
mod out;
mod version;

use bqsuite_core::index::CaseIndex;
use serde_json::{Value, json};

use crate::kit::*;

fn results_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(bundled_suite().join("schema/results.schema.json")).unwrap(),
    )
    .unwrap();
    jsonschema::draft202012::options().build(&schema).unwrap()
}

#[test]
fn eval_writes_complete_schema_valid_passing_results() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("results.json");
    let out = bqsuite(&["eval", "--out", out_path.to_str().unwrap()]);
    // Before the checks of the file: a case that fails names itself here.
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    let failing: Vec<String> = results["sections"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(section, cases)| {
            cases
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, e)| e["status"] != "pass")
                .map(move |(id, _)| format!("{section}/{id}"))
        })
        .collect();
    assert!(failing.is_empty(), "failing cases: {failing:?}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();

    let errors: Vec<String> = results_validator()
        .iter_errors(&results)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(bundled_suite().join("manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        results["conformance_version"],
        manifest["conformance_version"]
    );
    let index = CaseIndex::new(&manifest);
    let sections = results["sections"].as_object().unwrap();
    assert_eq!(sections.len(), index.sections());
    let mut listed = 0;
    for case in &index.cases {
        let entry = &results["sections"][&case.section][&case.id];
        assert_eq!(
            entry["status"], "pass",
            "{}/{}: {entry}",
            case.section, case.id
        );
        listed += 1;
    }
    let total: usize = sections
        .values()
        .map(|s| s.as_object().unwrap().len())
        .sum();
    assert_eq!(
        total, listed,
        "results list cases the manifest does not have"
    );
    assert_eq!(listed, index.len());
    // The reference model carries every binding and otel.
    assert_eq!(
        results["bindings"],
        json!([
            "redis", "amqp", "sqs", "asb", "pulsar", "kafka", "artemis", "otel"
        ])
    );
    // Nothing but the results file was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn eval_prints_to_stdout_without_out() {
    let out = bqsuite(&["eval"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let results: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(results["sdk"], "bqsuite-reference");
    assert!(results["generated_at"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn eval_of_a_wrong_expectation_reports_a_failing_case() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3)
    });
    let out = bqsuite(&["eval", s.path().to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    let results: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let entry = &results["sections"]["sqs"]["attempts_reconciliation/third-delivery"];
    assert_eq!(entry["status"], "fail");
    assert!(
        entry["reason"]
            .as_str()
            .unwrap()
            .contains("expected_attempts"),
        "{entry}"
    );
    assert!(
        stderr(&out).contains("sqs/attempts_reconciliation/third-delivery"),
        "{}",
        stderr(&out)
    );
    // A failing results file is still schema-valid.
    assert!(results_validator().is_valid(&results));
}

#[test]
fn eval_without_a_manifest_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = bqsuite(&["eval", dir.path().to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("manifest.json"), "{}", stderr(&out));
}
