//! Issue #20, item 1: one rule for showing untrusted text. No string from a vendored copy's file
//! names, a results file, a targets file or an archive entry name can produce an output line that
//! GitHub Actions reads as a workflow command (`::…` at the start of a line, `##[…` anywhere), or
//! a raw control, separator or bidi character, in any format: human, JSON, GitHub annotations,
//! the job summary, the matrix's Markdown and HTML.
//!
//! Two layers: a property test feeds arbitrary strings through every renderer of the library,
//! and end-to-end runs of the binary put hostile names where an SDK pull request or a download
//! can put them.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use bqsuite::commands::results::{self, matrix};
use bqsuite_core::diag::{self, Diagnostic, Report};
use bqsuite_core::github::{self, Workspace};
use bqsuite_core::show;
use bqsuite_suite::drift;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::kit;
use crate::kit::tarball::*;
use crate::kit::{reference_results, strip_styles};

/// Strings an attacker would pick: line breaks followed by workflow commands, the legacy form,
/// bidi overrides, terminal escapes, Unicode line separators and NEL.
const HOSTILE: [&str; 8] = [
    "a\n::warning file=README.md,title=forged::gotcha",
    "::stop-commands::forgedtoken",
    "b\u{202e}nosj.forged",
    "c##[stop-commands]forged",
    "d\u{1b}[31mforged\u{1b}]0;title\u{7}",
    "e\r::error title=forged::x",
    "f\u{2028}::notice::forged\u{2029}",
    "g\u{85}::warning::forged\u{200f}\u{2066}",
];

/// The header of a workflow command line this tool writes: `error|warning|notice`, then
/// `file=…,line=…,col=…,title=…` with every value escaped (no `:` or `,` inside a value).
fn is_own_annotation(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("::") else {
        return false;
    };
    let Some((header, _message)) = rest.split_once("::") else {
        return false;
    };
    let Some((level, props)) = header.split_once(' ') else {
        return false;
    };
    if !matches!(level, "error" | "warning" | "notice") {
        return false;
    }
    props.split(',').all(|p| {
        let Some((key, value)) = p.split_once('=') else {
            return false;
        };
        matches!(key, "file" | "line" | "col" | "title") && !value.contains(':')
    }) && props
        .split(',')
        .any(|p| p.starts_with("title=") && !p.contains("forged"))
}

/// Asserts that `text` (one output stream) holds no raw hidden character but line breaks, no
/// legacy `##[` command, and no line starting with `::` other than this tool's own annotations
/// when `annotations` is allowed.
fn assert_safe(what: &str, text: &str, annotations: bool) {
    assert!(!text.contains("##["), "{what}: legacy command:\n{text}");
    assert_safe_file(what, text, annotations);
}

/// [`assert_safe`] for a file that is not a log (the job summary, a written page): `##[` is
/// only text there.
fn assert_safe_file(what: &str, text: &str, annotations: bool) {
    for c in text.chars() {
        assert!(
            c == '\n' || !show::is_hidden(c),
            "{what}: raw {c:?} in output:\n{text}"
        );
    }
    for line in text.split('\n') {
        let start = line.trim_start_matches(char::is_whitespace);
        if start.starts_with("::") {
            assert!(
                annotations && line == start && is_own_annotation(line),
                "{what}: a line reads as a workflow command: {line:?}\n{text}"
            );
        }
    }
}

// ------------------------------------------------------------------------- property test

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => any::<char>(),
        2 => prop::sample::select(vec![
            '\n', '\r', '\t', '\u{0}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{2028}',
            '\u{2029}', '\u{202e}', '\u{2066}', '\u{200b}', '\u{feff}', '\u{e0041}', '\u{3000}',
        ]),
        4 => prop::sample::select(vec![':', '#', '[', ']', ' ', '%', ',', '|', '`', '<', 'a']),
    ]
}

fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(hostile_char(), 0..24).prop_map(|v| v.into_iter().collect()),
        prop::sample::select(HOSTILE.to_vec()).prop_map(String::from),
    ]
}

