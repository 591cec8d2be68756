//! `bqsuite diff`: classify a suite change and enforce the SemVer bump. (Being implemented.)

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Report};
use crate::error::{Error, Result};

/// `diff OLD NEW`.
#[derive(Debug, Clone)]
pub struct Options {
    pub old: PathBuf,
    pub new: PathBuf,
    /// Write a release-notes draft (Markdown) here.
    pub markdown: Option<PathBuf>,
}

/// Classifies the change from `old` to `new` (suite directories or release tarballs). The
/// report lists the changes; it has an error when NEW's version does not satisfy the bump.
pub fn diff(_options: &Options) -> Result<Report> {
    Err(Error::Usage("diff is not implemented yet".into()))
}

/// The version-rule findings of `validate --since OLD` for the suite at `new`.
pub fn since_findings(_old: &Path, _new: &Path) -> Result<Vec<Diagnostic>> {
    Err(Error::Usage(
        "validate --since is not implemented yet".into(),
    ))
}
