//! `bqsuite mutants`: suite adequacy. Every mutant of the catalogue (a plausible wrong SDK
//! behaviour) must fail at least one case of the sections that pin its rule. The real published
//! 1.8.0 (read from tests/data/real-releases, since `suite/` holds it only until the proposal is
//! adopted): some mutants survive it (each is marked as a survivor in its family
//! file under `crates/eval/src/mutants/`), and each survivor is a `surviving-mutant` finding
//! (exit 1).
//! The project's proposal overlay (`proposal/`) holds the cases that kill them: with it merged in,
//! no mutant survives.
//!
//! Depends on the `redis_layout` evaluator landing: until it does, the reference model does not
//! pass the real `redis_layout` cases, so the two redis layout mutants survive too and
//! `the_real_suite_lets_exactly_the_marked_survivors_through`,
//! `the_proposal_kills_every_mutant`, `every_mutant_is_killed_in_each_section_that_pins_its_rule`,
//! `every_section_with_cases_has_a_mutant_killed_by_one_of_its_cases` and
//! `mutants_never_change_the_reference_model` fail.
//!
//! thin.rs: where a suite is thin, per section (cases that kill nothing, mutants killed only in
//! other sections).

mod thin;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bqsuite_core::index::CaseIndex;
use bqsuite_eval::mutants::assess::{Assessment, assess};
use bqsuite_eval::mutants::{self, catalogue};
use bqsuite_eval::outcome::Verdict;
use bqsuite_eval::{evaluate, evaluate_mutant};
use bqsuite_suite::load;
use serde_json::Value;

use crate::kit::*;

