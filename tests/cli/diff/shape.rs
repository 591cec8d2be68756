//! A case added without a member that every case of its block carried before: a runner written
//! for the release reads that member and fails, so the addition is not additive
//! (`case-lacks-member`, major). A member only some cases carry stays optional.

use serde_json::{Value, json};

use super::*;

/// The members of `expect` that every case of `cases` carries, in order.
fn carried_by_every_expect(cases: &[Value]) -> Vec<String> {
    let first = cases[0]["expect"].as_object().unwrap();
    first
        .keys()
        .filter(|k| cases.iter().all(|c| c["expect"].get(k.as_str()).is_some()))
        .cloned()
        .collect()
}

/// Adds to `backoff.retry_attempt_tier` a copy of its first case, renamed to `name`, without
/// `expect.<member>`.
fn add_without(m: &mut Value, name: &str, member: &str) {
    let cases = m["backoff"]["retry_attempt_tier"]["cases"]
        .as_array_mut()
        .unwrap();
    let mut case = cases[0].clone();
    case["name"] = json!(name);
    case["expect"].as_object_mut().unwrap().remove(member);
    cases.push(case);
}

#[test]
fn added_case_without_a_member_every_case_of_its_block_has_needs_major() {
    let released = base_copy().read_json("manifest.json");
    let cases = released["backoff"]["retry_attempt_tier"]["cases"]
        .as_array()
        .unwrap()
        .clone();
    let member = carried_by_every_expect(&cases)
        .into_iter()
        .find(|k| k != "headers")
        .expect("a member every retry_attempt_tier case carries");
    let doc = assert_needs_major(|c| c.edit_manifest(|m| add_without(m, "short-case", &member)));
    let d = finding(&doc, "case-lacks-member", None);
    assert_eq!(d["section"], "backoff");
    assert_eq!(d["case"], "retry_attempt_tier/short-case");
    let message = d["message"].as_str().unwrap();
    let shown = format!("`expect.{member}`");
    assert!(message.contains(&shown), "{message}");
    assert!(
        message.contains(&format!("all {} cases", cases.len())),
        "{message}"
    );
    assert_eq!(
        d["pointer"],
        format!("/backoff/retry_attempt_tier/cases/{}", cases.len())
    );
    // The case is still an addition.
    finding(&doc, "case-added", Some("retry_attempt_tier/short-case"));
}

#[test]
fn added_case_without_a_member_only_some_cases_have_is_additive() {
    let released = base_copy().read_json("manifest.json");
    let cases = released["roundtrip"]["cases"].as_array().unwrap();
    // A member some roundtrip cases carry and others do not.
    let (index, member) = cases
        .iter()
        .enumerate()
        .find_map(|(i, c)| {
            c.as_object()
                .unwrap()
                .keys()
                .find(|k| cases.iter().any(|o| o.get(k.as_str()).is_none()))
                .map(|k| (i, k.clone()))
        })
        .expect("an optional roundtrip member");
    let copy = edited(NEXT_MINOR, |c| {
        c.edit_manifest(|m| {
            let list = m["roundtrip"]["cases"].as_array_mut().unwrap();
            let mut case = list[index].clone();
            case["name"] = json!("without-an-optional-member");
            case.as_object_mut().unwrap().remove(&member);
            list.push(case);
        })
    });
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(bump(&doc), "minor", "{member}: {doc:#}");
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(count(&doc, "case-lacks-member"), 0, "{doc:#}");
}

#[test]
fn a_new_block_whose_cases_lack_what_every_case_of_the_section_has_needs_major() {
    // A runner walks a section's cases, sub-blocks included: retry_backoff's cases all carry
    // `retry_jitter`, and a new block without it reaches that runner.
    let released = base_copy().read_json("manifest.json");
    let cases = released["retry_backoff"]["cases"].as_array().unwrap();
    assert!(cases.iter().all(|c| c.get("retry_jitter").is_some()));
    let mut case = cases[0].clone();
    case.as_object_mut().unwrap().remove("retry_jitter");
    case["name"] = json!("no-jitter-stated");
    let doc = assert_needs_major(|c| {
        let case = case.clone();
        c.edit_manifest(|m| m["retry_backoff"]["new_block"] = json!({"cases": [case]}))
    });
    let d = finding(
        &doc,
        "case-lacks-member",
        Some("new_block/no-jitter-stated"),
    );
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("`retry_jitter`"), "{message}");
    assert!(
        message.contains("its new block is walked with them"),
        "{message}"
    );
}

#[test]
fn a_new_block_in_a_section_of_several_shapes_is_additive() {
    // backoff's blocks share no member beyond the name and source, so a new block with its
    // own fields is an addition.
    let copy = edited(NEXT_MINOR, |c| {
        c.edit_manifest(|m| {
            m["backoff"]["new_block"] = json!({"cases": [{"name": "a", "source": "s", "x": 1}]})
        })
    });
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(count(&doc, "case-lacks-member"), 0, "{doc:#}");
    assert_eq!(bump(&doc), "minor", "{doc:#}");
    assert_eq!(exit, 0, "{doc:#}");
}
