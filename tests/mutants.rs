//! `bqsuite mutants`: suite adequacy. Every mutant of the catalogue (a plausible wrong SDK
//! behaviour) must fail at least one case of the sections that pin its rule; the cases added for
//! a mutant are what kill it; a survivor is a `surviving-mutant` finding (exit 1).

mod common;

use std::path::Path;

use bqsuite::eval::mutants::assess::{Assessment, assess};
use bqsuite::eval::mutants::{self, catalogue};
use bqsuite::eval::{evaluate, evaluate_mutant};
use bqsuite::suite::load;
use common::*;
use serde_json::Value;

/// The cases added to 1.5.0 for one mutant each: (section, case id, mutant id). Each is the only
/// case that kills its mutant.
const ADDED_FOR: [(&str, &str, &str); 9] = [
    ("trim", "make-keeps-control-chars", "trim-java-string-trim"),
    (
        "trim",
        "decode-control-char-job-is-identity",
        "decode-blank-java-trim",
    ),
    (
        "job_type",
        "job-array-other-urn-fallback",
        "decode-job-array-coerced",
    ),
    (
        "job_type",
        "job-object-other-urn-fallback",
        "decode-job-object-unwrapped",
    ),
    (
        "job_type",
        "string-job-non-string-urn-ignored",
        "decode-urn-non-string-fatal",
    ),
    (
        "backoff",
        "retry_republish/header-lower-than-body",
        "backoff-republish-max-plus-one",
    ),
    (
        "traceparent",
        "upper-case-header-falls-back",
        "traceparent-upper-hex-accepted",
    ),
    (
        "traceparent",
        "fallback-lower-cases-trace-id",
        "traceparent-fallback-case-kept",
    ),
    (
        "traceparent",
        "forbidden-version-ff-falls-back",
        "traceparent-any-version",
    ),
];

