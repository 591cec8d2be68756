//! `--proposal DIR` as a maintainer meets it: a finding about a case or fixture of the proposal
//! names the proposal's own file (as passed), with the line:column and pointer in that file, in
//! every format, while a finding about the suite's own case keeps naming the suite; a case that
//! repeats a released id is a `proposal-conflict` naming both places; and `mutants --proposal`
//! says what each added case kills, and when one kills nothing.
//!
//! Each test works in a temporary directory holding `suite/` (the bundled suite) and
//! `proposal/` (a copy of the project's), and runs bqsuite there with those relative paths, as CI
//! does from the repository root.

use std::fs;

use bqsuite_core::ids::section_cases;
use serde_json::{Value, json};

use crate::kit::*;

const VALIDATE: [&str; 4] = ["validate", "suite", "--proposal", "proposal"];
const MUTANTS: [&str; 4] = ["mutants", "suite", "--proposal", "proposal"];

#[test]
fn a_finding_about_a_proposal_case_names_the_proposal_file_line_and_pointer() {
    let repo = Repo::new();
    // The second case the proposal adds to job_type, which the merged suite holds after the
    // section's own cases: its expectation flipped.
    repo.edit("proposal/manifest.json", |m| {
        let case = &mut m["job_type"]["cases"][1];
        assert_eq!(case["valid"], true);
        case["valid"] = json!(false);
        case["reason"] = json!("flipped by the test");
    });
    // And a case of the suite's own, so that both kinds of finding are in one report.
    repo.edit("suite/manifest.json", |m| {
        let case = &mut m["kafka"]["attempts_reconciliation"]["cases"][3];
        assert_eq!(case["expected_attempts"], 1);
        case["expected_attempts"] = json!(5);
    });
    let ours = "/job_type/cases/1/valid";
    let theirs = "/kafka/attempts_reconciliation/cases/3/expected_attempts";
    let (line, column) = repo.position("proposal/manifest.json", ours);
    let (suite_line, suite_column) = repo.position("suite/manifest.json", theirs);

    let (exit, doc) = repo.json(&VALIDATE);
    assert_eq!(exit, 1, "{doc:#}");
    let mismatches = findings(&doc, "expectation-mismatch");
    assert_eq!(mismatches.len(), 2, "{doc:#}");
    let proposal = mismatches
        .iter()
        .find(|d| d["section"] == "job_type")
        .unwrap();
    assert_eq!(proposal["file"], "proposal/manifest.json", "{proposal:#}");
    assert_eq!(proposal["pointer"], ours);
    assert_eq!(
        (proposal["line"].clone(), proposal["column"].clone()),
        (json!(line), json!(column))
    );
    assert_eq!(proposal["case"], "string-job-number-urn-decodes");
    let suite = mismatches.iter().find(|d| d["section"] == "kafka").unwrap();
    assert_eq!(suite["file"], "suite/manifest.json", "{suite:#}");
    assert_eq!(suite["pointer"], theirs);
    assert_eq!(
        (suite["line"].clone(), suite["column"].clone()),
        (json!(suite_line), json!(suite_column))
    );

    let human = stdout(&repo.run(&VALIDATE, false));
    let place = format!("--> proposal/manifest.json:{line}:{column} at {ours} (section job_type");
    assert!(human.contains(&place), "{human}");
    let place = format!("--> suite/manifest.json:{suite_line}:{suite_column} at {theirs}");
    assert!(human.contains(&place), "{human}");

    let mut github = VALIDATE.to_vec();
    github.extend(["--format", "github"]);
    let out = stdout(&repo.run(&github, true));
    let annotation = format!(
        "::error file=proposal/manifest.json,line={line},col={column},title=expectation-mismatch::"
    );
    assert!(out.contains(&annotation), "{out}");
    let annotation = format!(
        "::error file=suite/manifest.json,line={suite_line},col={suite_column},title=expectation-mismatch::"
    );
    assert!(out.contains(&annotation), "{out}");
}

