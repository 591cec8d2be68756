//! The command-line interface definition (clap). No logic lives here.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

mod fetch;
mod help;
mod run;
mod sync;

pub use fetch::FetchArgs;
pub use help::{ENVIRONMENT, EXAMPLES, SUMMARISED};
pub use run::{AdapterArgs, RunArgs};
pub use sync::SyncArgs;

/// The suite directory when none is given.
pub const DEFAULT_SUITE: &str = "suite";

/// The version of the suite this bqsuite was released with (the bundled suite/).
pub const SUITE_VERSION: &str = include_str!("../../../suite/CONFORMANCE_VERSION");

#[derive(Debug, Parser)]
#[command(
    name = "bqsuite",
    version,
    about = "Maintain, release and distribute conformance suites, and check implementations against them"
)]
pub struct Cli {
    /// Output format: human text; one JSON document on standard output (also when the command
    /// cannot run); or human text plus GitHub Actions annotations. Default: github when
    /// GITHUB_ACTIONS=true, else human.
    #[arg(long, value_enum, global = true)]
    pub format: Option<FormatArg>,
    /// When to colour the output. auto: on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE
    /// forces it).
    #[arg(long, value_enum, global = true, default_value_t, value_name = "WHEN")]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Human,
    Json,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorArg {
    #[default]
    Auto,
    Always,
    Never,
}

/// `bqsuite 0.1.0 (conformance suite 1.5.0)`: the tool and the suite it was released with.
pub fn version_text() -> String {
    format!(
        "{} (conformance suite {})",
        env!("CARGO_PKG_VERSION"),
        SUITE_VERSION.trim()
    )
}

/// The clap command, with the version text and the sections after each command's help
/// (environment, examples, exit codes).
pub fn command() -> clap::Command {
    let version: &'static str = Box::leak(version_text().into_boxed_str());
    help::with_sections(Cli::command().version(version))
}

/// Parses `args` (the program name first).
pub fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    let matches = help::for_run(command(), args).try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

/// The subcommand named in `args`, as far as it can be told without parsing (for the JSON
/// document of a usage error): `results check`, `validate`...
pub fn guess_command(args: &[OsString]) -> String {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .filter(|a| !a.starts_with('-'))
        .collect();
    let known = command();
    match words.first() {
        Some(&"results") => match words.get(1) {
            Some(action @ (&"check" | &"matrix" | &"diff")) => format!("results {action}"),
            _ => "results".into(),
        },
        Some(word) if known.find_subcommand(word).is_some() => (*word).to_string(),
        _ => String::new(),
    }
}

/// True when `args` ask for `--format json` (usage errors then print a JSON document too).
pub fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .zip(args.iter().skip(1))
        .any(|(a, b)| a == "--format" && b == "json")
        || args.iter().any(|a| a == "--format=json")
}

impl Command {
    /// The command's name in JSON documents and summaries (`results check`, `fetch`...).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Validate { .. } => "validate",
            Command::Eval { .. } => "eval",
            Command::Run(_) => "run",
            Command::Adapter(_) => "adapter",
            Command::Mutants { .. } => "mutants",
            Command::Adopt { .. } => "adopt",
            Command::Release { .. } => "release",
            Command::Fetch(_) => "fetch",
            Command::Sync(_) => "sync",
            Command::Results { action } => match action {
                ResultsAction::Check { .. } => "results check",
                ResultsAction::Matrix { .. } => "results matrix",
                ResultsAction::Diff { .. } => "results diff",
            },
            Command::Diff { .. } => "diff",
            Command::Completions { .. } => "completions",
            Command::Man { .. } => "man",
        }
    }

    /// What the command works on, as the user gave it (the `subject` of a JSON document).
    pub fn subject(&self) -> String {
        let suite = |s: &Option<PathBuf>| suite_or_default(s).display().to_string();
        let files = |f: &[PathBuf]| {
            f.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Command::Validate { suite: s, .. }
            | Command::Eval { suite: s, .. }
            | Command::Mutants { suite: s, .. }
            | Command::Adopt { suite: s, .. }
            | Command::Release { suite: s, .. }
            | Command::Sync(SyncArgs { suite: s, .. }) => suite(s),
            Command::Fetch(args) => args.dest.display().to_string(),
            Command::Run(args) => suite(&args.suite),
            Command::Adapter(args) => args.model.clone(),
            Command::Results { action } => match action {
                ResultsAction::Check { files: f, .. } | ResultsAction::Matrix { files: f, .. } => {
                    files(f)
                }
                ResultsAction::Diff { old, new, .. } => {
                    format!("{} → {}", old.display(), new.display())
                }
            },
            Command::Diff { old, new, .. } => format!("{} → {}", old.display(), new.display()),
            Command::Completions { shell } => shell.to_string(),
            Command::Man { out: Some(dir), .. } => dir.display().to_string(),
            Command::Man { page, .. } => page.join(" "),
        }
    }

    /// The suite directory the command reads, and whether it is the default `./suite`.
    pub fn suite(&self) -> Option<(&Path, bool)> {
        fn of(s: &Option<PathBuf>) -> (&Path, bool) {
            match s {
                Some(p) => (p.as_path(), false),
                None => (Path::new(DEFAULT_SUITE), true),
            }
        }
        match self {
            Command::Validate { suite, .. }
            | Command::Eval { suite, .. }
            | Command::Mutants { suite, .. }
            | Command::Adopt { suite, .. }
            | Command::Release { suite, .. }
            | Command::Sync(SyncArgs { suite, .. })
            | Command::Run(RunArgs { suite, .. }) => Some(of(suite)),
            Command::Results {
                action: ResultsAction::Check { suite, .. } | ResultsAction::Matrix { suite, .. },
            } => Some(of(suite)),
            _ => None,
        }
    }
}

