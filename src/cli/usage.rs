//! Before a command runs, and when none can: a refused command line, a missing suite directory,
//! the retry line after a failed download, and the process setup every run needs.

use std::ffi::OsString;
use std::io;

use bqsuite::commands::fetch::{suite, update};
use bqsuite::commands::release;
use bqsuite_core::error::Kind;
use bqsuite_core::{Error, diag, error, github, shell};

use super::args::{self, Command, FetchArgs, FormatArg, SyncArgs};
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

/// The read-only checks (`sync --check`, `fetch --check`), whose summaries say what was checked.
pub fn is_check(command: &Command) -> bool {
    matches!(
        command,
        Command::Sync(SyncArgs { check: true, .. }) | Command::Fetch(FetchArgs { check: true, .. })
    )
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
pub fn require_suite(command: &Command, args: &[OsString]) -> Result<(), Error> {
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
        Command::Sync(_) | Command::Results { .. } => "--suite ",
        _ => "",
    };
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
        .find(|p| std::path::Path::new(p).join("manifest.json").is_file())
}

/// For a download that failed or found no release: the same command against a mirror, with this
/// run's arguments, ready to paste.
pub fn retry_help(command: &Command, e: &Error, args: &[OsString]) -> Option<String> {
    let Command::Fetch(fetch) = command else {
        return None;
    };
    if fetch.check
        && e.kind() == Kind::NotFound
        && e.path().as_deref() == Some(&*fetch.dest.display().to_string())
    {
        return Some(format!(
            "nothing is vendored there yet; vendor the release first: `bqsuite fetch {} {}`",
            shell_word(&OsString::from(&fetch.version)),
            shell_word(&fetch.dest.clone().into_os_string())
        ));
    }
    if let Some(help) = occupied_dest_help(fetch, e) {
        return Some(help);
    }
    if !matches!(e.kind(), Kind::Network | Kind::NotReleased) {
        return None;
    }
    let words: Vec<String> = args.iter().skip(1).map(shell_word).collect();
    let base = error::BASE_URL_ENV;
    let what = if e.kind() == Kind::Network {
        "check the network connection and try again, or download from a mirror".to_string()
    } else {
        let reads_copy = fetch.check || fetch.update;
        let kind = suite::expected(&fetch.dest, reads_copy, fetch.suite.as_deref())
            .unwrap_or_else(|_| bqsuite_suite::kind::Kind::babelqueue());
        format!(
            "check the version (releases are {}), or use a mirror that has it",
            suite::where_released(&kind)
        )
    };
    Some(format!(
        "{what}: `{base}='https://mirror.example/conformance/v{{version}}' bqsuite {}` \
         ({base} takes http://, https:// or file:/// URLs; `{{version}}` is replaced)",
        words.join(" ")
    ))
}

/// For a plain fetch refused because DEST is a directory that holds something: the two commands
/// that work on a vendored copy there, with this run's version, DEST, mirror and pin.
fn occupied_dest_help(fetch: &FetchArgs, e: &Error) -> Option<String> {
    let dest = &fetch.dest;
    let occupied = std::fs::symlink_metadata(dest).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(dest).is_ok_and(|mut entries| entries.next().is_some());
    let about_dest = e.path().as_deref() == Some(&*dest.display().to_string());
    if fetch.check || fetch.update || e.kind() != Kind::BadPath || !about_dest || !occupied {
        return None;
    }
    let base = std::env::var(error::BASE_URL_ENV)
        .ok()
        .filter(|s| !s.is_empty());
    let (version, sha256) = (fetch.version.as_str(), fetch.sha256.as_deref());
    let check = update::check_command(version, dest, base.as_deref(), sha256);
    let update = update::command(version, dest, base.as_deref(), sha256);
    Some(format!(
        "to compare the vendored copy there with release {version}: `{check}`; to re-vendor it \
         from the release (the SDK's own files are kept): `{update}`"
    ))
}

/// One argument as a POSIX shell reads it (the one quoting rule of every pasteable command).
fn shell_word(arg: &OsString) -> String {
    shell::quote(&arg.to_string_lossy())
}

/// `SOURCE_DATE_EPOCH`, when set, must be usable by every command that writes a date (exit 2).
pub fn check_source_date_epoch() -> Result<(), Error> {
    release::mtime_from(std::env::var_os(release::SOURCE_DATE_EPOCH)).map(|_| ())
}
