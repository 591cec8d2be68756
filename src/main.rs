//! The `bqsuite` binary: parse arguments, call the library, render, choose the exit code.

mod cli;
mod man;
mod output;

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::process::ExitCode;

use bqsuite::diag::{Diagnostic, Report};
use bqsuite::eval::outcome::{CaseOutcome, Verdict};
use bqsuite::{
    Error, diff, fetch, fsutil, mutants, proposal, reference, release, results, sync, validate,
};
use cli::{Cli, Command, FormatArg, ResultsAction, suite_or_default};
use output::{CLEAN, FOUND, Output};
use serde_json::json;
use std::io::IsTerminal;

fn main() -> ExitCode {
    ignore_file_size_signal();
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(usage_error(&e, &args)),
    };
    output::apply_color(cli.color);
    let format = output::resolve_format(cli.format);
    let out = Output::new(
        format,
        cli.command.name(),
        cli.command.subject(),
        is_check(&cli.command),
    );
    let code = match run(&cli, &out, &args) {
        Ok(code) => code,
        Err(e) => {
            let message = e.to_string();
            let help = retry_help(&cli.command, &e, &args).or_else(|| e.help());
            out.fail_with(e.kind(), &message, e.path().as_deref(), help.as_deref())
        }
    };
    ExitCode::from(code)
}

/// A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, which kills the process with
/// no message and leaves fetch's staging directory behind. Ignored, the write fails with EFBIG
/// instead: the command reports it (exit 2) and cleans up like any other write error.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: installs the SIG_IGN disposition before any thread is started; no handler runs.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

fn is_check(command: &Command) -> bool {
    matches!(
        command,
        Command::Sync { check: true, .. } | Command::Fetch { check: true, .. }
    )
}

/// A command line clap refuses (exit 2), or `--help` / `--version` (exit 0). With
/// `--format json` anywhere in the arguments the refusal is also one JSON document.
fn usage_error(e: &clap::Error, args: &[OsString]) -> u8 {
    if !e.use_stderr() {
        // --help, --version: clap prints them on standard output.
        let _ = e.print();
        return output::CLEAN;
    }
    let _ = e.print();
    let rendered = e.render().to_string();
    let message = rendered
        .split("\n\n")
        .next()
        .unwrap_or("")
        .trim()
        .trim_start_matches("error: ")
        .to_string();
    let command = cli::guess_command(args);
    let help = if command.is_empty() {
        "run `bqsuite --help` for the commands and their options".to_string()
    } else {
        format!("run `bqsuite {command} --help` for its usage")
    };
    let format = if cli::wants_json(args) {
        FormatArg::Json
    } else {
        output::resolve_format(None)
    };
    if format == FormatArg::Json {
        output::print(&bqsuite::diag::render_error_json(
            &command,
            "",
            bqsuite::diag::error_json("usage", &message, None, Some(&help)),
        ));
    } else if format == FormatArg::Github {
        output::print(&bqsuite::github::failure_annotation(
            "usage",
            &message,
            Some(&help),
        ));
    }
    output::FAILED
}

/// The suite directory a command reads must exist; the default `./suite` gets a message saying
/// it is the default and how to pass another.
fn require_suite(command: &Command, args: &[OsString]) -> Result<(), Error> {
    let Some((suite, defaulted)) = command.suite() else {
        return Ok(());
    };
    if !defaulted || suite.exists() {
        return Ok(());
    }
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the current directory".into());
    let option = match command {
        Command::Sync { .. } | Command::Results { .. } => "--suite ",
        _ => "",
    };
    let mut retry: Vec<String> = args.iter().skip(1).map(shell_word).collect();
    retry.push(format!("{option}path/to/suite"));
    Err(Error::io(
        "find the suite directory",
        suite,
        io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "there is no `suite` directory in {cwd} (SUITE defaults to ./suite in the current \
                 directory); run bqsuite from the repository root, or pass the suite's directory: \
                 `bqsuite {}`",
                retry.join(" ")
            ),
        ),
    ))
}

