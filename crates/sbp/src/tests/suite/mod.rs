//! The suite `sbp-suite/` against the model: every case passes, every expectation matters, every
//! mutant dies, the decisions are exactly where the reference code differs; and the runners'
//! refusals of malformed cases.

mod malformed;
mod shapes;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

use bqsuite_core::evaluator::assess::assess;
use bqsuite_core::evaluator::{CaseOutcome, Evaluator, Verdict};

use crate::mistakes::Mistakes;
use crate::suite::{SECTIONS, Sbp, evaluate_with};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The suite's manifest and its fixtures (path relative to the suite -> text).
pub(super) fn suite() -> (Value, BTreeMap<String, String>) {
    let dir = repo().join("sbp-suite");
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("sbp-suite/manifest.json");
    let manifest = serde_json::from_str(&text).expect("the manifest is JSON");
    let mut fixtures = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join("fixtures")).expect("sbp-suite/fixtures") {
        let path = entry.expect("a fixture").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a fixture's text");
        fixtures.insert(format!("fixtures/{name}"), text);
    }
    (manifest, fixtures)
}

/// `section/id` of an outcome.
fn id(o: &CaseOutcome) -> String {
    format!("{}/{}", o.section, o.id)
}

/// The verdict of each case, by `section/id`.
fn verdicts(outcomes: &[CaseOutcome]) -> BTreeMap<String, Verdict> {
    outcomes
        .iter()
        .map(|o| (id(o), o.verdict.clone()))
        .collect()
}

/// The `case` of every row of the manifest's `decisions`.
fn decision_cases(manifest: &Value) -> BTreeSet<String> {
    manifest["decisions"]
        .as_array()
        .expect("`decisions` is an array")
        .iter()
        .map(|row| {
            row["case"]
                .as_str()
                .expect("a row names its case")
                .to_owned()
        })
        .collect()
}

#[test]
fn the_model_passes_every_case_of_the_suite() {
    let (manifest, fixtures) = suite();
    let outcomes = Sbp.evaluate(&manifest, &fixtures, None);
    let failing: Vec<String> = outcomes
        .iter()
        .filter(|o| o.verdict != Verdict::Pass)
        .map(|o| format!("{}: {}", id(o), o.verdict))
        .collect();
    assert!(failing.is_empty(), "{failing:#?}");
    assert!(outcomes.len() >= 110, "{} cases", outcomes.len());
    let seen: Vec<&str> = outcomes.iter().map(|o| o.section.as_str()).collect();
    let mut order = seen.clone();
    order.dedup();
    assert_eq!(order, SECTIONS, "every section has cases, in this order");
    let declared: Vec<&String> = manifest["sections"].as_object().unwrap().keys().collect();
    assert_eq!(
        declared, SECTIONS,
        "`sections` names each section, in order"
    );
    assert_eq!(manifest["conformance_version"], "0.1.0");
    let version = std::fs::read_to_string(repo().join("sbp-suite/CONFORMANCE_VERSION")).unwrap();
    assert_eq!(version.trim_end(), "0.1.0");
}

#[test]
fn every_case_names_a_facts_id_or_says_what_it_adds() {
    let (manifest, _) = suite();
    for section in SECTIONS {
        for case in manifest[section]["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let kebab = !name.is_empty()
                && !name.starts_with('-')
                && !name.ends_with('-')
                && !name.contains("--")
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            assert!(kebab, "{section}/{name} is not kebab-case");
            let description = case["description"].as_str().unwrap_or_default();
            assert!(
                !description.is_empty() && !description.contains('\n'),
                "{section}/{name} has no one-line description"
            );
        }
    }
}