/// The suite directory: the one given, else `./suite`.
pub fn suite_or_default(suite: &Option<PathBuf>) -> PathBuf {
    suite
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SUITE))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that a suite is sound: JSON, schemas, pointers, version rules, case ids, and every
    /// expectation re-derived by the reference evaluator.
    Validate {
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
    },
    /// Grade an implementation against a suite through its adapter (the adapter protocol),
    /// and write its results.json.
    Run(RunArgs),
    /// Serve a reference model over the adapter protocol on standard input and output.
    Adapter(AdapterArgs),
    /// Run the reference evaluator over a suite and write its results.json.
    Eval {
        /// The suite directory [default: suite, in the current directory].
        #[arg(value_name = "SUITE")]
        suite: Option<PathBuf>,
        /// Where to write results.json (default, or `-`: standard output); a new or regular file.
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Suite adequacy: run every mutant (a plausible wrong SDK behaviour) over every case and
    /// report the mutants no case kills.
    Mutants {
        /// The suite directory [default: suite, in the current directory].
        #[arg(value_name = "SUITE")]
        suite: Option<PathBuf>,
        /// Run over the suite with a proposal overlay merged in.
        #[arg(long, value_name = "DIR")]
        proposal: Option<PathBuf>,
    },
    /// Adopt the proposal as the suite's next release: merge it into the suite in place under
    /// VERSION, give its fixtures their final names, and leave the proposal empty.
    ///
    /// Nothing is written unless the result is a release: VERSION is SemVer, greater than the
    /// suite's version and makes the bump the change needs (as `diff` judges it), and the adopted
    /// suite validates. The suite and the proposal are each written beside their directory and
    /// renamed into place.
    Adopt {
        /// The version of the release the suite becomes (MAJOR.MINOR.PATCH, e.g. 1.9.0).
        #[arg(value_name = "VERSION")]
        version: String,
        /// The suite directory [default: suite, in the current directory].
        #[arg(value_name = "SUITE")]
        suite: Option<PathBuf>,
        /// The proposal overlay to adopt.
        #[arg(long, value_name = "DIR", default_value = "proposal")]
        proposal: PathBuf,
    },
    /// Build the reproducible release asset (tarball) and SHA256SUMS.
    ///
    /// The asset carries the suite's own licence as LICENSE: the suite directory's LICENSE, else
    /// LICENSE-<name> beside it, <name> being the suite directory's name (LICENSE-suite for
    /// suite/). The repository's own LICENSE (the tool's) is never packed.
    Release {
        /// The suite directory [default: suite, in the current directory].
        #[arg(value_name = "SUITE")]
        suite: Option<PathBuf>,
        /// The output directory; a SHA256SUMS already there gets the asset's line and keeps the
        /// others.
        #[arg(long, default_value = "dist")]
        out: PathBuf,
        /// The tag being released: v + CONFORMANCE_VERSION (sbp-v + it for SBP: the suite's
        /// release_url says).
        #[arg(long)]
        tag: Option<String>,
        /// Allow packaging a -pre (untagged) version.
        #[arg(long)]
        allow_pre: bool,
    },
    /// Download a released suite, verify it and unpack it into DEST, --check a vendored copy, or
    /// --update (re-vendor) one.
    Fetch(FetchArgs),
    /// Vendor the suite into sibling SDK checkouts, or --check which copies have drifted.
    Sync(SyncArgs),
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
    },
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff, for `man -l -`): bqsuite(1), or the page of the command named
    /// (`bqsuite man fetch`, `bqsuite man results check`); or write every page with --out.
    Man {
        /// The command whose page to print (fetch, results check...) [default: bqsuite(1), the
        /// overview].
        #[arg(value_name = "COMMAND", conflicts_with = "out")]
        page: Vec<String>,
        /// Write every page (bqsuite.1, bqsuite-fetch.1, bqsuite-results-check.1...) into this
        /// directory, created if missing; each file is replaced whole.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
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
        /// The suite the results are checked against [default: suite, in the current directory].
        #[arg(long, value_name = "SUITE")]
        suite: Option<PathBuf>,
        /// The SDK's known-gaps file ({"gaps": [{"section", "case", "reason"}]}, as the real
        /// conformance-known-gaps.json): a failing case it lists is accepted; a listed case that
        /// passes (stale), is skipped or is absent is an error.
        #[arg(long, value_name = "FILE")]
        known_gaps: Option<PathBuf>,
    },
    /// The compatibility matrix: SDKs as columns, sections as rows.
    Matrix {
        /// results.json files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The suite the results are checked against [default: suite, in the current directory].
        #[arg(long, value_name = "SUITE")]
        suite: Option<PathBuf>,
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
    },
}
