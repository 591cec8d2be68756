//! Java and .NET mutants: an `int` where the contract needs 64 bits, timestamps in whole
//! seconds, and case-insensitive stores, enums and binders. The variations are in
//! [`crate::switch::jvm_dotnet`].
//!
//! The signed-only integer check (an ASB gate that accepts `int` and `long` 1 but not an unsigned
//! AMQP `ulong` 1) has no mutant: no case can hand an SDK an unsigned 1 (an open decision in
//! `docs/suites/babelqueue-proposal.md`).

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite (no attempts near 2^31): killed by the proposal/manifest.json
    // case `roundtrip/attempts-past-int32-roundtrip`.
    MutantInfo {
        mutant: Mutant::JvmAttemptsInt32,
        id: "jvm-attempts-int32",
        family: "jvm-dotnet",
        rule: "attempts is an integer >= 0 with no upper bound: 2147483647 + 1 is 2147483648",
        habit: "an int attempts field (Java int, C# int), which wraps past int.MaxValue to -2147483648",
        sections: &["roundtrip"],
    },
    // SURVIVES the real 1.8.0 suite (every clock is before 2038): killed by the
    // proposal/manifest.json case `redis_delay/clock-past-2038-score-past-int32`.
    MutantInfo {
        mutant: Mutant::JvmRedisScoreInt32,
        id: "jvm-redis-score-int32",
        family: "jvm-dotnet",
        rule: "the Redis delayed score is integer epoch seconds, past 2^31 - 1 too",
        habit: "(int) Math.floor(now) + (int) Math.ceil(delay), which wraps negative after 2038-01-19",
        sections: &["redis_delay"],
    },
    // SURVIVES the real 1.8.0 suite (its ids differ in more than case): killed by the
    // proposal/manifest.json case `idempotency/sequences/meta-id-is-case-sensitive`.
    MutantInfo {
        mutant: Mutant::DotnetIdempotencyStoreIgnoresCase,
        id: "dotnet-idempotency-store-ignores-case",
        family: "jvm-dotnet",
        rule: "the dedupe key is meta.id verbatim: ids that differ only in case are different messages",
        habit: "a seen-set built with StringComparer.OrdinalIgnoreCase, or a table with a case-insensitive collation",
        sections: &["idempotency"],
    },
    // SURVIVES the real 1.8.0 suite (its created_at is before 2038): killed by the
    // proposal/manifest.json cases `*_projection_envelopes/created-at-past-2038`.
    MutantInfo {
        mutant: Mutant::JvmCreatedAtInt32Seconds,
        id: "jvm-created-at-int32-seconds",
        family: "jvm-dotnet",
        rule: "meta.created_at is projected in Unix ms as it is, past 2^31 seconds (2038-01-19) too",
        habit: "carrying the time as int epoch seconds plus milliseconds ((int) (createdAt / 1000)), which wraps negative after 2038-01-19",
        sections: &["sqs", "asb", "kafka", "artemis"],
    },
    MutantInfo {
        mutant: Mutant::DotnetCreatedAtProjectedInSeconds,
        id: "dotnet-created-at-projected-in-seconds",
        family: "jvm-dotnet",
        rule: "the bq-created-at property is meta.created_at in Unix milliseconds",
        habit: "DateTimeOffset.ToUnixTimeSeconds() (or Instant.getEpochSecond()) where milliseconds are meant",
        sections: &["sqs", "asb"],
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/wrong-case-property-is-another-property`.
    MutantInfo {
        mutant: Mutant::DotnetPayloadBinderIgnoresCase,
        id: "dotnet-payload-binder-ignores-case",
        family: "jvm-dotnet",
        rule: "property names are case-sensitive: ORDER_ID is not order_id",
        habit: "binding data to a class with a case-insensitive deserializer (PropertyNameCaseInsensitive, Newtonsoft, Go encoding/json) before validating",
        sections: &["payload_schema"],
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/enum-is-case-sensitive`.
    MutantInfo {
        mutant: Mutant::DotnetPayloadEnumIgnoresCase,
        id: "dotnet-payload-enum-ignores-case",
        family: "jvm-dotnet",
        rule: "enum compares strings exactly: usd is not USD",
        habit: "parsing the value into an enum type ignoring case (Enum.TryParse(value, true, out _), valueOf(value.toUpperCase()))",
        sections: &["payload_schema"],
    },
    // SURVIVES the real 1.8.0 suite (its forbidden keys are all spelled in lower case): killed by
    // the proposal/manifest.json case `roundtrip/wrong-case-forbidden-keys-roundtrip`.
    MutantInfo {
        mutant: Mutant::DotnetForbiddenKeysIgnoreCase,
        id: "dotnet-forbidden-keys-ignore-case",
        family: "jvm-dotnet",
        rule: "forbidden keys match case-sensitively: Timestamp, meta.TS and meta.Max_Retries are unknown keys, kept",
        habit: "looking keys up in a case-insensitive set or map (a .NET OrdinalIgnoreCase HashSet, a Java TreeMap with CASE_INSENSITIVE_ORDER)",
        sections: &["roundtrip"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "jvm-dotnet",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::JvmAttemptsInt32,
                "roundtrip",
                "attempts-past-int32-roundtrip",
            ),
            (
                Mutant::JvmRedisScoreInt32,
                "redis_delay",
                "clock-past-2038-score-past-int32",
            ),
            (
                Mutant::JvmCreatedAtInt32Seconds,
                "sqs",
                "attribute_projection_envelopes/created-at-past-2038",
            ),
            (
                Mutant::JvmCreatedAtInt32Seconds,
                "asb",
                "property_projection_envelopes/created-at-past-2038",
            ),
            (
                Mutant::JvmCreatedAtInt32Seconds,
                "kafka",
                "property_projection_envelopes/created-at-past-2038",
            ),
            (
                Mutant::JvmCreatedAtInt32Seconds,
                "artemis",
                "property_projection_envelopes/created-at-past-2038",
            ),
            (
                Mutant::DotnetIdempotencyStoreIgnoresCase,
                "idempotency",
                "sequences/meta-id-is-case-sensitive",
            ),
            (
                Mutant::DotnetPayloadBinderIgnoresCase,
                "payload_schema",
                "wrong-case-property-is-another-property",
            ),
            (
                Mutant::DotnetPayloadEnumIgnoresCase,
                "payload_schema",
                "enum-is-case-sensitive",
            ),
            (
                Mutant::DotnetForbiddenKeysIgnoreCase,
                "roundtrip",
                "wrong-case-forbidden-keys-roundtrip",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
