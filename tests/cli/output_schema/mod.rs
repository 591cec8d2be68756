//! `--format json` of the suite maintainers' commands (validate, eval, mutants, release, diff,
//! completions, man, and refused command lines), in each outcome each has (clean, found a
//! problem, could not run), against the published schema `docs/reference/output.schema.json`;
//! and the facts in `data` checked against the world (the asset on disk, the real suite, the real
//! releases). tests/cli/output_schema/sdk.rs does the same for fetch, sync and results.

mod sdk;

use std::fs;

use serde_json::{Value, json};

use crate::kit::schema::*;
use crate::kit::*;

// ---------------------------------------------------------------------------------- the schema

/// A change to a document.
type Edit = fn(&mut Value);

#[test]
fn the_schema_is_draft_2020_12_and_not_vacuous() {
    assert_eq!(
        schema()["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let good = run(cwd.path(), &["validate", s(&suite)], &[], 0);
    // Each edit breaks one promise of the document; the schema must notice every one.
    let edits: [(&str, Edit); 10] = [
        ("no format_version", |d| {
            d.as_object_mut().unwrap().remove("format_version");
        }),
        ("format_version 2", |d| d["format_version"] = json!(2)),
        ("a count as a sentence", |d| {
            d["data"]["cases"] = json!("710 cases")
        }),
        ("data null although it ran", |d| d["data"] = Value::Null),
        ("an unknown data member", |d| d["data"]["extra"] = json!(1)),
        ("ok with errors", |d| d["errors"] = json!(1)),
        ("an unknown command", |d| d["command"] = json!("frobnicate")),
        (
            "an error object beside data",
            |d| d["error"] = json!({"kind": "io", "message": "m", "path": null, "help": null}),
        ),
        ("a finding without a code", |d| {
            d["diagnostics"] = json!([{"severity": "error", "file": "", "line": null,
                "column": null, "pointer": null, "section": null, "case": null,
                "message": "m", "help": null, "detail": null}])
        }),
        ("evaluator counts as text", |d| {
            d["data"]["evaluator"]["pass"] = json!("all")
        }),
    ];
    for (what, edit) in edits {
        let mut bad = good.clone();
        edit(&mut bad);
        assert!(!violations(&bad).is_empty(), "the schema accepts {what}");
    }
}

// ---------------------------------------------------------------------------------- validate

#[test]
fn validate_counts_the_real_suite() {
    let suite = real_1_8_0();
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", s(&suite)], &[], 0);
    let data = &doc["data"];
    assert_eq!(data["version"], "1.8.0");
    assert_eq!(data["cases"], 710);
    assert_eq!(data["sections"], 32);
    assert_eq!(data["fixtures"], 56);
    assert_eq!(data["schemas"], 2);
    assert_eq!(
        data["evaluator"],
        json!({"pass": 710, "skip": 0, "fail": 0, "unknown": 0})
    );
    assert_eq!(
        (&data["proposal"], &data["since"]),
        (&Value::Null, &Value::Null)
    );

    // --since: the version rules, as values.
    let old = real_release("1.7.0");
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--since", s(&old)],
        &[],
        0,
    );
    let since = &doc["data"]["since"];
    assert_eq!(since["old"]["version"], "1.7.0");
    assert_eq!(since["new"]["version"], "1.8.0");
    assert_eq!(since["required_bump"], "minor");
    assert_eq!(since["declared_bump"], "minor");
    assert_eq!(since["sufficient"], true);
    assert_eq!(since["counts"]["removed"], 0);
    assert_eq!(
        since["counts"]["added"],
        since["by_code"]["case-added"].as_u64().unwrap()
            + since["by_code"]["section-added"].as_u64().unwrap()
    );
}

#[test]
fn validate_with_the_proposal_names_the_merged_version() {
    let (suite, proposal) = (bundled_suite(), root().join("proposal"));
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--proposal", s(&proposal)],
        &[],
        0,
    );
    let data = &doc["data"];
    // The next minor of the suite's version, as a pre-release.
    let base = bundled_version();
    let parts: Vec<u64> = base.split('.').map(|p| p.parse().unwrap()).collect();
    let merged = format!("{}.{}.0-proposal", parts[0], parts[1] + 1);
    assert_eq!(data["version"], merged.as_str());
    let p = &data["proposal"];
    assert_eq!(p["merged"], true);
    assert_eq!(p["base_version"], base.as_str());
    assert_eq!(p["additive"], true);
    let added = p["cases_added"].as_u64().unwrap();
    let text = fs::read_to_string(suite.join("manifest.json")).unwrap();
    let own = bqsuite_core::index::CaseIndex::new(&serde_json::from_str(&text).unwrap()).len();
    assert_eq!(data["cases"].as_u64().unwrap(), own as u64 + added);
    assert_eq!(data["evaluator"]["pass"], data["cases"]);
}

