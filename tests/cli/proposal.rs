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

use serde_json::{Value, json};

use crate::kit::*;

/// The index of the suite's case `name` in `kafka.attempts_reconciliation`.
fn suite_reconciliation_index(repo: &Repo, name: &str) -> usize {
    let suite = repo.read_json("suite/manifest.json");
    suite["kafka"]["attempts_reconciliation"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["name"] == name)
        .unwrap()
}

const VALIDATE: [&str; 4] = ["validate", "suite", "--proposal", "proposal"];
const MUTANTS: [&str; 4] = ["mutants", "suite", "--proposal", "proposal"];

#[test]
fn a_finding_about_a_proposal_case_names_the_proposal_file_line_and_pointer() {
    let repo = Repo::new();
    // A case the proposal adds to job_type (a copy of the section's first, whose fixture it
    // reads), which the merged suite holds after the section's own cases: its expectation
    // flipped.
    let suite = repo.read_json("suite/manifest.json");
    let mut case = suite["job_type"]["cases"][0].clone();
    assert_eq!(case["valid"], true);
    case["name"] = json!("flipped-by-the-proposal-test");
    case["valid"] = json!(false);
    case["reason"] = json!("flipped by the test");
    let mut at = 0;
    repo.edit("proposal/manifest.json", |m| {
        let section = m
            .as_object_mut()
            .unwrap()
            .entry("job_type")
            .or_insert_with(|| json!({"cases": []}));
        let cases = section["cases"].as_array_mut().unwrap();
        // (A name no case of the suite or of the proposal has.)
        let released = suite["job_type"]["cases"].as_array().unwrap();
        while cases
            .iter()
            .chain(released)
            .any(|c| c["name"] == case["name"])
        {
            case["name"] = json!(format!("{}-again", case["name"].as_str().unwrap()));
        }
        at = cases.len();
        cases.push(case.clone());
    });
    let name = case["name"].as_str().unwrap().to_string();
    // And a case of the suite's own, so that both kinds of finding are in one report.
    let released = suite_reconciliation_index(&repo, "header-authoritative-overrides");
    repo.edit("suite/manifest.json", |m| {
        let case = &mut m["kafka"]["attempts_reconciliation"]["cases"][released];
        assert_eq!(case["expected_attempts"], 1);
        case["expected_attempts"] = json!(5);
    });
    let ours = format!("/job_type/cases/{at}/valid");
    let ours = ours.as_str();
    let theirs = format!("/kafka/attempts_reconciliation/cases/{released}/expected_attempts");
    let theirs = theirs.as_str();
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
    assert_eq!(proposal["case"], name.as_str());
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
    let mut at = 0;
    repo.edit("proposal/manifest.json", |m| {
        let cases = kafka_reconciliation(m);
        at = cases.len();
        cases.push(
            json!({"name": id, "body_attempts": 5, "header_attempts": 1, "expected_attempts": 1}),
        );
    });
    let ours = format!("/kafka/attempts_reconciliation/cases/{at}");
    let ours = ours.as_str();
    let released = suite_reconciliation_index(&repo, id);
    let theirs = format!("/kafka/attempts_reconciliation/cases/{released}");
    let theirs = theirs.as_str();
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
    // Read as a manifest is: the `sections` map (a new section's scope) holds no case.
    bqsuite_core::index::CaseIndex::new(&overlay)
        .cases
        .iter()
        .map(|c| (c.section.clone(), c.id.clone()))
        .collect()
}

