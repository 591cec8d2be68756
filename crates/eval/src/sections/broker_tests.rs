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

/// The envelopes sub-block (`<projection key>_envelopes`): one projection per case, each over the
/// envelope the case names, with the binding's native time.
mod envelopes {
    use std::collections::BTreeMap;

    use crate::bindings::broker_table::BINDINGS;
    use crate::bindings::testutil::{
        ORDER_CREATED, assert_malformed_at, assert_mismatch_at, assert_no_panic_on_junk, run_all,
    };
    use crate::outcome::Verdict;
    use crate::realkit;
    use crate::sections::broker::run;
    use serde_json::{Value, json};

    const ZERO: &str = "fixtures/zero.json";

    /// order-created.json and a copy of it whose created_at and attempts are 0.
    fn fixtures() -> BTreeMap<String, String> {
        let zero = ORDER_CREATED.replace("1749132727000", "0");
        BTreeMap::from([
            (
                "fixtures/order-created.json".to_owned(),
                ORDER_CREATED.to_owned(),
            ),
            (ZERO.to_owned(), zero),
        ])
    }

    fn one_case(key: &str, case: Value) -> Value {
        json!({ key: { "cases": [case] } })
    }

    fn verdict(section: &str, block: &Value) -> Verdict {
        let mut out = run_all(section, block, &fixtures(), run);
        assert_eq!(out.len(), 1, "{out:?}");
        out.remove(0).1
    }

    fn kafka_case(extra: Value) -> Value {
        let mut case = json!({
            "name": "z",
            "envelope_file": ZERO,
            "headers": {
                "bq-job": "urn:babel:orders:created",
                "bq-trace-id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                "bq-message-id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
                "bq-schema-version": "1",
                "bq-source-lang": "php",
                "bq-attempts": "0"
            }
        });
        for (k, v) in extra.as_object().expect("object") {
            case[k] = v.clone();
        }
        case
    }

    #[test]
    fn the_proposal_cases_pass_in_every_binding() {
        let (manifest, files) = realkit::with_proposal();
        for b in &BINDINGS {
            let block = &manifest[b.section];
            let out: Vec<(String, Verdict)> = run_all(b.section, block, &files, run)
                .into_iter()
                .filter(|(id, _)| id.starts_with(b.envelopes_key))
                .collect();
            assert!(!out.is_empty(), "{}: no envelopes cases", b.section);
            for (id, v) in out {
                assert_eq!(v, Verdict::Pass, "{} {id}", b.section);
            }
        }
    }

    #[test]
    fn epoch_zero_is_projected_as_zero() {
        let block = one_case(
            "property_projection_envelopes",
            json!({
                "name": "z",
                "envelope_file": ZERO,
                "message": {
                    "subject": "urn:babel:orders:created",
                    "correlation_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                    "message_id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
                    "content_type": "application/json"
                },
                "application_properties": {
                    "bq-schema-version": 1, "bq-source-lang": "php", "bq-created-at": 0
                }
            }),
        );
        assert_eq!(verdict("asb", &block), Verdict::Pass);
        let mut missing = block.clone();
        let props = &mut missing["property_projection_envelopes"]["cases"][0];
        props["application_properties"]
            .as_object_mut()
            .expect("object")
            .remove("bq-created-at");
        assert_mismatch_at(
            &verdict("asb", &missing),
            "/asb/property_projection_envelopes/cases/0/application_properties",
        );
    }

    #[test]
    fn the_kafka_record_timestamp_is_asserted_when_stated() {
        let key = "property_projection_envelopes";
        assert_eq!(
            verdict("kafka", &one_case(key, kafka_case(json!({})))),
            Verdict::Pass
        );
        let stated = one_case(key, kafka_case(json!({ "record_timestamp": 0 })));
        assert_eq!(verdict("kafka", &stated), Verdict::Pass);
        let wrong = one_case(key, kafka_case(json!({ "record_timestamp": 1 })));
        let pointer = "/kafka/property_projection_envelopes/cases/0/record_timestamp";
        assert_mismatch_at(&verdict("kafka", &wrong), pointer);
        let text = one_case(key, kafka_case(json!({ "record_timestamp": "0" })));
        assert_malformed_at(&verdict("kafka", &text), pointer);
    }

    #[test]
    fn the_artemis_creation_time_is_required() {
        let case = json!({
            "name": "z",
            "envelope_file": ZERO,
            "jms_type_annotation": "x-opt-jms-type",
            "jms_type": "urn:babel:orders:created",
            "correlation_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
            "properties": {
                "bq_schema_version": "1", "bq_source_lang": "php",
                "bq_attempts": "0", "bq_app_id": "babelqueue"
            },
            "creation_time": 0
        });
        let key = "property_projection_envelopes";
        assert_eq!(
            verdict("artemis", &one_case(key, case.clone())),
            Verdict::Pass
        );
        let pointer = "/artemis/property_projection_envelopes/cases/0/creation_time";
        let mut late = case.clone();
        late["creation_time"] = json!(1_767_225_600_000_u64);
        assert_mismatch_at(&verdict("artemis", &one_case(key, late)), pointer);
        let mut none = case;
        none.as_object_mut()
            .expect("object")
            .remove("creation_time");
        assert_malformed_at(&verdict("artemis", &one_case(key, none)), pointer);
    }

    #[test]
    fn each_case_names_its_own_envelope() {
        let mut case = kafka_case(json!({}));
        case.as_object_mut()
            .expect("object")
            .remove("envelope_file");
        let block = json!({ "property_projection_envelopes": {
            "envelope_file": ZERO, "cases": [case]
        }});
        assert_malformed_at(
            &verdict("kafka", &block),
            "/kafka/property_projection_envelopes/cases/0/envelope_file",
        );
        // The SQS sub-key follows its projection key: the other spelling is unknown there.
        let block = one_case("property_projection_envelopes", kafka_case(json!({})));
        assert!(matches!(verdict("sqs", &block), Verdict::Malformed { .. }));
    }

    #[test]
    fn junk_never_panics() {
        let block = one_case(
            "property_projection_envelopes",
            kafka_case(
                json!({ "envelope_file": "fixtures/order-created.json", "record_timestamp": 1 }),
            ),
        );
        assert_no_panic_on_junk("kafka", &block, run);
    }
}
