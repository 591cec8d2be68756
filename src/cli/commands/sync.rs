//! `bqsuite sync`.

use std::path::PathBuf;

use bqsuite::commands::sync;
use bqsuite_core::Error;

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Vendor the suite into sibling SDK checkouts, or --check which copies have drifted.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The canonical suite directory [default: suite, in the current directory].
    #[arg(long, value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// The directory holding the SDK checkouts (default: the parent of this repository).
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// The targets file (default: the suite's own, sync-targets.txt for BabelQueue's and
    /// NAME-sync-targets.txt for the suite NAME: inside the suite directory if it exists, else
    /// beside it).
    #[arg(long)]
    targets: Option<PathBuf>,
    /// Report drift only; write nothing.
    #[arg(long)]
    check: bool,
    /// With --check: show unified diffs of changed files.
    #[arg(long, requires = "check")]
    diff: bool,
    /// A missing SDK repository is a failure, not a skip.
    #[arg(long)]
    strict: bool,
    /// When another bqsuite run is writing one of the copies, wait this many seconds for it to
    /// finish before giving up (exit 2, naming that run, nothing written); 0 gives up at once
    /// [default: 30]. Not with --check, which never waits: a copy being written is reported so.
    #[arg(long, value_name = "SECONDS", conflicts_with = "check")]
    lock_wait: Option<u64>,
    /// List every differing file of each copy (the default lists at most 10 per copy).
    #[arg(long, short)]
    verbose: bool,
}

pub const PAGES: &[Page] = &[Page {
    key: "sync",
    found: "with --check, a copy has drifted; a missing SDK with --strict",
    examples: &[
        (
            "Report which SDK copies beside this repository have drifted (writes nothing)",
            "bqsuite sync --suite suite --check",
        ),
        (
            "Vendor the suite into every copy listed in sync-targets.txt",
            "bqsuite sync --suite suite --workspace ..",
        ),
        (
            "Check the SBP suite's copies, listed in sbp-sync-targets.txt",
            "bqsuite sync --suite sbp-suite --check",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "sync"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::option(&self.suite))
    }

    /// Only `--check` summarises (a read-only check says what it checked).
    fn summary(&self) -> Option<&'static str> {
        self.check.then_some("sync --check")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let options = sync::Options {
            suite: suite_or_default(&self.suite),
            workspace: self.workspace.clone(),
            targets: self.targets.clone(),
            check: self.check,
            diff: self.diff,
            strict: self.strict,
            lock_wait: self
                .lock_wait
                .map_or(bqsuite_suite::lock::WAIT, std::time::Duration::from_secs),
        };
        let outcome = sync::sync(&options)?;
        let what = if self.check {
            "is vendored everywhere"
        } else {
            "synced"
        };
        let human = sync::render_human_styled(&outcome, self.verbose, true);
        Ok(out.emit_text(&outcome.report, what, Some(&human)))
    }
}
