//! Runs the embedded reference evaluator and turns every case whose stated expectation disagrees
//! with the derived verdict into a finding.

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::eval::{self, outcome::Verdict};
use crate::suite::Suite;
use crate::suite::load::MANIFEST;

/// How many cases the evaluator passed and skipped.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub pass: usize,
    pub skip: usize,
}

/// Sections whose verdicts come from a JSON Schema validator rather than the envelope model.
const PAYLOAD_SECTIONS: [&str; 2] = ["payload_schema", "payload_schema_unicode"];

pub fn check(suite: &Suite, manifest: &Value, out: &mut Vec<Diagnostic>) -> Counts {
    let mut counts = Counts::default();
    for outcome in eval::evaluate(manifest, suite) {
        let (section, id) = (outcome.section.clone(), outcome.id.clone());
        match outcome.verdict {
            Verdict::Pass => counts.pass += 1,
            Verdict::Skip { .. } => counts.skip += 1,
            Verdict::Mismatch(m) => {
                let code = if PAYLOAD_SECTIONS.contains(&section.as_str()) {
                    "payload-verdict"
                } else {
                    "expectation-mismatch"
                };
                out.push(
                    Diagnostic::error(code, MANIFEST, format!("the case {m}"))
                        .at(m.pointer.clone())
                        .case(section, id)
                        .help("correct the expectation (or, if the model is wrong, the reference evaluator) so that both agree with the spec"),
                );
            }
            Verdict::NoRule => out.push(
                Diagnostic::error(
                    "no-reference-rule",
                    MANIFEST,
                    format!("the reference evaluator has no rule for section `{section}`, so this case's expectation is unchecked"),
                )
                .at(outcome.pointer.clone())
                .case(section, id)
                .help("teach the evaluator the section (src/eval/sections/) before adding it to the canonical suite"),
            ),
            Verdict::Malformed { pointer, message } => out.push(
                Diagnostic::error("case-shape", MANIFEST, message)
                    .at(pointer)
                    .case(section, id)
                    .help("give the case the fields its section's runner reads (see the spec's case shape)"),
            ),
        }
    }
    counts
}
