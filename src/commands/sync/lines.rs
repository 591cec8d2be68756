//! The lines and columns the two human reports of sync (`sync --check` in [`super::check_report`],
//! `sync` in [`super::sync_report`]) share: the header line, the version column, the colour of a
//! status word and the styled verdict line.

use super::outcome::{Outcome, Status, TargetResult};
use bqsuite_core::diag::{self, plural, style};
use bqsuite_core::show;

/// File names listed per target in the human report of `sync` (all of them with `--verbose`).
pub const LISTED_FILES: usize = 10;

/// The version column of a target with no identity (not checked).
fn plain_version(outcome: &Outcome, v: Option<&str>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if v == outcome.canonical_version => show::text(v),
        Some(v) => format!(
            "{} -> {}",
            show::text(v),
            show::text(&outcome.canonical_version)
        ),
    }
}

/// The version column: the copy's version (or `unversioned`, `(interrupted)`, `+N edited`),
/// against the canonical one when they differ.
pub(super) fn version_column(outcome: &Outcome, r: &TargetResult) -> String {
    match (&r.identity, r.vendored_version.as_deref()) {
        (Some(id), _) => {
            let short = show::text(&id.short());
            if id.version.as_deref() == Some(outcome.canonical_version.as_str()) {
                short
            } else {
                format!("{short} -> {}", show::text(&outcome.canonical_version))
            }
        }
        (None, v) => plain_version(outcome, v),
    }
}

/// The style of a status word: green when all is well, yellow for a skipped or not yet vendored
/// copy, red for drift and errors.
pub(super) fn status_style(status: Status) -> anstyle::Style {
    match status {
        Status::InSync | Status::Synced | Status::Unchanged => style::OK,
        Status::NotVendored | Status::MissingRepo => style::WARNING,
        Status::Drift | Status::Error => style::ERROR,
    }
}

/// A summary line with its verdict word (`ok:`, `FAILED:`, `fix:`) styled.
pub(super) fn verdict_line(line: &str, color: bool) -> String {
    let shown = show::text(line);
    for (word, style) in [
        ("ok:", style::OK),
        ("FAILED:", style::ERROR),
        ("fix:", style::HELP),
    ] {
        if let Some(rest) = shown.strip_prefix(word) {
            return format!("{}{rest}", diag::paint(word, style, color));
        }
    }
    shown
}

/// The first line of the report: the command, the targets, the workspace, the canonical suite.
pub(super) fn header_line(outcome: &Outcome) -> String {
    format!(
        "{}: {} target{} in workspace {} (targets file {}), canonical suite {}",
        if outcome.check {
            "sync --check"
        } else {
            "sync"
        },
        outcome.results.len(),
        plural(outcome.results.len()),
        show::text(&outcome.workspace.display().to_string()),
        show::text(&outcome.targets_file.display().to_string()),
        show::text(&outcome.canonical_version)
    )
}
