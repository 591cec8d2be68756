//! `bqsuite adopt VERSION`: the proposal becomes the suite's next release, in place. Each test
//! works in a temporary repository root (`suite/`, `proposal/`, `LICENSE-suite`; [`Repo`]) and
//! adds its own case to the proposal, so that none depends on what the project's proposal holds
//! today, nor on the suite's version: the versions are derived from the suite's.

use std::fs;

use serde_json::{Value, json};

use crate::kit::*;

/// The number of cases `bqsuite ARGS --format json` (a validate) counts.
fn cases_of(repo: &Repo, args: &[&str]) -> u64 {
    let (exit, doc) = repo.json(args);
    assert_eq!(exit, 0, "{doc:#}");
    doc["data"]["cases"].as_u64().unwrap()
}

/// Asserts that nothing under `dir` changed since `before` (its [`snapshot`]), naming the first
/// path that did rather than printing both trees.
fn assert_untouched(dir: &std::path::Path, before: &[(String, Option<Vec<u8>>)], what: &str) {
    let after = snapshot(dir);
    let changed = after
        .iter()
        .zip(before)
        .find(|(a, b)| a != b)
        .map(|(a, _)| a.0.clone());
    assert!(
        after.len() == before.len() && changed.is_none(),
        "{what}: {} entries before, {} after; first difference: {changed:?}",
        before.len(),
        after.len()
    );
}

/// Every finding's severity counted: (errors, warnings).
fn counted(doc: &Value) -> (u64, u64) {
    let all = doc["diagnostics"].as_array().unwrap();
    let of = |s: &str| all.iter().filter(|d| d["severity"] == s).count() as u64;
    (of("error"), of("warning"))
}

