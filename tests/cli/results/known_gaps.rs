//! `results check --known-gaps` against the real SDK gate, on real results files.
//!
//! tests/data/real-results holds results.json files written by the real conformance runner of
//! the Python SDK 1.24.0 against the real suite 1.8.0 (one run with Redis and the OpenTelemetry
//! API, one without, as a CI job without them runs it), known-gaps files in the real
//! `conformance-known-gaps.json` format, and under `gate/` what the SDK's own results gate
//! (`scripts/check_conformance_results.py`) printed and exited with for each pair. bqsuite must
//! name exactly the cases the gate names, and agree on the verdict.

use std::collections::BTreeSet;
use std::fs;

use serde_json::Value;

use crate::kit;
use crate::kit::{bqsuite, code, real_results, stdout};

/// The `section/case` pairs the gate's error lines name (a line is `[file: ]section/case: why`).
fn gate_names(stem: &str) -> (i32, BTreeSet<String>) {
    let rc: i32 = fs::read_to_string(real_results(&format!("gate/{stem}.rc")))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let names = fs::read_to_string(real_results(&format!("gate/{stem}.stderr")))
        .unwrap()
        .lines()
        .map(|l| l.strip_prefix("conformance-known-gaps.json: ").unwrap_or(l))
        .map(|l| l.split(": ").next().unwrap().to_string())
        .collect();
    (rc, names)
}

/// bqsuite's exit code and the `section/case` pairs its error findings name.
fn bqsuite_names(results: &str, gaps: &str) -> (i32, BTreeSet<String>, Value) {
    // The real results were made against the real 1.8.0.
    let suite = kit::real_1_8_0();
    let out = bqsuite(&[
        "results",
        "check",
        real_results(results).to_str().unwrap(),
        "--known-gaps",
        real_results(gaps).to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let names = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            format!(
                "{}/{}",
                d["section"].as_str().unwrap(),
                d["case"].as_str().unwrap()
            )
        })
        .collect();
    (code(&out), names, doc)
}

fn agrees(results: &str, gaps: &str, stem: &str) -> Value {
    let (gate_rc, gate) = gate_names(stem);
    let (rc, ours, doc) = bqsuite_names(results, gaps);
    assert_eq!(rc, gate_rc, "{stem}: exit codes differ");
    assert_eq!(ours, gate, "{stem}: named cases differ");
    doc
}

#[test]
fn a_run_without_redis_or_otel_fails_on_exactly_the_cases_the_gate_names() {
    let doc = agrees(
        "python-1.24.0-no-redis-no-otel.json",
        "gaps-empty.json",
        "no-redis-no-otel+empty",
    );
    assert_eq!(doc["errors"], 74);
}

#[test]
fn listed_failures_are_accepted_and_the_rest_still_fail() {
    let doc = agrees(
        "python-1.24.0-no-redis-no-otel.json",
        "gaps-otel-and-payload.json",
        "no-redis-no-otel+otel-and-payload",
    );
    assert_eq!(doc["errors"], 59);
    let notes = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "results-known-gap")
        .count();
    assert_eq!(notes, 15);
}

#[test]
fn every_failure_listed_is_compatible() {
    let doc = agrees(
        "python-1.24.0-no-redis-no-otel.json",
        "gaps-every-failure.json",
        "no-redis-no-otel+every-failure",
    );
    assert_eq!(doc["ok"], true);
}

#[test]
fn stale_and_unknown_gaps_fail() {
    let doc = agrees(
        "python-1.24.0.json",
        "gaps-stale-and-unknown.json",
        "full+stale-and-unknown",
    );
    let codes: BTreeSet<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains("known-gap-stale"), "{codes:?}");
    assert!(codes.contains("known-gap-unknown"), "{codes:?}");
}

#[test]
fn a_listed_case_reported_as_skip_fails() {
    let doc = agrees(
        "python-1.24.0-no-redis-no-otel-one-skip.json",
        "gaps-otel-and-payload.json",
        "one-skip+otel-and-payload",
    );
    assert!(
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "known-gap-skipped" && d["case"] == "valid-sampled")
    );
}

#[test]
fn the_complete_real_run_is_compatible() {
    agrees("python-1.24.0.json", "gaps-empty.json", "full+empty");
}

#[test]
fn a_core_case_or_a_malformed_gaps_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let gaps = tmp.path().join("gaps.json");
    fs::write(
        &gaps,
        r#"{"gaps": [{"section": "cases", "case": "order-created", "reason": "r"}, {"section": "sqs"}]}"#,
    )
    .unwrap();
    // The real results were made against the real 1.8.0.
    let suite = kit::real_1_8_0();
    let out = bqsuite(&[
        "results",
        "check",
        real_results("python-1.24.0.json").to_str().unwrap(),
        "--known-gaps",
        gaps.to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("known-gap-core"), "{text}");
    assert!(text.contains("known-gaps-invalid"), "{text}");
    assert!(text.contains("/gaps/1"), "{text}");
}

/// The known gaps accepted are the failing cases the file accepted, not its entries: a listed
/// case reported as a skip is not accepted (it fails), and the count says so in the human
/// summary and in JSON, for the file and in all.
#[test]
fn the_count_of_accepted_gaps_is_the_failures_accepted() {
    let (_, _, doc) = bqsuite_names(
        "python-1.24.0-no-redis-no-otel-one-skip.json",
        "gaps-otel-and-payload.json",
    );
    let accepted = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "results-known-gap")
        .count();
    let listed = doc["data"]["known_gaps"]["gaps"].as_u64().unwrap() as usize;
    assert!(
        accepted < listed,
        "the data must hold an entry not accepted"
    );
    assert_eq!(doc["data"]["known_gaps"]["accepted"], accepted);
    assert_eq!(doc["data"]["files"][0]["known_gaps_accepted"], accepted);
    let summary: Vec<&str> = doc["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        summary[0].ends_with(&format!(
            "gaps-otel-and-payload.json: {listed} known gaps listed, {accepted} accepted (failing \
             as listed)"
        )),
        "{summary:?}"
    );
    assert!(
        summary[1].ends_with(&format!(", {accepted} known gaps accepted")),
        "{summary:?}"
    );
}
