//! `bqsuite release`: the reproducible tarball and SHA256SUMS. (Being implemented.)

use std::path::PathBuf;

use crate::diag::Report;
use crate::error::{Error, Result};

/// What to release and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The suite directory (default `suite`).
    pub suite: PathBuf,
    /// The output directory (default `dist`).
    pub out: PathBuf,
    /// The tag a release workflow builds (`vX.Y.Z`); must equal `v` + CONFORMANCE_VERSION.
    pub tag: Option<String>,
    /// Allow a `-pre` version.
    pub allow_pre: bool,
}

/// Builds the release. The report's findings explain a refusal (exit 1); its summary names the
/// asset, its size and sha256.
pub fn release(_options: &Options) -> Result<Report> {
    Err(Error::Usage("release is not implemented yet".into()))
}
