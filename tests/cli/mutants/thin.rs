//! `mutants` says where a suite is thin, section by section: the cases that kill no mutant, and
//! the mutants killed only by cases of sections they do not name. Neither is a finding, so the
//! exit code stays what the survivors make it. Every expectation here is worked out from the
//! run's own kills (`data.results`) and the manifest run, never from today's counts, on both
//! suites (BabelQueue and SBP) and on BabelQueue with the proposal merged in.

use std::collections::BTreeSet;
use std::path::Path;

use bqsuite_core::index::CaseIndex;
use serde_json::{Map, Value, json};

use super::{manifest_of, mutants_json, with_proposal};
use crate::kit::*;

/// The sections and ids of the cases the reference model does not pass (`case-not-passing`):
/// they kill nothing, and are reported as that warning, not as thin.
fn not_passing(doc: &Value) -> BTreeSet<(String, String)> {
    findings(doc, "case-not-passing")
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap().to_string();
            (s("section"), s("case"))
        })
        .collect()
}

/// What `data.thin` must hold, from the document's kills and `manifest` (the manifest the run
/// read): per section, the cases it passes that no mutant's `killed_by` names, and the killed
/// mutants none of whose kills is in a section of their own `sections` (listed under each of
/// those, with the sections of their kills in the order the kills come).
fn expected_thin(doc: &Value, manifest: &Value) -> Value {
    let results = doc["data"]["results"].as_array().unwrap();
    let killers: BTreeSet<(String, String)> = results
        .iter()
        .flat_map(|r| r["killed_by"].as_array().unwrap())
        .map(|k| {
            let s = |f: &str| k[f].as_str().unwrap().to_string();
            (s("section"), s("case"))
        })
        .collect();
    let not_passing = not_passing(doc);
    let mut thin: Map<String, Value> = Map::new();
    for case in &CaseIndex::new(manifest).cases {
        let key = (case.section.clone(), case.id.clone());
        if !killers.contains(&key) && !not_passing.contains(&key) {
            let list = &mut entry(&mut thin, &case.section)["cases_killing_nothing"];
            list.as_array_mut().unwrap().push(json!(case.id));
        }
    }
    for r in results.iter().filter(|r| r["survives"] == false) {
        let own: Vec<&str> = strings(&r["sections"]);
        let mut killed_in: Vec<&str> = Vec::new();
        for k in r["killed_by"].as_array().unwrap() {
            let section = k["section"].as_str().unwrap();
            if !killed_in.contains(&section) {
                killed_in.push(section);
            }
        }
        if killed_in.iter().any(|s| own.contains(s)) {
            continue;
        }
        for section in own {
            let list = &mut entry(&mut thin, section)["mutants_killed_elsewhere"];
            let record = json!({"id": r["id"], "killed_in": killed_in});
            list.as_array_mut().unwrap().push(record);
        }
    }
    Value::Object(thin)
}

/// The entry of `section` in a `data.thin` being built, empty at first.
fn entry<'a>(thin: &'a mut Map<String, Value>, section: &str) -> &'a mut Value {
    thin.entry(section.to_string())
        .or_insert_with(|| json!({"cases_killing_nothing": [], "mutants_killed_elsewhere": []}))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// The first three of `names`, then `(+N more)`.
fn first_few(names: &[String]) -> String {
    let shown = names.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    match names.len().saturating_sub(3) {
        0 => shown,
        more => format!("{shown} (+{more} more)"),
    }
}

/// The human line of one section of `data.thin`.
fn expected_line(section: &str, entry: &Value) -> String {
    let mut parts = Vec::new();
    let idle: Vec<String> = strings(&entry["cases_killing_nothing"])
        .into_iter()
        .map(String::from)
        .collect();
    if !idle.is_empty() {
        let (noun, verb) = if idle.len() == 1 {
            ("case", "kills")
        } else {
            ("cases", "kill")
        };
        let few = first_few(&idle);
        parts.push(format!("{} {noun} {verb} no mutant: {few}", idle.len()));
    }
    let elsewhere: Vec<String> = entry["mutants_killed_elsewhere"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let id = m["id"].as_str().unwrap();
            format!("{id} (in {})", strings(&m["killed_in"]).join(", "))
        })
        .collect();
    if !elsewhere.is_empty() {
        let noun = if elsewhere.len() == 1 {
            "mutant"
        } else {
            "mutants"
        };
        let few = first_few(&elsewhere);
        parts.push(format!(
            "{} {noun} killed only in other sections: {few}",
            elsewhere.len()
        ));
    }
    format!("thin     {section}: {}", parts.join("; "))
}