fn assess_dir(root: &Path) -> Assessment {
    let suite = load::load(root).unwrap();
    assess(suite.require_manifest().unwrap(), &suite)
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

#[test]
fn the_bundled_suite_kills_every_mutant() {
    let out = bqsuite(&["mutants", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    assert_eq!(doc["command"], "mutants");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["errors"], 0);
    let total = doc["data"]["mutants"].as_u64().unwrap();
    assert!(total >= 30, "{total} mutants");
    assert_eq!(doc["data"]["surviving"], 0);
    assert_eq!(doc["data"]["killed"], total);
    let results = doc["data"]["results"].as_array().unwrap();
    assert_eq!(results.len() as u64, total);
    for r in results {
        assert_eq!(r["survives"], false, "{r:#}");
        let kills = r["killed_by"].as_array().unwrap();
        assert!(!kills.is_empty());
        for k in kills {
            for field in ["section", "case", "pointer", "verdict"] {
                assert!(k[field].is_string(), "{field} in {k:#}");
            }
        }
    }

    // Human output: one compact line per mutant, then the verdict.
    let out = bqsuite(&["mutants"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("killed   trim-java-string-trim [trim] by trim/make-keeps-control-chars"),
        "{text}"
    );
    assert!(text.contains(&format!("{total} mutants over ")), "{text}");
    assert!(text.contains("0 surviving"), "{text}");
    assert!(text.ends_with("ok: suite kills every mutant\n"), "{text}");
}

#[test]
fn every_mutant_is_killed_in_each_section_that_pins_its_rule() {
    let assessment = assess_dir(&bundled_suite());
    assert!(assessment.not_passing.is_empty());
    assert_eq!(assessment.runs.len(), catalogue().len());
    for run in &assessment.runs {
        for section in run.info.sections {
            assert!(
                run.killed_in(section),
                "mutant {} is not killed by any case of section {section}; kills: {:?}",
                run.info.id,
                run.kills
                    .iter()
                    .map(|k| format!("{}/{}", k.section, k.id))
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn each_added_case_is_what_kills_its_mutant() {
    let suite = load::load(&bundled_suite()).unwrap();
    let manifest = suite.require_manifest().unwrap();
    for (section, id, mutant_id) in ADDED_FOR {
        let info = mutants::find(mutant_id).unwrap_or_else(|| panic!("no mutant {mutant_id}"));
        assert!(
            info.sections.contains(&section),
            "{mutant_id} is pinned by {section}"
        );
        let killers: Vec<String> = evaluate_mutant(manifest, &suite, info.mutant)
            .into_iter()
            .filter(|o| o.verdict != bqsuite::eval::outcome::Verdict::Pass)
            .map(|o| format!("{}/{}", o.section, o.id))
            .collect();
        assert_eq!(killers, vec![format!("{section}/{id}")], "{mutant_id}");

        // Without the case, the mutant survives.
        let mut without = manifest.clone();
        remove_case(&mut without, section, id);
        let revived = evaluate_mutant(&without, &suite, info.mutant);
        assert!(
            revived
                .iter()
                .all(|o| o.verdict == bqsuite::eval::outcome::Verdict::Pass),
            "removing {section}/{id} should revive {mutant_id}"
        );
    }
}

#[test]
fn a_survivor_is_a_finding_naming_mutant_rule_and_section() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| remove_case(m, "backoff", "retry_republish/header-lower-than-body"));
    let out = bqsuite(&["mutants", s.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["data"]["surviving"], 1);
    let diags = doc["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{doc:#}");
    let d = &diags[0];
    assert_eq!(d["code"], "surviving-mutant");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["file"], "manifest.json");
    assert_eq!(d["pointer"], "/backoff");
    assert!(d["line"].is_u64(), "{d:#}");
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("`backoff-republish-max-plus-one`"),
        "{message}"
    );
    assert!(
        message.contains("even when it is lower than the body"),
        "{message}"
    );
    let help = d["help"].as_str().unwrap();
    assert!(help.contains("section `backoff`"), "{help}");
    assert!(help.contains("`bqsuite mutants "), "{help}");

    let out = bqsuite(&["mutants", s.path().to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("error[surviving-mutant]: mutant `backoff-republish-max-plus-one` survives"),
        "{text}"
    );
    assert!(
        text.contains("SURVIVES backoff-republish-max-plus-one [backoff]"),
        "{text}"
    );
    assert!(text.contains("1 surviving"), "{text}");
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
    assert!(
        before
            .iter()
            .all(|o| o.verdict == bqsuite::eval::outcome::Verdict::Pass)
    );
    let _ = assess(manifest, &suite);
    assert_eq!(mutants::active(), None);
    assert_eq!(evaluate(manifest, &suite), before);
}

#[test]
fn a_case_the_model_does_not_pass_is_a_warning_and_kills_nothing() {
    let s = SuiteCopy::new();
    // A wrong expectation: the only case that kills backoff-republish-max-plus-one now states
    // what that mutant derives, so the reference model fails it and the mutant survives.
    s.edit_manifest(|m| {
        let cases = m["backoff"]["retry_republish"]["cases"]
            .as_array_mut()
            .unwrap();
        let case = cases
            .iter_mut()
            .find(|c| c["name"] == "header-lower-than-body")
            .unwrap();
        case["expect_headers"]["bq-attempts"] = serde_json::json!("5");
        case["expect_body_attempts"] = serde_json::json!(5);
    });
    let out = bqsuite(&["mutants", s.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let diags = doc["diagnostics"].as_array().unwrap();
    let warning = diags
        .iter()
        .find(|d| d["code"] == "case-not-passing")
        .expect("a case-not-passing warning");
    assert_eq!(warning["severity"], "warning");
    assert_eq!(warning["section"], "backoff");
    assert_eq!(warning["case"], "retry_republish/header-lower-than-body");
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
                .contains("backoff-republish-max-plus-one")),
        "{doc:#}"
    );
}
