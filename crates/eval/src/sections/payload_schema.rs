//! The `payload_schema` section (scope core): per-URN data schema validation (ADR-0024).
//! Each case's `data` is validated against the section's draft-07 `schema`; the verdict must
//! equal `valid`. A schema that does not compile makes every case malformed.

use serde_json::Value;

use crate::bindings::harness;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    harness::run_payload_schema(case, section_block, "payload_schema")
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
            "description": "payload",
            "schema": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "required": ["order_id"],
                "properties": {
                    "order_id": { "type": "integer", "minimum": 1 },
                    "amount": { "type": "number", "minimum": 0 },
                    "currency": { "enum": ["USD", "EUR", "TRY"] }
                },
                "additionalProperties": false
            },
            "cases": [
                { "name": "valid-minimal", "valid": true, "data": { "order_id": 1042 } },
                { "name": "valid-full", "valid": true, "data": { "order_id": 1042, "amount": 99.9, "currency": "USD" } },
                { "name": "invalid-missing-required", "valid": false, "data": { "amount": 10 } },
                { "name": "invalid-wrong-type", "valid": false, "data": { "order_id": "x" } },
                { "name": "invalid-additional-property", "valid": false, "data": { "order_id": 1, "extra": true } },
                { "name": "invalid-enum", "valid": false, "data": { "order_id": 1, "currency": "GBP" } },
                { "name": "invalid-below-minimum", "valid": false, "data": { "order_id": 0 } }
            ]
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("payload_schema", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("payload_schema", &block(), run);
    }

    #[test]
    fn flipped_valid() {
        let mut b = block();
        b["cases"][6]["valid"] = json!(true);
        let v = verdict_of("payload_schema", &b, "invalid-below-minimum", run);
        assert_mismatch_at(&v, "/payload_schema/cases/6/valid");
    }

    #[test]
    fn broken_or_missing_schema_is_malformed() {
        let mut b = block();
        b["schema"] = json!({ "type": 12 });
        let v = verdict_of("payload_schema", &b, "valid-minimal", run);
        assert_malformed_at(&v, "/payload_schema/schema");
        b.as_object_mut().map(|o| o.remove("schema"));
        let v = verdict_of("payload_schema", &b, "valid-minimal", run);
        assert_malformed_at(&v, "/payload_schema/schema");
    }

    #[test]
    fn missing_fields_are_malformed() {
        let mut b = block();
        b["cases"][0]["valid"] = json!("yes");
        let v = verdict_of("payload_schema", &b, "valid-minimal", run);
        assert_malformed_at(&v, "/payload_schema/cases/0/valid");
        b["cases"][1].as_object_mut().map(|o| o.remove("data"));
        let v = verdict_of("payload_schema", &b, "valid-full", run);
        assert_malformed_at(&v, "/payload_schema/cases/1/data");
    }
}
