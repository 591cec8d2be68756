//! Kafka retry-tier mutants: the requested-delay rule (§6.4), the retry rule (§6.5), topic
//! names and the default tier list.
//!
//! Survivor on the real 1.8.0 suite: `backoff-delayed-topic-by-delay` (no direct case lists
//! the topic of a delayed publish; `proposal/manifest.json` adds one).

use super::{Mutant, MutantInfo, on};

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

/// The tiers a transport works with when `tiers` is configured (`None`: as configured).
pub fn configured_tiers(tiers: &[u64]) -> Option<Vec<u64>> {
    (on(Mutant::BackoffNoTiersUseDefaults) && tiers.is_empty())
        .then(|| crate::bindings::backoff::DEFAULT_RETRY_TIERS_MS.to_vec())
}

/// The tier `(n, tier_ms)` of a delayed publish under the active mutant (`None`: the rule
/// applies; `Some(None)`: the publish fails). `tiers` is not empty.
pub fn tier_for_delay(tiers: &[u64], delay_ms: u64) -> Option<Option<(u64, u64)>> {
    let indexed = || tiers.iter().copied().zip(1u64..);
    if on(Mutant::BackoffLargestTierBelow) {
        let below = indexed().filter(|(t, _)| *t <= delay_ms).last();
        Some(below.or_else(|| indexed().next()).map(|(t, n)| (n, t)))
    } else if on(Mutant::BackoffClampedToLargestTier) {
        let fits = indexed().find(|(t, _)| *t >= delay_ms);
        Some(fits.or_else(|| indexed().last()).map(|(t, n)| (n, t)))
    } else {
        None
    }
}

/// The value written as `bq-delay` on a delayed publish.
pub fn delay_header(requested_ms: u64, tier_ms: u64) -> u64 {
    if on(Mutant::BackoffDelayHeaderIsTier) {
        tier_ms
    } else {
        requested_ms
    }
}

/// The topic of a delayed publish under the active mutant (`None`: the rule applies).
pub fn delayed_topic(work_topic: &str, tier_ms: u64) -> Option<String> {
    on(Mutant::BackoffDelayedTopicByDelay).then(|| format!("{work_topic}.retry.{tier_ms}"))
}

/// The number written in a tier topic's name for tier `n`.
pub fn topic_index(n: u64) -> u64 {
    if on(Mutant::BackoffTopicZeroBased) {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// The tier of a retry under the active mutant (`None`: the rule applies; `Some(None)`: the
/// retry fails). `tiers` is the number of tiers, at least 1.
pub fn retry_tier(attempts_before: u64, tiers: u64) -> Option<Option<u64>> {
    if on(Mutant::BackoffRetryTierFromNewAttempts) {
        Some(Some(attempts_before.saturating_add(1).min(tiers - 1) + 1))
    } else if on(Mutant::BackoffRetryFailsPastLastTier) {
        Some((attempts_before < tiers).then_some(attempts_before + 1))
    } else if on(Mutant::BackoffRetryTierFromDelay) {
        // The worker's backoff is 0 by default, and the smallest tier holds a delay of 0.
        Some(Some(1))
    } else {
        None
    }
}

/// The value written as `bq-delay` on a retry.
pub fn retry_delay_header(tier_ms: u64) -> u64 {
    if on(Mutant::BackoffRetryDelayHeaderIsWorkerDelay) {
        0
    } else {
        tier_ms
    }
}

/// The body's attempts on the retry record.
pub fn body_attempts(attempts_before: u64, new_attempts: u64) -> u64 {
    if on(Mutant::BackoffBodyAttemptsNotSynced) {
        attempts_before
    } else {
        new_attempts
    }
}

/// The key written on the retry record.
pub fn forwarded_key(key: Option<&str>) -> Option<&str> {
    if on(Mutant::BackoffKeyNotForwarded) {
        None
    } else {
        key
    }
}

/// The default tier list under the active mutant (`None`: the recommended list).
pub fn default_tiers() -> Option<Vec<u64>> {
    on(Mutant::BackoffDefaultTiersInSeconds).then(|| vec![5, 30, 300, 1800])
}
