//! Reports read alike (issue 21, item 8): `sync` is coloured like the other commands, and counts
//! agree with their nouns.

use std::fs;

use crate::kit::{
    bqsuite, bundled_suite, code, command, copy_tree, real_release, real_results, stdout,
    strip_styles,
};

/// A workspace of two copies: one in sync with the suite, one an older release.
fn two_copies() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    copy_tree(&bundled_suite(), &ws.join("sdk-a/conformance"));
    copy_tree(&real_release("1.7.0"), &ws.join("sdk-b/conformance"));
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
    let mut cmd = command();
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
    assert_eq!(strip_styles(&coloured), plain);
}

#[test]
fn counts_agree_with_their_nouns() {
    let (_dir, args) = two_copies();
    let text = run_sync(&args, &["--color", "never"], &[]);
    assert!(
        text.contains("FAILED: 1 of 2 copies checked drifted"),
        "{text}"
    );

    let out = bqsuite(&[
        "results",
        "check",
        real_results("python-1.24.0.json").to_str().unwrap(),
        real_results("python-1.24.0-no-redis-no-otel.json")
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
