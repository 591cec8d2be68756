//! The SBP suite (`sbp-suite/`), served by its description: validate re-derives every case with
//! the SBP model and catches any one wrong expectation at its case, mutants leaves no mistaken
//! codec alive, eval writes the model's results, and bad input is a finding, never a panic.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::kit::*;
use bqsuite_core::diag::Severity;
use bqsuite_core::index::CaseIndex;

#[test]
fn validate_rederives_every_case_of_every_part_of_the_plan() {
    let out = bqsuite(&["validate", s(&sbp_suite()), "--format", "json"]);
    let doc = json(&out);
    assert_eq!(code(&out), 0, "{doc:#}");
    let data = &doc["data"];
    let cases = data["cases"].as_u64().unwrap();
    assert!(cases >= 110, "{data}");
    assert_eq!(data["evaluator"]["pass"].as_u64(), Some(cases), "{data}");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(sbp_suite().join("manifest.json")).unwrap()).unwrap();
    for part in bqsuite_sbp::suite::SECTIONS {
        let n = manifest[part]["cases"].as_array().map_or(0, Vec::len);
        assert!(n > 0, "the plan's part `{part}` has no section of cases");
    }
}

/// `value` with its first scalar (depth first) changed to another value of its type.
fn flip_first_leaf(value: &mut Value) -> bool {
    match value {
        Value::Bool(b) => *b = !*b,
        Value::Number(n) => *value = Value::from(n.as_i64().unwrap_or(0) + 1),
        Value::String(s) => {
            // A hex digit stays a hex digit, so the flip is a wrong value, not a malformed one.
            let last = s.pop().unwrap_or('0');
            s.push(if last == '0' { '1' } else { '0' });
        }
        Value::Array(items) => return items.iter_mut().any(flip_first_leaf),
        Value::Object(members) => return members.values_mut().any(flip_first_leaf),
        Value::Null => return false,
    }
    true
}

/// The findings of validating the SBP suite with `manifest` in place of its own.
fn validate_with(
    files: &BTreeMap<String, Vec<u8>>,
    manifest: &Value,
) -> bqsuite_core::diag::Report {
    let mut files = files.clone();
    let text = serde_json::to_string_pretty(manifest).unwrap();
    files.insert("manifest.json".into(), text.into_bytes());
    let suite = bqsuite_suite::Suite::from_files(Path::new("sbp-suite"), files);
    bqsuite::commands::validate::validate_suite(&suite, "sbp-suite").unwrap()
}

/// Flipping any one expectation of the suite is an error at that case, with its line:column,
/// and at no other case.
#[test]
fn every_wrong_expectation_is_caught_at_its_case() {
    let files = files(&sbp_suite());
    let manifest: Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
    let index = CaseIndex::new(&manifest);
    assert!(index.len() >= 110);
    for case in &index.cases {
        let mut flipped = manifest.clone();
        let expect = flipped
            .pointer_mut(&format!("{}/expect", case.pointer))
            .unwrap_or_else(|| panic!("{} has no expect", case.id));
        assert!(
            flip_first_leaf(expect),
            "{}/{}: nothing to flip",
            case.section,
            case.id
        );
        let report = validate_with(&files, &flipped);
        let errors: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(
            !errors.is_empty(),
            "{}/{}: not caught",
            case.section,
            case.id
        );
        for d in errors {
            assert_eq!(
                d.case,
                Some((case.section.clone(), case.id.clone())),
                "{}/{}: {d:?}",
                case.section,
                case.id
            );
            assert_eq!(d.file, "manifest.json");
            assert!(d.line_col.is_some(), "{d:?}");
        }
    }
}

#[test]
fn mutants_leave_no_mistaken_codec_alive() {
    let out = bqsuite(&["mutants", s(&sbp_suite()), "--format", "json"]);
    let doc = json(&out);
    assert_eq!(code(&out), 0, "{doc:#}");
    assert!(doc["data"]["mutants"].as_u64().unwrap() >= 12, "{doc:#}");
    assert_eq!(doc["data"]["surviving"], 0);
}

#[test]
fn eval_writes_results_its_own_schema_accepts() {
    let out = bqsuite(&["eval", s(&sbp_suite()), "--format", "json"]);
    let doc = json(&out);
    assert_eq!(code(&out), 0, "{doc:#}");
    let results = &doc["data"]["results"];
    assert_eq!(results["conformance_version"], "0.1.0");
    assert_eq!(results["bindings"], serde_json::json!([]));
    let schema: Value = serde_json::from_slice(
        &std::fs::read(sbp_suite().join("schema/results.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(results), "{results:#}");
    assert_eq!(doc["data"]["not_passing"], 0);
}

/// Malformed hex, an unknown op and a fixture that is not one are findings at the case, with
/// exit 1, never a panic.
#[test]
fn a_malformed_case_is_a_finding_at_its_case() {
    let copy = suite_copy_of(&sbp_suite());
    copy.edit_manifest(|m| {
        m["decode_errors"]["cases"][0]["hex"] = "0g".into();
        m["decode_errors"]["cases"][1]["op"] = "transmogrify".into();
    });
    let fixture = copy
        .read_json("manifest.json")
        .pointer("/limits/cases")
        .and_then(Value::as_array)
        .and_then(|cases| {
            cases
                .iter()
                .find_map(|c| c["file"].as_str().map(String::from))
        });
    if let Some(fixture) = &fixture {
        copy.write(fixture, "{\"hex\": 12}");
    }
    let (exit, diags) = validate_json(&copy.path());
    assert_eq!(exit, 1);
    let at = |pointer: &str| {
        diags.iter().any(|d| {
            d["pointer"]
                .as_str()
                .is_some_and(|p| p.starts_with(pointer))
                && d["line"].is_u64()
        })
    };
    assert!(at("/decode_errors/cases/0"), "{diags:#?}");
    assert!(at("/decode_errors/cases/1"), "{diags:#?}");
    let said = |text: &str| {
        diags
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains(text))
    };
    assert!(said("at byte 1"), "the bad hex digit's offset: {diags:#?}");
    assert!(said("transmogrify"), "{diags:#?}");
    if fixture.is_some() {
        assert!(at("/limits/cases"), "{diags:#?}");
    }
}