fn report_of(parts: &[String]) -> Report {
    let p = |i: usize| parts[i % parts.len()].clone();
    let mut report = Report::new(p(0));
    report.summary.push(p(1));
    report.summary.push(p(2));
    report.data = json!({"targets": [{"target": p(3), "status": p(4),
                                      "files": [{"path": p(5), "change": p(6)}]}],
                         "free": p(7)});
    report.push(
        Diagnostic::error(drift::Code::DriftExtra, p(5), p(8))
            .at(p(9))
            .case(p(10), p(11))
            .line_col(1, 2)
            .help(p(12))
            .detail(p(13)),
    );
    report.push(Diagnostic::warning(results::Code::ResultsCaseFailed, p(14), p(15)).help(p(1)));
    report.push(Diagnostic::note(drift::Code::UnmanagedFile, p(3), p(2)));
    report
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_renderer_shows_arbitrary_strings_safely(
        parts in prop::collection::vec(hostile_string(), 16),
    ) {
        let report = report_of(&parts);
        let ws = Workspace { cwd: PathBuf::from("/nonexistent-cwd"), root: None };

        let human = diag::render_human(&report, "is fine");
        assert_safe("human", &human, false);
        // Data adds no line: the error (message, place, help, the detail's own lines), the
        // warning and the note (message and, when they name a file, place), each followed by a
        // blank line; two facts and the verdict.
        let detail_lines = parts[13].lines().count();
        let place = |i: usize| usize::from(!parts[i].is_empty());
        let expected = (3 + detail_lines + 1) + (1 + place(14) + 1 + 1) + (1 + place(3) + 1) + 3;
        prop_assert_eq!(human.lines().count(), expected, "{}", human);
        for d in &report.diagnostics {
            assert_safe("diagnostic", &diag::render_diagnostic_styled(d, true)
                .replace("\u{1b}[", "ESC["), false);
        }

        let doc = diag::render_json(&report, "sync");
        assert_safe("json", &doc, false);
        let value: Value = serde_json::from_str(&doc).unwrap();
        prop_assert_eq!(value["subject"].as_str().unwrap(), parts[0].as_str());
        prop_assert_eq!(value["data"]["free"].as_str().unwrap(), parts[7].as_str());
        prop_assert_eq!(value["diagnostics"][0]["file"].as_str().unwrap(), parts[5].as_str());

        let annotations = github::annotations(&report, &ws);
        assert_safe("annotations", &annotations, true);
        prop_assert_eq!(annotations.lines().count(), 2);

        let failure = github::failure_annotation("io", &parts[0], Some(&parts[1]));
        assert_safe("failure annotation", &failure, true);
        prop_assert_eq!(failure.lines().count(), 1);

        assert_safe_file("summary", &github::summary("sync --check", &report, "ok", &ws), false);
        assert_safe_file("failure summary", &github::failure_summary("fetch", &parts[2]), false);
        assert_safe("failure json", &diag::render_error_json("fetch", &parts[0],
            diag::error_json("io", &parts[1], Some(&parts[2]), Some(&parts[3]))), false);

        for p in &parts {
            // Fragments: the renderers place them inside a line, never at its start.
            assert_safe("markdown", &format!("| {} |", matrix::md(p)), false);
            assert_safe_file("html", &format!("<td>{}</td>", matrix::html(p)), false);
            prop_assert!(!matrix::md(p).contains('\n') && !matrix::html(p).contains('\n'));
            let shown = show::text(p);
            prop_assert!(!shown.chars().any(show::is_hidden));
            prop_assert_eq!(show::text(&shown), shown.clone());
            // The guard keeps terminal styles (the renderers paint with them); all else is shown.
            let guarded = show::guard(&format!("x\n{p}\n  {p}"));
            assert_safe("guard", &strip_styles(&guarded), false);
            assert_safe("shell", &format!("run `bqsuite {}`", bqsuite_core::shell::quote(p)), false);
        }
    }
}

