//! Kafka retry-tier mutants: the requested-delay rule (§6.4), the retry rule (§6.5), topic
//! names and the default tier list.
//!
//! Survivors on the real 1.8.0 suite: `backoff-delayed-topic-by-delay` (no direct case lists
//! the topic of a delayed publish) and `backoff-retry-delay-header-is-nonzero-worker-delay`
//! (no retry case is handed a worker delay); `proposal/manifest.json` adds the cases that kill
//! them (for the second, its `backoff.retry_worker_delay` block).

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::BackoffLargestTierBelow,
        id: "backoff-largest-tier-below",
        family: "backoff",
        rule: "a delayed publish goes to the smallest tier at least the requested delay",
        habit: "rounding the delay down to the nearest tier (delivering earlier than asked)",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffClampedToLargestTier,
        id: "backoff-clamped-to-largest-tier",
        family: "backoff",
        rule: "a delay above the largest tier makes the delayed publish fail",
        habit: "falling back to the largest tier instead of failing",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffDelayHeaderIsTier,
        id: "backoff-delay-header-is-tier",
        family: "backoff",
        rule: "on a delayed publish bq-delay is the requested delay, not the tier's delay",
        habit: "writing the delay of the topic the record goes to on every tier record",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffDelayedTopicByDelay,
        id: "backoff-delayed-topic-by-delay",
        family: "backoff",
        rule: "the tier topic of a delayed publish is <work_topic>.retry.<n>, n the tier index",
        habit: "naming the delayed publish's tier topic after the tier's delay (orders.retry.5000)",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffNoTiersUseDefaults,
        id: "backoff-no-tiers-use-defaults",
        family: "backoff",
        rule: "with no tiers configured a delayed publish or a retry fails",
        habit: "quietly falling back to DEFAULT_RETRY_TIERS_MS when none are configured",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRetryTierFromNewAttempts,
        id: "backoff-retry-tier-from-new-attempts",
        family: "backoff",
        rule: "a retry goes to tier min(attempts_before, N-1) + 1",
        habit: "indexing the tier with the attempts already incremented for this retry",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRetryFailsPastLastTier,
        id: "backoff-retry-fails-past-last-tier",
        family: "backoff",
        rule: "a retry stays on the last tier once the tiers run out",
        habit: "failing (index out of range) once attempts outnumber the tiers",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRetryTierFromDelay,
        id: "backoff-retry-tier-from-delay",
        family: "backoff",
        rule: "a retry's tier follows its attempts, not a requested delay (§6.5 is not §6.4)",
        habit: "routing a retry by the worker's backoff delay with the requested-delay rule",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRetryDelayHeaderIsWorkerDelay,
        id: "backoff-retry-delay-header-is-worker-delay",
        family: "backoff",
        rule: "on a retry bq-delay is the tier's own delay",
        habit: "writing the worker's computed backoff (0 by default) as bq-delay",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRetryDelayHeaderIsNonZeroWorkerDelay,
        id: "backoff-retry-delay-header-is-nonzero-worker-delay",
        family: "backoff",
        rule: "on a retry bq-delay is the tier's own delay, whatever delay the worker computed",
        habit: "writing the worker's computed backoff as bq-delay when it is non-zero, the tier's delay otherwise",
        sections: &["backoff"],
    },
    // Killed by the real 1.8.0 suite (every retry case); the proposal/manifest.json case
    // `backoff/retry_attempt_tier/body-attempts-follow-bq-attempts`, which pins the body and
    // bq-attempts alone, tells it from backoff-retry-delay-header-is-worker-delay.
    MutantInfo {
        mutant: Mutant::BackoffBodyAttemptsNotSynced,
        id: "backoff-body-attempts-not-synced",
        family: "backoff",
        rule: "the body's attempts equals the new bq-attempts header",
        habit: "bumping the header and republishing the original value bytes",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffTopicZeroBased,
        id: "backoff-topic-zero-based",
        family: "backoff",
        rule: "tier topics are numbered from 1",
        habit: "naming tier topics by the 0-based list index",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffKeyNotForwarded,
        id: "backoff-key-not-forwarded",
        family: "backoff",
        rule: "a retry writes the consumed record's key back byte for byte",
        habit: "producing the retry record without a key (losing partition affinity)",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffDefaultTiersInSeconds,
        id: "backoff-default-tiers-in-seconds",
        family: "backoff",
        rule: "DEFAULT_RETRY_TIERS_MS holds milliseconds",
        habit: "copying the contract's 5s/30s/5m/30m example as seconds",
        sections: &["backoff"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "backoff",
        mutants: MUTANTS,
        proposal_kills: &[
            (
                Mutant::BackoffDelayedTopicByDelay,
                "backoff",
                "between-tiers-topic-is-tier-index",
            ),
            (
                Mutant::BackoffRetryDelayHeaderIsNonZeroWorkerDelay,
                "backoff",
                "retry_worker_delay/below-the-tier-delay",
            ),
        ],
        separates: &[
            // A retry case that pins the body and bq-attempts alone.
            (
                Mutant::BackoffBodyAttemptsNotSynced,
                Mutant::BackoffRetryDelayHeaderIsWorkerDelay,
                "backoff",
                "retry_attempt_tier/body-attempts-follow-bq-attempts",
            ),
        ],
    };

    family_tests!(FAMILY);
}
