//! The `asb` section (scope asb): the Azure Service Bus binding (broker-bindings §4).
//!
//! - `property_projection`: the native message fields (`message`) and the AMQP-typed
//!   `application_properties` projected from `envelope_file`;
//! - `attempts_reconciliation`: `max(body_attempts, delivery_count - 1)`;
//! - `schema_version_gate`: the `bq-schema-version` gate, including null and AMQP numbers
//!   (integers evaluated at int32 and int64 width, `value_type: "float"` as a real float).

use serde_json::Value;

use crate::eval::bindings::Binding;
use crate::eval::bindings::harness::{self, uint};
use crate::eval::bindings::{projection, reconcile};
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("property_projection") => finish(projection_case(case, section_block, fixtures)),
        Some("attempts_reconciliation") => finish(reconciliation_case(case)),
        Some("schema_version_gate") => {
            harness::run_gate(case, section_block, fixtures, Binding::Asb)
        }
        _ => harness::unknown_sub_key(case, "asb"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    harness::compare_map(&c, "message", &projection::asb_message(&source))?;
    harness::compare_map(
        &c,
        "application_properties",
        &projection::asb_application_properties(&source),
    )
}

fn reconciliation_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let delivery_count = uint(&c, "delivery_count")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::asb(body, delivery_count);
    c.expect_eq(
        "expected_attempts",
        c.require("expected_attempts")?,
        &Value::from(derived),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "asb",
            "property_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "message": {
                    "subject":        "urn:babel:orders:created",
                    "correlation_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                    "message_id":     "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
                    "content_type":   "application/json"
                },
                "application_properties": {
                    "bq-schema-version": 1,
                    "bq-source-lang":    "php",
                    "bq-created-at":     1749132727000_u64
                }
            },
            "attempts_reconciliation": {
                "description": "r",
                "cases": [
                    { "name": "first-delivery",            "body_attempts": 0, "delivery_count": 1, "expected_attempts": 0 },
                    { "name": "third-delivery",            "body_attempts": 0, "delivery_count": 3, "expected_attempts": 2 },
                    { "name": "native-exceeds-body",       "body_attempts": 2, "delivery_count": 5, "expected_attempts": 4 },
                    { "name": "never-lower-runtime",       "body_attempts": 5, "delivery_count": 2, "expected_attempts": 5 },
                    { "name": "first-delivery-keeps-body", "body_attempts": 4, "delivery_count": 1, "expected_attempts": 4 },
                    { "name": "zero-count-keeps-body",     "body_attempts": 3, "delivery_count": 0, "expected_attempts": 3 }
                ]
            },
            "schema_version_gate": {
                "description": "g",
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "value-1", "value": "1", "expect": "decode" },
                    { "name": "absent", "absent": true, "expect": "decode" },
                    { "name": "null", "value": null, "expect": "decode" },
                    { "name": "vt-ff-cr", "value": "\u{000b}\u{000c}\r", "expect": "decode" },
                    { "name": "bom-1", "value": "\u{feff}1", "expect": "reject" },
                    { "name": "number-1", "value": 1, "expect": "decode" },
                    { "name": "number-2", "value": 2, "expect": "reject" },
                    { "name": "number-0", "value": 0, "expect": "reject" },
                    { "name": "number-1.5", "value": 1.5, "expect": "reject" },
                    { "name": "float-1.0", "value": 1.0, "value_type": "float", "expect": "reject" },
                    { "name": "number-int64-only", "value": 4294967297_i64, "expect": "reject" },
                    { "name": "boolean-true", "value": true, "expect": "reject" }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("asb", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("asb", &block(), run);
    }

    #[test]
    fn stringified_number_is_a_mismatch() {
        let mut b = block();
        b["property_projection"]["application_properties"]["bq-schema-version"] = json!("1");
        let v = verdict_of("asb", &b, "property_projection", run);
        assert_mismatch_at(&v, "/asb/property_projection/application_properties");
        let mut b = block();
        b["property_projection"]["message"]["subject"] = json!("x");
        let v = verdict_of("asb", &b, "property_projection", run);
        assert_mismatch_at(&v, "/asb/property_projection/message");
    }

    #[test]
    fn flipped_reconciliation() {
        let mut b = block();
        b["attempts_reconciliation"]["cases"][5]["expected_attempts"] = json!(0);
        let v = verdict_of(
            "asb",
            &b,
            "attempts_reconciliation/zero-count-keeps-body",
            run,
        );
        assert_mismatch_at(&v, "/asb/attempts_reconciliation/cases/5/expected_attempts");
    }

    #[test]
    fn flipped_number_gates_name_the_width() {
        let mut b = block();
        b["schema_version_gate"]["cases"][5]["expect"] = json!("reject");
        b["schema_version_gate"]["cases"][9]["expect"] = json!("decode");
        b["schema_version_gate"]["cases"][10]["expect"] = json!("decode");
        let v = verdict_of("asb", &b, "schema_version_gate/number-1", run);
        assert_mismatch_at(&v, "/asb/schema_version_gate/cases/5/expect");
        assert!(matches!(v, Verdict::Mismatch(ref m) if m.derived.contains("int32")));
        let v = verdict_of("asb", &b, "schema_version_gate/float-1.0", run);
        assert!(matches!(v, Verdict::Mismatch(ref m) if m.derived.contains("float32")));
        let v = verdict_of("asb", &b, "schema_version_gate/number-int64-only", run);
        assert!(matches!(v, Verdict::Mismatch(ref m) if m.derived.contains("int64")));
    }

    #[test]
    fn float_marker_on_integer_literal() {
        let mut b = block();
        b["schema_version_gate"]["cases"][9]["value"] = json!(1);
        // An integer literal with the float marker still means a real float: reject.
        let v = verdict_of("asb", &b, "schema_version_gate/float-1.0", run);
        assert_eq!(v, Verdict::Pass);
    }
}
