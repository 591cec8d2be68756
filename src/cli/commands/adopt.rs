//! `bqsuite adopt`.

use std::path::PathBuf;

use bqsuite::commands::adopt;
use bqsuite_core::{Error, diag, show};

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Adopt the proposal as the suite's next release: merge it into the suite in place under
/// VERSION, give its fixtures their final names, and leave the proposal empty.
///
/// Nothing is written unless the result is a release: VERSION is SemVer, greater than the
/// suite's version and makes the bump the change needs (as `diff` judges it), and the adopted
/// suite validates. The suite and the proposal are each written beside their directory and
/// renamed into place.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The version of the release the suite becomes (MAJOR.MINOR.PATCH, e.g. 1.9.0).
    #[arg(value_name = "VERSION")]
    version: String,
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// The proposal overlay to adopt.
    #[arg(long, value_name = "DIR", default_value = "proposal")]
    proposal: PathBuf,
}

pub const PAGES: &[Page] = &[Page {
    key: "adopt",
    found: "the proposal cannot be adopted under VERSION (the findings say why); nothing was written",
    examples: &[
        (
            "Adopt ./proposal into ./suite as release 1.9.0",
            "bqsuite adopt 1.9.0",
        ),
        (
            "The same with both directories named",
            "bqsuite adopt 1.9.0 suite --proposal proposal",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "adopt"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    /// The report, then (when the proposal was adopted) the commands to run next, after the
    /// verdict in human text and as `data.next` in JSON.
    fn run(&self, out: &Output) -> Result<u8, Error> {
        let adoption = adopt::adopt(&adopt::Options {
            version: self.version.clone(),
            suite: suite_or_default(&self.suite),
            proposal: self.proposal.clone(),
        })?;
        let what = format!("adopted the proposal as {}", show::text(&self.version));
        let mut human = diag::render_human_styled(&adoption.report, &what, true);
        if !adoption.next.is_empty() {
            human.push_str(&diag::paint("next:", diag::style::HELP, true));
            human.push('\n');
            for line in &adoption.next {
                human.push_str(&format!("  {line}\n"));
            }
        }
        Ok(out.emit_text(&adoption.report, &what, Some(&human)))
    }
}
