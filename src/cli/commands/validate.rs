//! `bqsuite validate`.

use std::path::PathBuf;

use bqsuite::commands::{diff, proposal, validate};
use bqsuite_core::Error;
use bqsuite_core::diag::{self, Report};

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Check that a suite is sound: JSON, schemas, pointers, version rules, case ids, and every
/// expectation re-derived by the reference evaluator.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// Also check the version rules against an earlier suite (directory or release tarball):
    /// the change must be covered by the SemVer bump.
    #[arg(long, value_name = "OLD")]
    since: Option<PathBuf>,
    /// Validate the suite with a proposal overlay merged in (a directory holding
    /// manifest.json and fixtures/ that only add cases), and check that it is additive.
    #[arg(long, value_name = "DIR", conflicts_with = "since")]
    proposal: Option<PathBuf>,
}

pub const PAGES: &[Page] = &[Page {
    key: "validate",
    found: "the suite has errors",
    examples: &[
        ("Check the suite in ./suite", "bqsuite validate suite"),
        (
            "Also check that the change since release 1.7.0 is covered by the version bump",
            "bqsuite validate suite --since babelqueue-conformance-1.7.0.tar.gz",
        ),
        (
            "Check the suite with the proposal overlay merged in",
            "bqsuite validate suite --proposal proposal",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "validate"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    fn summary(&self) -> Option<&'static str> {
        Some("validate")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let suite = suite_or_default(&self.suite);
        if let Some(proposal) = &self.proposal {
            let report = proposal::validate(&suite, proposal)?;
            return Ok(out.emit(&report, "is sound and additive"));
        }
        let mut report = validate::validate(&suite)?;
        let what = sound(&report);
        let Some(old) = &self.since else {
            return Ok(out.emit(&report, &what));
        };
        diff::since(&mut report, old, &suite)?;
        report.sort();
        // One line per section added since OLD (the report's summary) rather than one note per
        // change; `--format json` and the annotations take the whole report.
        let mut shown = report.clone();
        shown.diagnostics.retain(|d| !diff::is_change_note(d));
        let human = diag::render_human_styled(&shown, &what, true);
        Ok(out.emit_text(&report, &what, Some(&human)))
    }
}

/// The verdict of a clean `validate`: `is sound (710 cases in 32 sections)`.
fn sound(report: &Report) -> String {
    let count = |key: &str| report.data[key].as_u64().unwrap_or(0) as usize;
    format!(
        "is sound ({} in {})",
        diag::count(count("cases"), "case", "cases"),
        diag::count(count("sections"), "section", "sections")
    )
}
