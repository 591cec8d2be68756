//! `bqsuite results`: check SDK results files against the manifest, the compatibility matrix,
//! and a per-SDK regression diff. (Being implemented.)

use std::path::PathBuf;

use crate::diag::Report;
use crate::error::{Error, Result};

/// `results check`.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub files: Vec<PathBuf>,
    pub suite: PathBuf,
}

/// `results matrix`.
#[derive(Debug, Clone)]
pub struct MatrixOptions {
    pub files: Vec<PathBuf>,
    pub suite: PathBuf,
    pub html: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
}

/// `results diff`.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    pub old: PathBuf,
    pub new: PathBuf,
}

/// Decides whether each results file is Compatible; every reason it is not is an error finding.
pub fn check(_options: &CheckOptions) -> Result<Report> {
    Err(Error::Usage("results check is not implemented yet".into()))
}

/// Builds the matrix; writes the HTML/Markdown files asked for and returns the text to print.
pub fn matrix(_options: &MatrixOptions) -> Result<(Report, String)> {
    Err(Error::Usage("results matrix is not implemented yet".into()))
}

/// Cases of one SDK that went from pass to fail/skip (errors) and back (notes).
pub fn diff(_options: &DiffOptions) -> Result<Report> {
    Err(Error::Usage("results diff is not implemented yet".into()))
}
