//! `diff` of a suite that says what it is: the SBP suite's changes are classified and its
//! version rule enforced as BabelQueue's are, the release notes carry its title, and two
//! different suites are never compared.

use std::fs;

use serde_json::{Value, json};

use super::{bump, codes, diff_json, set_version};
use crate::kit::*;

/// The first case of SBP's `subjects` section (edits below work on it).
fn first_subject_case(manifest: &mut Value) -> &mut Value {
    &mut manifest["subjects"]["cases"][0]
}

/// Checks the edit of an SBP copy: it is found as `code`, needs `needed`, the same version is an
/// insufficient bump (exit 1) and the suggested version a sufficient one (exit 0).
fn assert_sbp_change(edit: impl Fn(&mut Value), code_name: &str, needed: &str) {
    let new = sbp_copy();
    new.edit_manifest(&edit);
    let (exit, doc) = diff_json(&sbp_suite(), &new.path());
    assert_eq!(
        exit, 1,
        "{code_name}: the same version is not enough: {doc:#}"
    );
    assert!(
        codes(&doc).iter().any(|c| c == code_name),
        "{code_name}: {doc:#}"
    );
    assert_eq!(bump(&doc), needed, "{code_name}: {doc:#}");
    let suggested = doc["data"]["suggested_version"]
        .as_str()
        .unwrap_or_else(|| panic!("{code_name}: no suggested version: {doc:#}"))
        .to_string();
    set_version(&new, &suggested);
    let (exit, doc) = diff_json(&sbp_suite(), &new.path());
    assert_eq!(exit, 0, "{code_name} with {suggested}: {doc:#}");
    assert_eq!(doc["data"]["sufficient"], true, "{code_name}");
}

#[test]
fn an_sbp_case_added_is_a_minor_change() {
    assert_sbp_change(
        |m| {
            let mut case = first_subject_case(m).clone();
            case["name"] = json!("added-by-the-test");
            m["subjects"]["cases"].as_array_mut().unwrap().push(case);
        },
        "case-added",
        "minor",
    );
}

#[test]
fn an_sbp_case_removed_is_a_major_change() {
    assert_sbp_change(
        |m| {
            m["subjects"]["cases"].as_array_mut().unwrap().remove(0);
        },
        "case-removed",
        "major",
    );
}

#[test]
fn an_sbp_expectation_changed_is_a_major_change() {
    assert_sbp_change(
        |m| {
            let expect = &mut first_subject_case(m)["expect"];
            *expect = json!({"error": {"code": 1003}});
        },
        "case-changed",
        "major",
    );
}

#[test]
fn an_sbp_section_added_is_a_minor_change() {
    assert_sbp_change(
        |m| {
            let case = first_subject_case(m).clone();
            m["sections"]["added_by_the_test"] = json!({"scope": "core"});
            m["added_by_the_test"] = json!({"description": "a new section", "cases": [case]});
        },
        "section-added",
        "minor",
    );
}

/// A decision row documents a case whose expectation the case itself carries: rewording, adding
/// or dropping a row is wording (a patch), never taken for formatting.
#[test]
fn an_sbp_decision_reworded_added_or_removed_is_a_patch() {
    assert_sbp_change(
        |m| m["decisions"][0]["decision"] = json!("reworded by the test"),
        "decision-changed",
        "patch",
    );
    assert_sbp_change(
        |m| {
            m["decisions"].as_array_mut().unwrap().remove(0);
        },
        "decision-changed",
        "patch",
    );
}

/// The description is what fetch and every copy's check read: a new asset name, release URL or
/// model needs major; a new title is wording.
#[test]
fn an_sbp_description_change_is_classified_by_field() {
    for (key, value, code_name, needed) in [
        ("title", "Sideband SBP one", "suite-title-changed", "patch"),
        (
            "asset",
            "sideband-conformance",
            "suite-description-changed",
            "major",
        ),
        (
            "release_url",
            "https://mirror.example/sbp/{version}",
            "suite-description-changed",
            "major",
        ),
    ] {
        let new = sbp_copy();
        let mut description: Value =
            serde_json::from_str(&fs::read_to_string(new.file("suite.json")).unwrap()).unwrap();
        description[key] = json!(value);
        new.write_json("suite.json", &description);
        let (exit, doc) = diff_json(&sbp_suite(), &new.path());
        assert_eq!(exit, 1, "{key}: the same version is not enough: {doc:#}");
        assert_eq!(bump(&doc), needed, "{key}: {doc:#}");
        let changes: Vec<&Value> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "note")
            .collect();
        assert_eq!(changes.len(), 1, "{key}: {doc:#}");
        assert_eq!(changes[0]["code"], code_name, "{key}: {doc:#}");
        assert_eq!(changes[0]["file"], "suite.json", "{key}: {doc:#}");
    }
}

#[test]
fn the_release_notes_of_a_described_suite_carry_its_title() {
    let new = sbp_copy();
    let notes = new.dir.path().join("notes.md");
    let out = bqsuite(&[
        "diff",
        s(&sbp_suite()),
        s(&new.path()),
        "--markdown",
        s(&notes),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let text = fs::read_to_string(&notes).unwrap();
    assert!(
        text.starts_with("# Sideband SBP v1 conformance suite "),
        "{text}"
    );
}

/// BabelQueue's suite and SBP's, either way round, as directories or with `validate --since`:
/// exit 2, naming both, and one JSON document with `--format json`.
#[test]
fn two_different_suites_are_not_compared() {
    for (old, new) in [
        (bundled_suite(), sbp_suite()),
        (sbp_suite(), bundled_suite()),
    ] {
        let out = bqsuite(&["diff", s(&old), s(&new)]);
        assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("Sideband SBP v1 (`sbp`)"), "{err}");
        assert!(err.contains("BabelQueue (`babelqueue`)"), "{err}");
        let doc = json(&bqsuite(&["diff", s(&old), s(&new), "--format", "json"]));
        assert_eq!(doc["error"]["kind"], "bad-path", "{doc:#}");
        let since = bqsuite(&["validate", s(&new), "--since", s(&old)]);
        assert_eq!(code(&since), 2, "{}{}", stdout(&since), stderr(&since));
        assert!(
            stderr(&since).contains("Sideband SBP v1"),
            "{}",
            stderr(&since)
        );
    }
}
