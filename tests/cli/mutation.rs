//! Mutation tests for the reference evaluator against the real 1.8.0 (and the bundled suite): one
//! expectation flipped in every case list of a copy makes `bqsuite validate` report an
//! `expectation-mismatch` at each flipped case, and nowhere else. An evaluator that could not be
//! made to fail this way would prove nothing about the suite. (A finer, per-field check runs in
//! process for every section and every real release: `assert_flips_caught` in
//! `src/eval/realkit.rs`.)
//!
//! Depends on the `redis_layout` evaluator landing: until then its 16 case lists are reported as
//! `case-shape`, not as mismatches, and the batch flip test fails on them only.

use std::collections::{BTreeMap, BTreeSet};

use bqsuite_core::ids::escape_token;
use bqsuite_core::index::CaseIndex;
use serde_json::{Value, json};

use crate::kit;

/// Whether a case field states an expected outcome (everything else is input or prose).
fn is_expectation(field: &str) -> bool {
    field == "valid" || field.starts_with("expect")
}

/// The pointer (relative to `value`) of its first leaf, depth first in document order: a
/// scalar, or an empty array or object.
fn first_leaf(value: &Value, at: String) -> (String, &Value) {
    match value {
        Value::Array(items) if !items.is_empty() => first_leaf(&items[0], format!("{at}/0")),
        Value::Object(members) if !members.is_empty() => {
            let (k, v) = members.iter().next().unwrap();
            first_leaf(v, format!("{at}/{}", escape_token(k)))
        }
        _ => (at, value),
    }
}