#[test]
fn validate_that_finds_a_problem_still_says_what_it_counted() {
    let copy = suite_copy_of(&real_1_8_0());
    copy.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3)
    });
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", s(&copy.path())], &[], 1);
    assert_eq!(doc["data"]["cases"], 710);
    assert_eq!(doc["data"]["evaluator"]["fail"], 1);
    assert_eq!(doc["data"]["evaluator"]["pass"], 709);
    assert_eq!(findings(&doc, "expectation-mismatch").len(), 1);

    // No manifest: nothing to count or evaluate, and still a document with data.
    fs::remove_file(copy.file("manifest.json")).unwrap();
    let doc = run(cwd.path(), &["validate", s(&copy.path())], &[], 1);
    assert_eq!(doc["data"]["cases"], 0);
    assert_eq!(doc["data"]["evaluator"], Value::Null);
    assert_eq!(doc["data"]["fixtures"], 56);

    // A proposal that changes a released fixture cannot be merged.
    let proposal = tempfile::tempdir().unwrap();
    copy_tree(&root().join("proposal"), proposal.path());
    fs::write(proposal.path().join("fixtures/order-created.json"), "{}\n").unwrap();
    let suite = bundled_suite();
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--proposal", s(proposal.path())],
        &[],
        1,
    );
    assert!(!findings(&doc, "proposal-conflict").is_empty(), "{doc:#}");
    assert_eq!(doc["data"]["proposal"]["merged"], false);
}

/// `errors` and `warnings` are the numbers of findings of each severity listed (`run` asserts
/// it of every document): here both are non-zero, with notes beside them.
#[test]
fn validate_counts_the_errors_and_warnings_it_lists() {
    let copy = SuiteCopy::new();
    copy.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3);
        let case = m["cases"][0].as_object_mut().unwrap();
        let description = case.remove("description").unwrap_or(json!("d"));
        case.insert("descripton".into(), description);
    });
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", s(&copy.path())], &[], 1);
    assert_eq!(doc["errors"], 1, "{doc:#}");
    assert_eq!(doc["warnings"], 1, "{doc:#}");
    assert_eq!(findings(&doc, "misspelled-field").len(), 1, "{doc:#}");
}

#[test]
fn validate_that_cannot_run() {
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
    assert_eq!(doc["command"], "validate");
}

// ---------------------------------------------------------------------------------- eval

