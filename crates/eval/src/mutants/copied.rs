//! Copied-value mutants: a value taken from the one example a section shows instead of
//! computed, a field filled from its neighbour, "now" where the contract carries a time through,
//! and a limit borrowed from another transport. The variations are in
//! [`crate::switch::copied`].

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite (its DLQ case moves a message of queue orders out of
    // orders): killed by the proposal/manifest.json case
    // `roundtrip/dead-letter-original-queue-is-the-requested-queue`.
    MutantInfo {
        mutant: Mutant::CopiedDeadLetterQueueFromMeta,
        id: "copied-dead-letter-queue-from-meta",
        family: "copied",
        rule: "dead_letter.original_queue is the queue the message was consumed from, as the DLQ helper is told",
        habit: "filling original_queue from the neighbouring meta.queue, the producer's queue",
        sections: &["roundtrip"],
    },
    MutantInfo {
        mutant: Mutant::CopiedReemitCreatedAtNow,
        id: "copied-reemit-created-at-now",
        family: "copied",
        rule: "a re-emit carries meta.created_at through unchanged",
        habit: "re-encoding through the producer's constructor, which stamps created_at with the current time",
        sections: &["roundtrip"],
    },
    // SURVIVES the real 1.8.0 suite (no uncapped delay above 12 hours): killed by the
    // proposal/manifest.json case `retry_backoff/uncapped-growth-past-twelve-hours`.
    MutantInfo {
        mutant: Mutant::CopiedRetryBackoffSqsVisibilityCap,
        id: "copied-retry-backoff-sqs-visibility-cap",
        family: "copied",
        rule: "retry_backoff_max 0 means no cap: d(n) grows past 12 hours",
        habit: "capping every backoff at 43200 s, the SQS visibility-timeout limit of the first transport written",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::CopiedRedisDelaySqsCap,
        id: "copied-redis-delay-sqs-cap",
        family: "copied",
        rule: "the Redis delayed score has no delay limit: floor(now) + ceil(delay) for any delay",
        habit: "clamping the delay to 900 s, the SQS DelaySeconds limit, in a delay helper shared by the transports",
        sections: &["redis_delay"],
    },
    MutantInfo {
        mutant: Mutant::CopiedExhaustionMaxAttemptsFromAsb,
        id: "copied-exhaustion-max-attempts-from-asb",
        family: "copied",
        rule: "Pulsar: a consumer with no max attempts configured dead-letters at 3 counted attempts",
        habit: "defaulting max attempts to 10, Azure Service Bus's MaxDeliveryCount",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::CopiedCorrelationIdFromMessageId,
        id: "copied-correlation-id-from-message-id",
        family: "copied",
        rule: "the native correlation id is trace_id (ASB CorrelationId, Artemis correlation-id, RabbitMQ correlation_id)",
        habit: "CorrelationId = envelope.Meta.ID, the neighbouring id on the same message",
        sections: &["asb", "artemis", "rabbitmq"],
    },
    MutantInfo {
        mutant: Mutant::CopiedBackoffExampleTiers,
        id: "copied-backoff-example-tiers",
        family: "copied",
        rule: "Kafka: a requested delay goes to the smallest configured tier at least that long",
        habit: "searching the contract's example tiers (5 s, 30 s, 5 min, 30 min) hard-coded, whatever is configured",
        sections: &["backoff"],
    },
    // SURVIVES the real 1.8.0 suite (no case compares the ids make generates): killed by the
    // proposal/manifest.json case `producer_stamps/message-id-is-not-the-trace-id`.
    MutantInfo {
        mutant: Mutant::CopiedMessageIdFromTraceId,
        id: "copied-message-id-from-trace-id",
        family: "copied",
        rule: "meta.id is the message's own id, distinct from trace_id",
        habit: "Meta.ID = traceID, the neighbouring id the constructor has just resolved",
        sections: &["producer_stamps"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "copied",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::CopiedDeadLetterQueueFromMeta,
                "roundtrip",
                "dead-letter-original-queue-is-the-requested-queue",
            ),
            (
                Mutant::CopiedRetryBackoffSqsVisibilityCap,
                "retry_backoff",
                "uncapped-growth-past-twelve-hours",
            ),
            (
                Mutant::CopiedMessageIdFromTraceId,
                "producer_stamps",
                "message-id-is-not-the-trace-id",
            ),
        ],
        separates: &[
            // The example tiers are killed by 1.8.0 only through its no-tiers case, like
            // backoff-no-tiers-use-defaults; configured tiers other than the example tell them
            // apart.
            (
                Mutant::CopiedBackoffExampleTiers,
                Mutant::BackoffNoTiersUseDefaults,
                "backoff",
                "configured-tiers-not-the-example",
            ),
        ],
    };

    family_tests!(FAMILY);
}
