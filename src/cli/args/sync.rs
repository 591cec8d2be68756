//! `bqsuite sync`'s arguments.

use std::path::PathBuf;

use clap::Args;

// The subcommand's own help text is the doc comment of `Command::Sync`.
#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The canonical suite directory [default: suite, in the current directory].
    #[arg(long, value_name = "SUITE")]
    pub suite: Option<PathBuf>,
    /// The directory holding the SDK checkouts (default: the parent of this repository).
    #[arg(long)]
    pub workspace: Option<PathBuf>,
    /// The targets file (default: the suite's own, sync-targets.txt for BabelQueue's and
    /// NAME-sync-targets.txt for the suite NAME: inside the suite directory if it exists, else
    /// beside it).
    #[arg(long)]
    pub targets: Option<PathBuf>,
    /// Report drift only; write nothing.
    #[arg(long)]
    pub check: bool,
    /// With --check: show unified diffs of changed files.
    #[arg(long, requires = "check")]
    pub diff: bool,
    /// A missing SDK repository is a failure, not a skip.
    #[arg(long)]
    pub strict: bool,
    /// List every differing file of each copy (the default lists at most 10 per copy).
    #[arg(long, short)]
    pub verbose: bool,
}
