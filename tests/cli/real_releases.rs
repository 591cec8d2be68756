//! The real published releases of the suite (tests/data/real-releases, byte for byte from the
//! `babelqueue` source distributions): bqsuite must hold each to the rules of its own version,
//! re-derive every case, and read the real history with `diff` as it happened.

use std::fs;
use std::path::Path;

use bqsuite_core::ids::section_cases;
use bqsuite_core::index::METADATA_KEYS;
use serde_json::Value;

use crate::kit;
use crate::kit::{bqsuite, code, copy_tree, real_release, root, stdout};

const REAL: [&str; 8] = [
    "1.0.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.8.0",
];

fn json_of(args: &[&str]) -> (i32, Value) {
    let out = bqsuite(args);
    let doc = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}): {}", stdout(&out)));
    (code(&out), doc)
}

fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {} {}", d["code"], d["pointer"], d["message"]))
        .collect()
}

#[test]
fn every_real_release_is_valid_under_the_rules_of_its_version() {
    for v in REAL {
        let dir = real_release(v);
        let (exit, doc) = json_of(&["validate", dir.to_str().unwrap(), "--format", "json"]);
        assert_eq!(exit, 0, "{v}: {:#?}", codes(&doc));
        assert!(codes(&doc).is_empty(), "{v}: {:#?}", codes(&doc));
    }
}

#[test]
fn the_evaluator_re_derives_all_710_cases_of_1_8_0_with_none_skipped() {
    let dir = real_release("1.8.0");
    let out = bqsuite(&["validate", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "710 cases in 32 sections, 56 fixtures; reference evaluator: 710 pass, 0 skip"
        ),
        "{}",
        stdout(&out)
    );
}

/// `suite/` is the newest real release byte for byte until the proposal is adopted; from then on
/// it is a later version, and the change from the newest real release must be one its version
/// allows (`diff` is clean).
#[test]
fn the_bundled_suite_is_the_newest_real_release_or_a_valid_successor() {
    let bundled = kit::bundled_suite();
    let newest = REAL[REAL.len() - 1];
    let real = real_release(newest);
    if kit::bundled_version() != newest {
        let (exit, doc) = json_of(&[
            "diff",
            real.to_str().unwrap(),
            bundled.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(exit, 0, "suite/ does not follow {newest}: {doc:#}");
        assert_ne!(doc["data"]["declared_bump"], "none", "{doc:#}");
        return;
    }
    let files = |root: &Path| -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(root)
            .into_iter()
            .map(Result::unwrap)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e
                    .path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, fs::read(e.path()).unwrap())
            })
            .collect();
        out.sort();
        out
    };
    let (a, b) = (files(&bundled), files(&real));
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "suite/{name} differs from the real {newest}");
    }
}

/// A real release that breaks a rule of its own version is still an error, with its place.
#[test]
fn a_broken_old_release_is_still_an_error_with_file_and_pointer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("suite");
    copy_tree(&real_release("1.4.0"), &dir);
    let manifest = dir.join("manifest.json");
    let mut m: Value = serde_json::from_str(&fs::read_to_string(&manifest).unwrap()).unwrap();
    m["cases"][0]["valid"] = Value::String("yes".into());
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let (exit, doc) = json_of(&["validate", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(exit, 1);
    let found = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["pointer"] == "/cases/0/valid")
        .unwrap_or_else(|| panic!("{:#?}", codes(&doc)));
    assert_eq!(found["file"], "manifest.json");
    assert!(found["line"].as_u64().is_some(), "{found}");
    // 1.4.0 needs no scope map; the same manifest stamped 1.5.0 does.
    assert!(!codes(&doc).iter().any(|c| c.contains("sections-map")));
    fs::write(dir.join("CONFORMANCE_VERSION"), "1.5.0\n").unwrap();
    let (_, doc) = json_of(&["validate", dir.to_str().unwrap(), "--format", "json"]);
    let all = codes(&doc);
    for code in ["sections-map", "exception-invalid", "missing-file"] {
        assert!(all.iter().any(|c| c.contains(code)), "{code}: {all:#?}");
    }
}