// ------------------------------------------------------------------------- end to end

/// The three formats, each run with a job summary file; every stream and the summary checked.
/// Returns everything printed, for the caller's own assertions.
fn run_all_formats(label: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut all = String::new();
    for format in ["human", "json", "github"] {
        let dir = tempfile::tempdir().unwrap();
        let summary = dir.path().join("summary.md");
        let mut cmd = kit::command();
        cmd.args(args)
            .args(["--format", format, "--color", "never"])
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("CI", "true");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out: Output = cmd.output().expect("run bqsuite");
        let (stdout, stderr) = (kit::stdout(&out), kit::stderr(&out));
        let what = format!("{label} --format {format}");
        assert!(
            kit::code(&out) != 101 && !stderr.contains("panicked"),
            "{what}: {stderr}"
        );
        assert_safe(&format!("{what} stdout"), &stdout, format == "github");
        assert_safe(&format!("{what} stderr"), &stderr, format == "github");
        if format == "json" {
            let doc: Result<Value, _> = serde_json::from_str(&stdout);
            assert!(doc.is_ok(), "{what}: not one JSON document: {stdout}");
        }
        if let Ok(md) = fs::read_to_string(&summary) {
            assert_safe_file(&format!("{what} summary"), &md, false);
            all.push_str(&md);
        }
        all.push_str(&stdout);
        all.push_str(&stderr);
    }
    all
}

/// The hostile names as file names (no `/`, no NUL).
fn file_names() -> Vec<String> {
    HOSTILE.iter().map(|h| format!("{h}.json")).collect()
}

#[test]
fn fetch_check_shows_hostile_file_names_of_a_vendored_copy_safely() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &gz(&tar(&release_entries(VERSION))));
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("conformance");
    let out = kit::command()
        .args(["fetch", VERSION, dir.to_str().unwrap()])
        .env("BQ_CONFORMANCE_BASE_URL", mirror.url())
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(kit::code(&out), 0, "{}", kit::stderr(&out));
    let managed = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a managed directory");
    for name in file_names() {
        fs::write(dir.join(&name), "{}").unwrap(); // unmanaged-file
        fs::write(managed.join(&name), "{}").unwrap(); // drift-extra
    }
    let base = mirror.url();
    let all = run_all_formats(
        "fetch --check",
        &["fetch", "--check", VERSION, dir.to_str().unwrap()],
        &[("BQ_CONFORMANCE_BASE_URL", &base)],
    );
    assert!(all.contains("forged"), "the names were not shown:\n{all}");
    assert!(
        all.contains("\\u{202e}") || all.contains("\\u202e"),
        "{all}"
    );
}

#[test]
fn archive_entry_names_are_shown_safely() {
    for (i, h) in HOSTILE.iter().enumerate() {
        let mirror = Mirror::new();
        let mut entries = release_entries(VERSION);
        entries.push(file(&format!("{ROOT}/{h}.json"), b"{}"));
        mirror.publish(VERSION, &gz(&tar(&entries)));
        let work = tempfile::tempdir().unwrap();
        let dest = work.path().join("dest");
        let base = mirror.url();
        run_all_formats(
            &format!("fetch of entry {i}"),
            &["fetch", VERSION, dest.to_str().unwrap()],
            &[("BQ_CONFORMANCE_BASE_URL", &base)],
        );
    }
}

fn hostile_results(dir: &Path, reference: &Value) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (i, h) in HOSTILE.iter().enumerate() {
        let mut doc = reference.clone();
        doc["sdk"] = json!(h);
        doc["version"] = json!(format!("1.{i}{h}"));
        let sections = doc["sections"].as_object_mut().unwrap();
        let first = sections.keys().next().unwrap().clone();
        sections[&first][*h] = json!({"status": "fail", "reason": h});
        sections[&first][format!("x{h}")] = json!({"status": "skip", "reason": h});
        sections.insert(
            h.to_string(),
            json!({ *h: {"status": "fail", "reason": h} }),
        );
        let path = dir.join(format!("r{i}.json"));
        fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        files.push(path);
    }
    // A file name from the pull request too.
    let named = dir.join(format!("{}.json", HOSTILE[0]));
    fs::copy(&files[1], &named).unwrap();
    files.push(named);
    files
}

