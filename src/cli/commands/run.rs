//! `bqsuite run`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use bqsuite::commands::run;
use bqsuite_core::{Error, fsutil, show};

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Grade an implementation against a suite through its adapter (the adapter protocol), and
/// write its results.json.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// Run only this section (repeatable; with --case, either selects a case).
    #[arg(long = "section", value_name = "SECTION")]
    sections: Vec<String>,
    /// Run only this case, named `section/name` as results files name it (repeatable).
    #[arg(long = "case", value_name = "SECTION/NAME")]
    cases: Vec<String>,
    /// How long the adapter may take to answer one request, in seconds (a decimal: 0.5); past
    /// it the adapter is stopped, the case errors and the adapter starts again once.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    timeout: Duration,
    /// Where to write the implementation's results.json (a new or regular file).
    #[arg(long, short, value_name = "FILE", default_value = "results.json")]
    out: PathBuf,
    /// The adapter command and its arguments, after `--`: it speaks the adapter protocol on its
    /// standard input and output.
    #[arg(last = true, required = true, value_name = "ADAPTER")]
    adapter: Vec<OsString>,
}

pub const PAGES: &[Page] = &[Page {
    key: "run",
    found: "a case failed or errored, or the adapter skipped every case",
    examples: &[
        (
            "Grade the SBP model itself, through the bundled adapter",
            "bqsuite run sbp-suite -- bqsuite adapter sbp-v1",
        ),
        (
            "Grade the example Python adapter, its results written to sbp-results.json",
            "bqsuite run sbp-suite --out sbp-results.json -- python3 examples/adapters/sbp_adapter.py",
        ),
        (
            "Only the handshake section, with 2 seconds per request",
            "bqsuite run sbp-suite --section handshake --timeout 2 -- ./my-adapter",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "run"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    /// Grades the implementation behind the adapter, writes its results.json and reports every
    /// case that did not pass.
    fn run(&self, out: &Output) -> Result<u8, Error> {
        super::eval::check_source_date_epoch()?;
        fsutil::check_writable_target(&self.out)?;
        let options = run::Options {
            suite: suite_or_default(&self.suite),
            adapter: self.adapter.clone(),
            sections: self.sections.clone(),
            cases: self.cases.clone(),
            timeout: self.timeout,
        };
        let graded = run::run(&options)?;
        let mut text = show::json(
            &serde_json::to_string_pretty(&graded.document())
                .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?,
        );
        text.push('\n');
        fsutil::write_atomic(&self.out, text.as_bytes())?;
        let report = run::report(&graded, Some(&self.out));
        Ok(out.emit(&report, "passes every case"))
    }
}

/// A time bound in seconds: a positive decimal of at most an hour.
fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err("a number of seconds above 0 and at most 3600, e.g. 10 or 0.5".into()),
    }
}
