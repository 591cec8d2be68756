//! One runner per manifest section. Each maps a case's fields onto the reference model and
//! compares the derived result with the case's stated expectation.

pub mod artemis;
pub mod asb;
pub mod backoff;
pub mod cases;
pub mod data_shape;
pub mod delay;
pub mod encode_reject;
pub mod extension_write;
pub mod forbidden_keys;
pub mod idempotency;
pub mod job_type;
pub mod kafka;
pub mod payload_schema;
pub mod payload_schema_unicode;
pub mod pulsar;
pub mod rabbitmq;
pub mod redis;
pub mod redis_layout;
pub mod roundtrip;
pub mod sqs;
pub mod traceparent;
pub mod trim;

use serde_json::Value;

use super::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

/// A section runner: one case, its section's block, and the suite's files.
pub type Runner = fn(&CaseRef<'_>, &Value, &dyn FixtureSource) -> Verdict;

/// Every section the reference evaluator knows, with its runner.
pub const RUNNERS: [(&str, Runner); 22] = [
    ("cases", cases::run),
    ("idempotency", idempotency::run),
    ("sqs", sqs::run),
    ("asb", asb::run),
    ("pulsar", pulsar::run),
    ("kafka", kafka::run),
    ("artemis", artemis::run),
    ("redis", redis::run),
    ("rabbitmq", rabbitmq::run),
    ("payload_schema", payload_schema::run),
    ("payload_schema_unicode", payload_schema_unicode::run),
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
];

/// The runner of `section`, if the evaluator knows it.
pub fn runner(section: &str) -> Option<Runner> {
    RUNNERS
        .iter()
        .find(|(name, _)| *name == section)
        .map(|(_, run)| *run)
}