/// What the real 1.8.0 lets through, read from what kills each mutant once the proposal is
/// merged in: a mutant that only cases added since 1.8.0 kill is a survivor (the family files
/// under `crates/eval/src/mutants/` mark each one and pin it in their own tests), and a section
/// where no real case kills a mutant is one it survives in. Derived rather than listed, so a new
/// mutant and the proposal case that kills it need no number changed here.
struct Expected {
    /// Each survivor's id, with the section its finding names (the first it lists).
    survivors: BTreeMap<&'static str, &'static str>,
    /// (mutant id, section) where some real 1.8.0 case kills the mutant.
    real_kills: BTreeSet<(&'static str, String)>,
}

impl Expected {
    fn survives_in(&self, id: &str, section: &str) -> bool {
        !self.real_kills.contains(&(id, section.to_string()))
    }
}

fn expected() -> Expected {
    let (manifest, files) = with_proposal();
    let added = added_cases(&manifest);
    let assessment = assess(&manifest, &files);
    assert!(assessment.not_passing.is_empty());
    let mut survivors = BTreeMap::new();
    let mut real_kills = BTreeSet::new();
    for run in &assessment.runs {
        let real: Vec<_> = run
            .kills
            .iter()
            .filter(|k| !added.contains(&(k.section.clone(), k.id.clone())))
            .collect();
        if real.is_empty() {
            survivors.insert(run.info.id, run.info.sections[0]);
        }
        for k in real {
            real_kills.insert((run.info.id, k.section.clone()));
        }
    }
    Expected {
        survivors,
        real_kills,
    }
}

/// The cases of `manifest` (the bundled suite with the proposal) the real 1.8.0 does not have.
fn added_cases(manifest: &Value) -> BTreeSet<(String, String)> {
    case_ids(manifest)
        .difference(&case_ids(&manifest_of(&real_1_8_0())))
        .cloned()
        .collect()
}

/// The number of cases of the real 1.8.0.
const REAL_CASES: u64 = 710;

/// The number of sections of the real 1.8.0 that hold at least one case.
const REAL_SECTIONS_WITH_CASES: usize = 32;

fn assess_dir(root: &Path) -> Assessment {
    let suite = load::load(root).unwrap();
    assess(suite.require_manifest().unwrap(), &suite)
}

/// The bundled suite with `proposal/` merged in (as `--proposal` merges it): its manifest and
/// its text files.
fn with_proposal() -> (Value, BTreeMap<String, String>) {
    let root = root();
    let merged = bqsuite_suite::overlay::merge_files(
        &files(&bundled_suite()),
        &files(&root.join("proposal")),
    )
    .unwrap_or_else(|c| panic!("the proposal does not merge: {c:?}"));
    let files: BTreeMap<String, String> = merged
        .into_iter()
        .filter_map(|(k, v)| String::from_utf8(v).ok().map(|t| (k, t)))
        .collect();
    let manifest = serde_json::from_str(&files["manifest.json"]).unwrap();
    (manifest, files)
}

/// The ids (`section`, case id) of the cases the proposal adds.
fn proposal_cases() -> BTreeSet<(String, String)> {
    let path = root().join("proposal/manifest.json");
    let overlay: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // Read as a manifest is: the `sections` map (a new section's scope) holds no case.
    case_ids(&overlay)
}

/// The ids (`section`, case id) of the cases of `manifest`.
fn case_ids(manifest: &Value) -> BTreeSet<(String, String)> {
    CaseIndex::new(manifest)
        .cases
        .iter()
        .map(|c| (c.section.clone(), c.id.clone()))
        .collect()
}

/// The manifest of the suite at `dir`.
fn manifest_of(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// Removes the case `id` of `section` from `manifest` (a direct case, or `<sub-key>/<name>`).
fn remove_case(manifest: &mut Value, section: &str, id: &str) {
    let (holder, name) = match id.split_once('/') {
        Some((sub, name)) => (&mut manifest[section][sub], name),
        None => (&mut manifest[section], id),
    };
    let cases = holder["cases"].as_array_mut().unwrap();
    let before = cases.len();
    cases.retain(|c| c["name"] != name);
    assert_eq!(
        cases.len(),
        before - 1,
        "{section}/{id} is not in the manifest"
    );
}

fn mutants_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["mutants"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let out = bqsuite(&all);
    (code(&out), json(&out))
}

fn check_kill_records(results: &[Value]) {
    for r in results {
        if r["survives"] == true {
            assert!(r["killed_by"].as_array().unwrap().is_empty(), "{r:#}");
            continue;
        }
        let kills = r["killed_by"].as_array().unwrap();
        assert!(!kills.is_empty(), "{r:#}");
        for k in kills {
            for field in ["section", "case", "pointer", "verdict"] {
                assert!(k[field].is_string(), "{field} in {k:#}");
            }
        }
    }
}

#[test]
fn the_real_suite_lets_exactly_the_marked_survivors_through() {
    let suite = real_1_8_0();
    let suite = suite.to_str().unwrap();
    let (rc, doc) = mutants_json(&[suite]);
    assert_eq!(rc, 1, "{doc:#}");
    assert_eq!(doc["command"], "mutants");
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["data"]["cases"], REAL_CASES);
    let total = doc["data"]["mutants"].as_u64().unwrap();
    assert_eq!(total as usize, catalogue().len());
    let survivors = expected().survivors;
    assert_eq!(doc["data"]["surviving"], survivors.len() as u64, "{doc:#}");
    assert_eq!(doc["data"]["killed"], total - survivors.len() as u64);
    let results = doc["data"]["results"].as_array().unwrap();
    assert_eq!(results.len() as u64, total);
    check_kill_records(results);
    let surviving: BTreeSet<&str> = results
        .iter()
        .filter(|r| r["survives"] == true)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let expected: BTreeSet<&str> = survivors.keys().copied().collect();
    assert_eq!(surviving, expected);

    // One error finding per survivor, naming the mutant, its rule and the section to extend.
    let diags = doc["diagnostics"].as_array().unwrap();
    let findings: Vec<&Value> = diags
        .iter()
        .filter(|d| d["code"] == "surviving-mutant")
        .collect();
    assert_eq!(findings.len(), survivors.len(), "{findings:#?}");
    for (&id, &section) in &survivors {
        let info = mutants::find(id).unwrap_or_else(|| panic!("no mutant {id}"));
        assert!(info.sections.contains(&section), "{id} names {section}");
        let d = findings
            .iter()
            .find(|d| d["message"].as_str().unwrap().contains(&format!("`{id}`")))
            .unwrap_or_else(|| panic!("no finding for {id}"));
        assert_eq!(d["severity"], "error");
        assert_eq!(d["file"], "manifest.json");
        assert_eq!(d["pointer"], format!("/{section}"), "{d:#}");
        assert!(d["line"].is_u64(), "{d:#}");
        let message = d["message"].as_str().unwrap();
        assert!(message.contains(info.rule), "{id}: {message}");
        let help = d["help"].as_str().unwrap();
        assert!(help.contains(&format!("section `{section}`")), "{help}");
    }
    // Cases the model does not pass are warnings, never anything else.
    for d in diags {
        if d["code"] != "surviving-mutant" {
            assert_eq!(d["code"], "case-not-passing", "{d:#}");
            assert_eq!(d["severity"], "warning");
        }
    }

    // Human output: one compact line per mutant, then the verdict.
    let out = bqsuite(&["mutants", suite]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "killed   kafka-max-of-header-and-body [reconcile] by kafka/attempts_reconciliation/header-authoritative-overrides"
        ),
        "{text}"
    );
    assert!(
        text.contains("SURVIVES backoff-delayed-topic-by-delay [backoff]: no case kills it"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{total} mutants over {REAL_CASES} cases: {} killed, {} surviving",
            total - survivors.len() as u64,
            survivors.len()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("FAILED: {suite} has {} errors", survivors.len())),
        "{text}"
    );
}

