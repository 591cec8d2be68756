//! Section `kafka_poison`: feed the raw record value (`body`, or `body_base64` for bytes) to
//! the strict core decoder and compare its verdict with `expect`: `ok` (decodes, valid
//! identity), `no_identity` (decodes, no valid `job` / `urn`) or `poison` (cannot be decoded).
//! The rules are in `eval::bindings::poison::classify`.

use serde_json::Value;

use crate::bindings::poison::classify::classify;
use crate::bindings::poison::input::body_bytes;
use crate::case::{Case, Step, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(check_verdict(&Case::new(case), false))
}

/// Classifies the case's body and compares the verdict word with `expect`: Kafka's three words,
/// or, `outside_kafka`, the two of `identity_verdict` (no identity is poison there).
pub(super) fn check_verdict(c: &Case<'_>, outside_kafka: bool) -> Step<()> {
    let bytes = body_bytes(c)?;
    let expected = c.str("expect")?;
    let derived = classify(&bytes);
    let word = if outside_kafka {
        derived.verdict.outside_kafka()
    } else {
        derived.verdict.as_str()
    };
    if expected == word {
        Ok(())
    } else {
        Err(c.mismatch(
            "expect",
            format!("\"{expected}\""),
            format!("\"{word}\" ({})", derived.why),
        ))
    }
}

#[cfg(test)]
#[path = "kafka_poison_tests.rs"]
mod tests;
