//! The `idempotency` section (scope core): the consumer dedupe contract (ADR-0022).
//!
//! - `dedup_key`: the key of `envelope_file` is its `meta.id` verbatim and equals
//!   `expected_key` (`key_field`, when given, must name `meta.id`);
//! - `sequences`: each case replays `deliveries` through one helper and one fresh store; every
//!   delivery's `expect_effect` (run / skip) and the total `expected_effects` (handler
//!   invocations) must match the model. A delivery's `meta_id` may be a string, null or absent
//!   (null / absent / "" fail open); `outcome` (ok / throw) defaults to ok; `forget_before`
//!   defaults to false.

use serde_json::Value;

use crate::bindings::harness::{self, uint};
use crate::bindings::idempotency::{self, Delivery, Effect, HandlerOutcome};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

/// The key field the contract pins.
const KEY_FIELD: &str = "meta.id";

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("dedup_key") => finish(dedup_key_case(case, section_block, fixtures)),
        Some("sequences") => finish(sequence_case(case)),
        _ => harness::unknown_sub_key(case, "idempotency"),
    }
}

fn dedup_key_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let (envelope, _) = harness::load_envelope(case, section_block, fixtures)?;
    if c.get("key_field").is_some() {
        let key_field = c.str("key_field")?;
        if key_field != KEY_FIELD {
            return Err(c.mismatch(
                "key_field",
                format!("\"{key_field}\""),
                format!("\"{KEY_FIELD}\""),
            ));
        }
    }
    let expected = c.require("expected_key")?;
    c.str("expected_key")?;
    match idempotency::dedup_key(&envelope) {
        Some(key) => c.expect_eq("expected_key", expected, &Value::String(key.to_owned())),
        None => Err(c.mismatch(
            "expected_key",
            compact(expected),
            "no key (the envelope has no usable meta.id: fails open)",
        )),
    }
}

fn delivery_ptr(case: &CaseRef<'_>, index: usize, field: &str) -> String {
    format!("{}/deliveries/{index}/{field}", case.pointer)
}

fn parse_delivery<'a>(
    case: &CaseRef<'_>,
    index: usize,
    value: &'a Value,
) -> Step<(Delivery<'a>, Effect)> {
    let malformed = |field: &str, message: &str| {
        harness::malformed_at(delivery_ptr(case, index, field), message)
    };
    let Some(obj) = value.as_object() else {
        return Err(harness::malformed_at(
            format!("{}/deliveries/{index}", case.pointer),
            "a delivery must be an object",
        ));
    };
    let meta_id = match obj.get("meta_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(malformed("meta_id", "`meta_id` must be a string or null")),
    };
    let forget_before = match obj.get("forget_before") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(malformed(
                "forget_before",
                "`forget_before` must be a boolean",
            ));
        }
    };
    let outcome = match obj.get("outcome") {
        None => HandlerOutcome::Ok,
        Some(value) => value
            .as_str()
            .and_then(HandlerOutcome::parse)
            .ok_or_else(|| malformed("outcome", "`outcome` must be ok or throw"))?,
    };
    let expect = match obj.get("expect_effect") {
        None => {
            return Err(malformed(
                "expect_effect",
                "missing required field `expect_effect`",
            ));
        }
        Some(value) => value
            .as_str()
            .and_then(Effect::parse)
            .ok_or_else(|| malformed("expect_effect", "`expect_effect` must be run or skip"))?,
    };
    Ok((
        Delivery {
            meta_id,
            forget_before,
            outcome,
        },
        expect,
    ))
}

