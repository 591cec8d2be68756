//! Tests of the `pulsar_exhaustion` runner: what a case must state, shapes that are not cases,
//! and junk in a real block.

use super::*;
use crate::bindings::testutil::{assert_mismatch_at, verdict_of};
use crate::realkit;
use serde_json::json;

fn one(case: Value) -> Verdict {
    verdict_of("pulsar_exhaustion", &json!({ "cases": [case] }), "c", run)
}

#[test]
fn unstated_and_extra_members_are_mismatches() {
    // The bounded dlq fixes the record's attempts: a case must state them.
    let v = one(json!({"name": "c", "kind": "failed", "body_attempts": 2,
        "redelivery_count": 0, "dead_letter": true,
        "expect": {"outcome": "dlq", "reason": "failed"}}));
    assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect");
    // Poison's record attempts are not compared: a case may not state them.
    let v = one(json!({"name": "c", "kind": "poison", "redelivery_count": 0,
        "dead_letter": true,
        "expect": {"outcome": "dlq", "reason": "poison", "dead_letter_attempts": 1}}));
    assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect/dead_letter_attempts");
    // A wrong verdict word is a mismatch at the outcome, not a malformed case.
    let v = one(json!({"name": "c", "kind": "failed", "body_attempts": 0,
        "redelivery_count": 0, "dead_letter": true,
        "expect": {"reason": "failed", "outcome": "retry-flipped"}}));
    assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect/outcome");
}

#[test]
fn shapes_that_are_not_cases_are_malformed() {
    for (case, field) in [
        (
            json!({"name": "c", "kind": "poison", "body_attempts": 0, "redelivery_count": 0,
            "dead_letter": true, "expect": {"outcome": "dlq"}}),
            "body_attempts",
        ),
        (
            json!({"name": "c", "kind": "unknown_urn", "body_attempts": 0, "redelivery_count": 0,
            "dead_letter": true, "on_unknown_urn": "release", "expect": {"outcome": "retry"}}),
            "on_unknown_urn",
        ),
        (
            json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
            "max_attempts": 0, "dead_letter": true, "expect": {"outcome": "dlq"}}),
            "max_attempts",
        ),
        (
            json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
            "dead_letter": "on", "expect": {"outcome": "dlq"}}),
            "dead_letter",
        ),
        (
            json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
            "dead_letter": true, "bq_attempts": 2, "expect": {"outcome": "dlq"}}),
            "bq_attempts",
        ),
    ] {
        match one(case) {
            Verdict::Malformed { pointer, .. } => {
                assert_eq!(pointer, format!("/pulsar_exhaustion/cases/0/{field}"))
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn junk_never_panics() {
    let mut block = realkit::release("1.8.0").0["pulsar_exhaustion"].clone();
    if let Some(cases) = block.get_mut("cases").and_then(Value::as_array_mut) {
        cases.retain(|c| {
            [
                "failed-reconciled-2-dlq-on-dead-letters",
                "poison-dead-letter-strategy-dlq-off-dead-letters",
            ]
            .contains(&c["name"].as_str().unwrap_or(""))
        });
    }
    crate::bindings::testutil::assert_no_panic_on_junk("pulsar_exhaustion", &block, run);
}