#[test]
fn a_finding_about_a_proposal_fixture_names_the_proposal_directory() {
    let repo = Repo::new();
    let fixture = "fixtures/proposal-job-type-array-job-other-urn.json";
    fs::write(repo.path(&format!("proposal/{fixture}")), "{\"job\": [\n").unwrap();
    let (exit, doc) = repo.json(&VALIDATE);
    assert_eq!(exit, 1, "{doc:#}");
    let about: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap().ends_with(fixture))
        .collect();
    assert!(!about.is_empty(), "{doc:#}");
    for d in about {
        assert_eq!(d["file"], format!("proposal/{fixture}"), "{d:#}");
    }
}

#[test]
fn a_proposal_case_repeating_a_released_id_is_a_conflict_naming_both_places() {
    let repo = Repo::new();
    let id = "header-authoritative-overrides";
    let ours = add_kafka_case(
        &repo,
        json!({"name": id, "body_attempts": 5, "header_attempts": 1, "expected_attempts": 1}),
    );
    let ours = ours.as_str();
    let theirs = "/kafka/attempts_reconciliation/cases/3";
    let (line, column) = repo.position("proposal/manifest.json", ours);
    let (suite_line, suite_column) = repo.position("suite/manifest.json", theirs);

    for args in [VALIDATE, MUTANTS] {
        let (exit, doc) = repo.json(&args);
        assert_eq!(exit, 1, "{doc:#}");
        let all = doc["diagnostics"].as_array().unwrap();
        assert_eq!(all.len(), 1, "{doc:#}");
        let d = &all[0];
        assert_eq!(d["code"], "proposal-conflict", "{d:#}");
        assert_eq!(d["file"], "proposal/manifest.json");
        assert_eq!(d["pointer"], ours);
        assert_eq!(
            (d["line"].clone(), d["column"].clone()),
            (json!(line), json!(column))
        );
        assert_eq!(d["case"], format!("attempts_reconciliation/{id}"));
        let message = d["message"].as_str().unwrap();
        let suite_place = format!("suite/manifest.json:{suite_line}:{suite_column} at {theirs}");
        assert!(message.contains(&suite_place), "{message}");
        let summary = doc["summary"].to_string();
        assert!(!summary.contains("additive (a minor"), "{summary}");
        assert!(summary.contains("NOT additive"), "{summary}");
    }
    let human = stdout(&repo.run(&VALIDATE, false));
    let lines: Vec<&str> = human.lines().collect();
    let verdict = lines.iter().position(|l| l.starts_with("FAILED")).unwrap();
    assert!(lines[verdict - 1].contains("NOT additive"), "{human}");
    assert!(!human.contains("duplicate-case-id"), "{human}");
}

/// The cases `proposal/manifest.json` adds, as (section, case id), read from the file.
fn added_cases(repo: &Repo) -> Vec<(String, String)> {
    let text = fs::read_to_string(repo.path("proposal/manifest.json")).unwrap();
    let overlay: Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for (section, block) in overlay.as_object().unwrap() {
        for c in section_cases(section, block) {
            out.push((section.clone(), c.id));
        }
    }
    out
}

/// What a failure caused by the proposal's contents (not by bqsuite) should say.
const PROPOSAL_CHANGED: &str = "if proposal/ changed on purpose, the tests count its cases \
    themselves; the report examples are regenerated with `docs/examples.sh`";

