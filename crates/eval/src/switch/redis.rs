//! The variations of the Redis (`redis`) mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::redis`].

use super::{Mutant, on};

/// The Laravel key prefix actually used.
pub fn prefix(configured: &str) -> &str {
    if on(Mutant::RedisLayoutWithoutPrefix) {
        ""
    } else {
        configured
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

/// The deadline member of a legacy reservation.
pub fn deadline_member(token: &str, raw: &str) -> String {
    if on(Mutant::RedisTokenlessDeadlineMember) {
        raw.to_owned()
    } else {
        format!("{token}:{raw}")
    }
}

pub fn delay_score_unfloored() -> bool {
    on(Mutant::RedisDelayScoreUnfloored)
}
pub fn deadline_unfloored() -> bool {
    on(Mutant::RedisDeadlineUnfloored)
}
pub fn null_retry_after_finite() -> bool {
    on(Mutant::RedisNullRetryAfterFinite)
}
pub fn due_against_unfloored_clock() -> bool {
    on(Mutant::RedisDueAgainstUnflooredClock)
}
pub fn recovers_with_null_retry_after() -> bool {
    on(Mutant::RedisRecoversWithNullRetryAfter)
}
pub fn migrates_reserved_first() -> bool {
    on(Mutant::RedisMigratesReservedFirst)
}
pub fn batch_ignored() -> bool {
    on(Mutant::RedisMigrateBatchIgnored)
}
pub fn migrate_without_notify() -> bool {
    on(Mutant::RedisMigrateWithoutNotify)
}
pub fn reserve_keeps_notify() -> bool {
    on(Mutant::RedisReserveKeepsNotify)
}
pub fn decode_unguarded() -> bool {
    on(Mutant::RedisDecodeUnguarded)
}
pub fn encode_unguarded() -> bool {
    on(Mutant::RedisEncodeUnguarded)
}
pub fn handler_gets_member() -> bool {
    on(Mutant::RedisHandlerGetsMember)
}
pub fn zset_poison_only_raw() -> bool {
    on(Mutant::RedisZsetPoisonOnlyRaw)
}
pub fn release_keeps_attempts() -> bool {
    on(Mutant::RedisReleaseKeepsAttempts)
}
pub fn release_body_cjson() -> bool {
    on(Mutant::RedisReleaseBodyCjson)
}
pub fn sweep_to_head() -> bool {
    on(Mutant::RedisSweepToHead)
}
pub fn lrem_all_copies() -> bool {
    on(Mutant::RedisLremAllCopies)
}
pub fn sweep_skips_colon_check() -> bool {
    on(Mutant::RedisSweepSkipsColonCheck)
}
pub fn orphan_resurrected() -> bool {
    on(Mutant::RedisOrphanResurrected)
}
pub fn ack_ungated() -> bool {
    on(Mutant::RedisAckUngated)
}
pub fn release_ungated() -> bool {
    on(Mutant::RedisReleaseUngated)
}
pub fn dlq_ungated() -> bool {
    on(Mutant::RedisDlqUngated)
}
pub fn legacy_poison_delivered() -> bool {
    on(Mutant::RedisLegacyPoisonDelivered)
}
pub fn migrate_one_chunk() -> bool {
    on(Mutant::RedisMigrateOneChunk)
}
pub fn sweep_bumps_attempts() -> bool {
    on(Mutant::RedisSweepBumpsAttempts)
}
pub fn reserve_stores_raw() -> bool {
    on(Mutant::RedisReserveStoresRaw)
}
