//! The subcommands, one file each: its arguments (clap), what its help and manual page say
//! beyond them (examples, the meaning of exit status 1) and its runner, which turns the parsed
//! arguments into a call of `bqsuite::commands` and prints the report.
//!
//! A new subcommand is a file here that implements [`Run`] and exports its [`Page`]s, a variant
//! of [`Command`] with its arm in [`Command::runner`], and its row in [`PAGES`].

use std::ffi::OsString;
use std::path::Path;

use bqsuite_core::Error;
use clap::Subcommand;

use super::output::Output;

mod adapter;
mod adopt;
mod completions;
mod diff;
mod eval;
mod fetch;
mod man;
mod mutants;
mod release;
mod results;
mod run;
mod sync;
mod validate;

/// Each subcommand's arguments, in the order `--help` lists them. The subcommand's description is
/// the doc comment of its arguments' struct.
#[derive(Debug, Subcommand)]
pub enum Command {
    Validate(validate::Args),
    Eval(eval::Args),
    Run(run::Args),
    Adapter(adapter::Args),
    Mutants(mutants::Args),
    Adopt(adopt::Args),
    Release(release::Args),
    Fetch(fetch::Args),
    Sync(sync::Args),
    Results(results::Args),
    Diff(diff::Args),
    Completions(completions::Args),
    Man(man::Args),
}

impl Command {
    /// The parsed subcommand (for `results`, the one of its commands that was named).
    pub fn runner(&self) -> &dyn Run {
        match self {
            Command::Validate(a) => a,
            Command::Eval(a) => a,
            Command::Run(a) => a,
            Command::Adapter(a) => a,
            Command::Mutants(a) => a,
            Command::Adopt(a) => a,
            Command::Release(a) => a,
            Command::Fetch(a) => a,
            Command::Sync(a) => a,
            Command::Results(a) => a.runner(),
            Command::Diff(a) => a,
            Command::Completions(a) => a,
            Command::Man(a) => a,
        }
    }
}

/// What the binary asks of a subcommand's parsed arguments.
pub trait Run {
    /// The command's name in JSON documents and summaries (`validate`, `results check`...).
    fn name(&self) -> &'static str;

    /// What the command works on, as the user gave it (the `subject` of a JSON document).
    fn subject(&self) -> String;

    /// The suite directory the command reads, when it reads one (it must exist before the
    /// command runs).
    fn suite(&self) -> Option<SuiteDir<'_>> {
        None
    }

    /// The title of the Markdown job summary this run appends to `GITHUB_STEP_SUMMARY`, when it
    /// writes one (the manual lists these commands with that variable, in `args::ENVIRONMENT`).
    fn summary(&self) -> Option<&'static str> {
        None
    }

    /// Runs the command and prints its report in `out`'s format; the exit code.
    fn run(&self, out: &Output) -> Result<u8, Error>;

    /// A better help line than the error's own for a run that failed with `e` (such as the same
    /// command against a mirror, with this run's arguments `args`).
    fn failure_help(&self, _e: &Error, _args: &[OsString]) -> Option<String> {
        None
    }
}

/// The suite directory a command reads: the one given (`None`: the default `./suite`), and
/// whether it is given with `--suite` rather than as a positional argument.
pub struct SuiteDir<'a> {
    pub given: Option<&'a Path>,
    pub option: bool,
}

impl SuiteDir<'_> {
    /// A positional `SUITE` argument.
    pub fn positional(given: &Option<std::path::PathBuf>) -> SuiteDir<'_> {
        SuiteDir {
            given: given.as_deref(),
            option: false,
        }
    }

    /// A `--suite SUITE` option.
    pub fn option(given: &Option<std::path::PathBuf>) -> SuiteDir<'_> {
        SuiteDir {
            given: given.as_deref(),
            option: true,
        }
    }
}

/// `OLD → NEW`: the subject of a command that compares two things.
pub fn arrow(old: &Path, new: &Path) -> String {
    format!("{} → {}", old.display(), new.display())
}

/// What a command's `--help` and manual page say besides clap's sections.
pub struct Page {
    /// The command path: `validate`, `results check`; `""` for bqsuite itself.
    pub key: &'static str,
    /// What exit status 1 means (0 is always a clean run, 2 a run that could not happen).
    pub found: &'static str,
    /// Real commands (the Examples section of `--help`, EXAMPLES of the page): what each does,
    /// and the command line as it is pasted into a POSIX shell.
    pub examples: &'static [(&'static str, &'static str)],
}

/// bqsuite(1) itself.
const OVERVIEW: &[Page] = &[Page {
    key: "",
    found: "the command ran and found a problem (see each command's page)",
    examples: &[
        ("Check the suite in ./suite", "bqsuite validate suite"),
        (
            "Check an SDK's vendored copy against release 1.8.0",
            "bqsuite fetch --check 1.8.0 tests/conformance",
        ),
        (
            "Read the manual page of fetch",
            "bqsuite man fetch | man -l -",
        ),
    ],
}];

/// Every page: bqsuite(1), then each subcommand's (a command with commands of its own, such as
/// `results`, has one for each).
pub const PAGES: &[&[Page]] = &[
    OVERVIEW,
    validate::PAGES,
    eval::PAGES,
    run::PAGES,
    adapter::PAGES,
    mutants::PAGES,
    adopt::PAGES,
    release::PAGES,
    fetch::PAGES,
    sync::PAGES,
    results::PAGES,
    diff::PAGES,
    completions::PAGES,
    man::PAGES,
];

/// Every page of [`PAGES`], one by one.
pub fn pages() -> impl Iterator<Item = &'static Page> {
    PAGES.iter().flat_map(|group| group.iter())
}

/// The page of the command path `key` (`""` for bqsuite itself, `results check`...).
pub fn page(key: &str) -> Option<&'static Page> {
    pages().find(|p| p.key == key)
}
