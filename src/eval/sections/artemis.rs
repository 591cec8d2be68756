//! The `artemis` section (scope artemis): the Apache ActiveMQ Artemis binding
//! (broker-bindings §7).
//!
//! - `property_projection`: `jms_type_annotation` (`x-opt-jms-type`), `jms_type` (the URN),
//!   `correlation_id` (trace_id) and the string-valued underscore `properties`, all projected
//!   from `envelope_file`;
//! - `attempts_reconciliation`: `max(body_attempts, delivery_count)` (0-based, no `- 1`);
//! - `schema_version_gate`: the `bq_schema_version` gate (strings, absent, null).

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
            harness::run_gate(case, section_block, fixtures, Binding::Artemis)
        }
        _ => harness::unknown_sub_key(case, "artemis"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    let derived = projection::artemis_projection(&source);
    for (field, value) in [
        ("jms_type_annotation", derived.jms_type_annotation),
        ("jms_type", derived.jms_type.as_str()),
        ("correlation_id", derived.correlation_id.as_str()),
    ] {
        c.str(field)?;
        c.expect_eq(field, c.require(field)?, &Value::String(value.to_owned()))?;
    }
    harness::compare_map(&c, "properties", &derived.properties)
}

fn reconciliation_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let delivery_count = uint(&c, "delivery_count")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::artemis(body, delivery_count);
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
            "description": "artemis",
            "property_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "jms_type_annotation": "x-opt-jms-type",
                "jms_type": "urn:babel:orders:created",
                "correlation_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                "properties": {
                    "bq_schema_version": "1",
                    "bq_source_lang":    "php",
                    "bq_attempts":       "0",
                    "bq_app_id":         "babelqueue"
                }
            },
            "attempts_reconciliation": {
                "description": "r",
                "cases": [
                    { "name": "first-delivery",            "body_attempts": 0, "delivery_count": 0, "expected_attempts": 0 },
                    { "name": "third-delivery",            "body_attempts": 0, "delivery_count": 2, "expected_attempts": 2 },
                    { "name": "native-exceeds-body",       "body_attempts": 2, "delivery_count": 5, "expected_attempts": 5 },
                    { "name": "never-lower-runtime",       "body_attempts": 5, "delivery_count": 1, "expected_attempts": 5 },
                    { "name": "first-delivery-keeps-body", "body_attempts": 4, "delivery_count": 0, "expected_attempts": 4 },
                    { "name": "native-equals-body",        "body_attempts": 3, "delivery_count": 3, "expected_attempts": 3 }
                ]
            },
            "schema_version_gate": {
                "description": "g",
                "property": "bq_schema_version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "value-1", "value": "1", "expect": "decode" },
                    { "name": "null", "value": null, "expect": "decode" },
                    { "name": "nel", "value": "\u{0085}", "expect": "reject" }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("artemis", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("artemis", &block(), run);
    }

    #[test]
    fn flipped_expectations() {
        let mut b = block();
        b["property_projection"]["jms_type"] = json!("urn:babel:orders:draft");
        let v = verdict_of("artemis", &b, "property_projection", run);
        assert_mismatch_at(&v, "/artemis/property_projection/jms_type");
        let mut b = block();
        b["property_projection"]["properties"]["bq-app-id"] = json!("babelqueue");
        let v = verdict_of("artemis", &b, "property_projection", run);
        assert_mismatch_at(&v, "/artemis/property_projection/properties");
        b["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(1);
        let v = verdict_of("artemis", &b, "attempts_reconciliation/third-delivery", run);
        assert_mismatch_at(
            &v,
            "/artemis/attempts_reconciliation/cases/1/expected_attempts",
        );
    }

    #[test]
    fn hyphenated_property_name_is_a_mismatch() {
        let mut b = block();
        b["schema_version_gate"]["property"] = json!("bq-schema-version");
        let v = verdict_of("artemis", &b, "schema_version_gate/value-1", run);
        assert_mismatch_at(&v, "/artemis/schema_version_gate/property");
    }
}
