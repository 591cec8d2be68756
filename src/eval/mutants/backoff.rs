//! Kafka backoff mutants: tier selection and the retry republish.

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::BackoffLargestTierBelow,
        id: "backoff-largest-tier-below",
        family: "backoff",
        rule: "the retry goes to the smallest tier at least the requested delay",
        habit: "rounding the delay down to the nearest tier (retrying earlier than asked)",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffClampedToLargestTier,
        id: "backoff-clamped-to-largest-tier",
        family: "backoff",
        rule: "a delay above the largest tier makes the retry fail",
        habit: "falling back to the largest tier instead of failing",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffDelayHeaderIsTier,
        id: "backoff-delay-header-is-tier",
        family: "backoff",
        rule: "bq-delay is the requested delay, not the tier's delay",
        habit: "writing the delay of the topic the record goes to",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRepublishMaxPlusOne,
        id: "backoff-republish-max-plus-one",
        family: "backoff",
        rule: "the republish counts from the bq-attempts header even when it is lower than the body",
        habit: "max(body, header) + 1, the never-lower habit of the other bindings",
        sections: &["backoff"],
    },
    MutantInfo {
        mutant: Mutant::BackoffRepublishIgnoresHeader,
        id: "backoff-republish-ignores-header",
        family: "backoff",
        rule: "the republish counts from the bq-attempts header when present",
        habit: "incrementing the body's attempts and overwriting the header with it",
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
];

/// The tier under the active mutant (`None`: the rule applies).
pub fn select_tier(tiers: &[u64], requested: u64) -> Option<Option<u64>> {
    if on(Mutant::BackoffLargestTierBelow) {
        let below = tiers.iter().copied().filter(|t| *t <= requested).max();
        Some(below.or_else(|| tiers.iter().copied().min()))
    } else if on(Mutant::BackoffClampedToLargestTier) {
        let fits = tiers.iter().copied().filter(|t| *t >= requested).min();
        Some(fits.or_else(|| tiers.iter().copied().max()))
    } else {
        None
    }
}

/// The value written as `bq-delay`.
pub fn delay_header(requested: u64, tier: u64) -> u64 {
    if on(Mutant::BackoffDelayHeaderIsTier) {
        tier
    } else {
        requested
    }
}

/// The current attempts of the republish under the active mutant (`None`: the rule applies).
pub fn current_attempts(body: u64, header: Option<u64>) -> Option<u64> {
    if on(Mutant::BackoffRepublishMaxPlusOne) {
        Some(header.map_or(body, |h| h.max(body)))
    } else if on(Mutant::BackoffRepublishIgnoresHeader) {
        Some(body)
    } else {
        None
    }
}

/// The body's attempts on the republished record.
pub fn body_attempts(original_body: u64, new_attempts: u64) -> u64 {
    if on(Mutant::BackoffBodyAttemptsNotSynced) {
        original_body
    } else {
        new_attempts
    }
}
