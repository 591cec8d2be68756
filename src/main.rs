//! The `bqsuite` binary: parse arguments, call a command, render its report, choose the exit
//! code. Each arm below hands one subcommand's arguments to its runner in [`cli::run`].

mod cli;

use std::ffi::OsString;
use std::process::ExitCode;

use bqsuite_core::Error;
use cli::args::{Command, ResultsAction};
use cli::output::{self, Output};
use cli::{run, usage};

fn main() -> ExitCode {
    usage::ignore_file_size_signal();
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match cli::args::parse(&args) {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(usage::usage_error(&e, &args)),
    };
    output::apply_color(cli.color);
    let format = output::resolve_format(cli.format);
    let out = Output::new(
        format,
        cli.command.name(),
        cli.command.subject(),
        usage::is_check(&cli.command),
    );
    let code = match dispatch(&cli.command, &out, &args) {
        Ok(code) => code,
        Err(e) => {
            let message = e.to_string();
            let help = usage::retry_help(&cli.command, &e, &args).or_else(|| e.help());
            out.fail_with(
                e.kind().as_str(),
                &message,
                e.path().as_deref(),
                help.as_deref(),
            )
        }
    };
    ExitCode::from(code)
}

/// Runs one subcommand: the suite it reads must exist, then its runner takes over.
fn dispatch(command: &Command, out: &Output, args: &[OsString]) -> Result<u8, Error> {
    usage::require_suite(command, args)?;
    match command {
        Command::Validate {
            suite,
            proposal,
            since,
        } => run::validate(suite, proposal.as_deref(), since.as_deref(), out),
        Command::Sync(args) => run::sync(args, out),
        Command::Results { action } => match action {
            ResultsAction::Check {
                files,
                suite,
                known_gaps,
            } => run::results_check(files, suite, known_gaps, out),
            ResultsAction::Matrix {
                files,
                suite,
                html,
                markdown,
            } => run::results_matrix(files, suite, html, markdown, out),
            ResultsAction::Diff { old, new } => run::results_diff(old, new, out),
        },
        Command::Diff { old, new, markdown } => run::diff(old, new, markdown, out),
        Command::Eval { suite, out: file } => run::eval(suite, file.as_deref(), out),
        Command::Run(a) => run::run(a, out),
        Command::Adapter(a) => run::adapter(a),
        Command::Mutants { suite, proposal } => run::mutants(suite, proposal.as_deref(), out),
        Command::Adopt {
            version,
            suite,
            proposal,
        } => run::adopt(version, suite, proposal, out),
        Command::Release {
            suite,
            out: dir,
            tag,
            allow_pre,
        } => run::release(suite, dir, tag, *allow_pre, out),
        Command::Fetch(args) => run::fetch(args, out),
        Command::Completions { shell } => Ok(run::completions(*shell, out)),
        Command::Man { page, out: dir } => cli::man::run(page, dir.as_deref(), out),
    }
}

/// The workload (tens of thousands of small JSON trees built and dropped) is dominated by
/// allocation; mimalloc roughly halves validate's time on large suites compared with glibc malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
