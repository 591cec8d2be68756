//! action.yml's "Resolve" step, run with bash as the runner would (issue 20, item 5): the inputs
//! and BQSUITE_TARGET are checked before anything reaches `$GITHUB_OUTPUT`, so a line break in
//! one cannot add an output, and an error never starts a line with data.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `run: |` script of the step with `id: <id>` in action.yml.
fn step_script(id: &str) -> String {
    let action = fs::read_to_string(root().join("action.yml")).unwrap();
    let lines: Vec<&str> = action.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == format!("id: {id}"))
        .unwrap_or_else(|| panic!("no step `{id}` in action.yml"));
    let run = start
        + lines[start..]
            .iter()
            .position(|l| l.trim() == "run: |")
            .expect("the step has no `run: |`");
    let indent = lines[run].len() - lines[run].trim_start().len() + 2;
    let mut script = String::new();
    for line in &lines[run + 1..] {
        if !line.trim().is_empty() && line.len() - line.trim_start().len() < indent {
            break;
        }
        script.push_str(line.get(indent..).unwrap_or(""));
        script.push('\n');
    }
    script
}

struct Run {
    out: Output,
    github_output: String,
}

fn resolve(inputs: &[(&str, &str)], target: Option<&str>) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let github_output = dir.path().join("output");
    fs::write(&github_output, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(step_script("resolve"))
        .env("GITHUB_OUTPUT", &github_output)
        .env("RUNNER_TEMP", dir.path())
        .env("ACTION_PATH", root())
        .env("ACTION_REF", "v1.5.0")
        .env("TOOL_CACHE", dir.path().join("cache"));
    for (name, default) in [
        ("INPUT_VERSION", ""),
        ("INPUT_CHECK", ""),
        ("INPUT_DIFF", "false"),
        ("INPUT_BASE_URL", ""),
        ("INPUT_CACHE", "true"),
    ] {
        cmd.env(name, default);
    }
    for (name, value) in inputs {
        cmd.env(name, value);
    }
    match target {
        Some(t) => cmd.env("BQSUITE_TARGET", t),
        None => cmd.env_remove("BQSUITE_TARGET"),
    };
    let out = cmd.output().unwrap();
    Run {
        out,
        github_output: fs::read_to_string(&github_output).unwrap(),
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// No line of output starts with `::` unless it is the step's own `::error title=bqsuite
/// action::`, and none holds data from the refused input.
fn assert_refused(run: &Run, what: &str) {
    assert_eq!(run.out.status.code(), Some(2), "{what}: {}", text(&run.out));
    assert_eq!(run.github_output, "", "{what}: wrote outputs");
    let all = text(&run.out);
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
    assert_eq!(run.out.status.code(), Some(0), "{}", text(&run.out));
    let keys: Vec<&str> = run
        .github_output
        .lines()
        .map(|l| l.split_once('=').expect("key=value").0)
        .collect();
    assert_eq!(keys, ["version", "target", "source", "dir", "archives"]);
    assert!(run.github_output.contains("version=1.5.0\n"));
    assert!(run.github_output.contains("target=aarch64-apple-darwin\n"));
    // The mirror enters the cache key as a number (a key holds no commas).
    let source = run
        .github_output
        .lines()
        .find_map(|l| l.strip_prefix("source="))
        .unwrap();
    assert!(source.bytes().all(|b| b.is_ascii_digit()), "{source}");
    // Without BQSUITE_TARGET: this machine's, from install.sh.
    let run = resolve(&[], None);
    assert_eq!(run.out.status.code(), Some(0), "{}", text(&run.out));
    assert!(run.github_output.contains("version=1.5.0\n"));
}

#[test]
fn a_target_with_a_line_break_never_reaches_github_output() {
    let run = resolve(&[], Some(EVIL));
    assert_eq!(run.out.status.code(), Some(2), "{}", text(&run.out));
    assert_eq!(run.github_output, "");
    assert!(
        text(&run.out).contains("is not a target triple"),
        "{}",
        text(&run.out)
    );
    for line in text(&run.out).lines() {
        assert!(!line.starts_with("::"), "{line}");
    }
    for bad in ["../../x", "-x", "x y", "x\u{202e}y"] {
        let run = resolve(&[], Some(bad));
        assert_eq!(run.out.status.code(), Some(2), "{bad}: {}", text(&run.out));
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
    // The ref the action is used at, when it is not a release tag, is shown without anything
    // but plain characters.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg("-c")
        .arg(step_script("resolve"))
        .env("GITHUB_OUTPUT", dir.path().join("o"))
        .env("RUNNER_TEMP", dir.path())
        .env("ACTION_PATH", root())
        .env("ACTION_REF", "main\n::warning::forged")
        .env("TOOL_CACHE", dir.path())
        .env("INPUT_VERSION", "")
        .env("INPUT_CHECK", "")
        .env("INPUT_DIFF", "false")
        .env("INPUT_BASE_URL", "")
        .env("INPUT_CACHE", "true")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(text(&out).lines().count(), 1, "{}", text(&out));
    assert!(!Path::new(&dir.path().join("o")).exists());
}