/// For a download that failed or found no release: the same command against a mirror, with this
/// run's arguments, ready to paste.
fn retry_help(command: &Command, e: &Error, args: &[OsString]) -> Option<String> {
    if let Command::Fetch {
        version,
        dest,
        check: true,
        ..
    } = command
        && e.kind() == "not-found"
        && e.path().as_deref() == Some(&*dest.display().to_string())
    {
        return Some(format!(
            "nothing is vendored there yet; vendor the release first: `bqsuite fetch {} {}`",
            shell_word(&OsString::from(version)),
            shell_word(&dest.clone().into_os_string())
        ));
    }
    if !matches!(command, Command::Fetch { .. }) || !matches!(e.kind(), "network" | "not-released")
    {
        return None;
    }
    let words: Vec<String> = args.iter().skip(1).map(shell_word).collect();
    let base = bqsuite::error::BASE_URL_ENV;
    let what = if e.kind() == "network" {
        "check the network connection and try again, or download from a mirror"
    } else {
        "check the version (releases are the tags vX.Y.Z of BabelQueue/conformance), or use a \
         mirror that has it"
    };
    Some(format!(
        "{what}: `{base}='https://mirror.example/conformance/v{{version}}' bqsuite {}` \
         ({base} takes http://, https:// or file:/// URLs; `{{version}}` is replaced)",
        words.join(" ")
    ))
}

/// One argument as a POSIX shell reads it (the one quoting rule of every pasteable command).
fn shell_word(arg: &OsString) -> String {
    bqsuite::shell::quote(&arg.to_string_lossy())
}

/// `SOURCE_DATE_EPOCH`, when set, must be usable by every command that writes a date (exit 2).
fn check_source_date_epoch() -> Result<(), Error> {
    release::mtime_from(std::env::var_os(release::SOURCE_DATE_EPOCH)).map(|_| ())
}

