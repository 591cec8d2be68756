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
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use crate::outcome::Verdict;
    use bqsuite_core::ids::section_cases;

    pub(crate) fn verdict(section: &str, case: Value) -> Verdict {
        let block = json!({ "cases": [case] });
        let cases = section_cases(section, &block);
        crate::sections::runner(section).expect("runner")(
            &cases[0],
            &block,
            &BTreeMap::<String, String>::new(),
        )
    }

    #[test]
    fn a_well_typed_wrong_expectation_is_a_mismatch_and_a_mistyped_case_malformed() {
        let case = |expect: Value| json!({"name": "c", "body": "{\"job\":5}", "expect": expect});
        assert_eq!(
            verdict("kafka_poison", case(json!("no_identity"))),
            Verdict::Pass
        );
        for wrong in ["poison", "ok", "reject-flipped"] {
            let v = verdict("kafka_poison", case(json!(wrong)));
            assert!(matches!(v, Verdict::Mismatch(_)), "{wrong}: {v:?}");
        }
        assert!(matches!(
            verdict("kafka_poison", case(json!(5))),
            Verdict::Malformed { .. }
        ));
        let no_body = json!({"name": "c", "expect": "ok"});
        assert!(matches!(
            verdict("kafka_poison", no_body),
            Verdict::Malformed { .. }
        ));
        let bytes = json!({"name": "c", "body_base64": "eyJqb2IiOiJ1cm46eCJ9", "expect": "ok"});
        assert_eq!(verdict("kafka_poison", bytes), Verdict::Pass);
        let not_utf8 = json!({"name": "c", "body_base64": "eyJqb2IiOiL/In0=", "expect": "poison"});
        assert_eq!(verdict("kafka_poison", not_utf8), Verdict::Pass);
    }
}
