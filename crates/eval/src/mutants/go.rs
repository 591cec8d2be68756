//! Go mutants: typed structs that read `null` or a missing value as the zero value,
//! `strings.TrimSpace` (every Unicode space), whole seconds from `time.Time.Unix()`, and
//! functional options that write into a map. The variations are in [`crate::switch::go`].
//!
//! Go's `omitempty` and map iteration order have no mutant here: the only zero value the
//! contract requires that a case could see dropped is a new envelope's `attempts: 0`, which no
//! case shape asserts (an open decision in `docs/suites/babelqueue-proposal.md`), and no case pins an order a
//! Go map would scramble (key order is never asserted).

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/null-amount-is-not-a-number`.
    MutantInfo {
        mutant: Mutant::GoPayloadNullAsZeroValue,
        id: "go-payload-null-as-zero-value",
        family: "go",
        rule: "a null member has type null: {\"amount\": null} is not a number",
        habit: "json.Unmarshal into a typed struct (Amount float64) before validating, which reads null as the zero value 0",
        sections: &["payload_schema"],
    },
    MutantInfo {
        mutant: Mutant::GoKafkaAbsentHeaderReadsZero,
        id: "go-kafka-absent-header-reads-zero",
        family: "go",
        rule: "Kafka: an absent bq-attempts header falls back to the body's attempts",
        habit: "reading the headers into a struct with an int field, so a missing bq-attempts is 0 and overrides the body",
        sections: &["kafka"],
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `idempotency/sequences/meta-id-is-not-trimmed`.
    MutantInfo {
        mutant: Mutant::GoIdempotencyKeyTrimSpace,
        id: "go-idempotency-key-trimspace",
        family: "go",
        rule: "the dedupe key is meta.id verbatim, never trimmed",
        habit: "key := strings.TrimSpace(msg.Meta.ID), which also strips U+00A0 and the other Unicode spaces",
        sections: &["idempotency"],
    },
    MutantInfo {
        mutant: Mutant::GoRedisScoreUnixOfSum,
        id: "go-redis-score-unix-of-sum",
        family: "go",
        rule: "the Redis delayed score is floor(now) + ceil(delay), not the whole seconds of now + delay",
        habit: "now.Add(delay).Unix(), which drops the fraction of the sum so a sub-second delay can land on the current second",
        sections: &["redis_delay"],
    },
    // SURVIVES the real 1.8.0 suite (every created_at of its fixtures is a whole second):
    // killed by the proposal/manifest.json case `roundtrip/created-at-milliseconds-roundtrip`.
    MutantInfo {
        mutant: Mutant::GoCreatedAtUnixSeconds,
        id: "go-created-at-unix-seconds",
        family: "go",
        rule: "a re-emit carries meta.created_at (Unix milliseconds) through unchanged",
        habit: "decoding created_at into a time.Time and writing back t.Unix() * 1000, which loses the milliseconds",
        sections: &["roundtrip"],
    },
    // SURVIVES the real 1.8.0 suite (no case looks at what make stamps): killed by the
    // proposal/manifest.json case `producer_stamps/created-at-is-the-clock-in-milliseconds`.
    MutantInfo {
        mutant: Mutant::GoMakeCreatedAtUnixSeconds,
        id: "go-make-created-at-unix-seconds",
        family: "go",
        rule: "make stamps meta.created_at with the clock in Unix milliseconds",
        habit: "CreatedAt: time.Now().Unix(), whole seconds where milliseconds are due",
        sections: &["producer_stamps"],
    },
    MutantInfo {
        mutant: Mutant::GoGateTrimSpace,
        id: "go-gate-trimspace",
        family: "go",
        rule: "the gate compares the property as it is: \"\\u00a01\" and \" 1\" reject",
        habit: "v := strings.TrimSpace(value); v == \"\" || v == \"1\", which trims Unicode spaces too",
        sections: &["sqs", "asb", "pulsar", "kafka", "artemis"],
    },
    MutantInfo {
        mutant: Mutant::GoMetaEntriesIntoMap,
        id: "go-meta-entries-into-map",
        family: "go",
        rule: "a meta key supplied twice through the write API is refused",
        habit: "WithMeta options that write m[key] = value, so a repeated key silently overwrites the first",
        sections: &["encode_reject"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "go",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::GoPayloadNullAsZeroValue,
                "payload_schema",
                "null-amount-is-not-a-number",
            ),
            (
                Mutant::GoIdempotencyKeyTrimSpace,
                "idempotency",
                "sequences/meta-id-is-not-trimmed",
            ),
            (
                Mutant::GoCreatedAtUnixSeconds,
                "roundtrip",
                "created-at-milliseconds-roundtrip",
            ),
            (
                Mutant::GoMakeCreatedAtUnixSeconds,
                "producer_stamps",
                "created-at-is-the-clock-in-milliseconds",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
