//! The variations of the Kafka retry-tier (`backoff`) mutants: what the model does instead of the
//! rule while one of them is switched on. Their catalogue entries are in
//! [`crate::mutants::backoff`].

use super::{Mutant, on};

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

/// The tier of a retry handed the worker's delay `worker_delay_ms` under the active mutant
/// (`None`: the rule applies; `Some(None)`: the retry fails). `tiers` is not empty.
pub fn retry_tier(
    attempts_before: u64,
    tiers: &[u64],
    worker_delay_ms: u64,
) -> Option<Option<u64>> {
    let last = tiers.len() as u64;
    if on(Mutant::BackoffRetryTierFromNewAttempts) {
        Some(Some(attempts_before.saturating_add(1).min(last - 1) + 1))
    } else if on(Mutant::BackoffRetryFailsPastLastTier) {
        Some((attempts_before < last).then_some(attempts_before + 1))
    } else if on(Mutant::BackoffRetryTierFromDelay) {
        // The requested-delay rule over the worker's delay (0 by default: the first tier).
        Some(
            (1u64..)
                .zip(tiers)
                .find(|(_, t)| **t >= worker_delay_ms)
                .map(|(n, _)| n),
        )
    } else {
        None
    }
}

/// The value written as `bq-delay` on a retry of tier delay `tier_ms`, handed the worker's
/// delay `worker_delay_ms`.
pub fn retry_delay_header(tier_ms: u64, worker_delay_ms: u64) -> u64 {
    if on(Mutant::BackoffRetryDelayHeaderIsWorkerDelay)
        || (on(Mutant::BackoffRetryDelayHeaderIsNonZeroWorkerDelay) && worker_delay_ms > 0)
    {
        worker_delay_ms
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
