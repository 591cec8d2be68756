//! Issue 21 items 2-4 and bad input for `sync --check`, on a workspace shaped like the real
//! fleet: the 25 targets of the repository's sync-targets.txt, babelqueue-java,
//! babelqueue-java-redis and babelqueue-dotnet-redis not cloned, and the 22 others holding the
//! unversioned upstream copy (tests/data/upstream-suite without its CONFORMANCE_VERSION), byte for
//! byte the same.
//!
//! - each copy's cases are counted against the suite's, and the counts agree with an independent
//!   count ([`independent`](crate::kit::fleet::independent)) for the upstream copy and every real
//!   release;
//! - copies that drifted the same way are one block; the human report stays under 60 lines; the
//!   most important files come first; no copy is called interrupted;
//! - on the fleet of the SDK developer's guide (`docs/sync-demo.sh`: two copies on earlier
//!   releases, one hand-edited), the report stays within 60 lines too, and copies that differ in
//!   the same files with other bytes list those files once;
//! - annotations stay within GitHub's 10 per level, plus one notice;
//! - a manifest that is not JSON, a copy path that is a regular file, a link inside a copy: one
//!   line each, an `error` row each, the rest of the fleet still reported, exit 1.
#![cfg(unix)]

use std::fs;

use serde_json::Value;

use crate::kit::fleet::*;
use crate::kit::{
    AMBIENT_ENV, code, copy_tree, json, real_release, root, row, run_in, stderr, stdout, upstream,
};

