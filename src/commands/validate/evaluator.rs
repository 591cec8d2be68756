//! Turns every case whose stated expectation disagrees with the embedded reference evaluator's
//! verdict into a finding.

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;
use bqsuite_eval::outcome::{CaseOutcome, Verdict};
use bqsuite_suite::Suite;
use bqsuite_suite::load::MANIFEST;
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
const PAYLOAD_SECTIONS: [&str; 2] = ["payload_schema", "payload_schema_unicode"];

/// Turns the evaluator's outcomes (every case's, in manifest order) into findings.
pub fn check(suite: &Suite, outcomes: Vec<CaseOutcome>, out: &mut Vec<Diagnostic>) -> Counts {
    let mut counts = Counts::default();
    // A suite newer than this bqsuite may carry sections it has no rule for: that is a warning per
    // section (update bqsuite), not an error per case. In a suite it knows, it is an error.
    let newer = rules::newer_than_known(rules::parse_version(suite.version_text()).as_ref());
    let mut unknown: Vec<(String, String, usize)> = Vec::new();
    for outcome in outcomes {
        let (section, id) = (outcome.section.clone(), outcome.id.clone());
        match outcome.verdict {
            Verdict::Pass => counts.pass += 1,
            Verdict::Skip { .. } => counts.skip += 1,
            Verdict::Mismatch(m) => {
                counts.fail += 1;
                // The payload sections' verdicts come from a real JSON Schema validator.
                let by = if PAYLOAD_SECTIONS.contains(&section.as_str()) {
                    " (a draft-07 JSON Schema validator)"
                } else {
                    ""
                };
                out.push(
                    Diagnostic::error(Code::ExpectationMismatch, MANIFEST, format!("the case {m}{by}"))
                        .at(m.pointer.clone())
                        .case(section, id)
                        .help("correct the expectation (or, if the model is wrong, the reference evaluator) so that both agree with the spec"),
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
                Diagnostic::error(
                    Code::NoReferenceRule,
                    MANIFEST,
                    format!("the reference evaluator has no rule for section `{section}`, so this case's expectation is unchecked"),
                )
                .at(outcome.pointer.clone())
                .case(section, id)
                .help("teach the evaluator the section (crates/eval/src/sections/) before adding it to the canonical suite"),
                );
            }
            Verdict::Malformed { pointer, message } => {
                counts.fail += 1;
                out.push(
                Diagnostic::error(Code::CaseShape, MANIFEST, message)
                    .at(pointer)
                    .case(section, id)
                    .help("give the case the fields its section's runner reads (see the spec's case shape)"),
                );
            }
        }
    }
    for (section, pointer, n) in unknown {
        let pointer = pointer.split('/').take(2).collect::<Vec<_>>().join("/");
        out.push(
            Diagnostic::warning(
                Code::UnknownSection,
                MANIFEST,
                format!(
                    "section `{section}` is newer than this bqsuite {} (it knows the suite up to {}), so its {n} case{} are not re-derived",
                    env!("CARGO_PKG_VERSION"),
                    rules::KNOWN_SUITE,
                    bqsuite_core::diag::plural(n),
                ),
            )
            .at(pointer)
            .help("update bqsuite to a release that knows this section"),
        );
    }
    counts
}
