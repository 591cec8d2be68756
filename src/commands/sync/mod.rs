//! `bqsuite sync`: vendor the canonical suite into sibling SDK checkouts, or `--check` which
//! copies have drifted.
//!
//! For each target of the targets file (a workspace-relative vendored directory whose first
//! component is the SDK repository):
//! - a missing SDK repository is skipped (`missing-repo`; `--strict` makes it a failure), but a
//!   run in which no SDK repository exists at all cannot run (exit 2): it checked nothing;
//! - a target whose path, or any directory on it, is a symbolic link is refused, as is one with
//!   a link inside its vendored set, so nothing is ever written outside the SDK repository;
//! - `sync` first takes the lock of every copy it may write (one writer per copy, `locks.rs`), then
//!   makes each vendored set equal to the suite's, the whole write of a copy planned before its
//!   first byte ([`bqsuite_suite::vendor::plan`]): anything in the way leaves the copy untouched;
//! - `--check` gives no verdict on a copy another run is writing (`sync-being-written`);
//! - `--check` compares it byte for byte, read-only, lists every missing, changed and extra file,
//!   counts its cases against the canonical suite's, and reports copies that drifted the same way
//!   once (`groups`, `check_report`).
//!
//! `sync` validates the canonical suite first (an invalid suite is never vendored); `--check`
//! only compares bytes, so it needs the suite loaded, not re-evaluated (that is `validate`'s job).

mod check_report;
mod codes;
mod findings;
mod groups;
mod lines;
mod locks;
mod outcome;
mod render;
mod run;
mod sync_report;
pub mod targets;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::commands::{suites, validate};
use bqsuite_core::diag::{Diagnostic, Report, Severity};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::{Suite, load};
use targets::Target;

pub use bqsuite_suite::drift::Change;
pub use outcome::{Group, Options, Outcome, Status, TargetResult};
pub use render::{render_human, render_human_styled};

pub use codes::Code;

/// BabelQueue's targets file: beside the suite directory (this repository keeps it at its root,
/// so that `suite/` stays byte for byte the real release), or inside it. Never part of a release
/// or of a vendored copy.
pub const TARGETS_FILE: &str = "sync-targets.txt";

/// The name of a suite's targets file: BabelQueue's is [`TARGETS_FILE`] (the name it always
/// had), any other suite's `<name>-sync-targets.txt` (`sbp-sync-targets.txt`), so that the files
/// of two suites can sit side by side at a repository's root.
pub fn targets_file_name(kind: &Kind) -> String {
    if kind.name == Kind::babelqueue().name {
        TARGETS_FILE.to_string()
    } else {
        format!("{}-{TARGETS_FILE}", kind.name)
    }
}

/// The default targets file of `suite`, whose description is `kind`: the suite's targets file
/// ([`targets_file_name`]) inside the suite directory when it exists, else the one beside it.
pub fn default_targets(suite: &std::path::Path, kind: &Kind) -> PathBuf {
    let name = targets_file_name(kind);
    let inside = suite.join(&name);
    if inside.exists() {
        return inside;
    }
    match suite.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.join(name),
        _ => PathBuf::from(name),
    }
}

/// Runs sync or `sync --check`. `Err` (exit 2) when the suite, the targets file or the workspace
/// cannot be read, or when none of the targets' SDK repositories is in the workspace; every
/// per-target problem is a finding instead.
pub fn sync(options: &Options) -> Result<Outcome> {
    let suite = if options.check {
        load::load_bytes(&options.suite)?
    } else {
        load::load(&options.suite)?
    };
    let subject = options.suite.display().to_string();
    let mut report = Report::new(subject.clone());
    let kind = suites::describe(&suite)?;
    let targets_file = options
        .targets
        .clone()
        .unwrap_or_else(|| default_targets(&options.suite, &kind));
    let workspace = match &options.workspace {
        Some(w) => w.clone(),
        None => default_workspace(&options.suite)?,
    };
    let outcome = Outcome {
        report: Report::new(subject.clone()),
        check: options.check,
        strict: options.strict,
        workspace: workspace.clone(),
        targets_file: targets_file.clone(),
        canonical_version: suite.version_text().unwrap_or("unknown").to_string(),
        results: Vec::new(),
        groups: Vec::new(),
        fix: None,
    };

    let unsound = canonical_problems(options, &suite, &subject)?;
    if unsound.iter().any(|d| d.severity == Severity::Error) {
        report.diagnostics = unsound;
        report.push(findings::canonical_invalid(&shell::command(&[
            "validate".into(),
            shell::arg(&options.suite),
        ])));
        let summary = format!(
            "FAILED: the canonical suite {} is not valid, so no copy was {}",
            shell::escape(&subject),
            if options.check { "compared" } else { "written" }
        );
        return Ok(stopped(outcome, report, summary));
    }
    let expected: BTreeMap<String, Vec<u8>> = suite
        .files
        .into_iter()
        .map(|(rel, file)| (rel, file.bytes))
        .collect();

    let text = targets::read(&targets_file)?;
    let label = shell::escape(&targets_file.display().to_string());
    let (targets, mut problems) = targets::parse(&text, &label);
    require_directory(&workspace)?;
    let targets =
        targets::refuse_in_suite(targets, &workspace, &options.suite, &label, &mut problems);
    report.diagnostics.extend(problems);

    let refused = report
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                Code::of(d.code),
                Some(Code::SyncBadTarget | Code::SyncOverlappingTargets)
            )
        })
        .count();
    if targets.is_empty() && refused > 0 {
        let summary = format!(
            "FAILED: every line of the targets file {} was refused, so nothing was checked",
            shell::escape(&targets_file.display().to_string())
        );
        return Ok(stopped(outcome, report, summary));
    }
    // Held until the run ends: no other run writes these copies meanwhile.
    let _locks = if options.check {
        Vec::new()
    } else {
        locks::take(options, &workspace, &targets)?
    };
    let results = run::check_targets(options, &workspace, &targets, &expected, &kind)?;
    if targets.is_empty() || results.iter().all(|r| r.status == Status::MissingRepo) {
        return Err(nothing_to_check(
            options,
            &workspace,
            &targets_file,
            &targets,
        ));
    }
    Ok(finish(
        options, outcome, report, results, &expected, refused,
    ))
}

