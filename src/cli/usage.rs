//! Before a command runs, and when none can: a refused command line, a missing suite directory,
//! and the process setup every run needs.

use std::ffi::OsString;
use std::io;
use std::path::Path;

use bqsuite_core::{Error, diag, github, shell};

use super::args::{self, DEFAULT_SUITE, FormatArg};
use super::commands::Run;
use super::output;

/// A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, which kills the process with
/// no message and leaves fetch's staging directory behind. Ignored, the write fails with EFBIG
/// instead: the command reports it (exit 2) and cleans up like any other write error.
pub fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: installs the SIG_IGN disposition before any thread is started; no handler runs.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// A command line clap refuses (exit 2), or `--help` / `--version` (exit 0). With
/// `--format json` anywhere in the arguments the refusal is also one JSON document.
pub fn usage_error(e: &clap::Error, args: &[OsString]) -> u8 {
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
    let command = args::guess_command(args);
    let help = if command.is_empty() {
        "run `bqsuite --help` for the commands and their options".to_string()
    } else {
        format!("run `bqsuite {command} --help` for its usage")
    };
    let format = if args::wants_json(args) {
        FormatArg::Json
    } else {
        output::resolve_format(None)
    };
    if format == FormatArg::Json {
        output::print(&diag::render_error_json(
            &command,
            "",
            diag::error_json("usage", &message, None, Some(&help)),
        ));
    } else if format == FormatArg::Github {
        output::print(&github::failure_annotation("usage", &message, Some(&help)));
    }
    output::FAILED
}

/// The suite directory a command reads must exist; the default `./suite` gets a message saying
/// it is the default and how to pass another.
pub fn require_suite(command: &dyn Run, args: &[OsString]) -> Result<(), Error> {
    let Some(dir) = command.suite() else {
        return Ok(());
    };
    let suite = Path::new(DEFAULT_SUITE);
    if dir.given.is_some() || suite.exists() {
        return Ok(());
    }
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the current directory".into());
    let option = if dir.option { "--suite " } else { "" };
    let mut retry: Vec<String> = args.iter().skip(1).map(shell_word).collect();
    let advice = match vendored_copy_here() {
        Some(copy) => {
            retry.push(format!("{option}{}", shell::quote(&copy)));
            format!(
                "this looks like an SDK repository, with its vendored copy in {copy}; pass that"
            )
        }
        None => {
            retry.push(format!("{option}path/to/suite"));
            "run bqsuite from the repository root, or pass the suite's directory".to_string()
        }
    };
    Err(Error::io(
        "find the suite directory",
        suite,
        io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "there is no `suite` directory in {cwd} (SUITE defaults to ./suite in the current \
                 directory); {advice}: `bqsuite {}`",
                retry.join(" ")
            ),
        ),
    ))
}

/// Where SDK repositories vendor the suite (`sync-targets.txt`), relative to their root; .NET
/// repositories keep it one level deeper, in `tests/<project>/conformance`.
const VENDORED_AT: [&str; 4] = [
    "tests/conformance",
    "test/conformance",
    "testdata/conformance",
    "src/test/resources/conformance",
];

/// The vendored copy in the current directory, when it is an SDK repository: the first of
/// [`VENDORED_AT`], then of `tests/*/conformance` (by name), that holds a manifest.json.
fn vendored_copy_here() -> Option<String> {
    let mut projects: Vec<String> = std::fs::read_dir("tests")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .map(|name| format!("tests/{name}/conformance"))
        .collect();
    projects.sort();
    VENDORED_AT
        .iter()
        .map(|p| p.to_string())
        .chain(projects)
        .find(|p| Path::new(p).join("manifest.json").is_file())
}

/// One argument as a POSIX shell reads it (the one quoting rule of every pasteable command).
pub fn shell_word(arg: &OsString) -> String {
    shell::quote(&arg.to_string_lossy())
}
