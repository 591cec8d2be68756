//! Validation reads each fixture once, as it is checked, on several threads (`validate` from
//! disk, `release` from the bytes it packages): issue #22's release at scale. The findings, their
//! places and the evaluator's counts must be exactly those of checking the suite loaded whole, on
//! every real release and on a large broken suite, whatever the number of threads.

use std::fs;
use std::path::{Path, PathBuf};

use bqsuite::commands::validate::{read_fixtures, validate_fed, validate_suite};
use bqsuite_core::diag::Report;
use bqsuite_eval::outcome::Verdict;
use bqsuite_suite::load;
use serde_json::{Value, json};

use crate::kit;
use crate::kit::grown::grown_suite;
use crate::kit::{SuiteCopy, root};

/// Everything a report says, as the JSON renderer would carry it.
fn facts(report: &Report) -> Value {
    let findings: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            json!({
                "code": d.code.as_str(),
                "file": d.file,
                "line_col": d.line_col,
                "pointer": d.pointer,
                "case": d.case,
                "message": d.message,
                "help": d.help,
                "detail": d.detail,
                "severity": format!("{:?}", d.severity),
            })
        })
        .collect();
    json!({"findings": findings, "summary": report.summary, "data": report.data})
}

/// The suite at `root` validated whole (loaded, then checked), and validated streaming on each
/// of `threads`: all must agree. Returns the whole one.
fn agree(root: &Path, threads: &[usize]) -> Report {
    let loaded = load::load(root).unwrap();
    let whole = validate_suite(&loaded, "s").unwrap();
    // The evaluator run over the whole suite at once, as `eval` runs it, gives the verdicts the
    // fixture-by-fixture evaluation must have reached.
    if let Some(manifest) = loaded.manifest() {
        let (mut pass, mut mismatch) = (0, 0);
        let served = bqsuite::commands::suites::serve(&loaded).unwrap();
        for outcome in served.model.evaluate(manifest, &loaded, None) {
            match outcome.verdict {
                Verdict::Pass => pass += 1,
                Verdict::Mismatch(_) => mismatch += 1,
                _ => {}
            }
        }
        assert_eq!(whole.data["evaluator"]["pass"], pass, "{}", root.display());
        let mismatches = whole
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "expectation-mismatch")
            .count();
        assert_eq!(mismatches, mismatch, "{}", root.display());
    }
    for &n in threads {
        let suite = load::load_deferred(root).unwrap();
        let served = bqsuite::commands::suites::serve(&suite).unwrap();
        let (streamed, read) = validate_fed(&suite, &served, "s", n, |feeder| {
            read_fixtures(&suite, feeder)
        });
        read.unwrap();
        assert_eq!(
            facts(&streamed),
            facts(&whole),
            "{}: {n} thread(s) disagree with the whole suite's validation",
            root.display()
        );
    }
    whole
}

fn real_suites() -> Vec<PathBuf> {
    let data = root().join("tests/data");
    let mut suites: Vec<PathBuf> = fs::read_dir(data.join("real-releases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    suites.sort();
    suites.push(data.join("upstream-suite"));
    suites.push(kit::bundled_suite());
    suites
}

#[test]
fn every_real_suite_validates_the_same_streamed_on_any_number_of_threads() {
    let suites = real_suites();
    assert!(suites.len() >= 10, "{suites:?}");
    for root in suites {
        assert!(root.join("manifest.json").is_file(), "{}", root.display());
        let whole = agree(&root, &[1, 2, 3, 8]);
        assert!(
            whole
                .summary
                .iter()
                .any(|s| s.contains("reference evaluator"))
        );
    }
}

/// A copy of the bundled suite grown to 300 fixtures, then broken in every way a fixture can be:
/// not JSON, not UTF-8, failing the producer schema (a finding placed inside the fixture), a
/// pointer it lacks, a wrong expectation, a case reading two fixtures, a case naming a fixture
/// that does not exist.
fn broken_suite() -> SuiteCopy {
    let s = grown_suite(300, 2_000);
    s.write(
        "fixtures/bench-00010.json",
        "{\"job\": \"a\",\n  \"data\": [1,,2]}",
    );
    fs::write(s.file("fixtures/bench-00020.json"), b"{\"job\": \"\xff\"}").unwrap();
    let mut manifest = s.read_json("manifest.json");
    let cases = manifest["roundtrip"]["cases"].as_array_mut().unwrap();
    let at = |cases: &Vec<Value>, file: &str| {
        cases
            .iter()
            .position(|c| c["file"] == file)
            .unwrap_or_else(|| panic!("a roundtrip case reads {file}"))
    };
    // Reads bench-00030 and names bench-00031 too: evaluated once every fixture is in.
    let i = at(cases, "fixtures/bench-00030.json");
    cases[i]["note"] = json!("fixtures/bench-00031.json");
    cases[i]["expect_reencode_equal"] =
        json!(!cases[i]["expect_reencode_equal"].as_bool().unwrap_or(true));
    // A pointer the fixture lacks.
    let i = at(cases, "fixtures/bench-00040.json");
    cases[i]["expect_preserved"] = json!({"/meta/not_there": 1});
    // A fixture that does not exist.
    let i = at(cases, "fixtures/bench-00050.json");
    cases[i]["file"] = json!("fixtures/missing.json");
    s.write_json("manifest.json", &manifest);
    // Fails the producer envelope schema: `attempts` must be an integer.
    s.edit_json("fixtures/bench-00060.json", |f| {
        f["attempts"] = json!("three")
    });
    s
}

#[test]
fn a_broken_suite_gets_the_same_findings_streamed_on_any_number_of_threads() {
    let s = broken_suite();
    let whole = agree(&s.path(), &[1, 2, 4, 16]);
    let found = |code: &str, file: &str| {
        whole
            .diagnostics
            .iter()
            .find(|d| d.code.as_str() == code && d.file == file)
            .unwrap_or_else(|| panic!("no {code} in {file}: {:#?}", whole.diagnostics))
    };
    let syntax = found("json-syntax", "fixtures/bench-00010.json");
    assert_eq!(syntax.line_col.map(|(line, _)| line), Some(2), "{syntax:?}");
    found("json-syntax", "fixtures/bench-00020.json");
    let schema = found("fixture-schema-invalid", "fixtures/bench-00060.json");
    assert!(schema.line_col.is_some(), "{schema:?}");
    found("pointer-not-in-fixture", "manifest.json");
    found("missing-fixture", "manifest.json");
    assert!(
        whole
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "expectation-mismatch"
                && d.case
                    .as_ref()
                    .is_some_and(|(section, _)| section == "roundtrip")),
        "{:#?}",
        whole.diagnostics
    );
}

#[test]
fn release_packages_the_bytes_it_validated_and_refuses_what_fails() {
    let s = broken_suite();
    let out = tempfile::tempdir().unwrap();
    let options = bqsuite::commands::release::Options {
        suite: s.path(),
        out: out.path().join("dist"),
        tag: None,
        allow_pre: false,
    };
    let report = bqsuite::commands::release::release(&options).unwrap();
    let whole = validate_suite(&load::load(&s.path()).unwrap(), "s").unwrap();
    let codes = |r: &Report| {
        let mut c: Vec<(String, String)> = r
            .diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.file.clone()))
            .collect();
        c.sort();
        c
    };
    assert!(!whole.is_clean());
    assert_eq!(codes(&report), codes(&whole));
    assert!(
        !out.path().join("dist").exists(),
        "a refused release leaves nothing"
    );
}
