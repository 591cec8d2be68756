//! The command line: the options every command takes, and parsing. Each subcommand's own
//! arguments are in its file under `cli/commands/`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};

mod help;

pub use help::ENVIRONMENT;

use super::commands::Command;

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
    let Some(sub) = words.first().and_then(|word| known.find_subcommand(word)) else {
        return String::new();
    };
    // A command with commands of its own (`results`) is named with the one given, if any.
    match words.get(1).and_then(|word| sub.find_subcommand(word)) {
        Some(action) => format!("{} {}", sub.get_name(), action.get_name()),
        None => sub.get_name().to_string(),
    }
}

/// True when `args` ask for `--format json` (usage errors then print a JSON document too).
pub fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .zip(args.iter().skip(1))
        .any(|(a, b)| a == "--format" && b == "json")
        || args.iter().any(|a| a == "--format=json")
}

/// The suite directory: the one given, else `./suite`.
pub fn suite_or_default(suite: &Option<PathBuf>) -> PathBuf {
    suite
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SUITE))
}
