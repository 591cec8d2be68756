//! The `pulsar` section (scope pulsar): the Apache Pulsar binding (broker-bindings §5).
//!
//! - `property_projection`: the string-valued message `properties` projected from
//!   `envelope_file`;
//! - `attempts_reconciliation`: `max(body_attempts, redelivery_count)` (0-based, no `- 1`);
//! - `schema_version_gate`: the `bq-schema-version` gate (strings, absent; no null).

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
            harness::run_gate(case, section_block, fixtures, Binding::Pulsar)
        }
        _ => harness::unknown_sub_key(case, "pulsar"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    harness::compare_map(&c, "properties", &projection::pulsar_properties(&source))
}

fn reconciliation_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let redelivery_count = uint(&c, "redelivery_count")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::pulsar(body, redelivery_count);
    c.expect_eq(
        "expected_attempts",
        c.require("expected_attempts")?,
        &Value::from(derived),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "pulsar",
            "property_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "properties": {
                    "bq-job":            "urn:babel:orders:created",
                    "bq-trace-id":       "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                    "bq-message-id":     "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
                    "bq-schema-version": "1",
                    "bq-source-lang":    "php",
                    "bq-attempts":       "0"
                }
            },
            "attempts_reconciliation": {
                "description": "r",
                "cases": [
                    { "name": "first-delivery",            "body_attempts": 0, "redelivery_count": 0, "expected_attempts": 0 },
                    { "name": "third-delivery",            "body_attempts": 0, "redelivery_count": 2, "expected_attempts": 2 },
                    { "name": "native-exceeds-body",       "body_attempts": 2, "redelivery_count": 5, "expected_attempts": 5 },
                    { "name": "never-lower-runtime",       "body_attempts": 5, "redelivery_count": 1, "expected_attempts": 5 },
                    { "name": "first-delivery-keeps-body", "body_attempts": 4, "redelivery_count": 0, "expected_attempts": 4 },
                    { "name": "native-equals-body",        "body_attempts": 3, "redelivery_count": 3, "expected_attempts": 3 }
                ]
            },
            "schema_version_gate": {
                "description": "g",
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "value-1", "value": "1", "expect": "decode" },
                    { "name": "absent", "absent": true, "expect": "decode" },
                    { "name": "tab-wrapped", "value": "\t1\n", "expect": "reject" },
                    { "name": "ideographic-space", "value": "\u{3000}", "expect": "reject" }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("pulsar", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("pulsar", &block(), run);
    }

    #[test]
    fn flipped_expectations() {
        let mut b = block();
        b["property_projection"]["properties"]["bq-attempts"] = json!(0);
        let v = verdict_of("pulsar", &b, "property_projection", run);
        assert_mismatch_at(&v, "/pulsar/property_projection/properties");
        b["attempts_reconciliation"]["cases"][2]["expected_attempts"] = json!(4);
        let v = verdict_of(
            "pulsar",
            &b,
            "attempts_reconciliation/native-exceeds-body",
            run,
        );
        assert_mismatch_at(
            &v,
            "/pulsar/attempts_reconciliation/cases/2/expected_attempts",
        );
        b["schema_version_gate"]["cases"][0]["expect"] = json!("reject");
        let v = verdict_of("pulsar", &b, "schema_version_gate/value-1", run);
        assert_mismatch_at(&v, "/pulsar/schema_version_gate/cases/0/expect");
    }

    #[test]
    fn null_is_not_representable() {
        let mut b = block();
        b["schema_version_gate"]["cases"][0]["value"] = Value::Null;
        let v = verdict_of("pulsar", &b, "schema_version_gate/value-1", run);
        assert_malformed_at(&v, "/pulsar/schema_version_gate/cases/0/value");
    }
}
