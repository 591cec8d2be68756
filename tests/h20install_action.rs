//! action.yml's "Resolve" step, run with bash as the runner would (issue 20, item 5): the inputs
//! and BQSUITE_TARGET are checked before anything reaches `$GITHUB_OUTPUT`, so a line break in
//! one cannot add an output, and an error never starts a line with data.
#![cfg(unix)]

mod common;
mod h22_support;

use h22_support::{DEFAULT_INPUTS, StepRun, run_step};

/// The Resolve step with these inputs (the others at their defaults) and BQSUITE_TARGET.
fn resolve(inputs: &[(&str, &str)], target: Option<&str>) -> StepRun {
    let dir = tempfile::tempdir().unwrap();
    let mut vars: Vec<(&str, &str)> = DEFAULT_INPUTS.to_vec();
    vars.extend_from_slice(inputs);
    if let Some(t) = target {
        vars.push(("BQSUITE_TARGET", t));
    }
    run_step("resolve", dir.path(), &vars)
}

/// No line of output starts with `::` unless it is the step's own `::error title=bqsuite
/// action::`, and none holds data from the refused input.
fn assert_refused(run: &StepRun, what: &str) {
    assert_eq!(run.out.status.code(), Some(2), "{what}: {}", run.text());
    assert_eq!(run.github_output, "", "{what}: wrote outputs");
    let all = run.text();
    assert!(
        all.contains("::error title=bqsuite action::"),
        "{what}: {all}"
    );
    for line in all.lines() {
        if line.starts_with("::") {
            assert!(
                line.starts_with("::error title=bqsuite action::"),
                "{what}: {line}"
            );
        }
        assert!(!line.contains("forged"), "{what}: {line}");
    }
}

const EVIL: &str = "x\n::warning title=forged::x\nforged=1";

#[test]
fn good_inputs_make_exactly_the_outputs() {
    let run = resolve(
        &[
            ("INPUT_VERSION", "v1.5.0"),
            ("INPUT_CHECK", "tests/conformance"),
            ("INPUT_BASE_URL", "file:///srv/mirror/v{version}"),
        ],
        Some("aarch64-apple-darwin"),
    );
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let keys: Vec<&str> = run
        .github_output
        .lines()
        .map(|l| l.split_once('=').expect("key=value").0)
        .collect();
    assert_eq!(
        keys,
        ["version", "target", "source", "dir", "archives", "checksum"]
    );
    assert!(run.github_output.contains("version=1.5.0\n"));
    assert!(run.github_output.contains("target=aarch64-apple-darwin\n"));
    // The mirror enters the cache key as a number (a key holds no commas).
    let source = run
        .github_output
        .lines()
        .find_map(|l| l.strip_prefix("source="))
        .unwrap();
    assert!(source.bytes().all(|b| b.is_ascii_digit()), "{source}");
    // Without BQSUITE_TARGET: this machine's, from install.sh; without `version`: the suite's
    // in the action's checkout.
    let run = resolve(&[], None);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let version = common::bundled_version();
    assert!(run.github_output.contains(&format!("version={version}\n")));
}

#[test]
fn a_target_with_a_line_break_never_reaches_github_output() {
    let run = resolve(&[], Some(EVIL));
    assert_eq!(run.out.status.code(), Some(2), "{}", run.text());
    assert_eq!(run.github_output, "");
    assert!(
        run.text().contains("is not a target triple"),
        "{}",
        run.text()
    );
    for line in run.text().lines() {
        assert!(!line.starts_with("::"), "{line}");
    }
    for bad in ["../../x", "-x", "x y", "x\u{202e}y"] {
        let run = resolve(&[], Some(bad));
        assert_eq!(run.out.status.code(), Some(2), "{bad}: {}", run.text());
        assert_eq!(run.github_output, "", "{bad}");
    }
}

#[test]
fn every_input_is_checked_before_it_is_used() {
    for (input, value) in [
        ("INPUT_VERSION", EVIL),
        ("INPUT_VERSION", "1.5.0\nforged=1"),
        ("INPUT_DIFF", "yes"),
        ("INPUT_DIFF", EVIL),
        ("INPUT_CACHE", "maybe"),
        ("INPUT_BASE_URL", "https://mirror.example/\nforged=1"),
        ("INPUT_BASE_URL", "https://mirror.example/a b"),
        ("INPUT_BASE_URL", "ftp://mirror.example/"),
        ("INPUT_BASE_URL", "https://mirror.example/\u{202e}"),
        ("INPUT_CHECK", "tests/conformance\nforged"),
        ("INPUT_CHECK", "--update"),
    ] {
        let run = resolve(&[(input, value)], None);
        assert_refused(&run, &format!("{input}={value:?}"));
    }
    // The checksum input is the archive's sha256, nothing else (not even with a prefix).
    for value in [
        "sha256:".to_string() + &"a".repeat(64),
        "a".repeat(63),
        "g".repeat(64),
        format!("{}\nforged=1", "a".repeat(64)),
        EVIL.to_string(),
    ] {
        let run = resolve(&[("INPUT_CHECKSUM", &value)], None);
        assert_refused(&run, &format!("INPUT_CHECKSUM={value:?}"));
    }
}
