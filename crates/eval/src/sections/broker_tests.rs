//! Tests of the binding-driven broker runner: every real release, the flip check, and the
//! rules a real case pins (counter base and authority, typed projections).

use super::*;
use crate::bindings::testutil::{
    assert_all_pass, assert_mismatch_at, assert_no_panic_on_junk, verdict_of,
};
use crate::realkit::{self};
use serde_json::json;

const SECTIONS: [&str; 6] = ["sqs", "asb", "pulsar", "kafka", "artemis", "rabbitmq"];

#[test]
fn gate_tables_exist_from_1_2_0() {
    let (old, _) = realkit::release("1.0.0");
    let (new, _) = realkit::release("1.2.0");
    for section in ["sqs", "asb", "pulsar", "kafka", "artemis"] {
        assert!(old[section].get(GATE_KEY).is_none());
        assert!(new[section].get(GATE_KEY).is_some());
    }
}

/// A real-shaped block of `section` from 1.8.0.
fn real_block(section: &str) -> Value {
    realkit::release("1.8.0").0[section].clone()
}

#[test]
fn junk_never_panics() {
    for section in SECTIONS {
        let mut block = real_block(section);
        // Keep the junk run bounded: two gate cases are enough to reach every branch.
        if let Some(cases) = block
            .pointer_mut("/schema_version_gate/cases")
            .and_then(Value::as_array_mut)
        {
            cases.truncate(2);
        }
        assert_no_panic_on_junk(section, &block, run);
    }
}

#[test]
fn synthetic_blocks_with_the_older_envelope_file_shape_pass() {
    let block = json!({
        "schema_version_gate": {
            "property": "bq-schema-version",
            "envelope_file": "fixtures/order-created.json",
            "cases": [{ "name": "v", "value": "1", "expect": "decode" }]
        }
    });
    assert_all_pass("kafka", &block, run);
}

#[test]
fn typed_projection_values_are_compared_with_their_type() {
    let mut b = real_block("sqs");
    b["attribute_projection"]["message_attributes"]["bq-created-at"]["DataType"] = json!("String");
    let v = verdict_of("sqs", &b, "attribute_projection", run);
    assert_mismatch_at(&v, "/sqs/attribute_projection/message_attributes");
    let mut b = real_block("asb");
    b["property_projection"]["application_properties"]["bq-schema-version"] = json!("1");
    let v = verdict_of("asb", &b, "property_projection", run);
    assert_mismatch_at(&v, "/asb/property_projection/application_properties");
    let mut b = real_block("rabbitmq");
    b["property_projection"]["headers"]["x-attempts"] = json!("0");
    let v = verdict_of("rabbitmq", &b, "property_projection", run);
    assert_mismatch_at(&v, "/rabbitmq/property_projection/headers");
    let mut b = real_block("artemis");
    b["property_projection"]["jms_type"] = json!("urn:babel:orders:draft");
    let v = verdict_of("artemis", &b, "property_projection", run);
    assert_mismatch_at(&v, "/artemis/property_projection/jms_type");
}

#[test]
fn counter_rules_differ_per_binding() {
    // The same numbers, four rules: ASB subtracts one, Pulsar and Artemis do not, Kafka's
    // header overrides the body.
    let case = |field: &str, counter: Value| {
        json!({ "attempts_reconciliation": { "cases": [
            { "name": "c", "body_attempts": 0, field: counter, "expected_attempts": 2 }
        ]}})
    };
    let pass = |section: &str, block: &Value| {
        verdict_of(section, block, "attempts_reconciliation/c", run) == Verdict::Pass
    };
    assert!(pass("asb", &case("delivery_count", json!(3))));
    assert!(!pass("asb", &case("delivery_count", json!(2))));
    assert!(pass("pulsar", &case("redelivery_count", json!(2))));
    assert!(pass("artemis", &case("delivery_count", json!(2))));
    assert!(!pass("artemis", &case("delivery_count", json!(3))));
    assert!(pass("sqs", &case("approximate_receive_count", json!("3"))));
    assert!(!pass("sqs", &case("approximate_receive_count", json!("2"))));
    let lower = json!({ "attempts_reconciliation": { "cases": [
        { "name": "c", "body_attempts": 5, "header_attempts": 2, "expected_attempts": 2 }
    ]}});
    assert!(pass("kafka", &lower));
}

#[test]
fn mistyped_inputs_are_malformed_and_unknown_sub_keys_too() {
    let b = json!({ "attempts_reconciliation": { "cases": [
        { "name": "c", "body_attempts": 0, "approximate_receive_count": 1, "expected_attempts": 0 }
    ]}});
    let v = verdict_of("sqs", &b, "attempts_reconciliation/c", run);
    assert!(
        matches!(v, Verdict::Malformed { ref pointer, .. } if pointer.ends_with("approximate_receive_count"))
    );
    let b = json!({ "bogus": { "x": 1 } });
    let v = verdict_of("sqs", &b, "bogus", run);
    assert!(matches!(v, Verdict::Malformed { ref message, .. } if message.contains("bogus")));
    // RabbitMQ has no reconciliation table.
    let b = json!({ "attempts_reconciliation": { "cases": [{ "name": "c" }] } });
    let v = verdict_of("rabbitmq", &b, "attempts_reconciliation/c", run);
    assert!(matches!(v, Verdict::Malformed { .. }));
}
