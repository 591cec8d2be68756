//! `results check` and `results matrix` on a suite that says what it is: the SBP suite's sections
//! come from its manifest and its bindings (none) from its description, any failing case may be
//! a known gap (BabelQueue's core rule is its own), and the matrix carries the suite's title.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::kit::{bqsuite, code, s, sbp_suite, stderr, stdout};

/// The SBP model's own results (`bqsuite eval sbp-suite`).
fn sbp_results() -> Value {
    let out = bqsuite(&["eval", s(&sbp_suite())]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn write(dir: &Path, name: &str, doc: &Value) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    path
}

/// `results check FILE --suite sbp-suite [extra] --format json`: (exit code, document).
fn check(file: &Path, extra: &[&str]) -> (i32, Value) {
    let suite = sbp_suite();
    let mut args = vec![
        "results",
        "check",
        s(file),
        "--suite",
        s(&suite),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = bqsuite(&args);
    let doc = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|_| panic!("{}{}", stdout(&out), stderr(&out)));
    (code(&out), doc)
}

fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// The first case of the first section of `doc`: (section, case id).
fn first_case(doc: &Value) -> (String, String) {
    let (section, cases) = doc["sections"].as_object().unwrap().iter().next().unwrap();
    let id = cases.as_object().unwrap().keys().next().unwrap();
    (section.clone(), id.clone())
}

#[test]
fn the_sbp_models_own_results_are_compatible() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "results.json", &sbp_results());
    let (exit, doc) = check(&file, &[]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["compatible"], true, "{doc:#}");
}

/// A failing case is a reason. SBP's contract, unlike BabelQueue's, does not forbid a gap in
/// its core sections: a failing case the known-gaps file lists is accepted (a note, and the file
/// is Compatible with its gap), and a listed case that passes is a stale gap. A section the
/// manifest does not have is unknown.
#[test]
fn an_sbp_failure_is_a_reason_unless_listed_as_a_known_gap() {
    let dir = tempfile::tempdir().unwrap();
    let mut results = sbp_results();
    let (section, id) = first_case(&results);
    results["sections"][&section][&id] = json!({"status": "fail", "reason": "not yet"});
    let file = write(dir.path(), "results.json", &results);
    let (exit, doc) = check(&file, &[]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(codes(&doc), ["results-case-failed"], "{doc:#}");
    assert_eq!(doc["diagnostics"][0]["section"], json!(section), "{doc:#}");
    assert_eq!(doc["diagnostics"][0]["case"], json!(id), "{doc:#}");

    let gaps = write(
        dir.path(),
        "conformance-known-gaps.json",
        &json!({"gaps": [{"section": section, "case": id, "reason": "tracked"}]}),
    );
    let (exit, doc) = check(&file, &["--known-gaps", s(&gaps)]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(codes(&doc), ["results-known-gap"], "{doc:#}");
    assert_eq!(doc["data"]["known_gaps"]["accepted"], 1, "{doc:#}");

    let passing = write(dir.path(), "passing.json", &sbp_results());
    let (exit, doc) = check(&passing, &["--known-gaps", s(&gaps)]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(codes(&doc), ["known-gap-stale"], "{doc:#}");

    results["sections"]["no_such_section"] = json!({"x": {"status": "pass"}});
    let file = write(dir.path(), "unknown.json", &results);
    let (_, doc) = check(&file, &["--known-gaps", s(&gaps)]);
    assert!(
        codes(&doc).contains(&"results-section-unknown".to_string()),
        "{doc:#}"
    );
}

/// SBP has no bindings: a results file that claims one is told so, not offered BabelQueue's.
#[test]
fn a_binding_in_an_sbp_results_file_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let mut results = sbp_results();
    results["bindings"] = json!(["redis"]);
    let file = write(dir.path(), "results.json", &results);
    let (exit, doc) = check(&file, &[]);
    assert_eq!(exit, 1, "{doc:#}");
    let finding = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "results-binding-unknown")
        .unwrap_or_else(|| panic!("{doc:#}"));
    let help = finding["help"].as_str().unwrap();
    assert!(help.contains("no bindings"), "{help}");
    assert!(!help.contains("amqp"), "{help}");
}

#[test]
fn the_sbp_matrix_has_the_suites_sections_and_title() {
    let dir = tempfile::tempdir().unwrap();
    let mut failing = sbp_results();
    failing["sdk"] = json!("sideband-failing");
    let (section, id) = first_case(&failing);
    failing["sections"][&section][&id] = json!({"status": "fail", "reason": "not yet"});
    let good = write(dir.path(), "good.json", &sbp_results());
    let bad = write(dir.path(), "bad.json", &failing);
    let out = bqsuite(&[
        "results",
        "matrix",
        s(&good),
        s(&bad),
        "--suite",
        s(&sbp_suite()),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("## Sideband SBP v1 conformance matrix"),
        "{text}"
    );
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(sbp_suite().join("manifest.json")).unwrap())
            .unwrap();
    for name in manifest["sections"].as_object().unwrap().keys() {
        let shown = name.replace('_', "\\_");
        assert!(
            text.contains(&format!("| {shown} | core |")),
            "{name}: {text}"
        );
    }
    // The fix names this run's suite.
    let err = stderr(&out);
    assert!(
        err.contains(&format!("--suite {}` lists the reasons", s(&sbp_suite()))),
        "{err}"
    );
}
