//! Tests of the binding-driven broker runner: every real release, the flip check, the rules a
//! real case pins (counter base and authority, typed projections), and the shapes of its
//! `schema_version_gate` sub-block.

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

/// The `schema_version_gate` sub-block (`broker_gate.rs`), run through the section runner.
mod gate {
    use crate::bindings::testutil::{
        assert_malformed_at, assert_mismatch_at, fixtures, run_all, verdict_of,
    };
    use crate::outcome::Verdict;
    use crate::sections::broker::run;
    use serde_json::json;

    #[test]
    fn gate_property_name_is_checked() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq_schema_version",
                "fixture": "fixtures/order-created.json",
                "cases": [{ "value": "1", "expect": "decode" }]
            }
        });
        let out = run_all("sqs", &block, &fixtures(), run);
        assert_mismatch_at(&out[0].1, "/sqs/schema_version_gate/property");
        let v = verdict_of("artemis", &block, "schema_version_gate/0", run);
        assert_eq!(v, Verdict::Pass);
    }

    #[test]
    fn an_unknown_verdict_word_is_a_mismatch() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq-schema-version",
                "fixture": "fixtures/order-created.json",
                "cases": [{ "value": "2", "expect": "reject-flipped" }]
            }
        });
        let v = verdict_of("pulsar", &block, "schema_version_gate/0", run);
        assert_mismatch_at(&v, "/pulsar/schema_version_gate/cases/0/expect");
    }

    #[test]
    fn gate_malformed_shapes() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "both", "value": "1", "absent": true, "expect": "decode" },
                    { "name": "neither", "expect": "decode" },
                    { "name": "null", "value": null, "expect": "decode" },
                    { "name": "number", "value": 1, "expect": "decode" },
                    { "name": "bad-expect", "value": "1", "expect": 1 },
                    { "name": "marker-on-string", "value": "1", "value_type": "float", "expect": "reject" },
                    { "name": "absent-false", "absent": false, "expect": "decode" }
                ]
            }
        });
        let out = run_all("sqs", &block, &fixtures(), run);
        let base = "/sqs/schema_version_gate/cases";
        assert_malformed_at(&out[0].1, &format!("{base}/0/value"));
        assert_malformed_at(&out[1].1, &format!("{base}/1/value"));
        assert_malformed_at(&out[2].1, &format!("{base}/2/value"));
        assert_malformed_at(&out[3].1, &format!("{base}/3/value"));
        assert_malformed_at(&out[4].1, &format!("{base}/4/expect"));
        assert_malformed_at(&out[5].1, &format!("{base}/5/value_type"));
        assert_malformed_at(&out[6].1, &format!("{base}/6/value"));
        let out = run_all("sqs", &block, &std::collections::BTreeMap::new(), run);
        assert_malformed_at(&out[0].1, "/sqs/schema_version_gate/envelope_file");
    }

    #[test]
    fn asb_numbers_name_the_width() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq-schema-version",
                "fixture": "fixtures/order-created.json",
                "cases": [
                    { "value": 1, "expect": "reject" },
                    { "value": 1.0, "value_type": "float", "expect": "decode" },
                    { "value": 4294967297_i64, "expect": "decode" },
                    { "value": true, "expect": "reject" }
                ]
            }
        });
        let out = run_all("asb", &block, &fixtures(), run);
        assert!(matches!(out[0].1, Verdict::Mismatch(ref m) if m.derived.contains("int32")));
        assert!(matches!(out[1].1, Verdict::Mismatch(ref m) if m.derived.contains("float32")));
        assert!(matches!(out[2].1, Verdict::Mismatch(ref m) if m.derived.contains("int64")));
        assert_eq!(out[3].1, Verdict::Pass);
    }
}
