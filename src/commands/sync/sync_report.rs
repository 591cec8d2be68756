//! The human report of `sync`, in the block shape of `sync --check` ([`super::check_report`]):
//!
//! - each copy that could not be synced is a block with its findings;
//! - each copy written is a block: what it is now, how many files were written and deleted, and
//!   their names (at most [`LISTED_FILES`] without `--verbose`);
//! - the copies already up to date are one block, listing them;
//! - targets whose SDK repository is absent are one line, as in `sync --check`;
//! - then the verdict.

use std::fmt::Write as _;

use super::check_report::{DETAIL, LISTED, finish, status_word};
use super::lines::{LISTED_FILES, header_line, version_column};
use super::outcome::{Outcome, Status, TargetResult};
use bqsuite_core::diag::{self, Severity};
use bqsuite_core::show;
use bqsuite_suite::drift::file_lines;

/// The report, after `preamble` (the findings that belong to no target, already rendered).
pub(super) fn render(outcome: &Outcome, preamble: &str, verbose: bool, color: bool) -> String {
    let mut out = String::from(preamble);
    let _ = writeln!(out, "{}", header_line(outcome));
    let mut blocks: Vec<String> = Vec::new();
    for r in outcome.results.iter().filter(|r| r.status == Status::Error) {
        blocks.push(error_block(r, color));
    }
    for r in outcome
        .results
        .iter()
        .filter(|r| r.status == Status::Synced)
    {
        blocks.push(written_block(outcome, r, verbose, color));
    }
    blocks.extend(unchanged_block(outcome, color));
    finish(out, blocks, outcome, verbose, color)
}

/// A copy `sync` could not write: its findings, each as every report shows one.
fn error_block(r: &TargetResult, color: bool) -> String {
    let mut out = format!(
        "{}: {}, not synced\n",
        status_word(Status::Error, color),
        show::text(&r.target.path)
    );
    for d in r.findings.iter().filter(|d| d.severity == Severity::Error) {
        for line in diag::render_diagnostic_styled(d, color).lines() {
            let _ = writeln!(out, "{DETAIL}{line}");
        }
    }
    out
}

/// A copy `sync` wrote: what it is now, and the files written and deleted.
fn written_block(outcome: &Outcome, r: &TargetResult, verbose: bool, color: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {}, {}",
        status_word(Status::Synced, color),
        show::text(&r.target.path),
        version_column(outcome, r)
    );
    let _ = writeln!(
        out,
        "{DETAIL}{} written, {} deleted",
        diag::count(r.written.len(), "file", "files"),
        r.deleted.len()
    );
    let names: Vec<(&str, &str)> = r
        .written
        .iter()
        .map(|p| (p.as_str(), "written"))
        .chain(r.deleted.iter().map(|p| (p.as_str(), "deleted")))
        .collect();
    let listed = if verbose { usize::MAX } else { LISTED_FILES };
    for line in file_lines(
        names.into_iter(),
        listed,
        "`--verbose` lists every file",
        &|_| None,
    ) {
        let _ = writeln!(out, "{LISTED}{}", show::text(&line));
    }
    out
}

/// The copies that were already the canonical suite: one line for one, else a count and the list.
fn unchanged_block(outcome: &Outcome, color: bool) -> Option<String> {
    let unchanged: Vec<&TargetResult> = outcome
        .results
        .iter()
        .filter(|r| r.status == Status::Unchanged)
        .collect();
    let status = status_word(Status::Unchanged, color);
    match unchanged.as_slice() {
        [] => None,
        [one] => Some(format!(
            "{status}: {}, {}\n",
            show::text(&one.target.path),
            version_column(outcome, one)
        )),
        many => {
            let mut out = format!(
                "{status}: {} copies already match the canonical suite {}\n",
                many.len(),
                show::text(&outcome.canonical_version)
            );
            for r in many {
                let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
            }
            Some(out)
        }
    }
}