#[test]
fn mutants_with_a_proposal_says_what_each_added_case_kills() {
    // The real 1.8.0, which lets kafka-zero-header-ignored through, with a proposal of the test's
    // own: the case that kills it.
    let repo = Repo::with_suite(&real_1_8_0());
    fs::remove_dir_all(repo.path("proposal")).unwrap();
    fs::create_dir(repo.path("proposal")).unwrap();
    fs::write(repo.path("proposal/manifest.json"), "{}\n").unwrap();
    repo.edit("proposal/manifest.json", |m| {
        kafka_reconciliation(m).push(json!({"name": "header-zero-overrides", "body_attempts": 3,
            "header_attempts": 0, "expected_attempts": 0}));
    });
    let (_, doc) = repo.json(&MUTANTS);
    let added = doc["data"]["added"].as_array().unwrap();
    let ids: Vec<(String, String)> = added
        .iter()
        .map(|a| {
            (
                a["section"].as_str().unwrap().into(),
                a["case"].as_str().unwrap().into(),
            )
        })
        .collect();
    let mut expected = added_cases(&repo);
    let mut listed = ids.clone();
    expected.sort();
    listed.sort();
    assert_eq!(listed, expected);
    for a in added {
        assert_eq!(a["file"], "proposal/manifest.json");
        assert!(!a["kills"].as_array().unwrap().is_empty(), "{a:#}");
        let pointer = a["pointer"].as_str().unwrap();
        let (line, column) = repo.position("proposal/manifest.json", pointer);
        assert_eq!(
            (a["line"].clone(), a["column"].clone()),
            (json!(line), json!(column))
        );
    }
    let zero = added
        .iter()
        .find(|a| a["case"] == "attempts_reconciliation/header-zero-overrides")
        .unwrap();
    assert!(
        zero["kills"]
            .as_array()
            .unwrap()
            .contains(&json!("kafka-zero-header-ignored"))
    );
    let human = stdout(&repo.run(&MUTANTS, false));
    let line = human
        .lines()
        .find(|l| l.contains("kafka/attempts_reconciliation/header-zero-overrides kills"))
        .unwrap_or_else(|| panic!("{human}"));
    assert!(line.contains("kafka-zero-header-ignored"), "{line}");
    // (`thin` lines may name cases of the suite that kill no mutant; no added case is one.)
    assert!(
        !human
            .lines()
            .any(|l| l.starts_with("added") && l.contains("kills no mutant")),
        "{human}"
    );
}

#[test]
fn an_added_case_that_kills_no_mutant_is_a_note_and_the_run_still_passes() {
    let repo = Repo::new();
    // Header and body agree: every habit of the catalogue derives the same count.
    let mut at = 0;
    repo.edit("proposal/manifest.json", |m| {
        let cases = kafka_reconciliation(m);
        at = cases.len();
        cases.push(json!({"name": "header-equals-body", "body_attempts": 3, "header_attempts": 3, "expected_attempts": 3}));
    });
    let pointer = format!("/kafka/attempts_reconciliation/cases/{at}");
    let pointer = pointer.as_str();
    let (line, column) = repo.position("proposal/manifest.json", pointer);
    let (exit, doc) = repo.json(&MUTANTS);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(
        (doc["errors"].clone(), doc["warnings"].clone()),
        (json!(0), json!(0))
    );
    // Only this case's note: the project's proposal may hold others that kill nothing.
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

#[test]
fn a_proposal_case_without_a_member_its_block_always_has_is_not_additive() {
    let repo = Repo::new();
    // Without `expected_attempts`, which every case of that sub-block carries: a runner of the
    // release reads it and fails.
    let at = repo.propose_reconciliation_case_without("no-expected-attempts", "expected_attempts");
    let (exit, doc) = repo.json(&VALIDATE);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(doc["data"]["proposal"]["additive"], false, "{doc:#}");
    let found = findings(&doc, "proposal-not-additive");
    let d = found
        .iter()
        .find(|d| d["case"] == "attempts_reconciliation/no-expected-attempts")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(d["file"], "proposal/manifest.json");
    assert_eq!(
        d["pointer"],
        format!("/kafka/attempts_reconciliation/cases/{at}")
    );
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("lacks `expected_attempts`"), "{message}");
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("give the case those members"),
        "{d:#}"
    );
}