/// Runs `mutants ARGS` (the suite whose manifest is `manifest`) and checks `data.thin`, the human
/// lines and that thin sections are no findings. Returns the exit code, the JSON document and the
/// human text.
fn check_run(args: &[&str], manifest: &Value) -> (i32, Value, String) {
    let (rc, doc) = mutants_json(args);
    let thin = &doc["data"]["thin"];
    assert_eq!(thin, &expected_thin(&doc, manifest), "{args:?}: {thin:#}");
    for (section, entry) in thin.as_object().unwrap() {
        let lists = ["cases_killing_nothing", "mutants_killed_elsewhere"];
        assert!(
            lists
                .iter()
                .any(|l| !entry[l].as_array().unwrap().is_empty()),
            "{args:?}: section {section} is listed with nothing to say"
        );
    }
    // The sections with cases the model passes come first, in the manifest's order.
    let np = not_passing(&doc);
    let index = CaseIndex::new(manifest);
    let mut passing: Vec<&String> = Vec::new();
    for case in &index.cases {
        let key = (case.section.clone(), case.id.clone());
        if !np.contains(&key) && !passing.contains(&&case.section) {
            passing.push(&case.section);
        }
    }
    let keys: Vec<&String> = thin.as_object().unwrap().keys().collect();
    let with_cases: Vec<&String> = passing.into_iter().filter(|s| keys.contains(s)).collect();
    assert_eq!(keys[..with_cases.len()], with_cases[..], "{args:?}");

    // Not findings: the errors are the survivors, the warnings the cases the model fails.
    assert_eq!(doc["errors"], doc["data"]["surviving"], "{doc:#}");
    for d in doc["diagnostics"].as_array().unwrap() {
        let known = [
            "surviving-mutant",
            "case-not-passing",
            "added-case-kills-no-mutant",
        ];
        assert!(known.contains(&d["code"].as_str().unwrap()), "{d:#}");
    }

    // Human output: one line per listed section, in the same order, before the count line.
    let mut all = vec!["mutants"];
    all.extend_from_slice(args);
    let out = bqsuite(&all);
    assert_eq!(code(&out), rc);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("thin ")).collect();
    let expected: Vec<String> = thin
        .as_object()
        .unwrap()
        .iter()
        .map(|(section, entry)| expected_line(section, entry))
        .collect();
    assert_eq!(lines, expected, "{text}");
    let all_lines: Vec<&str> = text.lines().collect();
    let count = all_lines
        .iter()
        .position(|l| l.contains(" mutants over ") || l.contains(" mutant over "))
        .unwrap();
    if let Some(last) = all_lines.iter().rposition(|l| l.starts_with("thin ")) {
        assert!(last < count, "{text}");
    }
    (rc, doc, text)
}

#[test]
fn the_thin_sections_follow_from_the_kills_of_each_suite() {
    let bundled = bundled_suite();
    check_run(&[s(&bundled)], &manifest_of(&bundled));
    let sbp = sbp_suite();
    check_run(&[s(&sbp)], &manifest_of(&sbp));
    let proposal = root().join("proposal");
    let (merged, _) = with_proposal();
    check_run(&[s(&bundled), "--proposal", s(&proposal)], &merged);
}

/// A case of `suite` that kills no mutant and sits in a `cases` array with a `name`: its section,
/// its pointer and its name.
fn idle_case(suite: &Path) -> (String, String, String) {
    let manifest = manifest_of(suite);
    let (_, doc) = mutants_json(&[s(suite)]);
    let thin = expected_thin(&doc, &manifest);
    CaseIndex::new(&manifest)
        .cases
        .iter()
        .filter(|c| {
            thin.get(&c.section)
                .is_some_and(|t| strings(&t["cases_killing_nothing"]).contains(&c.id.as_str()))
                && c.pointer.rsplit_once('/').unwrap().0.ends_with("/cases")
        })
        .find_map(|c| {
            let name = manifest.pointer(&c.pointer)?["name"].as_str()?;
            Some((c.section.clone(), c.pointer.clone(), name.to_string()))
        })
        .unwrap_or_else(|| panic!("{} has no named case that kills nothing", suite.display()))
}

