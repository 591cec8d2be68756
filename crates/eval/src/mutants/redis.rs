//! Redis mutants: the key layout, the list element, and the behaviour of the queue scripts
//! (scores, migrate, reserve, release, the legacy sweep and its settle gate).
//!
//! Survivors of the real suite 1.8.0 (no real case kills them; `proposal/manifest.json` holds the cases
//! that would): `redis-due-against-unfloored-clock`, `redis-zset-poison-only-raw` and
//! `redis-legacy-poison-delivered`.

use super::info::MutantInfo;
use crate::switch::Mutant;

const LAYOUT: &[&str] = &["redis_layout"];

macro_rules! info {
    ($m:ident, $id:literal, $rule:literal, $habit:literal) => {
        info!($m, $id, $rule, $habit, LAYOUT)
    };
    ($m:ident, $id:literal, $rule:literal, $habit:literal, $sections:expr) => {
        MutantInfo {
            mutant: Mutant::$m,
            id: $id,
            family: "redis",
            rule: $rule,
            habit: $habit,
            sections: $sections,
        }
    };
}

pub const MUTANTS: &[MutantInfo] = &[
    info!(
        RedisLayoutWithoutPrefix,
        "redis-layout-without-prefix",
        "the ready list of queue q is queues:q (Laravel-compatible layout)",
        "using the bare queue name as the list key"
    ),
    info!(
        RedisReservedAsProcessing,
        "redis-reserved-as-processing",
        "reserved entries live in queues:q:reserved",
        "the :processing list of other Redis queue libraries"
    ),
    info!(
        RedisPayloadWrapped,
        "redis-payload-wrapped",
        "the list element is the envelope itself, byte for byte",
        "wrapping the envelope in a {\"payload\": ...} job record",
        &["redis"]
    ),
    info!(
        RedisDelayScoreUnfloored,
        "redis-delay-score-unfloored",
        "a delayed score is floor(now) + ceil(delay)",
        "rounding the sum once: ceil(now + delay)"
    ),
    info!(
        RedisDeadlineUnfloored,
        "redis-deadline-unfloored",
        "the reservation deadline is floor(now) + retry_after, whole seconds",
        "scoring the deadline with the raw fractional clock"
    ),
    info!(
        RedisNullRetryAfterFinite,
        "redis-null-retry-after-finite",
        "retry_after null writes the deadline member with score +inf",
        "treating a null retry_after as zero seconds"
    ),
    info!(
        RedisDueAgainstUnflooredClock,
        "redis-due-against-unfloored-clock",
        "migrate and sweep move members whose score <= floor(now)",
        "passing the fractional clock to ZRANGEBYSCORE"
    ),
    info!(
        RedisRecoversWithNullRetryAfter,
        "redis-recovers-with-null-retry-after",
        "retry_after null skips the :reserved recovery of the migrate",
        "always migrating both sorted sets"
    ),
    info!(
        RedisMigratesReservedFirst,
        "redis-migrates-reserved-first",
        "the migrate moves :delayed before :reserved",
        "recovering crashed reservations before due delayed jobs"
    ),
    info!(
        RedisMigrateBatchIgnored,
        "redis-migrate-batch-ignored",
        "one migrate or sweep moves at most migration_batch_size members",
        "ignoring the batch-size knob (LIMIT 0 -1)"
    ),
    info!(
        RedisMigrateWithoutNotify,
        "redis-migrate-without-notify",
        "the migrate pushes one notify token per moved item",
        "moving members without waking blocked consumers"
    ),
    info!(
        RedisReserveKeepsNotify,
        "redis-reserve-keeps-notify",
        "a reserve consumes one :notify token",
        "a pop script without the LPOP of the notify list"
    ),
    info!(
        RedisDecodeUnguarded,
        "redis-decode-unguarded",
        "the reserve script decodes inside pcall and reserves an undecodable job raw",
        "calling cjson.decode directly: the script aborts after LPOP and the job is lost"
    ),
    info!(
        RedisEncodeUnguarded,
        "redis-encode-unguarded",
        "the reserve script re-encodes inside pcall and reserves the job raw when that fails",
        "guarding only the decode: a non-finite number aborts the script after LPOP"
    ),
    info!(
        RedisHandlerGetsMember,
        "redis-handler-gets-member",
        "the handler receives the raw job byte for byte, not the re-encoded member",
        "handing the :reserved member (attempts + 1, cjson-encoded) to the handler"
    ),
    info!(
        RedisZsetPoisonOnlyRaw,
        "redis-zset-poison-only-raw",
        "a reserved job the SDK cannot decode into an envelope with an identity is poison",
        "trusting the Lua rewrite: only a raw-kept member is poison"
    ),
    info!(
        RedisReleaseKeepsAttempts,
        "redis-release-keeps-attempts",
        "the released body carries attempts + 1",
        "re-queueing the delivered body unchanged"
    ),
    info!(
        RedisReleaseBodyCjson,
        "redis-release-body-cjson",
        "the release body is SDK-encoded: integers exact, {} and [] kept",
        "re-queueing the cjson-encoded :reserved member"
    ),
    info!(
        RedisTokenlessDeadlineMember,
        "redis-tokenless-deadline-member",
        "a legacy deadline member is <32 lowercase hex token>:<raw>",
        "scoring the raw value itself in the deadline set"
    ),
    info!(
        RedisSweepToHead,
        "redis-sweep-to-head",
        "the sweep pushes recovered members to the END of the ready list",
        "LPUSH-ing recovered work to jump the queue"
    ),
    info!(
        RedisLremAllCopies,
        "redis-lrem-all-copies",
        "ack, release and sweep remove exactly one copy from :processing (LREM count 1)",
        "LREM with count 0, which removes every identical copy"
    ),
    info!(
        RedisSweepSkipsColonCheck,
        "redis-sweep-skips-colon-check",
        "a deadline member not shaped <32 bytes>:<raw> is only ZREMed",
        "stripping 33 bytes without checking the separator"
    ),
    info!(
        RedisOrphanResurrected,
        "redis-orphan-resurrected",
        "an expired member whose LREM removes nothing is only ZREMed",
        "pushing the raw value back whatever LREM returned"
    ),
    info!(
        RedisAckUngated,
        "redis-ack-ungated",
        "a legacy ack acts only while its own deadline member exists",
        "LREM-ing the raw value on every ack, also a late one"
    ),
    info!(
        RedisReleaseUngated,
        "redis-release-ungated",
        "a legacy release with a stale token touches nothing",
        "pushing the body back without the ZREM gate"
    ),
    info!(
        RedisDlqUngated,
        "redis-dlq-ungated",
        "a legacy dead-letter with a stale token writes nothing",
        "writing the DLQ entry without the ZREM gate"
    ),
    info!(
        RedisLegacyPoisonDelivered,
        "redis-legacy-poison-delivered",
        "a legacy reservation whose body is not an envelope with an identity is poison",
        "handing whatever the list held to the handler"
    ),
    info!(
        RedisMigrateOneChunk,
        "redis-migrate-one-chunk",
        "the migrate moves every due member, pushing them in chunks of 100",
        "one RPUSH of the first unpack chunk while ZREMRANGEBYRANK drops them all"
    ),
    info!(
        RedisSweepBumpsAttempts,
        "redis-sweep-bumps-attempts",
        "the legacy sweep moves members back byte for byte, attempts unchanged",
        "counting a recovery as an attempt, as the zset layout's reserve does"
    ),
    info!(
        RedisReserveStoresRaw,
        "redis-reserve-stores-raw",
        "the :reserved member of a decodable job carries attempts + 1",
        "a pop script that reserves the job exactly as popped"
    ),
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "redis",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::RedisDueAgainstUnflooredClock,
                "redis_layout",
                "migrate/fractional-score-waits-for-floor-now",
            ),
            (
                Mutant::RedisZsetPoisonOnlyRaw,
                "redis_layout",
                "reserve/identity-less-body-is-poison-although-the-lua-rewrites-it",
            ),
            (
                Mutant::RedisLegacyPoisonDelivered,
                "redis_layout",
                "processing_token/poison-body-gets-a-token-member-and-the-poison-path",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
