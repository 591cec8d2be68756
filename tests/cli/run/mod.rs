//! `bqsuite run`: an implementation graded through the adapter protocol. The project's own
//! adapter (`bqsuite adapter sbp-v1`) passes every case and its results pass `results check`;
//! with one mistake of the catalogue it fails exactly the cases that mistake fails under the
//! model; the example Python adapter passes every case; what is selected, refused before the
//! adapter starts, and reported in each format. Hostile adapters: `hostile`.

mod hostile;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::kit::*;

/// The bqsuite binary under test, which is also the bundled adapter.
pub(crate) fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_bqsuite")
}

/// `bqsuite run SUITE ARGS... -- ADAPTER...` with JSON output, the results written into `dir`.
pub(crate) fn run_json(suite: &Path, args: &[&str], adapter: &[&str], dir: &Path) -> (i32, Value) {
    let out = run_raw(suite, args, adapter, dir, "json");
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| {
        panic!(
            "run printed no JSON document ({e}): {}{}",
            stdout(&out),
            stderr(&out)
        )
    });
    (code(&out), doc)
}

pub(crate) fn run_raw(
    suite: &Path,
    args: &[&str],
    adapter: &[&str],
    dir: &Path,
    format: &str,
) -> Output {
    let results = dir.join("results.json");
    let mut argv: Vec<&str> = vec!["run", s(suite), "--out", s(&results), "--format", format];
    argv.extend_from_slice(args);
    argv.push("--");
    argv.extend_from_slice(adapter);
    bqsuite(&argv)
}

/// The cases (`section/name`) with a finding of `code`.
pub(crate) fn cases_with(doc: &Value, code_name: &str) -> BTreeSet<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code_name)
        .map(|d| {
            format!(
                "{}/{}",
                d["section"].as_str().unwrap(),
                d["case"].as_str().unwrap()
            )
        })
        .collect()
}

/// How many cases the suite has, by the model's own results.
fn case_count(suite: &Path) -> u64 {
    let out = bqsuite(&["eval", s(suite), "--format", "json"]);
    json(&out)["data"]["cases"].as_u64().unwrap()
}

#[test]
fn the_bundled_adapter_passes_every_case_and_its_results_check() {
    let dir = tempfile::tempdir().unwrap();
    let suite = sbp_suite();
    let (exit, doc) = run_json(&suite, &[], &[exe(), "adapter", "sbp-v1"], dir.path());
    assert_eq!(exit, 0, "{doc:#}");
    let cases = case_count(&suite);
    assert_eq!(doc["data"]["cases"], cases, "{doc:#}");
    assert_eq!(doc["data"]["pass"], cases, "{doc:#}");
    assert_eq!(doc["data"]["implementation"]["name"], "bqsuite-sbp-v1");
    let results = dir.path().join("results.json");
    let check = bqsuite(&["results", "check", s(&results), "--suite", s(&suite)]);
    assert_eq!(code(&check), 0, "{}{}", stdout(&check), stderr(&check));
}

/// The mistake's failures under `run` are exactly the cases that kill it under the model.
#[test]
fn an_adapter_with_one_mistake_fails_exactly_the_cases_that_mistake_breaks() {
    let suite = sbp_suite();
    let mutants = json(&bqsuite(&["mutants", s(&suite), "--format", "json"]));
    for mistake in ["lengths-big-endian", "subject-case-insensitive"] {
        let entry = mutants["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == mistake)
            .unwrap_or_else(|| panic!("no mutant {mistake}"));
        let broken: BTreeSet<String> = entry["killed_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                format!(
                    "{}/{}",
                    k["section"].as_str().unwrap(),
                    k["case"].as_str().unwrap()
                )
            })
            .collect();
        assert!(!broken.is_empty(), "{mistake} breaks no case");
        let dir = tempfile::tempdir().unwrap();
        let adapter = [exe(), "adapter", "sbp-v1", "--mistake", mistake];
        let (exit, doc) = run_json(&suite, &[], &adapter, dir.path());
        assert_eq!(exit, 1, "{doc:#}");
        assert_eq!(cases_with(&doc, "run-case-failed"), broken, "{mistake}");
        assert_eq!(doc["data"]["fail"], broken.len(), "{doc:#}");
        assert_eq!(doc["data"]["errored"], 0, "{doc:#}");
        // The results file says the same, and results check counts each failure as a reason.
        let results = dir.path().join("results.json");
        let check = json(&bqsuite(&[
            "results",
            "check",
            s(&results),
            "--suite",
            s(&suite),
            "--format",
            "json",
        ]));
        let failed: BTreeSet<String> = cases_with(&check, "results-case-failed");
        assert_eq!(failed, broken, "{mistake}: {check:#}");
    }
}

#[test]
fn the_example_python_adapter_passes_every_case() {
    let dir = tempfile::tempdir().unwrap();
    let suite = sbp_suite();
    let script = root().join("examples/adapters/sbp_adapter.py");
    let (exit, doc) = run_json(&suite, &[], &["python3", s(&script)], dir.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["pass"], case_count(&suite), "{doc:#}");
    assert_eq!(doc["data"]["implementation"]["language"], "python");
}

