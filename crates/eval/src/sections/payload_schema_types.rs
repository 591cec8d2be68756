//! The `payload_schema_types` section (scope core): the payload validator compares values as
//! draft-07 does. `enum` and `const` hold a value only when it is equal as JSON (a boolean is not
//! a number, a string is not a number, and `1.0` equals `1`), and `required` asks only whether a
//! member is present (`0`, `""` and `null` are present). Same shape and rule as `payload_schema`.

use serde_json::Value;

use crate::bindings::harness;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    harness::run_payload_schema(case, section_block, "payload_schema_types")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "types",
            "schema": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "required": ["priority", "note"],
                "properties": {
                    "priority": { "enum": [0, 1, 2] },
                    "flag": { "const": 1 },
                    "note": { "type": ["string", "null"] }
                },
                "additionalProperties": false
            },
            "cases": [
                { "name": "typical", "valid": true, "data": { "priority": 1, "note": "rush", "flag": 1 } },
                { "name": "true-is-not-1", "valid": false, "data": { "priority": true, "note": "x" } },
                { "name": "text-is-not-1", "valid": false, "data": { "priority": "1", "note": "x" } },
                { "name": "float-equals-1", "valid": true, "data": { "priority": 1.0, "note": "x" } },
                { "name": "zero-and-empty-are-present", "valid": true, "data": { "priority": 0, "note": "" } },
                { "name": "null-is-present", "valid": true, "data": { "priority": 2, "note": null } }
            ]
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("payload_schema_types", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("payload_schema_types", &block(), run);
    }

    #[test]
    fn flipped_valid() {
        let mut b = block();
        b["cases"][1]["valid"] = json!(true);
        let v = verdict_of("payload_schema_types", &b, "true-is-not-1", run);
        assert_mismatch_at(&v, "/payload_schema_types/cases/1/valid");
    }
}
