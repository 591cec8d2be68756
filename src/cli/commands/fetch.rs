//! `bqsuite fetch`.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;

use bqsuite::commands::fetch::{self, suite, update};
use bqsuite_core::Error;
use bqsuite_core::error::{self, Kind};
use bqsuite_suite::compare;

use super::{Page, Run};
use crate::cli::args::FormatArg;
use crate::cli::output::Output;
use crate::cli::progress::ProgressBar;
use crate::cli::usage::shell_word;

/// Download a released suite, verify it and unpack it into DEST, --check a vendored copy, or
/// --update (re-vendor) one.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite version to fetch (SemVer, e.g. 1.5.0).
    version: String,
    /// Where to unpack (must not exist or be empty), or with --check / --update the vendored
    /// directory.
    dest: PathBuf,
    /// Compare DEST with the release instead of unpacking; writes nothing.
    #[arg(long, conflicts_with = "update")]
    check: bool,
    /// Make DEST's vendored set (CONFORMANCE_VERSION, manifest.json, suite.json if any,
    /// fixtures/, schema/) equal to the release's, keeping the SDK's own files; what to run when --check is red.
    #[arg(long)]
    update: bool,
    /// The suite to fetch when DEST holds no vendored copy: babelqueue or sbp [default:
    /// babelqueue]. A vendored copy says which suite it is (its suite.json, else BabelQueue's);
    /// naming another suite is an error.
    #[arg(long, value_name = "NAME")]
    suite: Option<String>,
    /// Pin the asset's sha256 (authenticity); SHA256SUMS is then not needed.
    #[arg(long, value_name = "HEX")]
    sha256: Option<String>,
    /// With --check: show unified diffs of changed text files.
    #[arg(long, requires = "check")]
    diff: bool,
    /// Give up on a download that takes longer than this many seconds in all, retries
    /// included [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
    /// Give up on a download that averages fewer bytes per second than this once 30 seconds
    /// have passed; 0 turns the rule off [default: 1024].
    #[arg(long, value_name = "BYTES")]
    min_speed: Option<u64>,
    /// When another bqsuite run is writing DEST, wait this many seconds for it to finish before
    /// giving up (exit 2, naming that run); 0 gives up at once [default: 30]. Not with --check,
    /// which never waits: it says the copy is being written.
    #[arg(long, value_name = "SECONDS", conflicts_with = "check")]
    lock_wait: Option<u64>,
}

