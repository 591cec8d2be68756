//! Tests of the two sections that classify a raw body, `kafka_poison` and `identity_verdict`
//! (which classifies exactly as `kafka_poison`), each case run through its section's runner.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::outcome::Verdict;
use bqsuite_core::ids::section_cases;

fn verdict(section: &str, case: Value) -> Verdict {
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

/// `identity_verdict`: the same classification, but a body without a valid identity is `poison`
/// there.
#[test]
fn no_identity_is_poison_here() {
    let case = |body: &str, expect: &str| json!({"name": "c", "body": body, "expect": expect});
    let run = |body, expect| verdict("identity_verdict", case(body, expect));
    assert_eq!(run("{\"job\":5}", "poison"), Verdict::Pass);
    assert!(matches!(
        run("{\"job\":5}", "no_identity"),
        Verdict::Mismatch(_)
    ));
    assert_eq!(run("{\"job\":5,\"urn\":\"urn:x\"}", "ok"), Verdict::Pass);
    assert!(matches!(
        run("{\"job\":\"urn:x\",\"data\":[]}", "ok"),
        Verdict::Mismatch(_)
    ));
}
