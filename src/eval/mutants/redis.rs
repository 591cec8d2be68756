//! Redis mutants: the key layout and the list element.

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::RedisLayoutWithoutPrefix,
        id: "redis-layout-without-prefix",
        family: "redis",
        rule: "the ready list of queue q is queues:q (Laravel-compatible layout)",
        habit: "using the bare queue name as the list key",
        sections: &["redis_layout"],
    },
    MutantInfo {
        mutant: Mutant::RedisReservedAsProcessing,
        id: "redis-reserved-as-processing",
        family: "redis",
        rule: "reserved entries live in queues:q:reserved",
        habit: "the :processing list of other Redis queue libraries",
        sections: &["redis_layout"],
    },
    MutantInfo {
        mutant: Mutant::RedisPayloadWrapped,
        id: "redis-payload-wrapped",
        family: "redis",
        rule: "the list element is the envelope itself, byte for byte",
        habit: "wrapping the envelope in a {\"payload\": ...} job record",
        sections: &["redis"],
    },
];

/// The ready key of `queue`.
pub fn ready_key(queue: &str) -> String {
    if on(Mutant::RedisLayoutWithoutPrefix) {
        queue.to_owned()
    } else {
        format!("queues:{queue}")
    }
}

/// The suffix of the reserved key.
pub fn reserved_suffix() -> &'static str {
    if on(Mutant::RedisReservedAsProcessing) {
        "processing"
    } else {
        "reserved"
    }
}

/// The element pushed for `envelope_json`.
pub fn element(envelope_json: &str) -> String {
    if on(Mutant::RedisPayloadWrapped) {
        format!("{{\"payload\":{envelope_json}}}")
    } else {
        envelope_json.to_owned()
    }
}
