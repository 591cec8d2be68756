//! The command-line interface definition (clap). No logic lives here.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "bqsuite",
    version,
    about = "Maintain, release and distribute the BabelQueue conformance suite",
    after_help = "Exit codes: 0 clean; 1 the check ran and found a problem; 2 it could not run (usage, missing path, I/O, network)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum FormatArg {
    #[default]
    Human,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that a suite is sound: JSON, schemas, pointers, version rules, case ids, and every
    /// expectation re-derived by the reference evaluator.
    Validate {
        /// The suite directory.
        #[arg(default_value = "suite")]
        suite: PathBuf,
        /// Also check the version rules against an earlier suite (directory or release tarball):
        /// the change must be covered by the SemVer bump.
        #[arg(long, value_name = "OLD")]
        since: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Run the reference evaluator over a suite and write its results.json.
    Eval {
        /// The suite directory.
        #[arg(default_value = "suite")]
        suite: PathBuf,
        /// Where to write results.json (default: standard output).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Suite adequacy: run every mutant (a plausible wrong SDK behaviour) over every case and
    /// report the mutants no case kills.
    Mutants {
        /// The suite directory.
        #[arg(default_value = "suite")]
        suite: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Build the reproducible release asset (tarball) and SHA256SUMS.
    Release {
        /// The suite directory.
        #[arg(default_value = "suite")]
        suite: PathBuf,
        /// The output directory.
        #[arg(long, default_value = "dist")]
        out: PathBuf,
        /// The tag being released (vX.Y.Z); must equal v + CONFORMANCE_VERSION.
        #[arg(long)]
        tag: Option<String>,
        /// Allow packaging a -pre (untagged) version.
        #[arg(long)]
        allow_pre: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Download a released suite, verify it and unpack it into DEST, --check a vendored copy, or
    /// --update (re-vendor) one.
    Fetch {
        /// The suite version to fetch (SemVer, e.g. 1.5.0).
        version: String,
        /// Where to unpack (must not exist or be empty), or with --check / --update the vendored
        /// directory.
        dest: PathBuf,
        /// Compare DEST with the release instead of unpacking; writes nothing.
        #[arg(long, conflicts_with = "update")]
        check: bool,
        /// Make DEST's vendored set (CONFORMANCE_VERSION, manifest.json, fixtures/, schema/)
        /// equal to the release's, keeping the SDK's own files; what to run when --check is red.
        #[arg(long)]
        update: bool,
        /// Pin the asset's sha256 (authenticity); SHA256SUMS is then not needed.
        #[arg(long, value_name = "HEX")]
        sha256: Option<String>,
        /// With --check: show unified diffs of changed text files.
        #[arg(long, requires = "check")]
        diff: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Vendor the suite into sibling SDK checkouts, or --check which copies have drifted.
    Sync {
        /// The canonical suite directory.
        #[arg(long, default_value = "suite")]
        suite: PathBuf,
        /// The directory holding the SDK checkouts (default: the parent of this repository).
        #[arg(long)]
        workspace: Option<PathBuf>,
        /// The targets file (default: <suite>/sync-targets.txt).
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
        /// List every differing file of each copy (the default lists at most 10 per copy).
        #[arg(long, short)]
        verbose: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Check SDK results files, build the compatibility matrix, or diff two runs of one SDK.
    Results {
        #[command(subcommand)]
        action: ResultsAction,
    },
    /// Classify the change between two suites (directories or release tarballs) and check that
    /// NEW's version makes the SemVer bump it needs.
    Diff {
        /// The earlier suite.
        old: PathBuf,
        /// The later suite.
        new: PathBuf,
        /// Write a release-notes draft (Markdown) listing the new cases per section.
        #[arg(long, value_name = "FILE")]
        markdown: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
}

#[derive(Debug, Subcommand)]
pub enum ResultsAction {
    /// Decide whether each SDK results file is Compatible with the suite, listing every reason
    /// it is not.
    Check {
        /// results.json files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The suite the results are checked against.
        #[arg(long, default_value = "suite")]
        suite: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// The compatibility matrix: SDKs as columns, sections as rows.
    Matrix {
        /// results.json files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The suite the results are checked against.
        #[arg(long, default_value = "suite")]
        suite: PathBuf,
        /// Write a self-contained HTML page here.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
        /// Write a GitHub-flavoured Markdown table here.
        #[arg(long, value_name = "OUT")]
        markdown: Option<PathBuf>,
    },
    /// Cases of one SDK that went from pass to fail/skip between two runs, and back.
    Diff {
        /// The earlier results.json.
        old: PathBuf,
        /// The later results.json.
        new: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
}
