//! `bqsuite results` and its commands: `check`, `matrix`, `diff`.

use std::path::PathBuf;

use bqsuite::commands::results;
use bqsuite_core::{Error, diag, show};
use serde_json::json;

use super::{Page, Run, SuiteDir, arrow};
use crate::cli::args::suite_or_default;
use crate::cli::output::{self, CLEAN, FOUND, Output};

/// Check SDK results files, build the compatibility matrix, or diff two runs of one SDK.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    Check(Check),
    Matrix(Matrix),
    Diff(Diff),
}

impl Args {
    /// The command of `results` that was named.
    pub fn runner(&self) -> &dyn Run {
        match &self.action {
            Action::Check(a) => a,
            Action::Matrix(a) => a,
            Action::Diff(a) => a,
        }
    }
}

/// Decide whether each SDK results file is Compatible with the suite, listing every reason
/// it is not.
#[derive(Debug, clap::Args)]
struct Check {
    /// results.json files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The suite the results are checked against [default: suite, in the current directory].
    #[arg(long, value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// The SDK's known-gaps file ({"gaps": [{"section", "case", "reason"}]}, as the real
    /// conformance-known-gaps.json): a failing case it lists is accepted; a listed case that
    /// passes (stale), is skipped or is absent is an error.
    #[arg(long, value_name = "FILE")]
    known_gaps: Option<PathBuf>,
}

/// The compatibility matrix: SDKs as columns, sections as rows.
#[derive(Debug, clap::Args)]
struct Matrix {
    /// results.json files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The suite the results are checked against [default: suite, in the current directory].
    #[arg(long, value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// Write a self-contained HTML page here.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Write a GitHub-flavoured Markdown table here.
    #[arg(long, value_name = "OUT")]
    markdown: Option<PathBuf>,
}

/// Cases of one SDK that went from pass to fail/skip between two runs, and back.
#[derive(Debug, clap::Args)]
struct Diff {
    /// The earlier results.json.
    old: PathBuf,
    /// The later results.json.
    new: PathBuf,
}

pub const PAGES: &[Page] = &[
    Page {
        key: "results",
        found: "see the pages of its commands",
        examples: &[
            (
                "Is an SDK compatible with the suite?",
                "bqsuite results check results.json --suite suite",
            ),
            (
                "The compatibility matrix of two SDKs as a web page",
                "bqsuite results matrix python.json go.json --suite suite --html matrix.html",
            ),
        ],
    },
    Page {
        key: "results check",
        found: "a results file is not Compatible with the suite",
        examples: &[
            (
                "Is an SDK compatible with the suite?",
                "bqsuite results check results.json --suite suite",
            ),
            (
                "The same, accepting the failures the SDK lists as known gaps",
                "bqsuite results check results.json --suite suite --known-gaps conformance-known-gaps.json",
            ),
        ],
    },
    Page {
        key: "results matrix",
        found: "a results file does not match the suite",
        examples: &[
            (
                "The compatibility matrix of two SDKs as a Markdown table",
                "bqsuite results matrix python.json go.json --suite suite --markdown matrix.md",
            ),
            (
                "The same as a self-contained web page",
                "bqsuite results matrix python.json go.json --suite suite --html matrix.html",
            ),
        ],
    },
    Page {
        key: "results diff",
        found: "a case went from pass to fail or skip",
        examples: &[(
            "Cases that changed between an SDK's previous run and this one",
            "bqsuite results diff previous.json results.json",
        )],
    },
];

/// The files, as the user gave them (the subject of `check` and `matrix`).
fn listed(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Run for Check {
    fn name(&self) -> &'static str {
        "results check"
    }

    fn subject(&self) -> String {
        listed(&self.files)
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::option(&self.suite))
    }

    fn summary(&self) -> Option<&'static str> {
        Some("results check")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let report = results::check(&results::CheckOptions {
            files: self.files.clone(),
            suite: suite_or_default(&self.suite),
            known_gaps: self.known_gaps.clone(),
        })?;
        Ok(out.emit(&report, "Compatible"))
    }
}

impl Run for Matrix {
    fn name(&self) -> &'static str {
        "results matrix"
    }

    fn subject(&self) -> String {
        listed(&self.files)
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::option(&self.suite))
    }

    fn summary(&self) -> Option<&'static str> {
        Some("results matrix")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let (mut report, text) = results::matrix(&results::MatrixOptions {
            files: self.files.clone(),
            suite: suite_or_default(&self.suite),
            html: self.html.clone(),
            markdown: self.markdown.clone(),
        })?;
        if out.json() {
            // The table itself, when it is not written to a file.
            report.data["markdown"] = if self.html.is_none() && self.markdown.is_none() {
                json!(text)
            } else {
                serde_json::Value::Null
            };
            // The matrix is a report, not a gate: it rendered, so the document is ok.
            output::print(&diag::render_json(&report, &out.command));
        } else {
            output::print(&show::guard(&text));
            out.side_findings(&report);
        }
        out.summarise(&report, "rendered");
        Ok(if report.is_clean() { CLEAN } else { FOUND })
    }
}

impl Run for Diff {
    fn name(&self) -> &'static str {
        "results diff"
    }

    fn subject(&self) -> String {
        arrow(&self.old, &self.new)
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let report = results::diff(&results::DiffOptions {
            old: self.old.clone(),
            new: self.new.clone(),
        })?;
        Ok(out.emit(&report, "has no regression"))
    }
}
