//! `bqsuite release`.

use std::path::PathBuf;

use bqsuite::commands::release;
use bqsuite_core::Error;

use super::{Page, Run, SuiteDir};
use crate::cli::args::suite_or_default;
use crate::cli::output::Output;

/// Build the reproducible release asset (tarball) and SHA256SUMS.
///
/// The asset carries the suite's own licence as LICENSE: the suite directory's LICENSE, else
/// LICENSE-<name> beside it, <name> being the suite directory's name (LICENSE-suite for
/// suite/). The repository's own LICENSE (the tool's) is never packed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// The output directory; a SHA256SUMS already there gets the asset's line and keeps the
    /// others.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// The tag being released: v + CONFORMANCE_VERSION (sbp-v + it for SBP: the suite's
    /// release_url says).
    #[arg(long)]
    tag: Option<String>,
    /// Allow packaging a -pre (untagged) version.
    #[arg(long)]
    allow_pre: bool,
}

pub const PAGES: &[Page] = &[Page {
    key: "release",
    found: "the suite cannot be released as it is (the findings say why)",
    examples: &[
        (
            "Build the tarball and SHA256SUMS of tag v1.8.0 into dist/",
            "bqsuite release suite --out dist --tag v1.8.0",
        ),
        (
            "The same with the entries dated 2024-01-01 (reproducible builds)",
            "SOURCE_DATE_EPOCH=1704067200 bqsuite release suite --out dist --tag v1.8.0",
        ),
        (
            "The SBP suite's release 0.1.0, tagged as its suite.json says",
            "bqsuite release sbp-suite --out dist --tag sbp-v0.1.0",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "release"
    }

    fn subject(&self) -> String {
        suite_or_default(&self.suite).display().to_string()
    }

    fn suite(&self) -> Option<SuiteDir<'_>> {
        Some(SuiteDir::positional(&self.suite))
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let options = release::Options {
            suite: suite_or_default(&self.suite),
            out: self.out.clone(),
            tag: self.tag.clone(),
            allow_pre: self.allow_pre,
        };
        let report = release::release(&options)?;
        Ok(out.emit(&report, "released"))
    }
}