#[test]
fn the_proposal_kills_every_mutant() {
    let root = root();
    let suite = bundled_suite();
    let proposal = root.join("proposal");
    let args = [
        suite.to_str().unwrap(),
        "--proposal",
        proposal.to_str().unwrap(),
    ];
    let (rc, doc) = mutants_json(&args);
    assert_eq!(rc, 0, "{doc:#}");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["errors"], 0);
    let bundled = case_ids(&manifest_of(&suite)).len();
    assert_eq!(
        doc["data"]["cases"],
        (bundled + proposal_cases().len()) as u64
    );
    let total = doc["data"]["mutants"].as_u64().unwrap();
    assert_eq!(doc["data"]["surviving"], 0, "{doc:#}");
    assert_eq!(doc["data"]["killed"], total);
    let results = doc["data"]["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["survives"] == false));
    check_kill_records(results);
    // Notes (an added case that kills nothing) may be there; nothing worse.
    assert_eq!(doc["warnings"], 0, "{doc:#}");
    assert!(
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["severity"] == "note"),
        "{doc:#}"
    );

    let mut all = vec!["mutants"];
    all.extend_from_slice(&args);
    let out = bqsuite(&all);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("0 surviving"), "{}", stdout(&out));
}

#[test]
fn every_mutant_is_killed_in_each_section_that_pins_its_rule() {
    let expected = expected();
    let survives_in = |id: &str, section: &str| expected.survives_in(id, section);
    let assessment = assess_dir(&real_1_8_0());
    assert!(assessment.not_passing.is_empty());
    assert_eq!(assessment.runs.len(), catalogue().len());
    for run in &assessment.runs {
        for section in run.info.sections {
            assert_eq!(
                run.killed_in(section),
                !survives_in(run.info.id, section),
                "mutant {} in section {section}; kills: {:?}",
                run.info.id,
                run.kills
                    .iter()
                    .map(|k| format!("{}/{}", k.section, k.id))
                    .collect::<Vec<_>>()
            );
        }
    }

    // With the proposal, every mutant is killed in every section it names.
    let (manifest, files) = with_proposal();
    let assessment = assess(&manifest, &files);
    assert!(assessment.not_passing.is_empty());
    for run in &assessment.runs {
        for section in run.info.sections {
            assert!(
                run.killed_in(section),
                "with the proposal, {} is not killed in {section}",
                run.info.id
            );
        }
    }
}

#[test]
fn every_section_with_cases_has_a_mutant_killed_by_one_of_its_cases() {
    let suite = load::load(&real_1_8_0()).unwrap();
    let manifest = suite.require_manifest().unwrap();
    let with_cases: BTreeSet<String> = evaluate(manifest, &suite)
        .into_iter()
        .map(|o| o.section)
        .collect();
    assert_eq!(with_cases.len(), REAL_SECTIONS_WITH_CASES, "{with_cases:?}");
    let assessment = assess(manifest, &suite);
    let covered: BTreeSet<String> = assessment
        .runs
        .iter()
        .flat_map(|r| r.kills.iter().map(|k| k.section.clone()))
        .collect();
    let uncovered: Vec<&String> = with_cases.difference(&covered).collect();
    assert!(
        uncovered.is_empty(),
        "sections of the real 1.8.0 where no case kills any mutant: {uncovered:?}"
    );
}

#[test]
fn the_proposal_cases_are_what_kill_each_survivor() {
    // What was added since the real 1.8.0: the proposal's cases, and those adopted already.
    let (manifest, files) = with_proposal();
    let added = added_cases(&manifest);
    assert!(proposal_cases().is_subset(&added));
    let base = evaluate(&manifest, &files);
    for (id, section) in expected().survivors {
        let info = mutants::find(id).unwrap();
        let killers: BTreeSet<(String, String)> = base
            .iter()
            .zip(evaluate_mutant(&manifest, &files, info.mutant))
            .filter(|(b, _)| b.verdict == Verdict::Pass)
            .filter(|(_, m)| m.verdict != Verdict::Pass)
            .map(|(_, m)| (m.section, m.id))
            .collect();
        assert!(!killers.is_empty(), "{id} survives the proposal");
        assert!(
            killers.is_subset(&added),
            "{id} is killed by cases the proposal does not add: {:?}",
            killers.difference(&added).collect::<Vec<_>>()
        );
        assert!(
            killers.iter().any(|(s, _)| s == section),
            "{id} is not killed in {section}: {killers:?}"
        );
    }
}