#[test]
fn an_adopted_proposal_validates_releases_and_diffs_as_a_minor_release() {
    let repo = Repo::new();
    repo.propose_case();
    let base = repo.version();
    let next = repo.bumped("minor");
    let expected = cases_of(&repo, &["validate", "suite", "--proposal", "proposal"]);
    // The release before, as its asset, where the next step's `diff` looks for it.
    let root = repo.path("");
    assert_eq!(
        code(&repo.run(&["release", "suite", "--out", "."], false)),
        0
    );
    let before = repo.path(&format!("babelqueue-conformance-{base}.tar.gz"));
    assert!(before.is_file());

    let out = repo.run(&["adopt", &next], false);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert_eq!(repo.version(), next);
    let manifest = repo.read_json("suite/manifest.json");
    assert_eq!(manifest["conformance_version"], next.as_str());

    // The files written are named, and the output ends with the next steps, each of which works
    // when pasted.
    assert!(text.contains("wrote suite/CONFORMANCE_VERSION\n"), "{text}");
    assert!(text.contains("wrote suite/manifest.json\n"), "{text}");
    let renamed = format!("wrote suite/{ADOPTED_FIXTURE} (was proposal/{PROPOSED_FIXTURE})\n");
    assert!(text.contains(&renamed), "{text}");
    assert!(text.contains("wrote proposal/manifest.json\n"), "{text}");
    assert!(
        text.contains(&format!("deleted proposal/{PROPOSED_FIXTURE}\n")),
        "{text}"
    );
    let tail: Vec<&str> = text.lines().rev().take(4).collect();
    let steps = [
        "bqsuite validate suite".to_string(),
        format!("bqsuite release suite --out dist --tag v{next}"),
        format!("bqsuite diff babelqueue-conformance-{base}.tar.gz suite"),
    ];
    assert_eq!(tail[3], "next:", "{text}");
    for (line, step) in tail[..3].iter().rev().zip(&steps) {
        assert_eq!(line.trim(), step, "{text}");
        let pasted = paste(&root, step);
        assert_eq!(
            code(&pasted),
            0,
            "{step}: {}{}",
            stdout(&pasted),
            stderr(&pasted)
        );
    }
    let diff = stdout(&paste(&root, &steps[2]));
    assert!(diff.contains("bump: minor (only additions)"), "{diff}");

    // The adopted suite is what validate --proposal checked, and mutants runs over all of it.
    assert_eq!(cases_of(&repo, &["validate", "suite"]), expected);
    let (exit, doc) = repo.json(&["mutants", "suite"]);
    assert!(exit == 0 || exit == 1, "{doc:#}");
    assert_eq!(doc["data"]["cases"], expected);
    // Against the real 1.8.0, whatever was adopted since is additive.
    let real = real_1_8_0();
    let (exit, doc) = repo.json(&["diff", s(&real), "suite"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["required_bump"], "minor");
    // And against the real 1.8.0's asset as its old pipeline packed it (GNU tar, then gzip -n).
    let pack = format!(
        "set -e; r=babelqueue-conformance-1.8.0; mkdir -p published/$r; \
         cp -R {}/. published/$r/; cp LICENSE-suite published/$r/LICENSE; cd published; \
         tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - $r | gzip -n > $r.tar.gz",
        s(&real)
    );
    let packed = paste(&root, &pack);
    assert_eq!(code(&packed), 0, "{}", stderr(&packed));
    let asset = root.join("published/babelqueue-conformance-1.8.0.tar.gz");
    let (exit, doc) = repo.json(&["diff", s(&asset), "suite"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["required_bump"], "minor");

    // The proposal is left empty, and both commands that read it say so.
    assert_eq!(
        fs::read_to_string(repo.path("proposal/manifest.json")).unwrap(),
        "{}\n"
    );
    assert_eq!(
        fs::read_dir(repo.path("proposal/fixtures"))
            .unwrap()
            .count(),
        0
    );
    for command in ["validate", "mutants"] {
        let out = repo.run(&[command, "suite", "--proposal", "proposal"], false);
        let shown = stdout(&out);
        assert!(shown.contains("no cases proposed"), "{shown}");
        let plain = repo.run(&[command, "suite"], false);
        assert_eq!(code(&out), code(&plain), "{shown}");
    }
}

#[test]
fn proposed_fixtures_take_their_final_names_and_every_reference_follows() {
    let repo = Repo::new();
    repo.propose_case();
    let (exit, doc) = repo.json(&["adopt", &repo.bumped("minor")]);
    assert_eq!(exit, 0, "{doc:#}");
    assert!(
        doc["data"]["renamed"]
            .as_array()
            .unwrap()
            .contains(&json!({"from": format!("proposal/{PROPOSED_FIXTURE}"), "to": format!("suite/{ADOPTED_FIXTURE}")})),
        "{doc:#}"
    );
    let names: Vec<String> = fs::read_dir(repo.path("suite/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with("proposal-")),
        "{names:?}"
    );
    assert!(repo.path(&format!("suite/{ADOPTED_FIXTURE}")).is_file());
    let text = fs::read_to_string(repo.path("suite/manifest.json")).unwrap();
    assert!(
        !text.contains("fixtures/proposal-"),
        "a reference was not renamed"
    );
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let case = manifest["job_type"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == PROPOSED_CASE)
        .unwrap();
    assert_eq!(case["file"], ADOPTED_FIXTURE);
    // The suite's manifest keeps its own layout: every line of it is still there (one that now
    // ends with a comma before an addition included), the version's aside.
    let before = fs::read_to_string(bundled_suite().join("manifest.json")).unwrap();
    let kept: std::collections::HashSet<&str> = text
        .lines()
        .flat_map(|l| [l, l.strip_suffix(',').unwrap_or(l)])
        .collect();
    for line in before.lines() {
        if !line.contains("\"conformance_version\"") {
            assert!(kept.contains(line), "the line {line:?} was rewritten");
        }
    }
    // Every reference resolves, and no fixture is left unused.
    let (exit, doc) = repo.json(&["validate", "suite"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["diagnostics"], json!([]), "{doc:#}");
}

#[test]
fn a_final_name_the_suite_already_has_is_refused_and_nothing_is_written() {
    let repo = Repo::new();
    repo.propose_case();
    // A second proposed fixture whose final name is a fixture of the suite.
    let taken = repo.read_json("suite/manifest.json")["job_type"]["cases"][0]["file"]
        .as_str()
        .unwrap()
        .to_string();
    let name = taken.strip_prefix("fixtures/").unwrap();
    let proposed = format!("fixtures/proposal-{name}");
    fs::copy(
        repo.path(&format!("suite/{taken}")),
        repo.path(&format!("proposal/{proposed}")),
    )
    .unwrap();
    repo.edit("proposal/manifest.json", |m| {
        let cases = m["job_type"]["cases"].as_array_mut().unwrap();
        let mut twin = cases.last().unwrap().clone();
        twin["name"] = json!("adopt-test-name-taken");
        twin["file"] = json!(proposed);
        cases.push(twin);
    });
    let before = snapshot(&repo.path(""));
    let (exit, doc) = repo.json(&["adopt", &repo.bumped("minor")]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_untouched(&repo.path(""), &before, "something was written");
    let clash = findings(&doc, "adopt-fixture-name-taken");
    assert_eq!(clash.len(), 1, "{doc:#}");
    assert_eq!(clash[0]["file"], format!("proposal/{proposed}"));
    let message = clash[0]["message"].as_str().unwrap();
    assert!(message.contains(&format!("suite/{taken}")), "{message}");
    assert_eq!(doc["data"]["adopted"], false);
    assert_eq!(doc["data"]["written"], json!([]));
}

/// A member added to a sub-block every case of it reads: not an addition, since each case of the
/// block inherits it.
fn propose_a_parameter(repo: &Repo) {
    repo.edit("proposal/manifest.json", |m| {
        let section = m
            .as_object_mut()
            .unwrap()
            .entry("kafka")
            .or_insert_with(|| json!({}));
        let block = section
            .as_object_mut()
            .unwrap()
            .entry("attempts_reconciliation")
            .or_insert_with(|| json!({}));
        block["adopt_test_parameter"] = json!("changes every case of the block");
    });
}

#[test]
fn a_change_that_is_not_additive_is_refused_under_a_minor_version_and_adopted_under_a_major() {
    let repo = Repo::new();
    repo.propose_case();
    propose_a_parameter(&repo);
    let before = snapshot(&repo.path(""));
    let minor = repo.bumped("minor");
    let major = repo.bumped("major");
    let (exit, doc) = repo.json(&["adopt", &minor]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_untouched(&repo.path(""), &before, "something was written");
    let refusals = findings(&doc, "adopt-not-additive");
    assert!(!refusals.is_empty(), "{doc:#}");
    let pointer = "/kafka/attempts_reconciliation/adopt_test_parameter";
    let at_parameter = refusals
        .iter()
        .find(|d| d["pointer"] == pointer)
        .unwrap_or_else(|| panic!("no refusal at {pointer}: {doc:#}"));
    assert_eq!(at_parameter["file"], "proposal/manifest.json");
    let (line, column) = repo.position("proposal/manifest.json", pointer);
    assert_eq!(
        (at_parameter["line"].clone(), at_parameter["column"].clone()),
        (json!(line), json!(column))
    );
    let help = at_parameter["help"].as_str().unwrap();
    let fix = format!("`bqsuite adopt {major} suite --proposal proposal`");
    assert!(help.contains(&fix), "{help}");
    assert_eq!(doc["data"]["required_bump"], "major");

    let (exit, doc) = repo.json(&["adopt", &major]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(repo.version(), major);
    let manifest = repo.read_json("suite/manifest.json");
    assert_eq!(
        manifest["kafka"]["attempts_reconciliation"]["adopt_test_parameter"],
        "changes every case of the block"
    );
}

#[test]
fn a_case_without_a_member_its_block_always_has_is_refused_with_the_members_to_add() {
    let repo = Repo::new();
    // Without `expected_attempts`, which every case of that sub-block carries.
    repo.propose_reconciliation_case_without(
        "adopt-test-no-expected-attempts",
        "expected_attempts",
    );
    let before = snapshot(&repo.path(""));
    let (exit, doc) = repo.json(&["adopt", &repo.bumped("minor")]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_untouched(&repo.path(""), &before, "something was written");
    let refusals = findings(&doc, "adopt-not-additive");
    let d = refusals
        .iter()
        .find(|d| d["case"] == "attempts_reconciliation/adopt-test-no-expected-attempts")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(d["file"], "proposal/manifest.json");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("lacks `expected_attempts`"),
        "{d:#}"
    );
    let help = d["help"].as_str().unwrap();
    assert!(help.contains("give the case those members"), "{help}");
}

#[test]
fn a_version_that_is_not_semver_not_greater_or_short_of_the_bump_is_refused() {
    let repo = Repo::new();
    repo.propose_case();
    let base = repo.version();
    let minor = repo.bumped("minor");
    let fix = format!("bqsuite adopt {minor} suite --proposal proposal");
    let before = snapshot(&repo.path(""));
    for (version, expected) in [
        (format!("v{minor}"), "adopt-version-invalid"),
        ("next".to_string(), "adopt-version-invalid"),
        (base.clone(), "adopt-version-not-greater"),
        ("0.1.0".to_string(), "adopt-version-not-greater"),
        (repo.bumped("patch"), "adopt-version-insufficient"),
    ] {
        let (exit, doc) = repo.json(&["adopt", &version]);
        assert_eq!(exit, 1, "{version}: {doc:#}");
        assert_untouched(&repo.path(""), &before, &format!("{version}: written"));
        let all = doc["diagnostics"].as_array().unwrap();
        assert_eq!(all.len(), 1, "{version}: {doc:#}");
        let d = &all[0];
        assert_eq!(d["code"], expected, "{version}: {d:#}");
        assert_eq!(d["file"], "suite/CONFORMANCE_VERSION");
        let help = d["help"].as_str().unwrap();
        assert!(help.contains(&format!("`{fix}`")), "{version}: {help}");
    }
    // The fix, pasted, adopts.
    let pasted = paste(&repo.path(""), &fix);
    assert_eq!(code(&pasted), 0, "{}{}", stdout(&pasted), stderr(&pasted));
    assert_eq!(repo.version(), minor);
}

#[test]
fn an_empty_proposal_is_refused_and_nothing_is_written() {
    let repo = Repo::new();
    fs::write(repo.path("proposal/manifest.json"), "{}\n").unwrap();
    fs::remove_dir_all(repo.path("proposal/fixtures")).unwrap();
    let before = snapshot(&repo.path(""));
    let out = repo.run(&["adopt", &repo.bumped("minor")], false);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert_untouched(&repo.path(""), &before, "something was written");
    let text = stdout(&out);
    assert!(text.contains("error[adopt-nothing-proposed]"), "{text}");
    assert!(
        text.contains("`bqsuite validate suite --proposal proposal`"),
        "{text}"
    );
    assert!(text.contains("nothing written"), "{text}");
}

#[test]
fn json_is_one_document_whose_counts_are_its_findings() {
    let repo = Repo::new();
    repo.propose_case();
    propose_a_parameter(&repo);
    // Refused: one finding per change of the parameter, and a version that is not SemVer.
    for version in [repo.bumped("minor"), "x".to_string()] {
        let (exit, doc) = repo.json(&["adopt", &version]);
        assert_eq!(exit, 1, "{doc:#}");
        assert_eq!(doc["command"], "adopt");
        let (errors, warnings) = counted(&doc);
        assert!(errors >= 1, "{doc:#}");
        assert_eq!(
            (doc["errors"].as_u64(), doc["warnings"].as_u64()),
            (Some(errors), Some(warnings))
        );
        assert_eq!(doc["data"]["next"], json!([]));
    }
    // Adopted.
    let (exit, doc) = repo.json(&["adopt", &repo.bumped("major")]);
    assert_eq!(exit, 0, "{doc:#}");
    let (errors, warnings) = counted(&doc);
    assert_eq!(
        (doc["errors"].as_u64(), doc["warnings"].as_u64()),
        (Some(errors), Some(warnings))
    );
    assert_eq!(doc["data"]["adopted"], true);
    assert_eq!(doc["data"]["next"].as_array().unwrap().len(), 3);
    // A run that cannot start is one document too.
    let (exit, doc) = repo.json(&["adopt", "9.0.0", "suite", "--proposal", "missing"]);
    assert_eq!(exit, 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "not-found");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("missing") && !message.contains("os error"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn a_directory_that_cannot_be_written_leaves_suite_and_proposal_as_they_were() {
    let repo = Repo::new();
    repo.propose_case();
    let before = snapshot(&repo.path(""));
    let root = repo.path("");
    if !make_read_only(&root) {
        return; // neither the immutable attribute nor the mode is enforced here
    }
    let out = repo.run(&["adopt", &repo.bumped("minor")], false);
    make_writable(&root);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
    assert_untouched(&root, &before, "something was written");
}

#[cfg(unix)]
#[test]
fn an_old_copy_that_cannot_be_removed_is_a_warning_with_the_command_that_removes_it() {
    let repo = Repo::new();
    repo.propose_case();
    let fixtures = repo.path("suite/fixtures");
    if !make_read_only(&fixtures) {
        return;
    }
    let (exit, doc) = repo.json(&["adopt", &repo.bumped("minor")]);
    // The old suite (and its locked fixtures/) was moved aside: unlock it there.
    let aside: Vec<std::path::PathBuf> = fs::read_dir(repo.path(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".suite.old-")
        })
        .collect();
    for dir in &aside {
        make_writable(&dir.join("fixtures"));
    }
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(aside.len(), 1, "{aside:?}");
    let left = findings(&doc, "adopt-leftover");
    assert_eq!(left.len(), 1, "{doc:#}");
    assert_eq!(left[0]["severity"], "warning");
    assert_eq!(left[0]["file"], s(&fs::canonicalize(&aside[0]).unwrap()));
    let help = left[0]["help"].as_str().unwrap();
    let remove = help.split('`').nth(1).unwrap();
    assert_eq!(code(&paste(&repo.path(""), remove)), 0);
    assert!(!aside[0].exists());
    assert_eq!(repo.version(), bumped_from(&doc));
}

/// The version a successful `adopt --format json` document adopted.
fn bumped_from(doc: &Value) -> String {
    doc["data"]["version"].as_str().unwrap().to_string()
}
