//! Tests of the version-gate settle runner over every binding that has the rule.

use super::*;
use crate::bindings::testutil::{assert_malformed_at, assert_mismatch_at, verdict_of};
use crate::realkit;
use serde_json::json;

const SECTIONS: [&str; 4] = [
    "version_gate_pulsar",
    "version_gate_artemis",
    "version_gate_sqs",
    "version_gate_asb",
];

fn block(off: &str) -> Value {
    json!({
        "incoming_bodies": [{"name": "pretty", "body": "{\n  \"a\": 1.50\n}\n"}],
        "cases": [
            {"name": "off", "dead_letter": "off", "expect": {"outcome": off}},
            {"name": "dl-off", "on_unknown_urn": "dead_letter", "dead_letter": "off",
             "dlq_write": "ok",
             "expect": {"outcome": "dlq_raw", "record": "incoming_body", "outcome_no_writer": off}}
        ]
    })
}

#[test]
fn dead_lettering_off_is_settled_the_binding_way() {
    for (section, off, other) in [
        ("version_gate_sqs", "native", "ack"),
        ("version_gate_asb", "native", "ack"),
        ("version_gate_pulsar", "ack", "native"),
        ("version_gate_artemis", "ack", "native"),
    ] {
        for id in ["off", "dl-off"] {
            assert_eq!(verdict_of(section, &block(off), id, run), Verdict::Pass);
        }
        let v = verdict_of(section, &block(other), "off", run);
        assert_mismatch_at(&v, &format!("/{section}/cases/0/expect/outcome"));
        let v = verdict_of(section, &block(other), "dl-off", run);
        assert_mismatch_at(&v, &format!("/{section}/cases/1/expect/outcome_no_writer"));
    }
}

#[test]
fn a_missing_record_or_no_writer_member_is_a_mismatch() {
    let mut b = block("ack");
    b["cases"][1]["expect"] = json!({"outcome": "dlq_raw"});
    let v = verdict_of("version_gate_pulsar", &b, "dl-off", run);
    assert_mismatch_at(&v, "/version_gate_pulsar/cases/1/expect");
}

#[test]
fn bad_inputs_are_malformed() {
    let mut b = block("ack");
    b["cases"][0]["dead_letter"] = json!(true);
    let v = verdict_of("version_gate_pulsar", &b, "off", run);
    assert_malformed_at(&v, "/version_gate_pulsar/cases/0/dead_letter");
    let mut b = block("ack");
    b["incoming_bodies"] = json!([]);
    let v = verdict_of("version_gate_pulsar", &b, "off", run);
    assert_malformed_at(&v, "/version_gate_pulsar/incoming_bodies");
    let v = verdict_of("version_gate_kafka", &block("ack"), "off", run);
    assert!(matches!(v, Verdict::Malformed { .. }));
}

#[test]
fn junk_never_panics() {
    crate::bindings::testutil::assert_no_panic_on_junk("version_gate_asb", &block("native"), run);
}

#[test]
fn the_table_agrees_with_the_real_descriptions() {
    let (manifest, _) = realkit::release("1.8.0");
    for section in SECTIONS {
        let (binding, rule) = settle_binding(section).expect("a settle binding");
        let text = manifest[section]["description"]
            .as_str()
            .expect("description");
        let gate = binding.gate.expect("a gate");
        assert!(text.contains(&format!("`{}`", gate.property)), "{section}");
        assert_eq!(
            text.contains("Every row is asserted"),
            rule.strategy_option_everywhere,
            "{section}"
        );
        let off = format!(
            "With dead-lettering off and a strategy other than `dead_letter` the outcome is `{}`",
            rule.off.outcome()
        );
        assert!(text.contains(&off), "{section}");
    }
}