/// A run that stopped before any copy was looked at, with the summary that says why.
fn stopped(mut outcome: Outcome, mut report: Report, summary: String) -> Outcome {
    report.summary.push(summary);
    report.data = render::json_data(&outcome, &[]);
    outcome.report = report;
    outcome
}

/// The report of a run that looked at its copies: every target's findings, the fix where one
/// applies, the summary and the JSON data.
fn finish(
    options: &Options,
    mut outcome: Outcome,
    mut report: Report,
    mut results: Vec<TargetResult>,
    expected: &BTreeMap<String, Vec<u8>>,
    refused: usize,
) -> Outcome {
    let workspace = outcome.workspace.clone();
    for r in &mut results {
        if r.status == Status::MissingRepo && options.strict {
            r.findings.push(findings::missing_repo(
                r.target.path.clone(),
                &r.target.repo,
                &workspace.display().to_string(),
            ));
        }
    }
    if options.check {
        settle_check(options, &mut outcome, &mut report, &mut results, expected);
    }
    for r in &results {
        report.diagnostics.extend(r.findings.iter().cloned());
    }
    if let Some(fix) = &outcome.fix {
        // Each drifted file's finding names the fix too (JSON lists every one).
        for d in &mut report.diagnostics {
            if Change::of(d.code).is_some() || d.code == Code::SyncNotVendored {
                d.help = Some(format!("`{fix}` re-vendors every drifted copy"));
            }
        }
    }
    // Findings name files relative to the workspace.
    report.root = Some(workspace);
    report.data = render::json_data(&outcome, &results);
    report.summary = render::summary_lines(&outcome, &results, refused);
    outcome.report = report;
    outcome.results = results;
    outcome
}

/// What keeps the canonical side from being used: vendoring needs a valid suite, a check only a
/// readable one with a manifest.
fn canonical_problems(options: &Options, suite: &Suite, subject: &str) -> Result<Vec<Diagnostic>> {
    if !options.check {
        return Ok(validate::validate_suite(suite, subject)?.diagnostics);
    }
    let mut problems = suite.problems.clone();
    if suite.file(load::MANIFEST).is_none() {
        problems.push(findings::canonical_without_manifest());
    }
    Ok(problems)
}

/// The workspace is a directory, or the run cannot go on (exit 2).
fn require_directory(workspace: &Path) -> Result<()> {
    match fs::metadata(workspace) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::bad_path(
            workspace,
            "the workspace is not a directory; pass --workspace DIR, the directory that holds \
             the SDK checkouts",
        )),
        Err(e) => Err(Error::io("read the workspace", workspace, e)),
    }
}

/// `sync --check`: groups the copies by what they hold, puts each group's summary first (it is
/// what an annotation shows), and offers the fix when some copy can be re-vendored.
fn settle_check(
    options: &Options,
    outcome: &mut Outcome,
    report: &mut Report,
    results: &mut [TargetResult],
    expected: &BTreeMap<String, Vec<u8>>,
) {
    let fix = shell::command(&options.fix_args());
    let (groups, summaries) = groups::settle(
        results,
        expected,
        &outcome.workspace,
        &outcome.canonical_version,
        &fix,
    );
    report.diagnostics.extend(summaries);
    let fixable = results.iter().any(|r| {
        matches!(r.status, Status::Drift | Status::NotVendored)
            || r.findings.iter().any(|d| d.code == Code::SyncBadManifest)
    });
    if fixable {
        outcome.fix = Some(fix);
    }
    outcome.groups = groups;
}

/// The exit-2 error of a run that found none of its SDK repositories.
fn nothing_to_check(
    options: &Options,
    workspace: &Path,
    targets_file: &Path,
    targets: &[Target],
) -> Error {
    let what = if targets.is_empty() {
        format!(
            "the targets file {} lists no target",
            targets_file.display()
        )
    } else {
        format!(
            "none of the {} SDK repositories listed in {} (e.g. `{}`) is in the workspace {}, so \
             nothing was checked",
            unique_repos(targets),
            targets_file.display(),
            targets[0].repo,
            workspace.display()
        )
    };
    let defaulted = if options.workspace.is_none() {
        " (the default workspace is the parent of the repository holding the suite)"
    } else {
        ""
    };
    // A path problem (JSON `kind: bad-path`, `path`: the workspace), not a usage error.
    Error::bad_path(
        workspace,
        shell::escape(&format!(
            "{what}{defaulted}; pass --workspace DIR, the directory that holds the SDK checkouts \
             side by side, and --targets FILE if the copies live elsewhere"
        )),
    )
}

fn unique_repos(targets: &[Target]) -> usize {
    let mut repos: Vec<&str> = targets.iter().map(|t| t.repo.as_str()).collect();
    repos.sort_unstable();
    repos.dedup();
    repos.len()
}

/// The parent of the repository that holds the suite directory.
fn default_workspace(suite: &Path) -> Result<PathBuf> {
    let suite = fs::canonicalize(suite).map_err(|e| Error::io("resolve", suite, e))?;
    suite
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::bad_path(
                &suite,
                "has no parent repository and workspace; pass --workspace",
            )
        })
}