/// `--section` and `--case` select; either naming what the suite lacks is exit 2 before any
/// adapter starts.
#[test]
fn sections_and_cases_are_selected_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let suite = sbp_suite();
    let adapter = [exe(), "adapter", "sbp-v1"];
    let (exit, doc) = run_json(&suite, &["--section", "handshake"], &adapter, dir.path());
    assert_eq!(exit, 0, "{doc:#}");
    let sections = doc["data"]["sections"].as_object().unwrap();
    assert_eq!(
        sections.keys().collect::<Vec<_>>(),
        ["handshake"],
        "{doc:#}"
    );
    let (exit, doc) = run_json(
        &suite,
        &[
            "--case",
            "handshake/minimal",
            "--case",
            "unicode/subject-leading-bom",
        ],
        &adapter,
        dir.path(),
    );
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["cases"], 2, "{doc:#}");
    for args in [["--section", "no_such"], ["--case", "handshake/no-such"]] {
        let (exit, doc) = run_json(&suite, &args, &adapter, dir.path());
        refused_with(exit, &doc, &["no such"]);
    }
}

/// The error message of a run that could not run (exit 2), which must hold every one of `words`.
pub(crate) fn refused_with(exit: i32, doc: &Value, words: &[&str]) -> String {
    assert_eq!(exit, 2, "{doc:#}");
    let message = doc["error"]["message"].as_str().unwrap().to_string();
    for word in words {
        assert!(message.contains(word), "no `{word}` in: {message}");
    }
    message
}

/// A marker adapter: a shell command that leaves `started` in `dir` when run.
fn marker_adapter(dir: &Path) -> (PathBuf, String) {
    let marker = dir.join("started");
    let command = format!("touch '{}'", marker.display());
    (marker, command)
}

/// A suite whose case needs an op the protocol has no words for, or that the model does not
/// pass, or a model without operations (BabelQueue's), is exit 2 before the adapter starts.
#[test]
fn a_suite_that_cannot_grade_stops_before_the_adapter_starts() {
    let dir = tempfile::tempdir().unwrap();
    let (marker, command) = marker_adapter(dir.path());
    let adapter = ["sh", "-c", command.as_str()];

    let copy = sbp_copy();
    copy.edit_manifest(|m| m["handshake"]["cases"][0]["op"] = "teleport".into());
    let (exit, doc) = run_json(&copy.path(), &[], &adapter, dir.path());
    refused_with(exit, &doc, &["`teleport`", "no words"]);

    let copy = sbp_copy();
    copy.edit_manifest(|m| {
        m["handshake"]["cases"][0]["expect"] = serde_json::json!({"error": {"code": 1002}})
    });
    let (exit, doc) = run_json(&copy.path(), &[], &adapter, dir.path());
    refused_with(exit, &doc, &["not sound"]);

    let (exit, doc) = run_json(&bundled_suite(), &[], &adapter, dir.path());
    refused_with(exit, &doc, &["no adapter operations"]);
    assert!(!marker.exists(), "an adapter was started");
    assert!(!dir.path().join("results.json").exists());
}

/// The bundled adapter with a mistake that fails cases of the subjects section.
fn subjects_mistaken() -> [&'static str; 5] {
    [
        exe(),
        "adapter",
        "sbp-v1",
        "--mistake",
        "subject-case-insensitive",
    ]
}

/// The human report has a line per section and the total; GitHub format annotates
/// manifest.json at the failing case's line.
#[test]
fn the_report_counts_each_section_and_annotates_failures() {
    let dir = tempfile::tempdir().unwrap();
    let suite = sbp_suite();
    let adapter = subjects_mistaken();
    let out = run_raw(&suite, &[], &adapter, dir.path(), "human");
    assert_eq!(code(&out), 1);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("subjects: "), "{text}");
    assert!(text.contains("but the adapter answered"), "{text}");
    let out = run_raw(&suite, &[], &adapter, dir.path(), "github");
    let annotations: Vec<String> = stdout(&out)
        .lines()
        .chain(stderr(&out).lines())
        .filter(|l| l.starts_with("::error "))
        .map(str::to_string)
        .collect();
    assert!(!annotations.is_empty(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        annotations
            .iter()
            .all(|a| a.contains("manifest.json") && a.contains("line=")),
        "{annotations:?}"
    );
    let written = fs::read_to_string(dir.path().join("results.json")).unwrap();
    assert!(serde_json::from_str::<Value>(&written).is_ok());
}

/// A failing case's help gives the command that runs it alone, and that command works when
/// pasted: the same case, and only it, fails again.
#[test]
fn a_failures_help_reruns_that_case_alone() {
    let dir = tempfile::tempdir().unwrap();
    let adapter = subjects_mistaken();
    let (exit, doc) = run_json(
        &sbp_suite(),
        &["--section", "subjects"],
        &adapter,
        dir.path(),
    );
    assert_eq!(exit, 1, "{doc:#}");
    let failed = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "run-case-failed")
        .unwrap();
    let help = failed["help"].as_str().unwrap();
    let command = help.split('`').nth(3).unwrap_or_else(|| panic!("{help}"));
    assert!(command.starts_with("bqsuite run "), "{command}");
    // Options of run go before `--` (after it, every word is the adapter's).
    let line = command.replacen("bqsuite run", &format!("{} run --format json", exe()), 1);
    let out = std::process::Command::new("sh")
        .args(["-c", &line])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let again: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {line}: {}{}", stdout(&out), stderr(&out)));
    assert_eq!(code(&out), 1, "{again:#}");
    assert_eq!(again["data"]["cases"], 1, "{again:#}");
    let case = format!(
        "{}/{}",
        failed["section"].as_str().unwrap(),
        failed["case"].as_str().unwrap()
    );
    assert_eq!(
        cases_with(&again, "run-case-failed"),
        BTreeSet::from([case])
    );
}