#[test]
fn results_check_and_matrix_show_hostile_names_ids_and_reasons_safely() {
    let work = tempfile::tempdir().unwrap();
    let files = hostile_results(work.path(), &reference_results());
    let suite = kit::bundled_suite();
    let mut args: Vec<String> = vec!["results".into(), "check".into()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    args.extend(["--suite".into(), suite.display().to_string()]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let all = run_all_formats("results check", &argv, &[]);
    assert!(all.contains("forged"), "{all}");

    args[1] = "matrix".into();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let all = run_all_formats("results matrix", &argv, &[]);
    assert!(all.contains("forged"), "{all}");

    // The written pages too.
    let html = work.path().join("m.html");
    let md = work.path().join("m.md");
    let mut written = args.clone();
    written.extend([
        "--html".into(),
        html.display().to_string(),
        "--markdown".into(),
        md.display().to_string(),
    ]);
    let argv: Vec<&str> = written.iter().map(String::as_str).collect();
    let out = kit::command().args(&argv).output().unwrap();
    assert_eq!(kit::code(&out), 0, "{}", kit::stderr(&out));
    for page in [&html, &md] {
        let text = fs::read_to_string(page).unwrap();
        assert_safe_file(&page.display().to_string(), &text, false);
        assert!(text.contains("forged"), "{text}");
    }

    let mut diff: Vec<String> = vec!["results".into(), "diff".into()];
    diff.extend([
        files[0].display().to_string(),
        files[3].display().to_string(),
    ]);
    let argv: Vec<&str> = diff.iter().map(String::as_str).collect();
    run_all_formats("results diff", &argv, &[]);
}

#[test]
fn sync_check_shows_hostile_targets_and_file_names_safely() {
    let work = tempfile::tempdir().unwrap();
    let ws = work.path().join("ws");
    let suite = kit::bundled_suite();
    let target = "sdk/tests/conformance";
    let copy = ws.join(target);
    kit::copy_tree(&suite, &copy);
    for name in file_names() {
        fs::write(copy.join("fixtures").join(&name), "{}").unwrap();
    }
    let mut targets = format!("{target}\n");
    for h in HOSTILE {
        targets.push_str(&format!("{h}/tests/conformance\n"));
        targets.push_str(&format!("repo/{}\n", h.replace('\n', " ")));
    }
    targets.push_str("bidi\u{202e}/x\n");
    let targets_file = work.path().join("targets.txt");
    fs::write(&targets_file, targets).unwrap();
    let args = [
        "sync",
        "--check",
        "--suite",
        suite.to_str().unwrap(),
        "--workspace",
        ws.to_str().unwrap(),
        "--targets",
        targets_file.to_str().unwrap(),
    ];
    let all = run_all_formats("sync --check", &args, &[]);
    assert!(all.contains("forged"), "{all}");
    let mut verbose = args.to_vec();
    verbose.push("--verbose");
    run_all_formats("sync --check --verbose", &verbose, &[]);
}

#[test]
fn validate_and_diff_json_carry_no_raw_bidi() {
    let work = tempfile::tempdir().unwrap();
    let suite = work.path().join("suite");
    kit::copy_tree(&kit::bundled_suite(), &suite);
    for name in file_names() {
        fs::write(suite.join("fixtures").join(&name), "{\"a\": 1}").unwrap();
    }
    let all = run_all_formats("validate", &["validate", suite.to_str().unwrap()], &[]);
    assert!(all.contains("forged"), "{all}");
    let bundled = kit::bundled_suite();
    run_all_formats(
        "diff",
        &["diff", bundled.to_str().unwrap(), suite.to_str().unwrap()],
        &[],
    );
}
