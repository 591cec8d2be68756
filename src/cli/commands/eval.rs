//! `bqsuite eval`.

use std::path::PathBuf;

use bqsuite::commands::{eval, release};
use bqsuite_core::{Error, diag, error, fsutil, show};

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::{self, CLEAN, FOUND, Output};

/// Run the reference evaluator over a suite and write its results.json.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// Where to write results.json (default, or `-`: standard output); a new or regular file.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

pub const PAGES: &[Page] = &[Page {
    key: "eval",
    found: "a case does not pass under the reference evaluator",
    examples: &[
        (
            "Write the reference evaluator's results.json",
            "bqsuite eval suite --out results.json",
        ),
        (
            "The same document on standard output, inside one JSON report",
            "bqsuite eval suite --format json",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "eval"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    /// The reference model's results.json on standard output (or `--out FILE`), and every case
    /// that does not pass as a finding.
    fn run(&self, out: &Output) -> Result<u8, Error> {
        check_source_date_epoch()?;
        // `--out -` is standard output; any other path must be new or a regular file.
        let file = self.out.as_deref().filter(|p| p.as_os_str() != "-");
        if let Some(path) = file {
            fsutil::check_writable_target(path)?;
        }
        let suite = suite_or_default(&self.suite);
        let evaluation = eval::evaluate_dir(&suite)?;
        let mut text = show::json(
            &serde_json::to_string_pretty(&evaluation.document)
                .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?,
        );
        text.push('\n');
        if let Some(path) = file {
            fsutil::write_atomic(path, text.as_bytes())?;
        }
        let report = eval::report(&suite, file, &evaluation);
        let failures = evaluation.failures().count();
        if out.json() {
            output::print(&diag::render_json(&report, &out.command));
        } else {
            if file.is_none() {
                output::print(&text);
            }
            out.side_findings(&report);
            if let Some(path) = file {
                output::eprint_styled(&format!(
                    "wrote {} ({} cases, {} not passing)\n",
                    error::shown_path(path),
                    evaluation.outcomes.len(),
                    failures
                ));
            }
        }
        Ok(if failures == 0 { CLEAN } else { FOUND })
    }
}

/// `SOURCE_DATE_EPOCH`, when set, must be usable before the command writes a date (exit 2).
pub(super) fn check_source_date_epoch() -> Result<(), Error> {
    release::mtime_from(std::env::var_os(release::SOURCE_DATE_EPOCH)).map(|_| ())
}
