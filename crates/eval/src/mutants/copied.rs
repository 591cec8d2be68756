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
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::family_kit::{self, Survivor};
    use crate::switch::Mutant;

    /// The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
    const SURVIVORS: &[Survivor] = &[
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
    ];

    #[test]
    fn the_entries_are_of_this_family() {
        family_kit::check_entries(MUTANTS, "copied", SURVIVORS);
    }

    #[test]
    fn the_real_1_8_0_kills_all_but_the_survivors_in_each_section_they_name() {
        family_kit::check_real_1_8_0(MUTANTS, SURVIVORS);
    }

    #[test]
    fn the_proposal_passes_and_kills_every_survivor() {
        family_kit::check_with_proposal(MUTANTS, SURVIVORS);
    }

    /// The example-tiers mutant is killed in `backoff` by the real 1.8.0 only through its
    /// no-tiers case; the proposal's custom-tier case is what tells it apart from
    /// `backoff-no-tiers-use-defaults`.
    #[test]
    fn the_configured_tiers_case_separates_example_tiers_from_defaults_when_empty() {
        let (manifest, files) = crate::realkit::with_proposal();
        let fails = |m: Mutant| {
            crate::evaluate_mutant(&manifest, &files, m)
                .into_iter()
                .any(|o| {
                    o.section == "backoff"
                        && o.id == "configured-tiers-not-the-example"
                        && o.verdict != crate::outcome::Verdict::Pass
                })
        };
        assert!(fails(Mutant::CopiedBackoffExampleTiers));
        assert!(!fails(Mutant::BackoffNoTiersUseDefaults));
    }
}
