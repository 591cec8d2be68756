//! The `traceparent` section (scope otel): consumer-side W3C `traceparent` extraction
//! (ADR-0028). `traceparent` is the header text or null (absent); a structurally valid
//! `00-<32hex>-<16hex>-<2hex>` header gives `expect_trace_id` and `expect_parent_id`, anything
//! else falls back to the hex of the `envelope_file`'s `trace_id` with no parent id.

use serde_json::Value;

use crate::eval::bindings::harness::{self, malformed_at};
use crate::eval::bindings::traceparent;
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        None => finish(extract_case(case, section_block, fixtures)),
        Some(_) => harness::unknown_sub_key(case, "traceparent"),
    }
}

fn extract_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let header = match c.require("traceparent")? {
        Value::Null => None,
        Value::String(text) => Some(text.as_str()),
        _ => {
            return Err(c.malformed(
                "traceparent",
                "`traceparent` must be a string, or null when the header is absent",
            ));
        }
    };
    let expected_trace_id = c.require("expect_trace_id")?;
    c.str("expect_trace_id")?;
    let expected_parent_id = match c.get("expect_parent_id") {
        None => None,
        Some(value) => {
            c.str("expect_parent_id")?;
            Some(value)
        }
    };
    let (envelope, pointer) = harness::load_envelope(case, section_block, fixtures)?;
    let trace_id = envelope
        .get("trace_id")
        .and_then(Value::as_str)
        .ok_or_else(|| malformed_at(pointer, "the envelope fixture has no string trace_id"))?;
    let context = traceparent::extract(header, trace_id);
    c.expect_eq(
        "expect_trace_id",
        expected_trace_id,
        &Value::String(context.trace_id),
    )?;
    match (expected_parent_id, context.parent_id) {
        (Some(want), Some(got)) => c.expect_eq("expect_parent_id", want, &Value::String(got)),
        (Some(want), None) => Err(c.mismatch(
            "expect_parent_id",
            crate::eval::case::compact(want),
            "no parent id (the header falls back)",
        )),
        (None, _) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    const DERIVED: &str = "7b3f9c2ae41d4f889b2a1c0d5e6f7a8b";

    fn block() -> Value {
        json!({
            "description": "traceparent",
            "envelope_file": "fixtures/order-created.json",
            "cases": [
                { "name": "valid-header-wins",
                  "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                  "expect_trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "expect_parent_id": "00f067aa0ba902b7" },
                { "name": "absent-header-falls-back", "traceparent": null, "expect_trace_id": DERIVED },
                { "name": "empty-header-falls-back", "traceparent": "", "expect_trace_id": DERIVED },
                { "name": "short-trace-id-falls-back",
                  "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", "expect_trace_id": DERIVED },
                { "name": "non-hex-falls-back",
                  "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e47zz-00f067aa0ba902b7-01", "expect_trace_id": DERIVED },
                { "name": "missing-flags-falls-back",
                  "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "expect_trace_id": DERIVED },
                { "name": "extra-field-falls-back",
                  "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-00", "expect_trace_id": DERIVED },
                { "name": "wrong-version-falls-back",
                  "traceparent": "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "expect_trace_id": DERIVED },
                { "name": "garbage-falls-back", "traceparent": "not a traceparent", "expect_trace_id": DERIVED }
            ]
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("traceparent", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("traceparent", &block(), run);
    }

    #[test]
    fn flipped_expectations() {
        let mut b = block();
        b["cases"][7]["expect_trace_id"] = json!("4bf92f3577b34da6a3ce929d0e0e4736");
        let v = verdict_of("traceparent", &b, "wrong-version-falls-back", run);
        assert_mismatch_at(&v, "/traceparent/cases/7/expect_trace_id");
        b["cases"][8]["expect_parent_id"] = json!("00f067aa0ba902b7");
        let v = verdict_of("traceparent", &b, "garbage-falls-back", run);
        assert_mismatch_at(&v, "/traceparent/cases/8/expect_parent_id");
        b["cases"][0]["expect_parent_id"] = json!("0000000000000000");
        let v = verdict_of("traceparent", &b, "valid-header-wins", run);
        assert_mismatch_at(&v, "/traceparent/cases/0/expect_parent_id");
    }

    #[test]
    fn missing_header_field_is_malformed() {
        let mut b = block();
        b["cases"][1]
            .as_object_mut()
            .map(|o| o.remove("traceparent"));
        let v = verdict_of("traceparent", &b, "absent-header-falls-back", run);
        assert!(
            matches!(v, Verdict::Malformed { ref pointer, .. } if pointer == "/traceparent/cases/1/traceparent")
        );
    }
}
