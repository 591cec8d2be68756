//! Implementation mutants: a catalogue of plausible wrong SDK behaviours, each a small, named
//! variation of one rule of the reference model, standing for a habit real SDKs have (a Java
//! `String.trim()`, a JavaScript `String(value)`, a PHP `json_encode([])`...).
//!
//! The suite is adequate when every mutant fails at least one case: a mutant that passes every
//! case is a wrong SDK the suite would call conformant. `bqsuite mutants` (crate::mutants) runs
//! the catalogue; this module only defines it.
//!
//! How a mutant changes the model: the rule points of `eval::model` and `eval::bindings` ask
//! [`on`] whether their variation is switched on, and call the variation kept in the family
//! file here when it is. Nothing is switched on unless [`with_mutant`] is running, so the
//! reference model itself behaves exactly as before. The switch is a per-thread value that
//! `with_mutant` sets for one closure and restores afterwards (also on a panic), so model
//! signatures stay as they are and parallel tests cannot see each other's mutant. It holds no
//! I/O and keeps the evaluator a pure function of its inputs and the active mutant.
//!
//! Families (one file each): [`decode`], [`trim`], [`encode`], [`projection`], [`reconcile`],
//! [`gate`], [`settle`], [`idempotency`], [`payload`], [`delay`], [`backoff`], [`retry`],
//! [`traceparent`], [`redis`], [`poison`].

#[cfg(test)]
mod adequacy_core;
pub mod assess;
pub mod backoff;
pub mod decode;
pub mod delay;
pub mod encode;
pub mod gate;
pub mod idempotency;
pub mod payload;
pub mod poison;
pub mod projection;
pub mod reconcile;
pub mod redis;
pub mod retry;
pub mod settle;
pub mod traceparent;
pub mod trim;

use std::cell::Cell;

