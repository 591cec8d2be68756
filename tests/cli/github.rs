//! GitHub Actions: with `GITHUB_ACTIONS=true` (or `--format github`) every error and warning is
//! also a workflow-command annotation on the file, relative to `GITHUB_WORKSPACE`; with
//! `GITHUB_STEP_SUMMARY` set, the checks append a Markdown summary. `--format human` turns the
//! annotations off.
#![cfg(unix)]

use std::fs;
use std::process::Output;

use crate::kit::tarball::{Mirror, VERSION, gz, release_entries, tar};
use crate::kit::{SuiteCopy, code, run_in, stderr, stdout};

fn annotations(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with("::"))
        .map(str::to_string)
        .collect()
}

/// A repository with `tests/conformance` vendored from a file:// mirror, then drifted.
struct DriftedRepo {
    mirror: Mirror,
    repo: tempfile::TempDir,
    summary: tempfile::TempDir,
}

impl DriftedRepo {
    fn new() -> DriftedRepo {
        let mirror = Mirror::new();
        mirror.publish(VERSION, &gz(&tar(&release_entries(VERSION))));
        let repo = tempfile::tempdir().unwrap();
        fs::create_dir_all(repo.path().join("tests")).unwrap();
        let out = run_in(
            repo.path(),
            &["fetch", VERSION, "tests/conformance"],
            &[("BQ_CONFORMANCE_BASE_URL", &mirror.url())],
        );
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let manifest = repo.path().join("tests/conformance/manifest.json");
        fs::write(&manifest, "{\"changed\": true}\n").unwrap();
        fs::remove_file(
            repo.path()
                .join("tests/conformance/fixtures/urn-alias.json"),
        )
        .unwrap();
        DriftedRepo {
            mirror,
            repo,
            summary: tempfile::tempdir().unwrap(),
        }
    }

    fn summary_file(&self) -> std::path::PathBuf {
        self.summary.path().join("step_summary.md")
    }

    fn check(&self, extra: &[&str], github: bool) -> Output {
        let mut args = vec!["fetch", "--check", VERSION, "tests/conformance"];
        args.extend_from_slice(extra);
        let url = self.mirror.url();
        let summary = self.summary_file();
        let workspace = self.repo.path().to_str().unwrap().to_string();
        let mut env = vec![
            ("BQ_CONFORMANCE_BASE_URL", url.as_str()),
            ("GITHUB_WORKSPACE", workspace.as_str()),
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ];
        if github {
            env.push(("GITHUB_ACTIONS", "true"));
        }
        run_in(self.repo.path(), &args, &env)
    }
}

#[test]
fn a_drifted_fetch_check_annotates_the_files_and_appends_a_summary() {
    let r = DriftedRepo::new();
    let out = r.check(&[], true);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    // One annotation for the copy, on its most important file, with the counts and the fix;
    // then one notice for the per-file findings it stands for.
    let lines = annotations(&out);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].starts_with("::error file=tests/conformance/manifest.json,title=copy-drift::"),
        "{lines:#?}"
    );
    assert!(
        lines[0].contains("files: 1 missing, 1 changed")
            && lines[0].contains("fixtures/urn-alias.json missing")
            && lines[0].contains("bqsuite fetch --update 1.0.0 tests/conformance"),
        "{lines:#?}"
    );
    assert!(
        lines[1].starts_with(
            "::notice title=bqsuite%3A more findings::2 per-file findings are summed up in the \
             annotation of their copies"
        ),
        "{lines:#?}"
    );
    // The human report is still there for the log.
    assert!(stdout(&out).contains("FAILED"), "{}", stdout(&out));
    let summary = fs::read_to_string(r.summary_file()).unwrap();
    assert!(
        summary.starts_with("### bqsuite fetch --check"),
        "{summary}"
    );
    assert!(summary.contains("❌"), "{summary}");
    assert!(
        summary.contains("`copy-drift` | `tests/conformance/manifest.json`"),
        "{summary}"
    );
    // The copy's row: what it is, its cases, its files (the most important first).
    let row = summary
        .lines()
        .find(|l| l.starts_with("| `tests/conformance` | drift | "))
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(
        row.ends_with("| `manifest.json` (changed), `fixtures/urn-alias.json` (missing) |"),
        "{row}"
    );
    // Appended, never overwritten.
    let again = r.check(&[], true);
    assert_eq!(code(&again), 1);
    let twice = fs::read_to_string(r.summary_file()).unwrap();
    assert_eq!(twice.matches("### bqsuite fetch --check").count(), 2);
}