#[test]
fn a_survivor_is_a_finding_naming_mutant_rule_and_section() {
    // kafka/attempts_reconciliation/header-authoritative-overrides (header 1, body 5: 1 wins) is
    // the only real 1.8.0 case that kills kafka-max-of-header-and-body.
    let s = suite_copy_of(&real_1_8_0());
    s.edit_manifest(|m| {
        remove_case(
            m,
            "kafka",
            "attempts_reconciliation/header-authoritative-overrides",
        )
    });
    let (rc, doc) = mutants_json(&[s.path().to_str().unwrap()]);
    assert_eq!(rc, 1, "{doc:#}");
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["data"]["cases"], REAL_CASES - 1);
    // Exactly one more survivor than the real 1.8.0 has: the removed case's mutant.
    let survivors = |doc: &Value| -> BTreeSet<String> {
        doc["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["survives"] == true)
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, real) = mutants_json(&[real_1_8_0().to_str().unwrap()]);
    let mut expected = survivors(&real);
    assert!(expected.insert("kafka-max-of-header-and-body".to_string()));
    assert_eq!(survivors(&doc), expected);
    assert_eq!(doc["data"]["surviving"], expected.len() as u64);
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| {
            d["code"] == "surviving-mutant"
                && d["message"]
                    .as_str()
                    .unwrap()
                    .contains("`kafka-max-of-header-and-body`")
        })
        .unwrap_or_else(|| panic!("no finding for the removed case's mutant: {doc:#}"));
    assert_eq!(d["severity"], "error");
    assert_eq!(d["file"], "manifest.json");
    assert_eq!(d["pointer"], "/kafka");
    assert!(d["line"].is_u64(), "{d:#}");
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("the bq-attempts header wins when present"),
        "{message}"
    );
    let help = d["help"].as_str().unwrap();
    assert!(help.contains("section `kafka`"), "{help}");
    assert!(help.contains("`bqsuite mutants "), "{help}");

    let out = bqsuite(&["mutants", s.path().to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("error[surviving-mutant]: mutant `kafka-max-of-header-and-body` survives"),
        "{text}"
    );
    assert!(
        text.contains("SURVIVES kafka-max-of-header-and-body [reconcile]"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} surviving", expected.len())),
        "{text}"
    );
    assert!(
        !text.contains("os error") && !text.contains("Some("),
        "{text}"
    );
}

#[test]
fn a_missing_suite_cannot_run_and_json_is_still_one_document() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let out = bqsuite(&["mutants", missing.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 2);
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    // The project's one contract for a run that could not start: ok false and an error object.
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["command"], "mutants");
    assert_eq!(doc["error"]["kind"], "not-found");
    assert!(
        doc["error"]["message"].as_str().unwrap().contains("nope"),
        "{doc:#}"
    );

    let out = bqsuite(&["mutants", missing.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
}

#[test]
fn mutants_never_change_the_reference_model() {
    let suite = load::load(&bundled_suite()).unwrap();
    let manifest = suite.require_manifest().unwrap();
    let before = evaluate(manifest, &suite);
    assert!(before.iter().all(|o| o.verdict == Verdict::Pass));
    let _ = assess(manifest, &suite);
    assert_eq!(mutants::active(), None);
    assert_eq!(evaluate(manifest, &suite), before);
}

#[test]
fn a_case_the_model_does_not_pass_is_a_warning_and_kills_nothing() {
    let s = suite_copy_of(&real_1_8_0());
    // A wrong expectation: the only real case that kills kafka-max-of-header-and-body now states
    // what that mutant derives (max(header 1, body 5) = 5), so the reference model fails it and
    // the mutant survives.
    s.edit_manifest(|m| {
        let cases = m["kafka"]["attempts_reconciliation"]["cases"]
            .as_array_mut()
            .unwrap();
        let case = cases
            .iter_mut()
            .find(|c| c["name"] == "header-authoritative-overrides")
            .unwrap();
        assert_eq!(case["expected_attempts"], 1);
        case["expected_attempts"] = serde_json::json!(5);
    });
    let (rc, doc) = mutants_json(&[s.path().to_str().unwrap()]);
    assert_eq!(rc, 1, "{doc:#}");
    let diags = doc["diagnostics"].as_array().unwrap();
    let warning = diags
        .iter()
        .find(|d| d["code"] == "case-not-passing" && d["section"] == "kafka")
        .expect("a case-not-passing warning");
    assert_eq!(warning["severity"], "warning");
    assert_eq!(
        warning["case"],
        "attempts_reconciliation/header-authoritative-overrides"
    );
    assert!(
        warning["help"]
            .as_str()
            .unwrap()
            .contains("`bqsuite validate ")
    );
    assert!(
        diags.iter().any(|d| d["code"] == "surviving-mutant"
            && d["message"]
                .as_str()
                .unwrap()
                .contains("kafka-max-of-header-and-body")),
        "{doc:#}"
    );
}
