//! The classified difference between two suites ([`Outcome`]): what `diff` reports and what the
//! release-notes draft ([`super::markdown`]) renders. Its methods (the findings, the counts, the
//! JSON) are beside the command, in the `diff` module.

use bqsuite_core::diag::Diagnostic;
use bqsuite_suite::classify::Change;
use bqsuite_suite::classify::version::{self, Bump};

/// The classified difference between two suites.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// OLD's CONFORMANCE_VERSION (trimmed), when it has one.
    pub old_version: Option<String>,
    /// NEW's CONFORMANCE_VERSION (trimmed), when it has one.
    pub new_version: Option<String>,
    /// Every change, in report order.
    pub changes: Vec<Change>,
    /// The smallest bump that covers every change.
    pub needed: Bump,
    /// The verdict on NEW's version, when both versions are SemVer.
    pub verdict: Option<version::Verdict>,
    /// "1.0.0 → 1.5.0 is a minor bump: sufficient", when both versions are SemVer.
    pub verdict_text: Option<String>,
    /// Errors about the versions (missing, not SemVer, insufficient bump).
    pub version_findings: Vec<Diagnostic>,
}
