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

/// Other changes named by code in the line after the added sections, before `and N more`.
const NAMED_CODES: usize = 5;

impl Outcome {
    /// The summary lines of `validate --since OLD` (`old` as shown): one per section added since
    /// OLD, then one that counts every other change by code. `validate`'s human text shows these
    /// in place of one note per change ([`is_change_note`]); `--format json` lists every change.
    pub fn since_lines(&self, old: &str) -> Vec<String> {
        use bqsuite_suite::classify::Code;
        let added: Vec<&Change> = self
            .changes
            .iter()
            .filter(|c| c.code == Code::SectionAdded)
            .collect();
        let mut lines: Vec<String> = added
            .iter()
            .map(|c| format!("since {old}: {}", c.message))
            .collect();
        let in_added = |c: &Change| {
            c.code == Code::CaseAdded
                && added
                    .iter()
                    .any(|s| s.section.is_some() && s.section == c.section)
        };
        let mut others: Vec<(Code, usize)> = Vec::new();
        for c in self
            .changes
            .iter()
            .filter(|c| c.code != Code::SectionAdded && !in_added(c))
        {
            match others.iter_mut().find(|(code, _)| *code == c.code) {
                Some((_, n)) => *n += 1,
                None => others.push((c.code, 1)),
            }
        }
        let total: usize = others.iter().map(|(_, n)| n).sum();
        if total > 0 {
            let mut named: Vec<String> = others
                .iter()
                .take(NAMED_CODES)
                .map(|(code, n)| format!("{n} {}", code.as_str()))
                .collect();
            if others.len() > NAMED_CODES {
                named.push(format!("{} more", others.len() - NAMED_CODES));
            }
            let what = if added.is_empty() { "" } else { "other " };
            lines.push(format!(
                "since {old}: {total} {what}change{} ({}); `--format json` lists each",
                bqsuite_core::diag::plural(total),
                named.join(", ")
            ));
        }
        lines
    }
}

/// Whether `d` is one change of a `--since` comparison as a note (its code is a change's,
/// [`bqsuite_suite::classify::Code`]): the human text of `validate --since` sums these up in
/// [`Outcome::since_lines`].
pub fn is_change_note(d: &Diagnostic) -> bool {
    d.severity == bqsuite_core::diag::Severity::Note
        && bqsuite_suite::classify::Code::of(d.code).is_some()
}
