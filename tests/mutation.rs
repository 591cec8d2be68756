//! Mutation tests for the reference evaluator: flipping any single expectation of any case in a
//! copy of the suite makes `validate` fail and name that case. An evaluator that could not be
//! made to fail this way would prove nothing about the suite.

mod common;

use bqsuite::suite::index::CaseIndex;
use bqsuite::suite::load::{self, MANIFEST, SuiteFile};
use bqsuite::validate::validate_suite;
use serde_json::{Value, json};

/// Case fields that state an expected outcome (everything else is input or prose).
const EXPECTATION_FIELDS: &[&str] = &[
    "valid",
    "expect",
    "expect_attempts",
    "expected_attempts",
    "expected_effects",
    "expected_key",
    "deliveries",
    "expect_preserved",
    "expect_absent_after_reencode",
    "expect_dead_letter",
    "expect_encoded_data_json",
    "expect_envelope",
    "expect_warning",
    "expect_warning_at",
    "message_attributes",
    "message",
    "application_properties",
    "properties",
    "headers",
    "jms_type",
    "correlation_id",
    "expect_delay_seconds",
    "expect_visibility_timeout",
    "expect_tier",
    "expect_headers",
    "expect_body_attempts",
    "expect_trace_id",
    "expect_parent_id",
    "expect_keys",
];

/// The opposite verdict word, for fields whose value is a verdict.
fn flip_word(word: &str) -> Option<&'static str> {
    Some(match word {
        "decode" => "reject",
        "reject" => "decode",
        "send" | "republish" | "accept" | "warn" => "reject",
        "run" => "skip",
        "skip" => "run",
        _ => return None,
    })
}

/// A different value of the same expectation: the smallest edit that changes its meaning.
fn flip(field: &str, value: &Value) -> Value {
    match value {
        Value::Bool(b) => json!(!b),
        Value::Number(n) => json!(n.as_i64().unwrap_or(0) + 1),
        Value::Null => json!(7),
        Value::String(s) => match flip_word(s) {
            Some(w) => json!(w),
            None => json!(format!("{s}x")),
        },
        // A pointer list that must be absent after re-encode: add one that is always present.
        Value::Array(items) if field == "expect_absent_after_reencode" => {
            let mut items = items.clone();
            items.push(json!("/job"));
            Value::Array(items)
        }
        // Idempotency deliveries: flip the first delivery's expected effect.
        Value::Array(items) if field == "deliveries" => {
            let mut items = items.clone();
            items[0]["expect_effect"] = flip("expect_effect", &items[0]["expect_effect"]);
            Value::Array(items)
        }
        Value::Array(items) => {
            let mut items = items.clone();
            items.push(json!("extra"));
            Value::Array(items)
        }
        Value::Object(map) => {
            let mut map = map.clone();
            let first = map.keys().next().cloned();
            match first {
                Some(key) => {
                    let flipped = flip(&key, &map[&key]);
                    map.insert(key, flipped);
                }
                None => {
                    map.insert("unexpected".into(), json!(1));
                }
            }
            Value::Object(map)
        }
    }
}

/// Writes `value` at `pointer` (which must exist).
fn set(doc: &mut Value, pointer: &str, value: Value) {
    *doc.pointer_mut(pointer).expect("pointer exists") = value;
}

#[test]
fn flipping_any_expectation_fails_validation_naming_the_case() {
    let mut suite = load::load(&common::bundled_suite()).expect("load suite");
    let manifest = suite.manifest().expect("manifest").clone();
    let index = CaseIndex::new(&manifest);
    let mut mutations = 0;
    let mut sections_covered = std::collections::BTreeSet::new();
    for case in &index.cases {
        let Some(fields) = case.case.case.as_object() else {
            continue;
        };
        for (field, value) in fields {
            if !EXPECTATION_FIELDS.contains(&field.as_str()) {
                continue;
            }
            let mut mutated = manifest.clone();
            let pointer = format!("{}/{}", case.pointer, field);
            set(&mut mutated, &pointer, flip(field, value));
            let text = serde_json::to_vec_pretty(&mutated).unwrap();
            suite
                .files
                .insert(MANIFEST.into(), SuiteFile::from_bytes(MANIFEST, text));
            let report = validate_suite(&suite, "mutated");
            let names_case = report.diagnostics.iter().any(|d| {
                d.severity == bqsuite::diag::Severity::Error
                    && d.case.as_ref() == Some(&(case.section.clone(), case.id.clone()))
            });
            assert!(
                !report.is_clean() && names_case,
                "flipping {pointer} ({}/{}) was not caught; findings: {:#?}",
                case.section,
                case.id,
                report.diagnostics
            );
            mutations += 1;
            sections_covered.insert(case.section.clone());
        }
    }
    // Every section had at least one expectation flipped, except `redis`: its one case
    // (payload_identity) states no expected value; the identity itself is the expectation, and
    // it is covered by `redis_payload_identity_needs_its_fixture` below.
    let uncovered: Vec<_> = index
        .section_names
        .iter()
        .filter(|s| !sections_covered.contains(*s))
        .collect();
    assert_eq!(uncovered, ["redis"], "sections with nothing flipped");
    assert!(mutations > index.len(), "only {mutations} mutations");
}

#[test]
fn a_flip_is_reported_as_an_expectation_mismatch_with_both_sides() {
    let s = common::SuiteCopy::new();
    s.edit_manifest(|m| {
        let cases = m["kafka"]["attempts_reconciliation"]["cases"]
            .as_array_mut()
            .unwrap();
        let i = cases
            .iter()
            .position(|c| c["name"] == "header-authoritative-overrides")
            .unwrap();
        // The header (1) wins even though the body (5) is higher; claim max() instead.
        cases[i]["expected_attempts"] = json!(5);
    });
    let d = common::assert_finding(
        &s.path(),
        "expectation-mismatch",
        &[(
            "case",
            "attempts_reconciliation/header-authoritative-overrides",
        )],
    );
    assert_eq!(d["section"], "kafka");
    assert!(d["message"].as_str().unwrap().contains("expected 5"), "{d}");
    assert!(d["message"].as_str().unwrap().contains("derives 1"), "{d}");
    assert!(d["line"].is_u64());
}

#[test]
fn redis_payload_identity_needs_its_fixture() {
    let s = common::SuiteCopy::new();
    s.edit_manifest(|m| {
        m["redis"]["payload_identity"]["envelope_file"] = json!("fixtures/nope.json")
    });
    let d = common::assert_finding(
        &s.path(),
        "missing-fixture",
        &[("pointer", "/redis/payload_identity")],
    );
    assert_eq!(d["case"], "payload_identity");
    common::assert_finding(&s.path(), "case-shape", &[("case", "payload_identity")]);
}