/// Every mutant of the catalogue. The metadata (id, rule, habit, sections) is in [`MutantInfo`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutant {
    // decode
    DecodeKeysCaseInsensitive,
    DecodeDuplicateFirstWins,
    DecodeDuplicateObjectsMerged,
    DecodeJobArrayCoerced,
    DecodeJobObjectUnwrapped,
    DecodeUrnNonStringFatal,
    DecodeBlankEmptyOnly,
    DecodeBlankUnicode,
    DecodeBlankJavaTrim,
    DecodeForbiddenKeysKept,
    DecodeListDataAccepted,
    AcceptsTraceIdEmptyOnly,
    AcceptsTraceIdBlankUnicode,
    // trim (make and re-emit)
    TrimUnicode,
    TrimJavaTrim,
    TrimPhpDefault,
    TrimWithoutVerticalTab,
    TrimUrnOnly,
    TrimOnReencode,
    MakeBlankCheckBeforeTrim,
    // encode, make, dead letter
    EncodeDropsUnknownKeys,
    EncodeEmptyDataAsList,
    EncodeAttemptsNotIncremented,
    EncodeForbiddenExtrasEmitted,
    EncodeKeepsUrnAlias,
    MakeForbiddenMetaDropped,
    DeadLetterDropsUnknownKeys,
    // projections
    SqsCountersAsString,
    AsbPropertiesStringified,
    BqPropertiesWithoutAttempts,
    ArtemisHyphenatedProperties,
    RabbitmqHeadersStringified,
    // reconciliation
    SqsReceiveCountRaw,
    AsbDeliveryCountRaw,
    PulsarRedeliveryMinusOne,
    ArtemisDeliveryMinusOne,
    KafkaMaxOfHeaderAndBody,
    KafkaHeaderIgnored,
    KafkaZeroHeaderIgnored,
    // version gate
    GateTrimsValue,
    GateUnicodeBlank,
    GateParsesInteger,
    GateFloatOneAccepted,
    GateNullStringified,
    GateAsbNarrowsToInt32,
    GateAsbBooleanTrueIsOne,
    // settle (version gate, Pulsar exhaustion)
    VersionGateCountedAsFailure,
    VersionGateReleaseHonoured,
    VersionGateWriteFailureAcked,
    VersionGateRecordReencoded,
    VersionGateDeadLetterStrategyNeedsSetting,
    VersionGateOffAcks,
    ExhaustionComparesReconciled,
    ExhaustionRecordAttemptsUncounted,
    ExhaustionPropertyIgnored,
    ExhaustionInvalidPropertyReadsZero,
    ExhaustionPoisonRetried,
    ExhaustionReleaseHonoured,
    ExhaustionDeadLetterStrategyNeedsSetting,
    // idempotency
    IdempotencyMarksBeforeHandler,
    IdempotencyKeyedOnTraceId,
    IdempotencyEmptyIdDeduped,
    // payload schemas
    PayloadAdditionalPropertiesIgnored,
    PayloadLengthUtf8Bytes,
    PayloadLengthUtf16Units,
    PayloadLengthGraphemes,
    // delay (SQS DelaySeconds, release visibility, the Redis delayed score)
    DelayCapNotEnforced,
    DelayClampedToCap,
    DelayCapExclusive,
    DelayFifoDelaySent,
    DelayReleaseCappedAt900,
    RedisDelayCeilOfSum,
    RedisDelayRoundsNow,
    RedisDelayTruncatesDelay,
    RedisDelayTruncPlusOne,
    RedisDelayWholeMilliseconds,
    // backoff (Kafka retry tiers)
    BackoffLargestTierBelow,
    BackoffClampedToLargestTier,
    BackoffDelayHeaderIsTier,
    BackoffDelayedTopicByDelay,
    BackoffNoTiersUseDefaults,
    BackoffRetryTierFromNewAttempts,
    BackoffRetryFailsPastLastTier,
    BackoffRetryTierFromDelay,
    BackoffRetryDelayHeaderIsWorkerDelay,
    BackoffBodyAttemptsNotSynced,
    BackoffTopicZeroBased,
    BackoffKeyNotForwarded,
    BackoffDefaultTiersInSeconds,
    // retry (worker retry backoff formula)
    RetryBackoffExponentFromZero,
    RetryBackoffZeroMaxCaps,
    RetryBackoffCapsBase,
    RetryBackoffCapsFactor,
    RetryBackoffFirstRetryUncapped,
    RetryBackoffWholeSeconds,
    RetryBackoffInt64Nanoseconds,
    RetryBackoffEqualJitter,
    RetryBackoffJitterIgnored,
    // traceparent
    TraceparentFallbackCaseKept,
    TraceparentFallbackDashesKept,
    TraceparentNoFallback,
    TraceparentTrailingFieldsAccepted,
    TraceparentFlagsForcedSampled,
    // redis
    RedisLayoutWithoutPrefix,
    RedisReservedAsProcessing,
    RedisPayloadWrapped,
    // poison (body classification and the poison DLQ record)
    PoisonBomSkipped,
    PoisonNullRootRejected,
    PoisonKeysCaseInsensitive,
    PoisonNullMemberRejected,
    PoisonIntegralFloatAccepted,
    PoisonInt64Unbounded,
    PoisonDataNumbersUnchecked,
    PoisonTypeCheckLastOnly,
    PoisonNonStringJobFatal,
    PoisonUrnNonStringFatal,
    PoisonDuplicateFirstWins,
    PoisonBlankNoFallback,
    PoisonBlankSpacesOnly,
    PoisonSchemaVersionGated,
    DlqWrapsEverything,
    DlqRawEncodingUtf8,
    DlqReplacementChar,
    DlqBase64Unpadded,
    DlqReencodedSplice,
    DlqNanAccepted,
    DlqLoneSurrogateAccepted,
    DlqBomSkipped,
    DlqExistingDeadLetterSpliced,
    DlqWhitespaceWrapped,
    DlqKeySurrogateUnchecked,
    DlqNestedDeadLetterWrapped,
    RedisDelayScoreUnfloored,
    RedisDeadlineUnfloored,
    RedisNullRetryAfterFinite,
    RedisDueAgainstUnflooredClock,
    RedisRecoversWithNullRetryAfter,
    RedisMigratesReservedFirst,
    RedisMigrateBatchIgnored,
    RedisMigrateWithoutNotify,
    RedisReserveKeepsNotify,
    RedisDecodeUnguarded,
    RedisEncodeUnguarded,
    RedisHandlerGetsMember,
    RedisZsetPoisonOnlyRaw,
    RedisReleaseKeepsAttempts,
    RedisReleaseBodyCjson,
    RedisTokenlessDeadlineMember,
    RedisSweepToHead,
    RedisLremAllCopies,
    RedisSweepSkipsColonCheck,
    RedisOrphanResurrected,
    RedisAckUngated,
    RedisReleaseUngated,
    RedisDlqUngated,
    RedisLegacyPoisonDelivered,
    RedisMigrateOneChunk,
    RedisSweepBumpsAttempts,
    RedisReserveStoresRaw,
}