#[test]
fn format_human_turns_annotations_off_and_format_github_turns_them_on() {
    let r = DriftedRepo::new();
    let human = r.check(&["--format", "human"], true);
    assert_eq!(code(&human), 1);
    assert!(annotations(&human).is_empty(), "{}", stdout(&human));
    assert!(
        stdout(&human).contains("changed  manifest.json"),
        "{}",
        stdout(&human)
    );

    let plain = r.check(&[], false);
    assert!(annotations(&plain).is_empty(), "{}", stdout(&plain));

    let github = r.check(&["--format", "github"], false);
    assert!(!annotations(&github).is_empty(), "{}", stdout(&github));

    // JSON stays one document, annotations or not.
    let json = r.check(&["--format", "json"], true);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(doc["ok"], false);
}

#[test]
fn validate_findings_land_on_the_line_and_column() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = serde_json::json!(3)
    });
    let root = s.dir.path();
    let summary = root.join("summary.md");
    let out = run_in(
        root,
        &["validate", "suite"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_WORKSPACE", root.to_str().unwrap()),
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ],
    );
    assert_eq!(code(&out), 1);
    let lines = annotations(&out);
    let line = lines
        .iter()
        .find(|l| l.contains("title=expectation-mismatch"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(
        line.starts_with("::error file=suite/manifest.json,line="),
        "{line}"
    );
    assert!(line.contains(",col="), "{line}");
    // Help goes on a second line of the annotation (an escaped newline), never a raw one.
    assert!(line.contains("%0Ahelp: "), "{line}");
    let md = fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("### bqsuite validate"), "{md}");
}

#[test]
fn a_run_that_cannot_start_is_annotated_too() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let out = run_in(
        dir.path(),
        &["validate"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ],
    );
    assert_eq!(code(&out), 2);
    let lines = annotations(&out);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::error title=bqsuite%3A not-found::")),
        "{lines:#?}"
    );
    let md = fs::read_to_string(&summary).unwrap();
    assert!(md.contains("could not run"), "{md}");
}

#[test]
fn eval_keeps_its_results_document_clean_and_annotates_on_standard_error() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = serde_json::json!(3)
    });
    let root = s.dir.path();
    let out = run_in(
        root,
        &["eval", "suite"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_WORKSPACE", root.to_str().unwrap()),
        ],
    );
    assert_eq!(code(&out), 1);
    let results: serde_json::Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("stdout is not the results document ({e}): {}", stdout(&out)));
    assert_eq!(results["sdk"], "bqsuite-reference");
    assert!(
        stderr(&out).contains("::error file=suite/manifest.json,title=expectation-mismatch::"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn annotations_stay_within_ten_per_level_one_of_each_kind_first_then_one_notice() {
    // 8 cases name fixtures that do not exist (a case-shape, a missing-fixture and, for the
    // fixture no longer used, an orphan-fixture finding each), then one wrong expectation last.
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        for (i, case) in m["cases"].as_array_mut().unwrap().iter_mut().enumerate() {
            case["file"] = serde_json::json!(format!("fixtures/nope-{i}.json"));
        }
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = serde_json::json!(3)
    });
    let root = s.dir.path();
    let json = run_in(root, &["validate", "suite", "--format", "json"], &[]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let errors = doc["errors"].as_u64().unwrap() as usize;
    assert!(errors > 20, "{doc:#}");
    let out = run_in(
        root,
        &["validate", "suite"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_WORKSPACE", root.to_str().unwrap()),
        ],
    );
    assert_eq!(code(&out), 1);
    let lines = annotations(&out);
    let errors_shown: Vec<&String> = lines.iter().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors_shown.len(), 10, "{lines:#?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("::warning ")),
        "{lines:#?}"
    );
    for kind in [
        "orphan-fixture",
        "case-shape",
        "missing-fixture",
        "expectation-mismatch",
    ] {
        assert!(
            errors_shown
                .iter()
                .any(|l| l.contains(&format!(",title={kind}::"))),
            "{kind} is not among the first annotations: {lines:#?}"
        );
    }
    let notices: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("::notice "))
        .collect();
    assert_eq!(notices.len(), 1, "{lines:#?}");
    assert_eq!(lines.last(), Some(notices[0]));
    assert!(
        notices[0].contains(&format!(
            "::{} more findings are not annotated",
            errors - 10
        )),
        "{lines:#?}"
    );
}
