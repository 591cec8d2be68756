//! `bqsuite fetch`: download, verify, refuse unsafe archives, unpack or `--check`. (Being
//! implemented.)

use std::path::PathBuf;

use crate::diag::Report;
use crate::error::{Error, Result};

/// The default location of released assets; `{version}` is replaced.
pub const DEFAULT_BASE_URL: &str =
    "https://github.com/BabelQueue/conformance/releases/download/v{version}";

/// What to fetch and what to do with it.
#[derive(Debug, Clone)]
pub struct Options {
    /// The SemVer version to fetch.
    pub version: String,
    /// The destination (unpack) or the vendored directory (check).
    pub dest: PathBuf,
    /// Compare `dest` with the release instead of unpacking.
    pub check: bool,
    /// A pinned sha256 of the asset; SHA256SUMS is then not needed.
    pub sha256: Option<String>,
    /// Attach unified diffs of changed text files (check mode).
    pub diff: bool,
    /// Where the assets are (`BQ_CONFORMANCE_BASE_URL`), else [`DEFAULT_BASE_URL`].
    pub base_url: Option<String>,
    /// Show a progress bar on standard error (a terminal, not CI).
    pub progress: bool,
}

/// Runs fetch. Findings (exit 1): checksum mismatch, refused archive, drift. `Err` (exit 2):
/// usage, network, I/O.
pub fn fetch(_options: &Options) -> Result<Report> {
    Err(Error::Usage("fetch is not implemented yet".into()))
}