fn run(cli: &Cli, out: &Output, args: &[OsString]) -> Result<u8, Error> {
    require_suite(&cli.command, args)?;
    match &cli.command {
        Command::Validate {
            suite,
            proposal: Some(proposal),
            ..
        } => {
            let report = proposal::validate(&suite_or_default(suite), proposal)?;
            Ok(out.emit(&report, "is a sound, additive proposal"))
        }
        Command::Validate { suite, since, .. } => {
            let suite = suite_or_default(suite);
            let mut report = validate::validate(&suite)?;
            if let Some(old) = since {
                diff::since(&mut report, old, &suite)?;
                report.sort();
            }
            Ok(out.emit(&report, "is a sound suite"))
        }
        Command::Sync {
            suite,
            workspace,
            targets,
            check,
            diff,
            strict,
            verbose,
        } => {
            let options = sync::Options {
                suite: suite_or_default(suite),
                workspace: workspace.clone(),
                targets: targets.clone(),
                check: *check,
                diff: *diff,
                strict: *strict,
            };
            let outcome = sync::sync(&options)?;
            let what = if *check {
                "is vendored everywhere"
            } else {
                "synced"
            };
            let human = sync::render_human_styled(&outcome, *verbose, true);
            Ok(out.emit_text(&outcome.report, what, Some(&human)))
        }
        Command::Results { action } => match action {
            ResultsAction::Check {
                files,
                suite,
                known_gaps,
            } => {
                let report = results::check(&results::CheckOptions {
                    files: files.clone(),
                    suite: suite_or_default(suite),
                    known_gaps: known_gaps.clone(),
                })?;
                Ok(out.emit(&report, "Compatible"))
            }
            ResultsAction::Matrix {
                files,
                suite,
                html,
                markdown,
            } => {
                let (mut report, text) = results::matrix(&results::MatrixOptions {
                    files: files.clone(),
                    suite: suite_or_default(suite),
                    html: html.clone(),
                    markdown: markdown.clone(),
                })?;
                if out.json() {
                    // The table itself, when it is not written to a file.
                    report.data["markdown"] = if html.is_none() && markdown.is_none() {
                        json!(text)
                    } else {
                        serde_json::Value::Null
                    };
                    // The matrix is a report, not a gate: it rendered, so the document is ok.
                    output::print(&bqsuite::diag::render_json(&report, &out.command));
                } else {
                    output::print(&bqsuite::show::guard(&text));
                    out.side_findings(&report);
                }
                out.summarise(&report, "rendered");
                Ok(if report.is_clean() { CLEAN } else { FOUND })
            }
            ResultsAction::Diff { old, new } => {
                let report = results::diff(&results::DiffOptions {
                    old: old.clone(),
                    new: new.clone(),
                })?;
                Ok(out.emit(&report, "has no regression"))
            }
        },
        Command::Diff { old, new, markdown } => {
            let report = diff::diff(&diff::Options {
                old: old.clone(),
                new: new.clone(),
                markdown: markdown.clone(),
            })?;
            Ok(out.emit(&report, "makes a sufficient version bump"))
        }
        Command::Eval { suite, out: file } => {
            check_source_date_epoch()?;
            // `--out -` is standard output; any other path must be new or a regular file.
            let file = file.as_deref().filter(|p| p.as_os_str() != "-");
            if let Some(path) = file {
                fsutil::check_writable_target(path)?;
            }
            eval(&suite_or_default(suite), file, out)
        }
        Command::Mutants { suite, proposal } => {
            let suite = suite_or_default(suite);
            let report = match proposal {
                Some(proposal) => proposal::mutants(&suite, proposal)?,
                None => mutants::mutants(&suite)?,
            };
            Ok(out.emit(&report, "kills every mutant"))
        }
        Command::Release {
            suite,
            out: dir,
            tag,
            allow_pre,
        } => {
            let options = release::Options {
                suite: suite_or_default(suite),
                out: dir.clone(),
                tag: tag.clone(),
                allow_pre: *allow_pre,
            };
            let report = release::release(&options)?;
            Ok(out.emit(&report, "released"))
        }
        Command::Fetch {
            version,
            dest,
            check,
            update,
            sha256,
            diff,
            timeout,
            min_speed,
        } => {
            let defaults = fetch::Network::default();
            let network = fetch::Network {
                deadline: timeout.map_or(defaults.deadline, std::time::Duration::from_secs),
                min_speed: min_speed.unwrap_or(defaults.min_speed),
                ..defaults
            };
            let options = fetch::Options {
                version: version.clone(),
                dest: dest.clone(),
                check: *check,
                update: *update,
                sha256: sha256.clone(),
                diff: *diff,
                base_url: std::env::var(bqsuite::error::BASE_URL_ENV)
                    .ok()
                    .filter(|s| !s.is_empty()),
                network,
                progress: out.format == FormatArg::Human
                    && std::io::stderr().is_terminal()
                    && std::env::var_os("CI").is_none(),
                ..fetch::Options::default()
            };
            let what = if *check {
                "matches the release"
            } else if *update {
                "is vendored from the release"
            } else {
                "fetched"
            };
            let result = if options.progress {
                let mut bar = fetch::progress::ProgressBar::new();
                let result = fetch::fetch_with_progress(&options, &mut |done, total| {
                    bar.update(done, total)
                });
                bar.finish();
                result
            } else {
                fetch::fetch(&options)
            };
            let report = result?;
            // --check has its own short layout (the github format leaves the fix line to the
            // copy's annotation, so the log names it once).
            let human = check
                .then(|| {
                    let fix_line = out.format != FormatArg::Github;
                    fetch::compare::report::render_human(&report, true, fix_line)
                })
                .flatten();
            Ok(out.emit_text(&report, what, human.as_deref()))
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut cli::command(), "bqsuite", &mut script);
            Ok(generated(out, &String::from_utf8_lossy(&script)))
        }
        Command::Man { page, out: dir } => man::run(page, dir.as_deref(), out),
    }
}

/// Prints generated text (a completion script, the man page); with `--format json`, inside the
/// document's `data.text`.
fn generated(out: &Output, text: &str) -> u8 {
    if out.json() {
        let mut report = Report::new(out.subject.clone());
        report.data = json!({ "text": text });
        output::print(&bqsuite::diag::render_json(&report, &out.command));
    } else {
        output::print(text);
    }
    CLEAN
}