#[test]
fn a_case_that_kills_nothing_is_listed_under_its_section() {
    for suite in [bundled_suite(), sbp_suite()] {
        let (section, pointer, name) = idle_case(&suite);
        let (rc, before) = mutants_json(&[s(&suite)]);
        let idle_before = before["data"]["thin"][&section]["cases_killing_nothing"]
            .as_array()
            .unwrap()
            .len();
        // The same case again under another name: it kills exactly what the first one kills.
        let copy = suite_copy_of(&suite);
        let again = format!("{name}-again");
        copy.edit_manifest(|m| {
            let mut case = m.pointer(&pointer).unwrap().clone();
            case["name"] = json!(again);
            let holder = pointer.rsplit_once('/').unwrap().0;
            m.pointer_mut(holder)
                .unwrap()
                .as_array_mut()
                .unwrap()
                .push(case);
        });
        let (rc_copy, doc, text) = check_run(&[s(&copy.path())], &manifest_of(&copy.path()));
        let listed = strings(&doc["data"]["thin"][&section]["cases_killing_nothing"]);
        assert_eq!(listed.len(), idle_before + 1, "{listed:?}");
        assert!(
            listed.iter().any(|id| id.ends_with(&again)),
            "{section}: the copy of {name} is not listed: {listed:?}"
        );
        // Nothing else changed: the same exit code and findings, one case more.
        assert_eq!(
            rc_copy, rc,
            "a case that kills nothing changed the exit code"
        );
        for key in ["ok", "errors", "warnings"] {
            assert_eq!(doc[key], before[key], "{key}");
        }
        assert_eq!(
            doc["data"]["cases"],
            before["data"]["cases"].as_u64().unwrap() + 1
        );
        let line = format!(
            "thin     {section}: {} cases kill no mutant: ",
            idle_before + 1
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
}

/// Removes the cases at `pointers` (each an element of a `cases` array) from `manifest`.
fn remove_at(manifest: &mut Value, pointers: &[String]) {
    let mut at: Vec<(String, usize)> = pointers
        .iter()
        .map(|p| {
            let (holder, index) = p.rsplit_once('/').unwrap();
            (holder.to_string(), index.parse().unwrap())
        })
        .collect();
    // From the last, so that each index still names its case.
    at.sort_by_key(|a| std::cmp::Reverse(a.1));
    for (holder, index) in at {
        manifest
            .pointer_mut(&holder)
            .unwrap()
            .as_array_mut()
            .unwrap()
            .remove(index);
    }
}

#[test]
fn a_mutant_killed_only_outside_its_sections_is_listed_under_each_of_them() {
    for suite in [bundled_suite(), sbp_suite()] {
        // A mutant killed both in its own sections and elsewhere: without its own sections'
        // killing cases, only the others kill it.
        let (_, doc) = mutants_json(&[s(&suite)]);
        let (mutant, own_kills) = doc["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|r| {
                let own = strings(&r["sections"]);
                let kills = r["killed_by"].as_array().unwrap();
                let mine: Vec<String> = kills
                    .iter()
                    .filter(|k| own.contains(&k["section"].as_str().unwrap()))
                    .map(|k| k["pointer"].as_str().unwrap().to_string())
                    .collect();
                (!mine.is_empty() && mine.len() < kills.len()).then(|| (r.clone(), mine))
            })
            .unwrap_or_else(|| {
                panic!(
                    "{}: no mutant is killed both in and outside its sections",
                    suite.display()
                )
            });
        let id = mutant["id"].as_str().unwrap();
        let copy = suite_copy_of(&suite);
        copy.edit_manifest(|m| remove_at(m, &own_kills));

        let (_, doc, text) = check_run(&[s(&copy.path())], &manifest_of(&copy.path()));
        let run = doc["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap();
        assert_eq!(run["survives"], false, "{run:#}");
        let mut killed_in: Vec<&str> = Vec::new();
        for k in run["killed_by"].as_array().unwrap() {
            let section = k["section"].as_str().unwrap();
            assert!(!strings(&mutant["sections"]).contains(&section), "{k:#}");
            if !killed_in.contains(&section) {
                killed_in.push(section);
            }
        }
        for section in strings(&mutant["sections"]) {
            let listed = &doc["data"]["thin"][section]["mutants_killed_elsewhere"];
            assert!(
                listed
                    .as_array()
                    .unwrap()
                    .contains(&json!({"id": id, "killed_in": killed_in})),
                "{id} under {section}: {listed:#}"
            );
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("thin     {section}: ")))
                .unwrap_or_else(|| panic!("no thin line for {section}:\n{text}"));
            assert!(line.contains("killed only in other sections: "), "{line}");
        }
    }
}