#[test]
fn every_mutant_is_killed_in_its_sections() {
    let (manifest, fixtures) = suite();
    let assessment = assess(&Sbp, &manifest, &fixtures);
    assert!(assessment.not_passing.is_empty());
    assert_eq!(assessment.runs.len(), crate::Mistake::ALL.len());
    for run in &assessment.runs {
        assert!(!run.info.sections.is_empty(), "{}", run.info.id);
        for section in run.info.sections {
            assert!(SECTIONS.contains(section), "{}: {section}", run.info.id);
            assert!(
                run.killed_in(section),
                "mutant {} survives section {section} (killed by {:?})",
                run.info.id,
                run.kills.iter().map(|k| &k.id).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn the_reference_code_fails_exactly_the_decision_cases() {
    let (manifest, fixtures) = suite();
    let failing: BTreeSet<String> = evaluate_with(&manifest, &fixtures, Mistakes::REFERENCE)
        .iter()
        .filter(|o| o.verdict != Verdict::Pass)
        .map(id)
        .collect();
    let decided = decision_cases(&manifest);
    let undocumented: Vec<&String> = failing.difference(&decided).collect();
    let unneeded: Vec<&String> = decided.difference(&failing).collect();
    assert!(
        undocumented.is_empty() && unneeded.is_empty(),
        "differ from the reference without a decision: {undocumented:?}; \
         a decision where the reference agrees: {unneeded:?}"
    );
    let rows = manifest["decisions"].as_array().unwrap();
    assert_eq!(rows.len(), decided.len(), "one row per case");
    for row in rows {
        let fields: Vec<&String> = row.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["case", "plan", "spec", "ref", "decision"], "{row}");
        for field in ["plan", "spec", "ref", "decision"] {
            let text = row[field].as_str().unwrap_or_default();
            assert!(!text.is_empty(), "{}: empty `{field}`", row["case"]);
        }
    }
}

/// The first column of the decisions table of `docs/suites/sbp.md`: every row after the header
/// of the table that follows the heading `## Decisions`.
fn documented_decisions() -> BTreeSet<String> {
    let page = std::fs::read_to_string(repo().join("docs/suites/sbp.md")).expect("the SBP page");
    let section = page
        .split("\n## Decisions")
        .nth(1)
        .expect("a `## Decisions` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cell = l.split('|').nth(1).unwrap_or_default().trim();
            cell.trim_matches('`').to_owned()
        })
        .collect()
}

#[test]
fn the_docs_table_names_exactly_the_decision_cases() {
    let (manifest, _) = suite();
    assert_eq!(documented_decisions(), decision_cases(&manifest));
}

/// Every leaf of `value` (at `pointer`), with its pointer.
fn leaves(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, v)| leaves(v, bqsuite_core::json::join(&pointer, k), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| leaves(v, format!("{pointer}/{i}"), out)),
        _ => out.push(pointer),
    }
}

/// Another value of the same leaf: the last hex digit changed, or the text, number or boolean
/// changed.
fn flipped(leaf: &Value) -> Value {
    match leaf {
        Value::String(s) if s.is_empty() => Value::from("00"),
        Value::String(s) => {
            let (head, last) = s.split_at(s.len() - s.chars().last().unwrap().len_utf8());
            match last {
                "0" => Value::from(format!("{head}1")),
                l if l.bytes().all(|b| b.is_ascii_hexdigit()) => Value::from(format!("{head}0")),
                _ => Value::from(format!("{s}x")),
            }
        }
        Value::Number(n) => Value::from(n.as_u64().map_or(0, |n| n + 1)),
        Value::Bool(b) => Value::from(!b),
        _ => Value::from(0),
    }
}

#[test]
fn changing_any_expectation_fails_that_case_and_no_other() {
    let (manifest, fixtures) = suite();
    let index = bqsuite_core::index::CaseIndex::new(&manifest);
    let base = verdicts(&Sbp.evaluate(&manifest, &fixtures, None));
    for c in &index.cases {
        let mut pointers = Vec::new();
        leaves(
            &c.case.case["expect"],
            format!("{}/expect", c.pointer),
            &mut pointers,
        );
        let mut noticed = 0;
        for pointer in &pointers {
            let mut changed = manifest.clone();
            let leaf = changed.pointer_mut(pointer).unwrap();
            *leaf = flipped(leaf);
            let after = verdicts(&Sbp.evaluate(&changed, &fixtures, None));
            let key = format!("{}/{}", c.section, c.id);
            for (other, verdict) in &after {
                if *other != key {
                    assert_eq!(verdict, &base[other], "changing {pointer} changed {other}");
                }
            }
            match &after[&key] {
                Verdict::Pass => {
                    // Only a code a fuzz case allows but no buffer gives may change unnoticed.
                    assert!(
                        pointer.contains("/expect/codes/"),
                        "{pointer} is not checked"
                    );
                }
                Verdict::Mismatch(m) => {
                    // At the changed field, or at the member that holds it.
                    assert!(pointer.starts_with(&m.pointer), "{pointer}: {m:?}");
                    noticed += 1;
                }
                Verdict::Malformed { pointer: at, .. } => {
                    assert!(at.starts_with(&c.pointer), "{pointer}: {at}");
                    noticed += 1;
                }
                other => panic!("{pointer}: {other:?}"),
            }
        }
        assert!(
            noticed > 0,
            "{}/{}: no expectation is checked",
            c.section,
            c.id
        );
    }
}