fn same_kind(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// Another plausible value for the first leaf of the expectation at `rel` (a pointer relative
/// to the case): a different scalar of the same JSON type that a sibling case states at the same
/// place (so `"reject"` becomes `"ok"`, `true` becomes `false`), else a negated boolean, a
/// number plus one, a string with a suffix. A list of pointers that must be absent gets the root
/// pointer, which is always present. Returns the leaf's pointer relative to the case, and the
/// new value.
fn flip(case: &Value, rel: &str, siblings: &[&Value]) -> (String, Value) {
    let (sub, leaf) = first_leaf(case.pointer(rel).unwrap(), String::new());
    let at = format!("{rel}{sub}");
    if rel.contains("absent") && leaf.is_string() {
        return (at, json!(""));
    }
    let other = siblings
        .iter()
        .filter_map(|c| c.pointer(&at))
        .find(|v| *v != leaf && same_kind(v, leaf) && !v.is_array() && !v.is_object());
    let new = match (other, leaf) {
        (Some(v), _) => v.clone(),
        (None, Value::Bool(b)) => json!(!b),
        (None, Value::Number(n)) => match n.as_i64() {
            Some(i) => json!(i + 1),
            None => json!(n.as_f64().unwrap() + 1.0),
        },
        (None, Value::String(s)) => json!(format!("{s}-flipped")),
        (None, Value::Null) => json!(false),
        (None, Value::Array(_)) => json!(["/flipped"]),
        (None, Value::Object(_)) => json!({"flipped": true}),
    };
    (at, new)
}

/// The pointer (relative to the case) of the first expectation a case states. A case of a
/// `cases` list states it in a `valid`/`expect...` field, or (a scripted case, `redis_layout`)
/// in the `expect` of one of its `steps`. A sub-block that is itself one case (a broker's
/// property projection) is the expectation: every field but its prose and its input fixture.
fn expectation_of(case: &Value, in_list: bool) -> Option<String> {
    let obj = case.as_object()?;
    if !in_list {
        return obj
            .keys()
            .find(|k| {
                !matches!(k.as_str(), "description" | "envelope_file" | "name")
                    && !k.ends_with("_annotation")
            })
            .map(|k| format!("/{}", escape_token(k)));
    }
    if let Some(k) = obj.keys().find(|k| is_expectation(k)) {
        return Some(format!("/{}", escape_token(k)));
    }
    let steps = obj.get("steps")?.as_array()?;
    steps.iter().enumerate().find_map(|(i, step)| {
        let k = step.as_object()?.keys().find(|k| is_expectation(k))?;
        Some(format!("/steps/{i}/{}", escape_token(k)))
    })
}

/// The case list a case belongs to: the `cases` array holding it, or (for a sub-block that is
/// itself one case) the case alone.
fn list_of(pointer: &str) -> String {
    match pointer.rsplit_once('/') {
        Some((parent, last)) if last.parse::<usize>().is_ok() => parent.to_string(),
        _ => pointer.to_string(),
    }
}

#[test]
fn one_flip_in_every_case_list_of_the_real_suite_is_an_expectation_mismatch_at_that_case() {
    let copy = kit::suite_copy_of(&kit::real_1_8_0());
    let manifest = copy.read_json("manifest.json");
    let index = CaseIndex::new(&manifest);
    assert_eq!(index.len(), 710, "the real 1.8.0 has 710 cases");

    // The cases of each list, in manifest order.
    let mut lists: BTreeMap<String, Vec<&bqsuite_core::index::IndexedCase>> = BTreeMap::new();
    for c in &index.cases {
        lists.entry(list_of(&c.pointer)).or_default().push(c);
    }

    // In each list, flip the first expectation field of the first case that has one.
    let mut mutated = manifest.clone();
    let mut flipped: BTreeMap<String, (String, String, String)> = BTreeMap::new();
    let mut sections = BTreeSet::new();
    let mut flipped_lists = BTreeSet::new();
    for (list, cases) in &lists {
        let siblings: Vec<&Value> = cases.iter().map(|c| c.case.case).collect();
        let in_list = list != &cases[0].pointer;
        let Some((case, rel)) = cases
            .iter()
            .find_map(|c| expectation_of(c.case.case, in_list).map(|rel| (c, rel)))
        else {
            continue;
        };
        let (at, new) = flip(case.case.case, &rel, &siblings);
        let leaf = format!("{}{at}", case.pointer);
        *mutated.pointer_mut(&leaf).unwrap() = new.clone();
        flipped.insert(
            case.pointer.clone(),
            (
                case.section.clone(),
                case.id.clone(),
                format!("{leaf} = {new}"),
            ),
        );
        sections.insert(case.section.clone());
        flipped_lists.insert(list.clone());
    }
    // Every case list of 1.8.0 states some expectation, except the one case of `redis`
    // (payload_identity: the identity itself is the expectation; covered by
    // `redis_payload_identity_needs_its_fixture` below).
    let untouched: Vec<&String> = lists
        .keys()
        .filter(|l| !flipped_lists.contains(*l))
        .collect();
    assert_eq!(
        untouched,
        ["/redis/payload_identity"],
        "lists with nothing flipped"
    );
    let uncovered: Vec<&String> = index
        .section_names
        .iter()
        .filter(|s| !sections.contains(*s))
        .collect();
    assert_eq!(uncovered, ["redis"], "sections with nothing flipped");
    assert!(flipped.len() >= 50, "only {} flips", flipped.len());
    copy.write_json("manifest.json", &mutated);

    let out = kit::bqsuite(&[
        "validate",
        copy.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(kit::code(&out), 1, "{}", kit::stdout(&out));
    let doc: Value = serde_json::from_str(&kit::stdout(&out)).expect("one JSON document");
    assert_eq!(doc["ok"], false);
    let mismatches: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "expectation-mismatch")
        .collect();

    let mut problems = Vec::new();
    for (case_ptr, (section, id, what)) in &flipped {
        let here: Vec<&&Value> = mismatches
            .iter()
            .filter(|d| {
                d["pointer"]
                    .as_str()
                    .is_some_and(|p| p == case_ptr || p.starts_with(&format!("{case_ptr}/")))
            })
            .collect();
        match here.as_slice() {
            [d] => {
                if d["section"] != section.as_str() || d["case"] != id.as_str() {
                    problems.push(format!("{what}: finding names another case: {d}"));
                }
                if d["code"] != "expectation-mismatch" {
                    problems.push(format!("{what}: reported as {}", d["code"]));
                }
                if d["severity"] != "error" || !d["line"].is_u64() {
                    problems.push(format!("{what}: {d}"));
                }
            }
            other => problems.push(format!(
                "{what} ({section}/{id}): {} mismatch findings",
                other.len()
            )),
        }
    }
    // No expectation-mismatch anywhere but at a flipped case.
    for d in &mismatches {
        let p = d["pointer"].as_str().unwrap_or("");
        if !flipped
            .keys()
            .any(|c| p == c || p.starts_with(&format!("{c}/")))
        {
            problems.push(format!("a mismatch where nothing was flipped: {d}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} flips not reported as they should be:\n{}",
        problems.len(),
        flipped.len(),
        problems.join("\n")
    );
}

#[test]
fn a_flip_is_reported_as_an_expectation_mismatch_with_both_sides() {
    let s = kit::SuiteCopy::new();
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
    let d = kit::assert_finding(
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
    let s = kit::SuiteCopy::new();
    s.edit_manifest(|m| {
        m["redis"]["payload_identity"]["envelope_file"] = json!("fixtures/nope.json")
    });
    let d = kit::assert_finding(
        &s.path(),
        "missing-fixture",
        &[("pointer", "/redis/payload_identity")],
    );
    assert_eq!(d["case"], "payload_identity");
    kit::assert_finding(&s.path(), "case-shape", &[("case", "payload_identity")]);
}