pub const PAGES: &[Page] = &[Page {
    key: "fetch",
    found: "the release was refused (a checksum that does not match, an unsafe or malformed \
            archive), or with --check the vendored copy differs from it",
    examples: &[
        (
            "Download release 1.8.0, verify it and unpack it into a new directory",
            "bqsuite fetch 1.8.0 /tmp/conformance",
        ),
        (
            "Check an SDK's vendored copy against the release, with diffs (writes nothing)",
            "bqsuite fetch --check --diff 1.8.0 tests/conformance",
        ),
        (
            "Re-vendor the copy from the release, keeping the SDK's own files",
            "bqsuite fetch --update 1.8.0 tests/conformance",
        ),
        (
            "Download from a mirror ({version} is replaced)",
            "BQ_CONFORMANCE_BASE_URL='https://mirror.example/conformance/v{version}' bqsuite fetch 1.8.0 /tmp/conformance",
        ),
        (
            "Download the SBP suite's release 0.1.0 (a vendored copy says which suite it is)",
            "bqsuite fetch --suite sbp 0.1.0 /tmp/sbp-conformance",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "fetch"
    }

    fn subject(&self) -> String {
        self.dest.display().to_string()
    }

    /// Only `--check` summarises (a read-only check says what it checked).
    fn summary(&self) -> Option<&'static str> {
        self.check.then_some("fetch --check")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let options = self.options(out);
        let what = if self.check {
            "matches the release"
        } else if self.update {
            "is vendored from the release"
        } else {
            "fetched"
        };
        let result = if options.progress {
            let mut bar = ProgressBar::new();
            let result =
                fetch::fetch_with_progress(&options, &mut |done, total| bar.update(done, total));
            bar.finish();
            result
        } else {
            fetch::fetch(&options)
        };
        let report = result?;
        // --check has its own short layout (the github format leaves the fix line to the copy's
        // annotation, so the log names it once).
        let human = self
            .check
            .then(|| {
                let fix_line = out.format != FormatArg::Github;
                compare::report::render_human(&report, true, fix_line)
            })
            .flatten();
        Ok(out.emit_text(&report, what, human.as_deref()))
    }

    /// For a download that failed or found no release: the same command against a mirror, with
    /// this run's arguments, ready to paste; for a DEST that is no place to fetch into, the
    /// commands that work there.
    fn failure_help(&self, e: &Error, args: &[OsString]) -> Option<String> {
        if self.check
            && e.kind() == Kind::NotFound
            && e.path().as_deref() == Some(&*self.dest.display().to_string())
        {
            return Some(format!(
                "nothing is vendored there yet; vendor the release first: `bqsuite fetch {} {}`",
                shell_word(&OsString::from(&self.version)),
                shell_word(&self.dest.clone().into_os_string())
            ));
        }
        if let Some(help) = self.occupied_dest_help(e) {
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
            let reads_copy = self.check || self.update;
            let kind = suite::expected(&self.dest, reads_copy, self.suite.as_deref())
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
}

impl Args {
    /// The library's options: these arguments, the mirror from the environment, and whether a
    /// progress bar is drawn (human format, on a terminal, outside CI).
    fn options(&self, out: &Output) -> fetch::Options {
        let defaults = fetch::Network::default();
        let network = fetch::Network {
            deadline: self
                .timeout
                .map_or(defaults.deadline, std::time::Duration::from_secs),
            min_speed: self.min_speed.unwrap_or(defaults.min_speed),
            ..defaults
        };
        fetch::Options {
            version: self.version.clone(),
            dest: self.dest.clone(),
            check: self.check,
            update: self.update,
            sha256: self.sha256.clone(),
            diff: self.diff,
            suite: self.suite.clone(),
            base_url: std::env::var(error::BASE_URL_ENV)
                .ok()
                .filter(|s| !s.is_empty()),
            network,
            lock_wait: self
                .lock_wait
                .map_or(bqsuite_suite::lock::WAIT, std::time::Duration::from_secs),
            progress: out.format == FormatArg::Human
                && std::io::stderr().is_terminal()
                && std::env::var_os("CI").is_none(),
            ..fetch::Options::default()
        }
    }

    /// For a plain fetch refused because DEST is a directory that holds something: the two
    /// commands that work on a vendored copy there, with this run's version, DEST, mirror and
    /// pin.
    fn occupied_dest_help(&self, e: &Error) -> Option<String> {
        let dest = &self.dest;
        let occupied = std::fs::symlink_metadata(dest).is_ok_and(|m| m.is_dir())
            && std::fs::read_dir(dest).is_ok_and(|mut entries| entries.next().is_some());
        let about_dest = e.path().as_deref() == Some(&*dest.display().to_string());
        if self.check || self.update || e.kind() != Kind::BadPath || !about_dest || !occupied {
            return None;
        }
        let base = std::env::var(error::BASE_URL_ENV)
            .ok()
            .filter(|s| !s.is_empty());
        let (version, sha256) = (self.version.as_str(), self.sha256.as_deref());
        let check = update::check_command(version, dest, base.as_deref(), sha256);
        let update = update::command(version, dest, base.as_deref(), sha256);
        Some(format!(
            "to compare the vendored copy there with release {version}: `{check}`; to re-vendor \
             it from the release (the SDK's own files are kept): `{update}`"
        ))
    }
}
