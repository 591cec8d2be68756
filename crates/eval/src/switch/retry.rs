//! The variations of the worker retry backoff (`retry`) mutants: what the model does instead of the
//! rule while one of them is switched on. Their catalogue entries are in [`crate::mutants::retry`].

use super::{Mutant, on};
use crate::bindings::decimal::Dec;

/// Where the cap applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// On the grown delay (the rule).
    Result(Dec),
    /// On the base, before growth.
    Base(Dec),
    /// On the growth factor `multiplier^(n-1)`.
    Factor(Dec),
}

/// The power the multiplier is raised to for attempt `n`.
pub fn exponent(n: u64) -> u64 {
    if on(Mutant::RetryBackoffExponentFromZero) {
        n
    } else {
        n.saturating_sub(1)
    }
}

/// The cap for attempt `n` (`None`: uncapped).
pub fn cap(max: Dec, n: u64) -> Option<Cap> {
    if on(Mutant::RetryBackoffZeroMaxCaps) {
        return Some(Cap::Result(max));
    }
    if max.is_zero() || (n == 1 && on(Mutant::RetryBackoffFirstRetryUncapped)) {
        None
    } else if on(Mutant::RetryBackoffCapsBase) {
        Some(Cap::Base(max))
    } else if on(Mutant::RetryBackoffCapsFactor) {
        Some(Cap::Factor(max))
    } else {
        Some(Cap::Result(max))
    }
}

/// The base a worker uses when none is configured, given the rule's (`rule`).
pub fn default_base(rule: Dec) -> Dec {
    if on(Mutant::RetryBackoffDefaultBaseOneSecond) {
        Dec::ONE
    } else {
        rule
    }
}

/// The multiplier a worker uses when none is configured, given the rule's (`rule`).
pub fn default_multiplier(rule: Dec) -> Dec {
    if on(Mutant::RetryBackoffDefaultMultiplierTwo) {
        Dec::from_u64(2)
    } else {
        rule
    }
}

/// The cap a worker uses when none is configured, given the rule's (`rule`, 0: no cap).
pub fn default_max(rule: Dec) -> Dec {
    if on(Mutant::RetryBackoffDefaultCap600) {
        Dec::from_u64(600)
    } else {
        rule
    }
}
