//! Issue 21 item 8: small things a newcomer hit. `validate --since` points a duplicate case id at
//! the case that was added; `fetch --update` names every file it deletes; `sync` is coloured like
//! the other commands; counts agree with their nouns.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{SuiteCopy, bqsuite, bundled_suite, bundled_version, code, copy_tree, stdout};
use serde_json::Value;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn duplicate_pointer(args: &[&str]) -> (String, String) {
    let out = bqsuite(args);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "duplicate-case-id")
        .unwrap_or_else(|| panic!("no duplicate-case-id in {doc:#}"))
        .clone();
    (
        d["pointer"].as_str().unwrap().to_string(),
        d["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn since_points_a_duplicate_id_at_the_added_case() {
    let s = SuiteCopy::new();
    // A new case, inserted before the released `urn-alias`, reusing its id.
    s.edit_manifest(|m| {
        let cases = m["cases"].as_array_mut().unwrap();
        let mut added = cases[1].clone();
        added["description"] = "a new case that reuses a released id".into();
        cases.insert(0, added);
    });
    let new = s.path();
    let new = new.to_str().unwrap();
    // Without --since the finding is on the later one in manifest order: the released case.
    let (pointer, _) = duplicate_pointer(&["validate", new, "--format", "json"]);
    assert_eq!(pointer, "/cases/2");
    // With --since it is on the case that was added, and names the released one.
    let old = bundled_suite();
    let (pointer, message) = duplicate_pointer(&[
        "validate",
        new,
        "--since",
        old.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(pointer, "/cases/0", "{message}");
    assert!(message.contains("released one at /cases/2"), "{message}");
}

fn update_env(dist: &Path) -> String {
    format!("file://{}", dist.display())
}

#[test]
fn fetch_update_names_every_file_it_deletes() {
    let work = tempfile::tempdir().unwrap();
    let dist = work.path().join("dist");
    let out = bqsuite(&[
        "release",
        bundled_suite().to_str().unwrap(),
        "--out",
        dist.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let copy = work.path().join("sdk/conformance");
    copy_tree(&data("real-releases/1.7.0"), &copy);
    fs::write(copy.join("fixtures/local-one.json"), "{}").unwrap();
    fs::write(copy.join("schema/local-two.json"), "{}").unwrap();
    let version = bundled_version();
    let run = |format: &str| {
        common::command()
            .args(["fetch", "--update", &version, copy.to_str().unwrap()])
            .args(["--format", format])
            .env("BQ_CONFORMANCE_BASE_URL", update_env(&dist))
            .env("CI", "true")
            .env_remove("SOURCE_DATE_EPOCH")
            .output()
            .unwrap()
    };
    let out = run("human");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    for rel in ["fixtures/local-one.json", "schema/local-two.json"] {
        let line = format!("deleted {}", copy.join(rel).display());
        assert!(text.contains(&line), "{line} not in:\n{text}");
    }
    assert!(text.contains(", 2 deleted;"), "{text}");
    // JSON: the same names (recreate them and update again).
    fs::write(copy.join("fixtures/local-one.json"), "{}").unwrap();
    let out = run("json");
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["data"]["deleted"],
        serde_json::json!(["fixtures/local-one.json"])
    );
    assert!(
        doc["summary"].as_array().unwrap().iter().any(|l| l
            .as_str()
            .unwrap()
            .starts_with("deleted ")
            && l.as_str()
                .unwrap()
                .ends_with("local-one.json (not in release 1.8.0)")),
        "{doc:#}"
    );
}

/// A workspace of two copies: one in sync with the suite, one an older release.
fn two_copies() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    copy_tree(&bundled_suite(), &ws.join("sdk-a/conformance"));
    copy_tree(&data("real-releases/1.7.0"), &ws.join("sdk-b/conformance"));
    let targets = dir.path().join("targets.txt");
    fs::write(&targets, "sdk-a/conformance\nsdk-b/conformance\n").unwrap();
    let args = vec![
        "sync".to_string(),
        "--check".into(),
        "--suite".into(),
        bundled_suite().display().to_string(),
        "--workspace".into(),
        ws.display().to_string(),
        "--targets".into(),
        targets.display().to_string(),
    ];
    (dir, args)
}

fn run_sync(args: &[String], extra: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = common::command();
    cmd.args(args).args(extra).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    stdout(&out)
}

#[test]
fn sync_is_coloured_like_the_other_commands() {
    let (_dir, args) = two_copies();
    let coloured = run_sync(&args, &["--color", "always"], &[]);
    // Status words and the verdict carry styles.
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[31mdrift"),
        "{coloured:?}"
    );
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[32min-sync"),
        "{coloured:?}"
    );
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[31mFAILED:"),
        "{coloured:?}"
    );
    // --color never, and NO_COLOR in auto, print none.
    let plain = run_sync(&args, &["--color", "never"], &[]);
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    let plain = run_sync(&args, &["--color", "auto"], &[("NO_COLOR", "1")]);
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    // Stripped of its styles, the coloured report is the plain one.
    assert_eq!(strip(&coloured), plain);
}

fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn counts_agree_with_their_nouns() {
    let (_dir, args) = two_copies();
    let text = run_sync(&args, &["--color", "never"], &[]);
    assert!(
        text.contains("FAILED: 1 of 2 vendored copies drifted"),
        "{text}"
    );
    let real = data("real-results");
    let out = bqsuite(&[
        "results",
        "check",
        real.join("python-1.24.0.json").to_str().unwrap(),
        real.join("python-1.24.0-no-redis-no-otel.json")
            .to_str()
            .unwrap(),
        "--suite",
        bundled_suite().to_str().unwrap(),
        "--color",
        "never",
    ]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("FAILED: 2 results files have "), "{text}");
    assert!(!text.contains(" files has "), "{text}");
}

#[test]
fn has_agrees_with_a_counted_subject() {
    use bqsuite_core::diag::{count, has};
    assert_eq!(has("2 results files"), "have");
    assert_eq!(has("1 results file"), "has");
    assert_eq!(has("suite"), "has");
    assert_eq!(has("/tmp/2 things"), "has");
    assert_eq!(count(1, "copy", "copies"), "1 copy");
    assert_eq!(count(25, "copy", "copies"), "25 copies");
}
