//! The `payload_schema_unicode` section (scope core): `minLength` counts Unicode code points
//! (not UTF-8 bytes, UTF-16 units or graphemes). Same shape and rule as `payload_schema`.

use serde_json::Value;

use crate::bindings::harness;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    harness::run_payload_schema(case, section_block, "payload_schema_unicode")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "unicode",
            "schema": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "min3": { "type": "string", "minLength": 3 },
                    "min2": { "type": "string", "minLength": 2 }
                },
                "additionalProperties": false
            },
            "cases": [
                { "name": "ascii-3cp-min3", "data": { "min3": "abc" }, "valid": true },
                { "name": "turkish-2cp-min3", "data": { "min3": "ğü" }, "valid": false },
                { "name": "turkish-3cp-min3-boundary", "data": { "min3": "ğüş" }, "valid": true },
                { "name": "emoji-1cp-min2", "data": { "min2": "😀" }, "valid": false },
                { "name": "emoji-plus-ascii-2cp-min3", "data": { "min3": "😀a" }, "valid": false },
                { "name": "combining-2cp-min2", "data": { "min2": "e\u{0301}" }, "valid": true }
            ]
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("payload_schema_unicode", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("payload_schema_unicode", &block(), run);
    }

    #[test]
    fn byte_or_grapheme_counting_expectations_mismatch() {
        let mut b = block();
        b["cases"][1]["valid"] = json!(true);
        b["cases"][5]["valid"] = json!(false);
        let v = verdict_of("payload_schema_unicode", &b, "turkish-2cp-min3", run);
        assert_mismatch_at(&v, "/payload_schema_unicode/cases/1/valid");
        let v = verdict_of("payload_schema_unicode", &b, "combining-2cp-min2", run);
        assert_mismatch_at(&v, "/payload_schema_unicode/cases/5/valid");
    }

    #[test]
    fn sub_keys_are_not_cases_here() {
        let mut b = block();
        b["extra"] = json!({ "data": {}, "valid": true });
        let v = verdict_of("payload_schema_unicode", &b, "extra", run);
        assert!(matches!(v, Verdict::Malformed { .. }));
    }
}
