//! The mutant switch: which implementation mutant ([`Mutant`]) is on for the running evaluation
//! ([`on`], [`with_mutant`]), and the variations of the model's rules each mutant switches to,
//! one file per family. What each mutant stands for is catalogued in [`crate::mutants`].
//!
//! The rule points of `eval::model` and `eval::bindings` ask [`on`] whether their variation is
//! switched on, and call the variation kept in the family file here when it is (or, for the few
//! that work on a binding's own types, the one kept beside that binding's rule). This module
//! sits below the model and the bindings, so they learn which mutant is on without naming the
//! catalogue, which names them.

pub mod backoff;
pub mod copied;
pub mod decode;
pub mod delay;
pub mod encode;
pub mod gate;
pub mod go;
pub mod idempotency;
pub mod javascript;
pub mod jvm_dotnet;
pub mod payload;
pub mod php;
pub mod poison;
pub mod projection;
pub mod python;
pub mod reconcile;
pub mod redis;
pub mod retry;
pub mod schema_engine;
pub mod settle;
pub mod traceparent;
pub mod trim;

use std::cell::Cell;

/// Every mutant of the catalogue. The metadata (id, rule, habit, sections) is in
/// [`MutantInfo`](crate::mutants::MutantInfo).
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
    CreatedAtZeroDropped,
    ArtemisCreationTimeNowWhenZero,
    KafkaRecordTimestampNow,
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
    BackoffRetryDelayHeaderIsNonZeroWorkerDelay,
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
    RetryBackoffDefaultBaseOneSecond,
    RetryBackoffDefaultMultiplierTwo,
    RetryBackoffDefaultCap600,
    RetryBackoffDefaultFullJitter,
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
    // php, javascript, python: habits of the SDKs' languages (switch/{php,javascript,python}.rs)
    PhpGateEmptyIsAbsent,
    PhpGateLooseEquals,
    PhpGateStringCast,
    PhpZeroStringIsAbsent,
    PhpAssocArrayReencode,
    PhpIntCastCounter,
    PhpSeenSetStrtolower,
    PhpSeenSetLooseInArray,
    PhpSchemaVersionLooseEquals,
    JsGateStringCoerced,
    JsGateFalsyAbsent,
    JsParseIntCounter,
    JsCreatedAtAsDate,
    JsMetaValuesStringified,
    JsReleaseZeroDelayDefaulted,
    JsTiersDefaultSort,
    PyGateRegexDollar,
    PyStripDefault,
    PyBoolIsInt,
    PyFloatDelayHeader,
    PyMessageIdUuidHex,
    // Adequacy round 3, families go, jvm-dotnet, schema-engine and copied (switch/go.rs,
    // switch/jvm_dotnet.rs, switch/schema_engine.rs, switch/copied.rs)
    GoPayloadNullAsZeroValue,
    GoKafkaAbsentHeaderReadsZero,
    GoIdempotencyKeyTrimSpace,
    GoRedisScoreUnixOfSum,
    GoCreatedAtUnixSeconds,
    GoGateTrimSpace,
    GoMetaEntriesIntoMap,
    GoMakeCreatedAtUnixSeconds,
    JvmAttemptsInt32,
    JvmRedisScoreInt32,
    JvmCreatedAtInt32Seconds,
    DotnetIdempotencyStoreIgnoresCase,
    DotnetCreatedAtProjectedInSeconds,
    DotnetPayloadBinderIgnoresCase,
    DotnetPayloadEnumIgnoresCase,
    DotnetForbiddenKeysIgnoreCase,
    SchemaBooleanAsInteger,
    SchemaNumericStringCoerced,
    SchemaIntegralFloatNotInteger,
    SchemaMinimumExclusive,
    SchemaMinimumTruncatesFraction,
    SchemaNumberRejectsIntegers,
    SchemaDraft3RequiredIgnored,
    SchemaEnumPythonEquality,
    SchemaEnumPhpLoose,
    SchemaRequiredPhpEmpty,
    CopiedDeadLetterQueueFromMeta,
    CopiedReemitCreatedAtNow,
    CopiedRetryBackoffSqsVisibilityCap,
    CopiedRedisDelaySqsCap,
    CopiedExhaustionMaxAttemptsFromAsb,
    CopiedCorrelationIdFromMessageId,
    CopiedBackoffExampleTiers,
    CopiedMessageIdFromTraceId,
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
