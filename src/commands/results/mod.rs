//! `bqsuite results`: check SDK results files against the manifest, the compatibility matrix,
//! and a per-SDK regression diff.
//!
//! - [`check()`]: one error finding per reason a file is not Compatible (codes in [`check`'s
//!   module](mod@self::check)); exit 1 unless every file is Compatible.
//! - [`matrix()`]: SDKs as columns, sections as rows, in Markdown and/or self-contained HTML. It is
//!   a report: its findings are warnings and notes only, so it exits 0 whenever it rendered.
//! - [`diff()`]: pass → fail/skip between two runs of one SDK is an error (a regression); the way
//!   back, added and removed cases are notes.

pub mod check;
mod codes;
pub mod diff;
pub mod family;
mod findings;
pub mod gaps;
pub mod grid;
pub mod json;
pub mod matrix;
pub mod read;

use std::path::PathBuf;

use bqsuite_core::diag::{Report, count};
use bqsuite_core::error::Result;

use check::subject;
pub use check::{FileCheck, SuiteRules, check_all, check_file};
pub use diff::DiffOptions;
pub use family::family_of;
pub use matrix::MatrixOptions;
pub use read::MAX_RESULTS_BYTES;

pub use codes::Code;

/// `results check`.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub files: Vec<PathBuf>,
    pub suite: PathBuf,
    /// The SDK's known-gaps file (`conformance-known-gaps.json`): a `fail` it lists is accepted.
    pub known_gaps: Option<PathBuf>,
}

/// Decides whether each results file is Compatible; every reason it is not is an error finding.
/// The summary has one line per file: `sdk version: Compatible` or `NOT Compatible (N reasons)`.
pub fn check(options: &CheckOptions) -> Result<Report> {
    let rules = SuiteRules::load(&options.suite)?;
    let mut checks = check_all(&options.files, &rules)?;
    let mut report = Report::new(subject(&options.files));
    let mut known_gaps = serde_json::Value::Null;
    if let Some(path) = &options.known_gaps {
        let gaps = gaps::load(path, &rules)?;
        for c in &mut checks {
            gaps::apply(&gaps, c);
        }
        let accepted: usize = checks.iter().map(accepted_gaps).sum();
        let (listed, invalid) = (gaps.gaps.len(), gaps.findings.len());
        known_gaps = serde_json::json!({
            "file": gaps.file,
            "gaps": listed,
            "accepted": accepted,
            "invalid": invalid,
        });
        report.summary.push(format!(
            "{}: {} listed, {accepted} accepted (failing as listed){}",
            gaps.file,
            count(listed, "known gap", "known gaps"),
            match invalid {
                0 => String::new(),
                n => format!(", {}", count(n, "invalid entry", "invalid entries")),
            }
        ));
        report.diagnostics.extend(gaps.findings);
    }
    let matrix = matrix::build(&rules, checks);
    report.data = serde_json::json!({
        "suite_version": rules.version,
        "compatible": matrix.columns.iter().all(|c| c.check.compatible()),
        "known_gaps": known_gaps,
        "files": json::files(&matrix),
    });
    for c in matrix.columns {
        let c = c.check;
        let accepted = match options.known_gaps {
            Some(_) => format!(
                ", {} accepted",
                count(accepted_gaps(&c), "known gap", "known gaps")
            ),
            None => String::new(),
        };
        report
            .summary
            .push(format!("{}: {}{accepted}", c.label(), c.verdict()));
        report.diagnostics.extend(c.findings);
    }
    report.sort();
    Ok(report)
}

/// How many failing cases of `check` a known-gaps file accepted: its `results-known-gap` notes.
pub fn accepted_gaps(check: &FileCheck) -> usize {
    check
        .findings
        .iter()
        .filter(|d| d.code == Code::ResultsKnownGap)
        .count()
}

/// Builds the matrix; writes the HTML/Markdown files asked for and returns the text to print:
/// the Markdown table when no file is asked for, else a one-line summary per file written.
pub fn matrix(options: &MatrixOptions) -> Result<(Report, String)> {
    matrix::run(options)
}

/// Cases of one SDK that went from pass to fail/skip (errors) and back (notes).
pub fn diff(options: &DiffOptions) -> Result<Report> {
    diff::run(options)
}