#[test]
fn eval_counts_its_verdicts() {
    let suite = real_1_8_0();
    let cwd = tempfile::tempdir().unwrap();
    let epoch = [("SOURCE_DATE_EPOCH", "0")];
    let doc = run(cwd.path(), &["eval", s(&suite)], &epoch, 0);
    let data = &doc["data"];
    assert_eq!(
        (
            &data["version"],
            &data["cases"],
            &data["pass"],
            &data["skip"],
            &data["not_passing"]
        ),
        (
            &json!("1.8.0"),
            &json!(710),
            &json!(710),
            &json!(0),
            &json!(0)
        )
    );
    assert_eq!(data["out"], Value::Null);
    assert_eq!(data["results"]["sections"].as_object().unwrap().len(), 32);

    let file = cwd.path().join("results.json");
    let doc = run(
        cwd.path(),
        &["eval", s(&suite), "--out", s(&file)],
        &epoch,
        0,
    );
    assert_eq!(doc["data"]["out"], s(&file));
    assert_eq!(doc["data"]["results"], Value::Null);
    assert!(file.is_file());

    let copy = suite_copy_of(&real_1_8_0());
    copy.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3)
    });
    let doc = run(cwd.path(), &["eval", s(&copy.path())], &epoch, 1);
    assert_eq!(doc["data"]["not_passing"], 1);
    assert_eq!(doc["data"]["pass"], 709);

    let doc = run(cwd.path(), &["eval", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- mutants

#[test]
fn mutants_lists_the_survivors() {
    // The real 1.8.0 lets some mutants through (which ones is pinned beside the catalogue);
    // `survivors`, `surviving`, the results and the findings agree on them.
    let suite = real_1_8_0();
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["mutants", s(&suite)], &[], 1);
    let data = &doc["data"];
    let survivors: Vec<&str> = data["survivors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(survivors.contains(&"kafka-zero-header-ignored"));
    let surviving: Vec<&str> = data["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["survives"] == true)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(survivors, surviving);
    let count = survivors.len() as u64;
    assert_eq!(data["surviving"], count);
    assert_eq!(
        data["killed"].as_u64().unwrap() + count,
        data["mutants"].as_u64().unwrap()
    );
    assert_eq!(findings(&doc, "surviving-mutant").len() as u64, count);

    // The suite with the proposal (this project's: it kills every mutant).
    let proposal = root().join("proposal");
    let doc = run(
        cwd.path(),
        &["mutants", s(&bundled_suite()), "--proposal", s(&proposal)],
        &[],
        0,
    );
    assert_eq!(doc["data"]["survivors"], json!([]));
    assert_eq!(doc["data"]["killed"], doc["data"]["mutants"]);
    // What each case the proposal adds kills; without a proposal there is nothing to list.
    let added = doc["data"]["added"].as_array().unwrap();
    assert!(added.iter().all(|a| a["kills"].is_array()));
    assert_eq!(data["added"], Value::Null);

    let doc = run(cwd.path(), &["mutants", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- adopt

#[test]
fn adopt_says_what_it_wrote_and_why_not() {
    let repo = Repo::new();
    repo.propose_case();
    let cwd = repo.path("");
    // Refused: a version that is not SemVer. Nothing written, and still the facts.
    let doc = run(&cwd, &["adopt", "next"], &[], 1);
    let data = &doc["data"];
    assert_eq!(data["adopted"], false);
    assert_eq!(data["base_version"], repo.version().as_str());
    assert_eq!(data["next"], json!([]));
    assert_eq!(data["suite"]["cases"], data["suite"]["evaluator"]["pass"]);

    // Adopted: what was added, renamed, written and deleted, and what to run next.
    let next = repo.bumped("minor");
    let doc = run(&cwd, &["adopt", &next], &[], 0);
    let data = &doc["data"];
    assert_eq!(
        (&data["adopted"], &data["version"], &data["required_bump"]),
        (&json!(true), &json!(next), &json!("minor"))
    );
    assert!(data["cases_added"].as_u64().unwrap() >= 1, "{doc:#}");
    let renamed = json!({"from": format!("proposal/{PROPOSED_FIXTURE}"),
                         "to": format!("suite/{ADOPTED_FIXTURE}")});
    assert!(data["renamed"].as_array().unwrap().contains(&renamed));
    let written = data["written"].as_array().unwrap();
    assert!(written.contains(&json!(format!("suite/{ADOPTED_FIXTURE}"))));
    assert!(written.contains(&json!("proposal/manifest.json")));
    let deleted = json!(format!("proposal/{PROPOSED_FIXTURE}"));
    assert!(data["deleted"].as_array().unwrap().contains(&deleted));
    assert_eq!(data["next"].as_array().unwrap().len(), 3);
    assert_eq!(data["suite"]["version"], json!(next));

    // Could not run: no proposal directory.
    let doc = run(&cwd, &["adopt", "9.0.0", "--proposal", "absent"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
    assert_eq!(doc["command"], "adopt");
}

// ---------------------------------------------------------------------------------- release

#[test]
fn release_says_what_it_wrote() {
    let copy = suite_copy_of(&real_1_8_0());
    let cwd = copy.dir.path();
    let epoch = [("SOURCE_DATE_EPOCH", "0")];
    let doc = run(cwd, &["release", "suite", "--out", "dist"], &epoch, 0);
    let data = &doc["data"];
    let name = "babelqueue-conformance-1.8.0.tar.gz";
    let asset = cwd.join("dist").join(name);
    assert_eq!(data["version"], "1.8.0");
    assert_eq!(data["released"], true);
    assert_eq!(data["asset"]["name"], name);
    assert_eq!(data["asset"]["path"], format!("dist/{name}"));
    assert_eq!(data["asset"]["sha256"], sha256_of(&asset));
    assert_eq!(data["asset"]["size"], fs::metadata(&asset).unwrap().len());
    assert_eq!(data["asset"]["entries"], 65);
    assert_eq!(data["sha256sums"], "dist/SHA256SUMS");
    assert_eq!(
        fs::read_to_string(cwd.join("dist/SHA256SUMS")).unwrap(),
        format!("{}  {name}\n", sha256_of(&asset))
    );
    assert_eq!(data["mtime"], 0);
    assert_eq!(data["suite"]["cases"], 710);

    // Refused: a tag that is not the version. Nothing written, no asset.
    let doc = run(
        cwd,
        &["release", "suite", "--out", "dist2", "--tag", "v9.9.9"],
        &epoch,
        1,
    );
    assert_eq!(doc["data"]["released"], false);
    assert_eq!(doc["data"]["asset"], Value::Null);
    assert_eq!(doc["data"]["sha256sums"], Value::Null);
    assert!(!cwd.join("dist2").join(name).exists());

    fs::write(cwd.join("a-file"), "").unwrap();
    let doc = run(cwd, &["release", "suite", "--out", "a-file"], &epoch, 2);
    assert_eq!(doc["error"]["kind"], "bad-path");
}

// ---------------------------------------------------------------------------------- diff

#[test]
fn diff_of_real_releases_gives_the_bump_verdict() {
    let cwd = tempfile::tempdir().unwrap();
    let (v15, v16) = (real_release("1.5.0"), real_release("1.6.0"));
    let doc = run(cwd.path(), &["diff", s(&v15), s(&v16)], &[], 1);
    let data = &doc["data"];
    assert_eq!(data["old"]["version"], "1.5.0");
    assert_eq!(data["new"]["version"], "1.6.0");
    // 1.6.0 removed and changed cases, but was released as a minor version.
    assert_eq!(data["required_bump"], "major");
    assert_eq!(data["declared_bump"], "minor");
    assert_eq!(data["sufficient"], false);
    assert_eq!(data["suggested_version"], "2.0.0");
    assert_eq!(data["counts"]["removed"], 1);
    // Two cases changed; three added to `backoff.retry_republish` lack `release_delay_ms`, which
    // every case of that block had in 1.5.0, and the 62 cases of the blocks 1.6.0 added to
    // `backoff` and `redis_layout` lack what every 1.5.0 case of those sections carried.
    assert_eq!(data["counts"]["changed"], 67);
    assert_eq!(data["by_code"]["case-removed"], 1);
    assert_eq!(data["by_code"]["case-changed"], 2);
    assert_eq!(data["by_code"]["case-lacks-member"], 65);
    let counted: u64 = data["by_code"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(data["changes"], counted);
    assert_eq!(findings(&doc, "version-bump-insufficient").len(), 1);

    let notes = cwd.path().join("notes.md");
    let (v17, v18) = (real_release("1.7.0"), real_release("1.8.0"));
    let doc = run(
        cwd.path(),
        &["diff", s(&v17), s(&v18), "--markdown", s(&notes)],
        &[],
        0,
    );
    assert_eq!(doc["data"]["required_bump"], "minor");
    assert_eq!(doc["data"]["sufficient"], true);
    assert_eq!(doc["data"]["release_notes"], s(&notes));
    assert!(notes.is_file());

    let doc = run(cwd.path(), &["diff", s(&v17), "absent"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- the rest

#[test]
fn generated_text_and_refused_command_lines_conform() {
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["completions", "bash"], &[], 0);
    assert!(doc["data"]["text"].as_str().unwrap().contains("bqsuite"));
    let doc = run(cwd.path(), &["man"], &[], 0);
    assert!(doc["data"]["text"].as_str().unwrap().contains(".TH"));
    let doc = run(cwd.path(), &["man", "results", "check"], &[], 0);
    assert!(
        doc["data"]["text"]
            .as_str()
            .unwrap()
            .contains("bqsuite-results-check")
    );
    let pages = cwd.path().join("man1");
    let doc = run(cwd.path(), &["man", "--out", s(&pages)], &[], 0);
    assert_eq!(doc["data"]["out"], s(&pages));
    assert!(
        doc["data"]["pages"].as_array().unwrap().len() > 10,
        "{doc:#}"
    );
    for (args, command) in [
        (vec!["completions", "no-such-shell"], "completions"),
        (vec!["frobnicate"], ""),
        (vec!["results"], "results"),
        (vec!["validate", "--no-such-option"], "validate"),
    ] {
        let doc = run(cwd.path(), &args, &[], 2);
        assert_eq!(doc["command"], command, "{args:?}");
        assert_eq!(doc["error"]["kind"], "usage", "{args:?}");
    }
}
