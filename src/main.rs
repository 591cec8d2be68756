//! The `bqsuite` binary: parse arguments, call the library, render, choose the exit code.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use bqsuite::diag::{self, Report};
use bqsuite::{Error, fetch, fsutil, reference, release, validate};
use clap::Parser;
use cli::{Cli, Command, FormatArg};
use std::io::IsTerminal;

/// The check ran and found nothing wrong.
const CLEAN: u8 = 0;
/// The check ran and found a problem.
const FOUND: u8 = 1;
/// The command could not run.
const FAILED: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("bqsuite: error: {e}");
            ExitCode::from(FAILED)
        }
    }
}

fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`bqsuite validate | head`) is not an error worth a panic.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn emit(report: &Report, format: FormatArg, command: &str, what: &str) -> u8 {
    match format {
        FormatArg::Human => print(&diag::render_human(report, what)),
        FormatArg::Json => print(&diag::render_json(report, command)),
    }
    if report.is_clean() { CLEAN } else { FOUND }
}

fn run(cli: Cli) -> Result<u8, Error> {
    match cli.command {
        Command::Validate { suite, format } => {
            let report = validate::validate(&suite)?;
            Ok(emit(&report, format, "validate", "is a sound suite"))
        }
        Command::Eval { suite, out } => {
            let evaluation = reference::evaluate_dir(&suite)?;
            let mut text = serde_json::to_string_pretty(&evaluation.document)
                .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?;
            text.push('\n');
            match &out {
                Some(path) => fsutil::write_atomic(path, text.as_bytes())?,
                None => print(&text),
            }
            let failures: Vec<_> = evaluation.failures().collect();
            for f in &failures {
                eprintln!(
                    "bqsuite: case {}/{} did not pass: {:?}",
                    f.section, f.id, f.verdict
                );
            }
            if let Some(path) = &out {
                eprintln!(
                    "wrote {} ({} cases, {} not passing)",
                    path.display(),
                    evaluation.outcomes.len(),
                    failures.len()
                );
            }
            Ok(if failures.is_empty() { CLEAN } else { FOUND })
        }
        Command::Release {
            suite,
            out,
            tag,
            allow_pre,
            format,
        } => {
            let options = release::Options {
                suite,
                out,
                tag,
                allow_pre,
            };
            let report = release::release(&options)?;
            Ok(emit(&report, format, "release", "released"))
        }
        Command::Fetch {
            version,
            dest,
            check,
            sha256,
            diff,
            format,
        } => {
            let options = fetch::Options {
                version,
                dest,
                check,
                sha256,
                diff,
                base_url: std::env::var("BQ_CONFORMANCE_BASE_URL")
                    .ok()
                    .filter(|s| !s.is_empty()),
                progress: format == FormatArg::Human
                    && std::io::stderr().is_terminal()
                    && std::env::var_os("CI").is_none(),
            };
            let what = if check {
                "matches the release"
            } else {
                "fetched"
            };
            let report = fetch::fetch(&options)?;
            Ok(emit(&report, format, "fetch", what))
        }
    }
}