fn sequence_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let items = c
        .require("deliveries")?
        .as_array()
        .ok_or_else(|| c.malformed("deliveries", "`deliveries` must be an array"))?;
    let mut deliveries = Vec::with_capacity(items.len());
    let mut expected = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let (delivery, expect) = parse_delivery(case, index, item)?;
        deliveries.push(delivery);
        expected.push(expect);
    }
    let expected_effects = c.require("expected_effects")?;
    uint(&c, "expected_effects")?;
    let replay = idempotency::replay(&deliveries);
    for (index, (want, got)) in expected.iter().zip(&replay.effects).enumerate() {
        if want != got {
            return Err(Verdict::Mismatch(Mismatch {
                pointer: delivery_ptr(case, index, "expect_effect"),
                expected: compact(&Value::String(want.as_str().to_owned())),
                derived: compact(&Value::String(got.as_str().to_owned())),
            }));
        }
    }
    c.expect_eq(
        "expected_effects",
        expected_effects,
        &Value::from(replay.total_effects),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "idempotency",
            "dedup_key": {
                "description": "k",
                "envelope_file": "fixtures/order-created.json",
                "key_field": "meta.id",
                "expected_key": "f1e2d3c4-b5a6-4789-90ab-cdef01234567"
            },
            "sequences": {
                "description": "s",
                "cases": [
                    {
                        "name": "duplicate-delivery-runs-once",
                        "deliveries": [
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "ok" },
                            { "meta_id": "id-A", "expect_effect": "skip" }
                        ],
                        "expected_effects": 1
                    },
                    {
                        "name": "at-least-once-redelivery-is-noop",
                        "deliveries": [
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "ok" },
                            { "meta_id": "id-A", "expect_effect": "skip" },
                            { "meta_id": "id-A", "expect_effect": "skip" },
                            { "meta_id": "id-A", "expect_effect": "skip" }
                        ],
                        "expected_effects": 1
                    },
                    {
                        "name": "distinct-ids-each-run",
                        "deliveries": [
                            { "meta_id": "id-A", "expect_effect": "run", "outcome": "ok" },
                            { "meta_id": "id-B", "expect_effect": "run", "outcome": "ok" },
                            { "meta_id": "id-C", "expect_effect": "run", "outcome": "ok" }
                        ],
                        "expected_effects": 3
                    },
                    {
                        "name": "throw-leaves-id-unmarked",
                        "deliveries": [
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "throw" },
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "throw" },
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "ok" },
                            { "meta_id": "id-A", "expect_effect": "skip" }
                        ],
                        "expected_effects": 3
                    },
                    {
                        "name": "missing-id-fails-open",
                        "deliveries": [
                            { "meta_id": "", "expect_effect": "run", "outcome": "ok" },
                            { "meta_id": "", "expect_effect": "run", "outcome": "ok" }
                        ],
                        "expected_effects": 2
                    },
                    {
                        "name": "forget-allows-rerun",
                        "deliveries": [
                            { "meta_id": "id-A", "expect_effect": "run",  "outcome": "ok" },
                            { "meta_id": "id-A", "expect_effect": "skip" },
                            { "meta_id": "id-A", "forget_before": true, "expect_effect": "run", "outcome": "ok" }
                        ],
                        "expected_effects": 2
                    }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("idempotency", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("idempotency", &block(), run);
    }

    #[test]
    fn flipped_effect_points_at_the_delivery() {
        let mut b = block();
        b["sequences"]["cases"][3]["deliveries"][1]["expect_effect"] = json!("skip");
        let v = verdict_of("idempotency", &b, "sequences/throw-leaves-id-unmarked", run);
        assert_mismatch_at(
            &v,
            "/idempotency/sequences/cases/3/deliveries/1/expect_effect",
        );
    }

    #[test]
    fn flipped_total() {
        let mut b = block();
        b["sequences"]["cases"][3]["expected_effects"] = json!(1);
        let v = verdict_of("idempotency", &b, "sequences/throw-leaves-id-unmarked", run);
        assert_mismatch_at(&v, "/idempotency/sequences/cases/3/expected_effects");
    }

    #[test]
    fn flipped_key() {
        let mut b = block();
        b["dedup_key"]["expected_key"] = json!("7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b");
        let v = verdict_of("idempotency", &b, "dedup_key", run);
        assert_mismatch_at(&v, "/idempotency/dedup_key/expected_key");
        let mut b = block();
        b["dedup_key"]["key_field"] = json!("trace_id");
        let v = verdict_of("idempotency", &b, "dedup_key", run);
        assert_mismatch_at(&v, "/idempotency/dedup_key/key_field");
    }

    #[test]
    fn malformed_deliveries() {
        let mut b = block();
        b["sequences"]["cases"][0]["deliveries"][1]["outcome"] = json!("boom");
        let v = verdict_of(
            "idempotency",
            &b,
            "sequences/duplicate-delivery-runs-once",
            run,
        );
        assert_malformed_at(&v, "/idempotency/sequences/cases/0/deliveries/1/outcome");
        b["sequences"]["cases"][0]["deliveries"][0] = json!(3);
        let v = verdict_of(
            "idempotency",
            &b,
            "sequences/duplicate-delivery-runs-once",
            run,
        );
        assert_malformed_at(&v, "/idempotency/sequences/cases/0/deliveries/0");
        b["sequences"]["cases"][1]["deliveries"][0]
            .as_object_mut()
            .map(|o| o.remove("expect_effect"));
        let v = verdict_of(
            "idempotency",
            &b,
            "sequences/at-least-once-redelivery-is-noop",
            run,
        );
        assert_malformed_at(
            &v,
            "/idempotency/sequences/cases/1/deliveries/0/expect_effect",
        );
    }
}
