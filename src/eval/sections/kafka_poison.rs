//! Section `kafka_poison`: feed the raw record value (`body`, or `body_base64` for bytes) to
//! the strict core decoder and compare its verdict with `expect`: `ok` (decodes, valid
//! identity), `no_identity` (decodes, no valid `job` / `urn`) or `poison` (cannot be decoded).
//! The rules are in `eval::bindings::poison::classify`.

use serde_json::Value;

use crate::eval::bindings::poison::classify::classify;
use crate::eval::bindings::poison::input::body_bytes;
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case)))
}

fn run_case(c: &Case<'_>) -> Step<()> {
    let bytes = body_bytes(c)?;
    let expected = c.str("expect")?;
    let derived = classify(&bytes);
    let word = derived.verdict.as_str();
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
mod tests {
    use crate::eval::realkit::{assert_flips_caught, assert_section_passes};

    const VERSIONS: [&str; 3] = ["1.6.0", "1.7.0", "1.8.0"];

    #[test]
    fn every_real_case_passes() {
        for v in VERSIONS {
            assert_section_passes(v, "kafka_poison");
        }
    }

    #[test]
    fn every_flipped_expectation_is_caught() {
        for v in VERSIONS {
            assert_eq!(assert_flips_caught(v, "kafka_poison"), 92, "{v}");
        }
    }
}
