//! Turns every case whose stated expectation disagrees with the embedded reference evaluator's
//! verdict into a finding.

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::evaluator::{CaseOutcome, Verdict};
use bqsuite_suite::Suite;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::rules;

/// How many cases the evaluator passed, skipped, failed (a mismatch, a malformed case, no rule in
/// a suite this bqsuite knows) and could not re-derive (a section newer than this bqsuite).
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub pass: usize,
    pub skip: usize,
    pub fail: usize,
    pub unknown: usize,
}

impl Counts {
    /// The JSON `evaluator` object of `validate`'s `data`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "pass": self.pass,
            "skip": self.skip,
            "fail": self.fail,
            "unknown": self.unknown,
        })
    }
}

/// Sections whose verdicts come from a JSON Schema validator rather than the envelope model.
const PAYLOAD_SECTIONS: [&str; 3] = [
    "payload_schema",
    "payload_schema_unicode",
    "payload_schema_types",
];

/// Turns the evaluator's outcomes (every case's, in manifest order) into findings.
pub fn check(
    suite: &Suite,
    kind: &Kind,
    outcomes: Vec<CaseOutcome>,
    out: &mut Vec<Diagnostic>,
) -> Counts {
    let mut counts = Counts::default();
    // A suite newer than this bqsuite may carry sections it has no rule for: that is a warning per
    // section (update bqsuite), not an error per case. In a suite it knows, it is an error.
    // Only BabelQueue's history has releases newer than this bqsuite's model.
    let newer = kind.format.history
        && rules::newer_than_known(rules::parse_version(suite.version_text()).as_ref());
    let mut unknown: Vec<(String, String, usize)> = Vec::new();
    for outcome in outcomes {
        let (section, id) = (outcome.section.clone(), outcome.id.clone());
        match outcome.verdict {
            Verdict::Pass => counts.pass += 1,
            Verdict::Skip { .. } => counts.skip += 1,
            Verdict::Mismatch(m) => {
                counts.fail += 1;
                // The payload sections' verdicts come from a real JSON Schema validator.
                let by_schema_validator = PAYLOAD_SECTIONS.contains(&section.as_str());
                let pointer = m.pointer.clone();
                out.push(
                    findings::expectation_mismatch(m, by_schema_validator)
                        .at(pointer)
                        .case(section, id),
                );
            }
            Verdict::NoRule if newer => {
                counts.unknown += 1;
                match unknown.iter_mut().find(|(s, ..)| *s == section) {
                    Some((.., n)) => *n += 1,
                    None => unknown.push((section, outcome.pointer.clone(), 1)),
                }
            }
            Verdict::NoRule => {
                counts.fail += 1;
                out.push(
                    findings::no_reference_rule(&section)
                        .at(outcome.pointer.clone())
                        .case(section, id),
                );
            }
            // The model never answers `Failed`; were one to, it is as unusable as a malformed
            // case.
            Verdict::Malformed { pointer, message } | Verdict::Failed { pointer, message } => {
                counts.fail += 1;
                out.push(
                    findings::case_malformed(message)
                        .at(pointer)
                        .case(section, id),
                );
            }
        }
    }
    for (section, pointer, n) in unknown {
        let pointer = pointer.split('/').take(2).collect::<Vec<_>>().join("/");
        out.push(findings::unknown_section(&section, n).at(pointer));
    }
    counts
}
