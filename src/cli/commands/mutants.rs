//! `bqsuite mutants`.

use std::path::PathBuf;

use bqsuite::commands::{mutants, proposal};
use bqsuite_core::Error;

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Suite adequacy: run every mutant (a plausible wrong SDK behaviour) over every case and
/// report the mutants no case kills.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// Run over the suite with a proposal overlay merged in.
    #[arg(long, value_name = "DIR")]
    proposal: Option<PathBuf>,
}

pub const PAGES: &[Page] = &[Page {
    key: "mutants",
    found: "a mutant survives: no case of the suite kills it",
    examples: &[
        (
            "List the mutants no case of the suite kills",
            "bqsuite mutants suite",
        ),
        (
            "The same with the proposal overlay merged in",
            "bqsuite mutants suite --proposal proposal",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "mutants"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let suite = suite_or_default(&self.suite);
        let report = match &self.proposal {
            Some(proposal) => proposal::mutants(&suite, proposal)?,
            None => mutants::mutants(&suite)?,
        };
        Ok(out.emit(&report, "kills every mutant"))
    }
}