#[test]
fn a_section_newer_than_bqsuite_is_a_warning_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("suite");
    copy_tree(&real_release("1.8.0"), &dir);
    fs::write(dir.join("CONFORMANCE_VERSION"), "1.9.0\n").unwrap();
    let manifest = dir.join("manifest.json");
    let mut m: Value = serde_json::from_str(&fs::read_to_string(&manifest).unwrap()).unwrap();
    m["conformance_version"] = "1.9.0".into();
    m["sections"]["future_rule"] = serde_json::json!({"scope": "core"});
    m["future_rule"] = serde_json::json!({"description": "d", "cases": [{"name": "a", "expect": 1}, {"name": "b", "expect": 2}]});
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let (exit, doc) = json_of(&["validate", dir.to_str().unwrap(), "--format", "json"]);
    let diags = doc["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{:#?}", codes(&doc));
    assert_eq!(diags[0]["code"], "unknown-section");
    assert_eq!(diags[0]["severity"], "warning");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("`future_rule`") && message.contains(env!("CARGO_PKG_VERSION")));
    assert!(message.contains("2 cases"), "{message}");
    assert_eq!(exit, 0);
    // In a suite of a version bqsuite knows, the same section is an error.
    fs::write(dir.join("CONFORMANCE_VERSION"), "1.8.0\n").unwrap();
    m["conformance_version"] = "1.8.0".into();
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let (exit, doc) = json_of(&["validate", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(exit, 1);
    assert!(codes(&doc).iter().any(|c| c.contains("no-reference-rule")));
}

/// Every real step is a sufficient minor, except 1.5.0 → 1.6.0, which removed a case and changed
/// two in a minor release.
#[test]
fn diff_reads_the_real_history_right() {
    for pair in REAL.windows(2) {
        let (old, new) = (real_release(pair[0]), real_release(pair[1]));
        let (exit, doc) = json_of(&[
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--format",
            "json",
        ]);
        let changes = doc["diagnostics"].as_array().unwrap();
        let count = |c: &str| changes.iter().filter(|d| d["code"] == c).count();
        if pair == ["1.5.0", "1.6.0"] {
            assert_eq!(exit, 1, "{pair:?}");
            assert_eq!(count("case-removed"), 1);
            assert_eq!(count("case-changed"), 2);
            assert!(changes.iter().any(|d| d["code"] == "case-removed"
                && d["case"] == "retry_republish/third-retry-picks-larger-tier"));
            assert_eq!(count("version-bump-insufficient"), 1);
        } else {
            assert_eq!(exit, 0, "{pair:?}: {:#?}", codes(&doc));
            for code in ["schema-changed", "case-removed", "case-changed"] {
                assert_eq!(count(code), 0, "{pair:?} {code}: {:#?}", codes(&doc));
            }
        }
    }
}

fn proposal_run(proposal: &Path) -> (i32, Value) {
    let suite = kit::bundled_suite();
    json_of(&[
        "validate",
        suite.to_str().unwrap(),
        "--proposal",
        proposal.to_str().unwrap(),
        "--format",
        "json",
    ])
}

/// The cases of a manifest (a suite's, or a proposal's, which holds only what it adds), counted
/// by the spec's id rule straight from the file: what the merged suite must hold is derived from
/// the data, so adding a case to `proposal/` needs no number changed here.
fn cases_in(manifest: &Path) -> usize {
    let value: Value = serde_json::from_str(&fs::read_to_string(manifest).unwrap()).unwrap();
    value
        .as_object()
        .unwrap()
        .iter()
        .filter(|(key, _)| !METADATA_KEYS.contains(&key.as_str()))
        .map(|(section, block)| section_cases(section, block).len())
        .sum()
}

/// `validate suite --proposal DIR` passes, only adds, and every case of the suite and of the
/// proposal is re-derived by the reference evaluator.
fn assert_sound_and_additive(proposal: &Path) {
    let (exit, doc) = proposal_run(proposal);
    assert_eq!(exit, 0, "{:#?}", codes(&doc));
    let added = cases_in(&proposal.join("manifest.json"));
    let total = cases_in(&kit::bundled_suite().join("manifest.json")) + added;
    let summary = doc["summary"].to_string();
    let over = format!("proposal over {}", kit::bundled_version());
    assert!(summary.contains(&over), "{summary}");
    // Right after `bqsuite adopt`, the proposal is empty.
    let (verdict, what) = if added == 0 {
        ("no cases proposed", "no cases proposed".to_string())
    } else {
        let s = if added == 1 { "" } else { "s" };
        (
            "additive (a minor release)",
            format!("{added} case{s} added"),
        )
    };
    assert!(summary.contains(verdict), "{summary}");
    for fact in [
        format!("reference evaluator: {total} pass, 0 skip"),
        what,
        format!("{total} cases in all"),
    ] {
        assert!(
            summary.contains(&fact),
            "the summary should say `{fact}` (counted from suite/ and {}): {summary}",
            proposal.display()
        );
    }
    assert_eq!(doc["data"]["cases"], total as u64);
    assert_eq!(doc["data"]["proposal"]["cases_added"], added as u64);
}

/// The project's proposal merges over the real suite, validates, and only adds.
#[test]
fn the_proposal_is_sound_and_additive_over_the_real_suite() {
    assert_sound_and_additive(&root().join("proposal"));
}

/// Step 6 of the maintainer's guide after a correct new case: the check above holds as it is.
#[test]
fn a_new_valid_proposal_case_needs_no_test_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proposal");
    copy_tree(&root().join("proposal"), &dir);
    let manifest = dir.join("manifest.json");
    let mut m: Value = serde_json::from_str(&fs::read_to_string(&manifest).unwrap()).unwrap();
    // (The sub-block is created when the proposal has none, as right after `bqsuite adopt`.)
    let block = m
        .as_object_mut()
        .unwrap()
        .entry("kafka")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .unwrap()
        .entry("attempts_reconciliation")
        .or_insert_with(|| serde_json::json!({"cases": []}));
    let cases = block["cases"].as_array_mut().unwrap();
    // A name no case of the proposal has yet (the suite's cases have other names).
    let mut name = "header-two-overrides-body-seven".to_string();
    while cases.iter().any(|c| c["name"] == name.as_str()) {
        name.push_str("-again");
    }
    cases.push(serde_json::json!({
        "name": name,
        "body_attempts": 7,
        "header_attempts": 2,
        "expected_attempts": 2
    }));
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    assert_sound_and_additive(&dir);
}