/// What a mutant is: its stable id, the rule it breaks, the habit it stands for, and the
/// sections whose cases must catch it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutantInfo {
    pub mutant: Mutant,
    /// Stable kebab-case id (`trim-java-string-trim`).
    pub id: &'static str,
    /// The rule family (`decode`, `trim`, `gate`...).
    pub family: &'static str,
    /// The rule of the contract the mutant breaks.
    pub rule: &'static str,
    /// One line: the real-world habit the mutant stands for.
    pub habit: &'static str,
    /// The manifest sections that pin the rule: each must have a case that kills the mutant.
    pub sections: &'static [&'static str],
}

/// The whole catalogue, family by family, in a stable order.
pub fn catalogue() -> Vec<&'static MutantInfo> {
    [
        decode::MUTANTS,
        trim::MUTANTS,
        encode::MUTANTS,
        projection::MUTANTS,
        reconcile::MUTANTS,
        gate::MUTANTS,
        settle::MUTANTS,
        idempotency::MUTANTS,
        payload::MUTANTS,
        delay::MUTANTS,
        backoff::MUTANTS,
        retry::MUTANTS,
        traceparent::MUTANTS,
        redis::MUTANTS,
        poison::MUTANTS,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The catalogue entry with id `id`.
pub fn find(id: &str) -> Option<&'static MutantInfo> {
    catalogue().into_iter().find(|m| m.id == id)
}

thread_local! {
    static ACTIVE: Cell<Option<Mutant>> = const { Cell::new(None) };
}

/// True when `mutant` is switched on for the running evaluation (never outside [`with_mutant`]).
pub fn on(mutant: Mutant) -> bool {
    ACTIVE.with(|active| active.get() == Some(mutant))
}

/// The mutant switched on for this thread, if any.
pub fn active() -> Option<Mutant> {
    ACTIVE.with(Cell::get)
}

/// Restores the previous switch when dropped (also while unwinding).
struct Restore(Option<Mutant>);

impl Drop for Restore {
    fn drop(&mut self) {
        ACTIVE.with(|active| active.set(self.0));
    }
}

/// Runs `f` with `mutant` switched on, and switches it off again afterwards.
pub fn with_mutant<R>(mutant: Mutant, f: impl FnOnce() -> R) -> R {
    let previous = ACTIVE.with(|active| active.replace(Some(mutant)));
    let _restore = Restore(previous);
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ids_are_unique_kebab_case_and_every_variant_is_catalogued() {
        let all = catalogue();
        let ids: BTreeSet<&str> = all.iter().map(|m| m.id).collect();
        assert_eq!(ids.len(), all.len(), "duplicate id");
        let variants: BTreeSet<Mutant> = all.iter().map(|m| m.mutant).collect();
        assert_eq!(variants.len(), all.len(), "a variant catalogued twice");
        assert!(all.len() >= 30);
        for m in &all {
            assert!(
                m.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                m.id
            );
            assert!(!m.rule.is_empty() && !m.habit.is_empty() && !m.sections.is_empty());
            assert!(!m.habit.contains('\n') && !m.rule.contains('\n'));
            for s in m.sections {
                assert!(crate::sections::runner(s).is_some(), "{} names {s}", m.id);
            }
        }
    }

    #[test]
    fn the_switch_is_scoped() {
        assert_eq!(active(), None);
        let inside = with_mutant(Mutant::TrimUnicode, || {
            (on(Mutant::TrimUnicode), on(Mutant::TrimJavaTrim))
        });
        assert_eq!(inside, (true, false));
        assert_eq!(active(), None);
        let caught = std::panic::catch_unwind(|| {
            with_mutant(Mutant::GateTrimsValue, || panic!("boom"));
        });
        assert!(caught.is_err());
        assert_eq!(active(), None);
    }
}
