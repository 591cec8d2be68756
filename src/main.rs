//! The `bqsuite` binary: parse arguments, call a command, render its report, choose the exit
//! code. Each subcommand is a file of [`cli::commands`].

mod cli;

use std::ffi::OsString;
use std::process::ExitCode;

use bqsuite_core::Error;
use cli::commands::Run;
use cli::output::{self, Output};
use cli::usage;

fn main() -> ExitCode {
    usage::ignore_file_size_signal();
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match cli::args::parse(&args) {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(usage::usage_error(&e, &args)),
    };
    output::apply_color(cli.color);
    let format = output::resolve_format(cli.format);
    let command = cli.command.runner();
    let out = Output::new(format, command.name(), command.subject(), command.summary());
    let code = match dispatch(command, &out, &args) {
        Ok(code) => code,
        Err(e) => {
            let message = e.to_string();
            let help = command.failure_help(&e, &args).or_else(|| e.help());
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
fn dispatch(command: &dyn Run, out: &Output, args: &[OsString]) -> Result<u8, Error> {
    usage::require_suite(command, args)?;
    command.run(out)
}

/// The workload (tens of thousands of small JSON trees built and dropped) is dominated by
/// allocation; mimalloc roughly halves validate's time on large suites compared with glibc malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
