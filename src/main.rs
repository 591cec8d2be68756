//! The `bqsuite` binary: parse arguments, call the library, render, choose the exit code.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use bqsuite::diag::{self, Report};
use bqsuite::{Error, diff, fetch, fsutil, mutants, reference, release, results, sync, validate};
use clap::Parser;
use cli::{Cli, Command, FormatArg, ResultsAction};
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
        Command::Validate {
            suite,
            since,
            format,
        } => {
            let mut report = validate::validate(&suite)?;
            if let Some(old) = since {
                report
                    .diagnostics
                    .extend(diff::since_findings(&old, &suite)?);
                report.sort();
            }
            Ok(emit(&report, format, "validate", "is a sound suite"))
        }
        Command::Sync {
            suite,
            workspace,
            targets,
            check,
            diff,
            strict,
            verbose,
            format,
        } => {
            let options = sync::Options {
                suite,
                workspace,
                targets,
                check,
                diff,
                strict,
            };
            let outcome = sync::sync(&options)?;
            match format {
                FormatArg::Human => print(&sync::render_human(&outcome, verbose)),
                FormatArg::Json => print(&diag::render_json(&outcome.report, "sync")),
            }
            Ok(if outcome.report.is_clean() {
                CLEAN
            } else {
                FOUND
            })
        }
        Command::Results { action } => match action {
            ResultsAction::Check {
                files,
                suite,
                format,
            } => {
                let report = results::check(&results::CheckOptions { files, suite })?;
                Ok(emit(&report, format, "results check", "Compatible"))
            }
            ResultsAction::Matrix {
                files,
                suite,
                html,
                markdown,
            } => {
                let (report, text) = results::matrix(&results::MatrixOptions {
                    files,
                    suite,
                    html,
                    markdown,
                })?;
                print(&text);
                for d in &report.diagnostics {
                    eprintln!("{}", diag::render_diagnostic(d));
                }
                Ok(if report.is_clean() { CLEAN } else { FOUND })
            }
            ResultsAction::Diff { old, new, format } => {
                let report = results::diff(&results::DiffOptions { old, new })?;
                Ok(emit(&report, format, "results diff", "has no regression"))
            }
        },
        Command::Diff {
            old,
            new,
            markdown,
            format,
        } => {
            let report = diff::diff(&diff::Options { old, new, markdown })?;
            Ok(emit(
                &report,
                format,
                "diff",
                "makes a sufficient version bump",
            ))
        }
        Command::Eval { suite, out } => {
            let evaluation = reference::evaluate_dir(&suite)?;
            for warning in &evaluation.warnings {
                eprintln!("bqsuite: warning: {warning}");
            }
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
                    "bqsuite: case {}/{} did not pass: {}",
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
        Command::Mutants { suite, format } => match mutants::mutants(&suite) {
            Ok(report) => Ok(emit(&report, format, "mutants", "kills every mutant")),
            // One JSON document in every outcome: the reason it could not run is its finding.
            Err(e) if format == FormatArg::Json => {
                let mut report = Report::new(suite.display().to_string());
                report.push(
                    diag::Diagnostic::error("could-not-run", "", e.to_string()).help(
                        "give the suite directory (the one holding manifest.json): `bqsuite mutants path/to/suite`",
                    ),
                );
                print(&diag::render_json(&report, "mutants"));
                eprintln!("bqsuite: error: {e}");
                Ok(FAILED)
            }
            Err(e) => Err(e),
        },
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
            update,
            sha256,
            diff,
            format,
        } => {
            let options = fetch::Options {
                version,
                dest,
                check,
                update,
                sha256,
                diff,
                base_url: std::env::var("BQ_CONFORMANCE_BASE_URL")
                    .ok()
                    .filter(|s| !s.is_empty()),
                progress: format == FormatArg::Human
                    && std::io::stderr().is_terminal()
                    && std::env::var_os("CI").is_none(),
                ..fetch::Options::default()
            };
            let what = if check {
                "matches the release"
            } else if update {
                "is vendored from the release"
            } else {
                "fetched"
            };
            let result = if options.progress {
                let mut bar = fetch::progress::ProgressBar::new(std::io::stderr());
                let result = fetch::fetch_with_progress(&options, &mut |done, total| {
                    bar.update(done, total)
                });
                bar.finish();
                result
            } else {
                fetch::fetch(&options)
            };
            let report = result?;
            Ok(emit(&report, format, "fetch", what))
        }
    }
}

/// The workload (tens of thousands of small JSON trees built and dropped) is dominated by
/// allocation; mimalloc roughly halves validate's time on large suites compared with glibc malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
