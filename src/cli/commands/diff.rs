//! `bqsuite diff`.

use std::path::PathBuf;

use bqsuite::commands::diff;
use bqsuite_core::Error;

use super::{Page, Run, arrow};
use crate::cli::output::Output;

/// Classify the change between two suites (directories or release tarballs) and check that
/// NEW's version makes the SemVer bump it needs.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The earlier suite.
    old: PathBuf,
    /// The later suite.
    new: PathBuf,
    /// Write a release-notes draft (Markdown) listing the new cases per section.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
}

pub const PAGES: &[Page] = &[Page {
    key: "diff",
    found: "NEW's version does not make the SemVer bump the change needs",
    examples: &[
        (
            "Classify the change since release 1.7.0 and check the version bump",
            "bqsuite diff babelqueue-conformance-1.7.0.tar.gz suite",
        ),
        (
            "The same, and draft the release notes",
            "bqsuite diff babelqueue-conformance-1.7.0.tar.gz suite --markdown notes.md",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "diff"
    }

    fn subject(&self) -> String {
        arrow(&self.old, &self.new)
    }

    fn summary(&self) -> Option<&'static str> {
        Some("diff")
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let report = diff::diff(&diff::Options {
            old: self.old.clone(),
            new: self.new.clone(),
            markdown: self.markdown.clone(),
        })?;
        Ok(out.emit(&report, "makes a sufficient version bump"))
    }
}
