//! The `kafka` section (scope kafka): the Apache Kafka binding (broker-bindings §6).
//!
//! - `property_projection`: the string-valued record `headers` projected from
//!   `envelope_file`;
//! - `attempts_reconciliation`: the `bq-attempts` header when present (even when lower than
//!   the body), else the body; `header_attempts: null` = header absent;
//! - `schema_version_gate`: the `bq-schema-version` gate (strings, absent, null).

use serde_json::Value;

use crate::eval::bindings::Binding;
use crate::eval::bindings::harness::{self, uint, uint_or_null};
use crate::eval::bindings::{projection, reconcile};
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("property_projection") => finish(projection_case(case, section_block, fixtures)),
        Some("attempts_reconciliation") => finish(reconciliation_case(case)),
        Some("schema_version_gate") => {
            harness::run_gate(case, section_block, fixtures, Binding::Kafka)
        }
        _ => harness::unknown_sub_key(case, "kafka"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    harness::compare_map(&c, "headers", &projection::kafka_headers(&source))
}

fn reconciliation_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let header = uint_or_null(&c, "header_attempts")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::kafka(body, header);
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
            "description": "kafka",
            "property_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "headers": {
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
                    { "name": "header-matches-body",            "body_attempts": 0, "header_attempts": 0,    "expected_attempts": 0 },
                    { "name": "header-present",                 "body_attempts": 0, "header_attempts": 2,    "expected_attempts": 2 },
                    { "name": "header-absent-falls-back",       "body_attempts": 3, "header_attempts": null, "expected_attempts": 3 },
                    { "name": "header-authoritative-overrides", "body_attempts": 5, "header_attempts": 1,    "expected_attempts": 1 },
                    { "name": "header-higher-than-body",        "body_attempts": 1, "header_attempts": 4,    "expected_attempts": 4 }
                ]
            },
            "schema_version_gate": {
                "description": "g",
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "value-1", "value": "1", "expect": "decode" },
                    { "name": "null", "value": null, "expect": "decode" },
                    { "name": "value-01", "value": "01", "expect": "reject" }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("kafka", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("kafka", &block(), run);
    }

    #[test]
    fn header_lower_than_body_still_wins() {
        let mut b = block();
        b["attempts_reconciliation"]["cases"][3]["expected_attempts"] = json!(5);
        let v = verdict_of(
            "kafka",
            &b,
            "attempts_reconciliation/header-authoritative-overrides",
            run,
        );
        assert_mismatch_at(
            &v,
            "/kafka/attempts_reconciliation/cases/3/expected_attempts",
        );
    }

    #[test]
    fn flipped_projection_and_gate() {
        let mut b = block();
        b["property_projection"]["headers"]["bq-job"] = json!("urn:babel:orders:draft");
        let v = verdict_of("kafka", &b, "property_projection", run);
        assert_mismatch_at(&v, "/kafka/property_projection/headers");
        b["schema_version_gate"]["cases"][1]["expect"] = json!("reject");
        let v = verdict_of("kafka", &b, "schema_version_gate/null", run);
        assert_mismatch_at(&v, "/kafka/schema_version_gate/cases/1/expect");
    }
}