#[test]
fn the_independent_count_is_not_trivial() {
    // Guards the guard: the releases differ from 1.8.0 in every way the counts report.
    let suite = real_release("1.8.0");
    let dir = tempfile::tempdir().unwrap();
    let all: Vec<_> = old_copies(dir.path())
        .into_iter()
        .map(|(name, path)| (name, independent(&path, &suite)))
        .collect();
    let by = |name: &str| all.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!(by("1.8.0").0 + by("1.8.0").1 + by("1.8.0").2, 0);
    assert!(by("upstream").0 > 600, "{:?}", by("upstream"));
    assert!(
        all.iter().any(|(_, c)| c.1 > 0),
        "no release changes a case: {all:?}"
    );
    assert!(
        all.iter().any(|(_, c)| c.2 > 0),
        "no release has a case 1.8.0 lacks: {all:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// sync --check.

#[test]
fn the_real_fleet_is_one_short_block_that_names_every_copy_once() {
    let fleet = Fleet::new();
    let out = fleet.check(&[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 60, "{} lines:\n{text}", lines.len());
    // Never interrupted, never incomplete: the copies name no version anywhere.
    assert!(
        !text.contains("interrupted") && !text.contains("incomplete"),
        "{text}"
    );
    // One block for the 22 identical copies, which says they are unversioned and counts cases.
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.starts_with("drift: "))
        .collect();
    assert_eq!(blocks.len(), 1, "{text}");
    let block: Vec<&str> = blocks[0].lines().collect();
    assert!(
        block[0].starts_with("drift: 22 copies, unversioned -> 1.8.0"),
        "{text}"
    );
    assert!(block[1].starts_with("    copy:  unversioned"), "{text}");
    assert!(
        block[2].starts_with(
            "    cases: 654 of 710 missing, 0 changed, 0 extra; 22 of 32 sections missing ("
        ),
        "{text}"
    );
    // The two real differences first, not behind "... and N more".
    let files: Vec<&str> = block
        .iter()
        .filter(|l| l.starts_with("      missing ") || l.starts_with("      changed "))
        .copied()
        .collect();
    assert_eq!(files[0], "      changed  manifest.json", "{text}");
    assert_eq!(files[1], "      missing  CONFORMANCE_VERSION", "{text}");
    assert!(files[2].ends_with("schema/results.example.json"), "{text}");
    assert!(files[3].ends_with("schema/results.schema.json"), "{text}");
    assert!(files.len() <= 10, "{text}");
    // Every target present named exactly once; the three absent repositories one line, named
    // with --verbose.
    let verbose = stdout(&fleet.check(&["--verbose"]));
    for target in real_targets() {
        let named = |text: &str| {
            text.lines()
                .filter(|l| l.trim() == target || l.contains(&format!(" {target}, ")))
                .count()
        };
        let absent = NOT_CLONED.contains(&repo_of(&target));
        assert_eq!(named(&text), usize::from(!absent), "{target}:\n{text}");
        assert_eq!(named(&verbose), 1, "{target}:\n{verbose}");
    }
    assert!(
        text.contains(
            "\nmissing-repo: 3 targets of 3 SDK repositories not in the workspace .. \
             (`--verbose` lists them)\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("bqsuite sync --suite suite --workspace ..")
            .count(),
        1,
        "{text}"
    );
    // --verbose lists every file (and stays one block).
    assert!(
        verbose.contains("      missing  fixtures/wrong-case-keys-roundtrip.json"),
        "{verbose}"
    );
    assert!(!verbose.contains("more (`--verbose`"), "{verbose}");
}

#[test]
fn the_real_fleet_json_counts_cases_and_groups_the_copies() {
    let fleet = Fleet::new();
    let out = fleet.check(&["--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let want = independent(&upstream(), &real_release("1.8.0"));
    let drifted: Vec<String> = real_targets()
        .into_iter()
        .filter(|t| !NOT_CLONED.contains(&repo_of(t)))
        .collect();
    assert_eq!(drifted.len(), 22);
    for target in &drifted {
        let r = row(&doc, target);
        assert_eq!(r["status"], "drift", "{r:#}");
        assert_eq!(r["unversioned"], true);
        assert_eq!(r["interrupted"], false);
        assert_eq!(r["incomplete"], false);
        assert_eq!(counted(r), want, "{target}");
        assert_eq!(r["cases_not_counted"], Value::Null);
        assert_eq!(
            (r["missing"].as_u64(), r["changed"].as_u64()),
            (Some(53), Some(1))
        );
        assert_eq!(r["files"][0]["path"], "manifest.json");
        assert_eq!(r["group"], 0);
    }
    let groups = doc["data"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:#?}");
    assert_eq!(groups[0]["status"], "drift");
    assert_eq!(groups[0]["targets"].as_array().unwrap().len(), 22);
    for repo in NOT_CLONED {
        let r = doc["data"]["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["repo"] == repo)
            .unwrap();
        assert_eq!(r["status"], "missing-repo");
        assert_eq!(r["group"], Value::Null);
    }
    // Every file finding is still there, and one summary finding for the group comes first.
    let diags = doc["diagnostics"].as_array().unwrap();
    assert_eq!(
        diags
            .iter()
            .filter(|d| d["code"] == "drift-missing")
            .count(),
        22 * 53
    );
    assert_eq!(diags[0]["code"], "copy-drift");
    assert_eq!(
        diags.iter().filter(|d| d["code"] == "copy-drift").count(),
        1
    );
}

#[test]
fn every_real_release_is_counted_like_the_independent_count() {
    // One target per real release (and the upstream copy), against the real 1.8.0.
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let mut targets = String::new();
    let copies = old_copies(&dir.path().join("copies"));
    for (name, path) in &copies {
        let target = format!("sdk-{name}/tests/conformance");
        copy_tree(path, &ws.join(&target));
        if name == "upstream" {
            let _ = fs::remove_file(ws.join(&target).join("CONFORMANCE_VERSION"));
        }
        targets.push_str(&target);
        targets.push('\n');
    }
    fs::write(dir.path().join("targets.txt"), targets).unwrap();
    let suite = real_release("1.8.0");
    let out = run_in(
        dir.path(),
        &[
            "sync",
            "--check",
            "--suite",
            suite.to_str().unwrap(),
            "--workspace",
            "ws",
            "--targets",
            "targets.txt",
            "--format",
            "json",
        ],
        &[],
    );
    let doc = json(&out);
    for (name, path) in &copies {
        let r = row(&doc, &format!("sdk-{name}/tests/conformance"));
        assert_eq!(counted(r), independent(path, &suite), "{name}");
    }
    assert_eq!(
        row(&doc, "sdk-1.8.0/tests/conformance")["status"],
        "in-sync"
    );
}

#[test]
fn sync_check_annotations_stay_within_what_github_shows() {
    let fleet = Fleet::new();
    let out = fleet.check(&["--format", "github"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let level = |l: &str| {
        text.lines()
            .filter(|x| x.starts_with(&format!("::{l} ")))
            .count()
    };
    assert!(level("error") <= 10 && level("warning") <= 10, "{text}");
    // One annotation for the 22 copies, with the counts and the fix; then one notice.
    assert_eq!(level("error"), 1, "{text}");
    let group = text.lines().find(|l| l.starts_with("::error ")).unwrap();
    assert!(
        group.contains(
            "title=copy-drift::22 copies (unversioned) differ from the canonical suite 1.8.0"
        ),
        "{group}"
    );
    assert!(group.contains("cases: 654 of 710 missing"), "{group}");
    assert!(
        group.contains("first: manifest.json changed, CONFORMANCE_VERSION missing"),
        "{group}"
    );
    assert!(
        group.contains("help: `bqsuite sync --suite suite --workspace ..` re-vendors them"),
        "{group}"
    );
    assert_eq!(level("notice"), 1, "{text}");
    let notice = text.lines().last().unwrap();
    assert!(
        notice.starts_with(&format!(
            "::notice title=bqsuite%3A more findings::{} per-file findings are summed up in the \
             annotation of their copies",
            22 * 54
        )),
        "{notice}"
    );
}

/// Runs docs/sync-demo.sh (the fleet of the SDK developer's guide: most copies the upstream
/// copy, babelqueue-node on 1.7.0, babelqueue-dotnet on 1.5.0, one hand-edited copy, three
/// repositories not cloned) in a new directory under `dir`, with the built binary.
fn sync_demo(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(root().join("docs/sync-demo.sh"))
        .arg(dir.join("demo"))
        .args(extra)
        .env("BQSUITE", env!("CARGO_BIN_EXE_bqsuite"));
    for name in AMBIENT_ENV {
        cmd.env_remove(name);
    }
    cmd.output().expect("run docs/sync-demo.sh")
}

/// The report the guide shows for that fleet (its `sync-check` example), without the command.
fn guide_example() -> String {
    let guide = fs::read_to_string(root().join("docs/guide/sdk-developer.md")).unwrap();
    let start = guide.find("<!-- example: sync-check -->").unwrap();
    let block = &guide[start..];
    let block = &block[..block.find("<!-- /example -->").unwrap()];
    let lines: Vec<&str> = block
        .lines()
        .skip_while(|l| !l.starts_with("$ bqsuite"))
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    lines.join("\n") + "\n"
}

#[test]
fn the_guide_fleet_report_is_short_and_lists_files_shared_by_releases_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = sync_demo(dir.path(), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines().count() <= 60,
        "{} lines:\n{text}",
        text.lines().count()
    );
    // The script builds the fleet the guide shows.
    assert_eq!(text, guide_example());

    // babelqueue-node (1.7.0) and babelqueue-dotnet (1.5.0) differ from 1.8.0 in the same three
    // files with other bytes and other cases: one block lists the files once, then each copy
    // with what it is and its own cases.
    let node = "babelqueue-node/test/conformance";
    let dotnet = "babelqueue-dotnet/tests/BabelQueue.Core.Tests/conformance";
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.contains(node) || b.contains(dotnet))
        .collect();
    assert_eq!(blocks.len(), 1, "{text}");
    let block: Vec<&str> = blocks[0].lines().collect();
    assert!(
        block[0].starts_with("drift: 2 copies, 1.7.0 and 1.5.0 -> 1.8.0"),
        "{text}"
    );
    for file in [
        "manifest.json",
        "CONFORMANCE_VERSION",
        "schema/results.example.json",
    ] {
        assert_eq!(
            text.matches(&format!("      changed  {file}\n")).count(),
            if file == "manifest.json" { 2 } else { 1 },
            "{file}:\n{text}"
        );
        assert_eq!(
            block
                .iter()
                .filter(|l| **l == format!("      changed  {file}"))
                .count(),
            1,
            "{file}:\n{text}"
        );
    }
    let line = |target: &str| {
        *block
            .iter()
            .find(|l| l.starts_with(&format!("      {target}: ")))
            .unwrap_or_else(|| panic!("no line for {target}:\n{text}"))
    };
    assert!(
        line(node).contains(": release 1.7.0 unmodified; cases: 68 of 710 missing,"),
        "{text}"
    );
    assert!(
        line(dotnet).contains(": release 1.5.0 unmodified; cases: 431 of 710 missing,"),
        "{text}"
    );

    // JSON keeps each copy's own group, identity and cases.
    let doc = json(&sync_demo(&dir.path().join("json"), &["--format", "json"]));
    for (target, release, missing) in [(node, "1.7.0", 68), (dotnet, "1.5.0", 431)] {
        let r = row(&doc, target);
        assert_eq!(r["known_release"], release, "{r:#}");
        assert_eq!(r["cases"]["missing"], missing, "{r:#}");
        assert_eq!(r["changed"], 3, "{r:#}");
    }
    assert_ne!(row(&doc, node)["group"], row(&doc, dotnet)["group"]);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_copies_are_one_line_and_an_error_row_each_and_the_rest_is_still_reported() {
    let fleet = Fleet::new();
    let ws = fleet.ws();
    let targets = real_targets();
    let (not_json, is_file, linked) = (&targets[0], &targets[1], &targets[2]);
    fs::write(
        ws.join(not_json).join("manifest.json"),
        "{\"schema_version\": 1,\n",
    )
    .unwrap();
    fs::remove_dir_all(ws.join(is_file)).unwrap();
    fs::write(ws.join(is_file), "not a directory\n").unwrap();
    std::os::unix::fs::symlink(
        "/etc/hostname",
        ws.join(linked).join("fixtures/linked.json"),
    )
    .unwrap();

    let out = fleet.check(&[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 3, "{text}");
    let line = |needle: &str| {
        *errors
            .iter()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line for {needle}:\n{text}"))
    };
    let bad = line(&format!(
        "`{not_json}/manifest.json` is not JSON (line 2, column 1"
    ));
    assert!(
        bad.contains("`bqsuite sync --suite suite --workspace ..` re-vendors it"),
        "{bad}"
    );
    let file = line(&format!("`{is_file}` is a regular file, not a directory"));
    assert!(
        file.contains("move it out of the way")
            && file.contains("then run `bqsuite sync --suite suite --workspace ..`"),
        "{file}"
    );
    let link = line(&format!(
        "`{linked}/fixtures/linked.json` is a symbolic link"
    ));
    assert!(
        link.contains("replace it with a regular file or delete it"),
        "{link}"
    );
    // The rest of the fleet: the 19 others, one block.
    assert!(
        text.contains("\ndrift: 19 copies, unversioned -> 1.8.0"),
        "{text}"
    );
    assert!(text.lines().count() <= 60, "{text}");

    let doc = json(&fleet.check(&["--format", "json"]));
    for (target, code_name) in [
        (not_json, "sync-bad-manifest"),
        (is_file, "sync-not-a-directory"),
        (linked, "sync-symlink"),
    ] {
        let r = row(&doc, target);
        assert_eq!(r["status"], "error", "{r:#}");
        assert_eq!(r["error"]["code"], code_name, "{r:#}");
        assert_eq!(r["cases"], Value::Null);
    }
    assert!(
        row(&doc, not_json)["cases_not_counted"]
            .as_str()
            .unwrap()
            .contains("not JSON")
    );
    assert_eq!(doc["data"]["counts"]["error"], 3);
    assert_eq!(doc["data"]["counts"]["drift"], 19);
}

#[test]
fn a_manifest_that_is_json_but_no_suite_is_drift_without_counts() {
    let fleet = Fleet::new();
    let target = &real_targets()[0];
    fs::write(fleet.ws().join(target).join("manifest.json"), "[1, 2]\n").unwrap();
    let out = fleet.check(&["--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let r = row(&doc, target);
    assert_eq!(r["status"], "drift");
    assert_eq!(r["cases"], Value::Null);
    assert_eq!(r["cases_not_counted"], "manifest.json is not a JSON object");
    // It differs from the suite in the same files as the 21 upstream copies, so it shares their
    // file list, on its own line with its own cases.
    let text = stdout(&fleet.check(&[]));
    let own = format!(
        "      {target}: unversioned (no CONFORMANCE_VERSION, no conformance_version in \
         manifest.json); cases: not counted: manifest.json is not a JSON object\n"
    );
    assert!(text.contains(&own), "{text}");
    assert_eq!(text.matches("changed  manifest.json").count(), 1, "{text}");
}
