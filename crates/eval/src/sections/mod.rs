//! One runner per manifest section. Each maps a case's fields onto the reference model and
//! compares the derived result with the case's stated expectation.

pub mod backoff;
pub mod broker;
pub mod broker_gate;
pub mod cases;
pub mod data_shape;
pub mod delay;
pub mod encode_reject;
pub mod extension_write;
pub mod forbidden_keys;
pub mod idempotency;
pub mod identity_verdict;
pub mod job_type;
pub mod kafka_poison;
pub mod payload_schema;
pub mod payload_schema_types;
pub mod payload_schema_unicode;
pub mod poison_dlq;
pub mod producer_stamps;
pub mod pulsar_exhaustion;
pub mod redis;
pub mod redis_delay;
pub mod redis_layout;
pub mod retry_backoff;
pub mod roundtrip;
pub mod traceparent;
pub mod trim;
pub mod version_gate;

use serde_json::Value;

use super::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// A section runner: one case, its section's block, and the suite's files.
pub type Runner = fn(&CaseRef<'_>, &Value, &dyn FixtureSource) -> Verdict;

/// Every section the reference evaluator knows, with its runner.
pub const RUNNERS: [(&str, Runner); 35] = [
    ("cases", cases::run),
    ("idempotency", idempotency::run),
    ("sqs", broker::run),
    ("asb", broker::run),
    ("pulsar", broker::run),
    ("kafka", broker::run),
    ("artemis", broker::run),
    ("redis", redis::run),
    ("rabbitmq", broker::run),
    ("payload_schema", payload_schema::run),
    ("payload_schema_unicode", payload_schema_unicode::run),
    ("payload_schema_types", payload_schema_types::run),
    ("producer_stamps", producer_stamps::run),
    ("roundtrip", roundtrip::run),
    ("data_shape", data_shape::run),
    ("forbidden_keys", forbidden_keys::run),
    ("extension_write", extension_write::run),
    ("encode_reject", encode_reject::run),
    ("trim", trim::run),
    ("job_type", job_type::run),
    ("delay", delay::run),
    ("backoff", backoff::run),
    ("traceparent", traceparent::run),
    ("redis_layout", redis_layout::run),
    ("retry_backoff", retry_backoff::run),
    ("retry_backoff_defaults", retry_backoff::run_defaults),
    ("redis_delay", redis_delay::run),
    ("kafka_poison", kafka_poison::run),
    ("poison_dlq", poison_dlq::run),
    ("identity_verdict", identity_verdict::run),
    ("pulsar_exhaustion", pulsar_exhaustion::run),
    ("version_gate_pulsar", version_gate::run),
    ("version_gate_artemis", version_gate::run),
    ("version_gate_sqs", version_gate::run),
    ("version_gate_asb", version_gate::run),
];

/// The runner of `section`, if the evaluator knows it.
pub fn runner(section: &str) -> Option<Runner> {
    RUNNERS
        .iter()
        .find(|(name, _)| *name == section)
        .map(|(_, run)| *run)
}
