//! The `sqs` section (scope sqs): the Amazon SQS binding (broker-bindings §3).
//!
//! - `attribute_projection`: the `MessageAttributes` projected from `envelope_file` equal
//!   `message_attributes`;
//! - `attempts_reconciliation`: `max(body_attempts, ApproximateReceiveCount - 1)`, an absent
//!   (null) or non-numeric count ignored;
//! - `schema_version_gate`: the `bq-schema-version` gate (strings, absent).

use serde_json::Value;

use crate::eval::bindings::Binding;
use crate::eval::bindings::harness::{self, uint};
use crate::eval::bindings::{projection, reconcile};
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("attribute_projection") => finish(projection_case(case, section_block, fixtures)),
        Some("attempts_reconciliation") => finish(reconciliation_case(case)),
        Some("schema_version_gate") => {
            harness::run_gate(case, section_block, fixtures, Binding::Sqs)
        }
        _ => harness::unknown_sub_key(case, "sqs"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    harness::compare_map(
        &c,
        "message_attributes",
        &projection::sqs_message_attributes(&source),
    )
}

fn reconciliation_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let count = match c.require("approximate_receive_count")? {
        Value::Null => None,
        Value::String(text) => Some(text.as_str()),
        _ => {
            return Err(c.malformed(
                "approximate_receive_count",
                "`approximate_receive_count` is an SQS attribute: a string, or null when absent",
            ));
        }
    };
    let expected = c.require("expected_attempts")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::sqs(body, count);
    c.expect_eq("expected_attempts", expected, &Value::from(derived))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "sqs",
            "attribute_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "message_attributes": {
                    "bq-job":            { "DataType": "String", "StringValue": "urn:babel:orders:created" },
                    "bq-trace-id":       { "DataType": "String", "StringValue": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b" },
                    "bq-message-id":     { "DataType": "String", "StringValue": "f1e2d3c4-b5a6-4789-90ab-cdef01234567" },
                    "bq-schema-version": { "DataType": "Number", "StringValue": "1" },
                    "bq-source-lang":    { "DataType": "String", "StringValue": "php" },
                    "bq-created-at":     { "DataType": "Number", "StringValue": "1749132727000" }
                }
            },
            "attempts_reconciliation": {
                "description": "r",
                "cases": [
                    { "name": "first-delivery",        "body_attempts": 0, "approximate_receive_count": "1",            "expected_attempts": 0 },
                    { "name": "third-delivery",        "body_attempts": 0, "approximate_receive_count": "3",            "expected_attempts": 2 },
                    { "name": "native-exceeds-body",   "body_attempts": 2, "approximate_receive_count": "5",            "expected_attempts": 4 },
                    { "name": "never-lower-runtime",   "body_attempts": 5, "approximate_receive_count": "1",            "expected_attempts": 5 },
                    { "name": "garbage-count-ignored", "body_attempts": 4, "approximate_receive_count": "not-a-number", "expected_attempts": 4 },
                    { "name": "absent-count",          "body_attempts": 3, "approximate_receive_count": null,           "expected_attempts": 3 }
                ]
            },
            "schema_version_gate": {
                "description": "g",
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "value-1", "value": "1", "expect": "decode" },
                    { "name": "absent", "absent": true, "expect": "decode" },
                    { "name": "empty", "value": "", "expect": "decode" },
                    { "name": "space", "value": " ", "expect": "decode" },
                    { "name": "tab-newline", "value": "\t\n", "expect": "decode" },
                    { "name": "vt-ff-cr", "value": "\u{000b}\u{000c}\r", "expect": "decode" },
                    { "name": "value-2", "value": "2", "expect": "reject" },
                    { "name": "value-01", "value": "01", "expect": "reject" },
                    { "name": "value-x", "value": "x", "expect": "reject" },
                    { "name": "leading-space", "value": " 1", "expect": "reject" },
                    { "name": "trailing-space", "value": "1 ", "expect": "reject" },
                    { "name": "tab-wrapped", "value": "\t1\n", "expect": "reject" },
                    { "name": "nbsp", "value": "\u{00a0}", "expect": "reject" },
                    { "name": "nel", "value": "\u{0085}", "expect": "reject" },
                    { "name": "ideographic-space", "value": "\u{3000}", "expect": "reject" },
                    { "name": "bom", "value": "\u{feff}", "expect": "reject" },
                    { "name": "bom-1", "value": "\u{feff}1", "expect": "reject" }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("sqs", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("sqs", &block(), run);
    }

    #[test]
    fn flipped_projection_value() {
        let mut b = block();
        b["attribute_projection"]["message_attributes"]["bq-created-at"]["DataType"] =
            json!("String");
        let v = verdict_of("sqs", &b, "attribute_projection", run);
        assert_mismatch_at(&v, "/sqs/attribute_projection/message_attributes");
        match v {
            Verdict::Mismatch(m) => assert!(m.expected.contains("bq-created-at")),
            _ => unreachable!(),
        }
    }

    #[test]
    fn flipped_reconciliation() {
        let mut b = block();
        b["attempts_reconciliation"]["cases"][4]["expected_attempts"] = json!(3);
        let v = verdict_of(
            "sqs",
            &b,
            "attempts_reconciliation/garbage-count-ignored",
            run,
        );
        assert_mismatch_at(&v, "/sqs/attempts_reconciliation/cases/4/expected_attempts");
    }

    #[test]
    fn flipped_gate() {
        let mut b = block();
        b["schema_version_gate"]["cases"][12]["expect"] = json!("decode");
        let v = verdict_of("sqs", &b, "schema_version_gate/nbsp", run);
        assert_mismatch_at(&v, "/sqs/schema_version_gate/cases/12/expect");
    }

    #[test]
    fn unknown_sub_key_is_malformed() {
        let b = json!({ "bogus": { "x": 1 } });
        let v = verdict_of("sqs", &b, "bogus", run);
        assert!(matches!(v, Verdict::Malformed { ref message, .. } if message.contains("bogus")));
    }

    #[test]
    fn mistyped_count_is_malformed() {
        let mut b = block();
        b["attempts_reconciliation"]["cases"][0]["approximate_receive_count"] = json!(1);
        let v = verdict_of("sqs", &b, "attempts_reconciliation/first-delivery", run);
        assert!(matches!(v, Verdict::Malformed { .. }));
    }
}