#[test]
fn mutants_with_a_proposal_says_what_each_added_case_kills() {
    let repo = Repo::new();
    let (exit, doc) = repo.json(&MUTANTS);
    assert_eq!(exit, 0, "{PROPOSAL_CHANGED}\n{doc:#}");
    let added = doc["data"]["added"].as_array().unwrap();
    let mut listed: Vec<(String, String)> = added
        .iter()
        .map(|a| {
            (
                a["section"].as_str().unwrap().into(),
                a["case"].as_str().unwrap().into(),
            )
        })
        .collect();
    let mut expected = added_cases(&repo);
    expected.sort();
    listed.sort();
    assert_eq!(listed, expected, "{PROPOSAL_CHANGED}");
    let human = stdout(&repo.run(&MUTANTS, false));
    // Every added case has its place in the proposal and one line saying what it kills; one that
    // kills nothing is a note (the guide's step 5 allows it), never a failure.
    let notes = findings(&doc, "added-case-kills-no-mutant");
    let mut idle = 0;
    for a in added {
        assert_eq!(a["file"], "proposal/manifest.json");
        let pointer = a["pointer"].as_str().unwrap();
        let (line, column) = repo.position("proposal/manifest.json", pointer);
        assert_eq!(
            (a["line"].clone(), a["column"].clone()),
            (json!(line), json!(column))
        );
        let kills: Vec<&str> = a["kills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        let head = format!(
            "{}/{} kills",
            a["section"].as_str().unwrap(),
            a["case"].as_str().unwrap()
        );
        let said = human
            .lines()
            .find(|l| l.contains(&head))
            .unwrap_or_else(|| panic!("no line for {head}:\n{human}"));
        if kills.is_empty() {
            idle += 1;
            assert!(said.ends_with("kills no mutant"), "{said}");
            assert!(notes.iter().any(|n| n["pointer"] == pointer), "{doc:#}");
        } else {
            for k in kills {
                assert!(said.contains(k), "{said}");
            }
        }
    }
    assert_eq!(notes.len(), idle, "{doc:#}");
    // A case of the project's proposal this test knows kills the mutant it was written for.
    let zero = added
        .iter()
        .find(|a| a["case"] == "attempts_reconciliation/header-zero-overrides")
        .unwrap_or_else(|| panic!("{PROPOSAL_CHANGED}\n{doc:#}"));
    assert!(
        zero["kills"]
            .as_array()
            .unwrap()
            .contains(&json!("kafka-zero-header-ignored"))
    );
}

/// Appends `case` to the kafka `attempts_reconciliation` cases of the proposal; its pointer.
fn add_kafka_case(repo: &Repo, case: Value) -> String {
    let mut index = 0;
    repo.edit("proposal/manifest.json", |m| {
        let cases = m["kafka"]["attempts_reconciliation"]["cases"]
            .as_array_mut()
            .unwrap();
        index = cases.len();
        cases.push(case);
    });
    format!("/kafka/attempts_reconciliation/cases/{index}")
}

#[test]
fn an_added_case_that_kills_no_mutant_is_a_note_and_the_run_still_passes() {
    let repo = Repo::new();
    // Header and body agree: every habit of the catalogue derives the same count.
    let pointer = add_kafka_case(
        &repo,
        json!({"name": "header-equals-body", "body_attempts": 3, "header_attempts": 3, "expected_attempts": 3}),
    );
    let pointer = pointer.as_str();
    let (line, column) = repo.position("proposal/manifest.json", pointer);
    let (exit, doc) = repo.json(&MUTANTS);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(
        (doc["errors"].clone(), doc["warnings"].clone()),
        (json!(0), json!(0))
    );
    let notes = findings(&doc, "added-case-kills-no-mutant");
    let note = notes
        .iter()
        .find(|n| n["case"] == "attempts_reconciliation/header-equals-body")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(note["severity"], "note");
    assert_eq!(note["file"], "proposal/manifest.json");
    assert_eq!(note["pointer"], pointer);
    assert_eq!(
        (note["line"].clone(), note["column"].clone()),
        (json!(line), json!(column))
    );
    assert_eq!(note["case"], "attempts_reconciliation/header-equals-body");
    let entry = doc["data"]["added"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["pointer"] == pointer)
        .unwrap();
    assert_eq!(entry["kills"], json!([]));

    let out = repo.run(&MUTANTS, false);
    assert_eq!(code(&out), 0);
    let human = stdout(&out);
    assert!(
        human.contains("kafka/attempts_reconciliation/header-equals-body kills no mutant"),
        "{human}"
    );
    assert!(
        human.contains("note[added-case-kills-no-mutant]"),
        "{human}"
    );
    assert!(
        human.contains(&format!(
            "--> proposal/manifest.json:{line}:{column} at {pointer}"
        )),
        "{human}"
    );
}