/// `bqsuite eval`: the reference model's results.json on standard output (or `--out FILE`), and
/// every case that does not pass as a finding.
fn eval(suite: &Path, file: Option<&Path>, out: &Output) -> Result<u8, Error> {
    let evaluation = reference::evaluate_dir(suite)?;
    let mut text = bqsuite::show::json(
        &serde_json::to_string_pretty(&evaluation.document)
            .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?,
    );
    text.push('\n');
    if let Some(path) = file {
        fsutil::write_atomic(path, text.as_bytes())?;
    }
    let mut report = Report::new(suite.display().to_string());
    report.root = Some(suite.to_path_buf());
    for warning in &evaluation.warnings {
        report.push(Diagnostic::warning(
            "version-from-conformance-version",
            bqsuite::suite::load::MANIFEST,
            warning.clone(),
        ));
    }
    let failures: Vec<&CaseOutcome> = evaluation.failures().collect();
    for f in &failures {
        report.push(verdict_finding(f));
    }
    report.summary.push(format!(
        "{} cases, {} not passing",
        evaluation.outcomes.len(),
        failures.len()
    ));
    if let Some(path) = file {
        report
            .summary
            .push(format!("wrote {}", bqsuite::error::shown_path(path)));
    }
    if out.json() {
        let count = |pass: bool| {
            evaluation
                .outcomes
                .iter()
                .filter(|o| match o.verdict {
                    Verdict::Pass => pass,
                    Verdict::Skip { .. } => !pass,
                    _ => false,
                })
                .count()
        };
        report.data = json!({
            "version": evaluation.document.get("conformance_version"),
            "cases": evaluation.outcomes.len(),
            "pass": count(true),
            "skip": count(false),
            "not_passing": failures.len(),
            "out": file.map(|p| p.display().to_string()),
            "results": if file.is_none() { evaluation.document.clone() } else { serde_json::Value::Null },
        });
        output::print(&bqsuite::diag::render_json(&report, &out.command));
    } else {
        if file.is_none() {
            output::print(&text);
        }
        out.side_findings(&report);
        if let Some(path) = file {
            output::eprint_styled(&format!(
                "wrote {} ({} cases, {} not passing)\n",
                bqsuite::error::shown_path(path),
                evaluation.outcomes.len(),
                failures.len()
            ));
        }
    }
    Ok(if failures.is_empty() { CLEAN } else { FOUND })
}

/// A case the reference model does not pass, as a finding in words.
fn verdict_finding(outcome: &CaseOutcome) -> Diagnostic {
    let manifest = bqsuite::suite::load::MANIFEST;
    let case = format!("case {}/{}", outcome.section, outcome.id);
    let d = match &outcome.verdict {
        Verdict::Mismatch(m) => Diagnostic::error(
            "expectation-mismatch",
            manifest,
            format!("{case} did not pass: it {m}"),
        )
        .at(m.pointer.clone())
        .help(
            "correct the expectation (or, if the model is wrong, the reference evaluator) so that \
             both agree with the spec",
        ),
        Verdict::Malformed { pointer, message } => Diagnostic::error(
            "case-shape",
            manifest,
            format!("{case} could not be evaluated: {message}"),
        )
        .at(pointer.clone())
        .help("give the case the fields its section's runner reads"),
        Verdict::NoRule => Diagnostic::error(
            "no-reference-rule",
            manifest,
            format!("{case}: the reference evaluator has no rule for its section"),
        )
        .at(outcome.pointer.clone())
        .help("use a bqsuite that knows the section, or add the rule to the reference evaluator"),
        other => Diagnostic::error(
            "case-not-passing",
            manifest,
            format!("{case} did not pass: {other}"),
        )
        .at(outcome.pointer.clone()),
    };
    d.case(outcome.section.clone(), outcome.id.clone())
}

/// The workload (tens of thousands of small JSON trees built and dropped) is dominated by
/// allocation; mimalloc roughly halves validate's time on large suites compared with glibc malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