/// A proposal that would replace a fixture or a parameter, or change a sub-block, is refused.
#[test]
fn a_proposal_that_replaces_or_changes_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proposal");
    fs::create_dir_all(dir.join("fixtures")).unwrap();
    fs::write(dir.join("fixtures/order-created.json"), "{}").unwrap();
    fs::write(
        dir.join("manifest.json"),
        r#"{"poison_dlq": {"original_queue": "jobs"}}"#,
    )
    .unwrap();
    let (exit, doc) = proposal_run(&dir);
    assert_eq!(exit, 1);
    let all = codes(&doc);
    assert_eq!(all.len(), 2, "{all:#?}");
    assert!(
        all.iter().all(|c| c.contains("proposal-conflict")),
        "{all:#?}"
    );
    assert!(
        all.iter().any(|c| c.contains("/poison_dlq/original_queue")),
        "{all:#?}"
    );
    // Adding a parameter to an existing sub-block merges, but changes what its cases mean.
    fs::remove_file(dir.join("fixtures/order-created.json")).unwrap();
    fs::write(
        dir.join("manifest.json"),
        r#"{"sqs": {"attempts_reconciliation": {"max_receive_count": 5}}}"#,
    )
    .unwrap();
    let (exit, doc) = proposal_run(&dir);
    assert_eq!(exit, 1, "{:#?}", codes(&doc));
    assert!(
        codes(&doc)
            .iter()
            .any(|c| c.contains("proposal-not-additive"))
    );
}
