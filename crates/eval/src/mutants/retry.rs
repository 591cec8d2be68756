//! Worker retry backoff mutants: the formula `d(n) = min(max, base * multiplier^(n-1))` and
//! its full-jitter bounds (section `retry_backoff`).
//!
//! Survivors on the real 1.8.0 suite (every capped case there has a base of 1, and no delay
//! reaches 2^33 s): `retry-backoff-caps-factor`, `retry-backoff-first-retry-uncapped` and
//! `retry-backoff-int64-nanoseconds`; `proposal/manifest.json` adds the cases that kill them.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::RetryBackoffExponentFromZero,
        id: "retry-backoff-exponent-from-zero",
        family: "retry",
        rule: "the n-th attempt waits base * multiplier^(n-1): the first retry waits the base",
        habit: "raising the multiplier to the 1-based attempt number",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffZeroMaxCaps,
        id: "retry-backoff-zero-max-caps",
        family: "retry",
        rule: "retry_backoff_max of 0 means no cap",
        habit: "min(max, d) applied unconditionally, so the default max of 0 zeroes every delay",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffCapsBase,
        id: "retry-backoff-caps-base",
        family: "retry",
        rule: "the cap bounds the grown delay",
        habit: "clamping the base delay, then growing it past the cap",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffCapsFactor,
        id: "retry-backoff-caps-factor",
        family: "retry",
        rule: "the cap bounds the delay in seconds, not the growth factor",
        habit: "reading retry_backoff_max as a cap on multiplier^(n-1) (a 'max backoff factor')",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffFirstRetryUncapped,
        id: "retry-backoff-first-retry-uncapped",
        family: "retry",
        rule: "the cap applies from the first attempt on",
        habit: "returning the base as is for the first retry and capping only the growth",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffWholeSeconds,
        id: "retry-backoff-whole-seconds",
        family: "retry",
        rule: "the delay keeps its fraction of a second",
        habit: "holding the delay as an integer number of seconds",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffInt64Nanoseconds,
        id: "retry-backoff-int64-nanoseconds",
        family: "retry",
        rule: "an uncapped delay keeps growing as the formula says",
        habit: "holding the delay as int64 nanoseconds (Go's time.Duration), stuck at ~292 years",
        sections: &["retry_backoff"],
    },
    // This and retry-backoff-jitter-ignored fail exactly the same cases (every full-jitter bound
    // with d(n) > 0): only a case on the spread of the draws could tell them apart, the open
    // decision "what a full-jitter case asserts about the draws" in
    // docs/suites/babelqueue-proposal.md.
    MutantInfo {
        mutant: Mutant::RetryBackoffEqualJitter,
        id: "retry-backoff-equal-jitter",
        family: "retry",
        rule: "full jitter draws from [0, d(n)]",
        habit: "'equal jitter': d/2 + uniform(0, d/2)",
        sections: &["retry_backoff"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffJitterIgnored,
        id: "retry-backoff-jitter-ignored",
        family: "retry",
        rule: "retry_jitter full randomises the delay",
        habit: "ignoring the jitter setting and always waiting d(n)",
        sections: &["retry_backoff"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "retry",
        mutants: MUTANTS,
        proposal_kills: &[
            (
                Mutant::RetryBackoffCapsFactor,
                "retry_backoff",
                "cap-bounds-seconds-not-growth-factor",
            ),
            (
                Mutant::RetryBackoffFirstRetryUncapped,
                "retry_backoff",
                "cap-below-base-applies-to-first-attempt",
            ),
            (
                Mutant::RetryBackoffInt64Nanoseconds,
                "retry_backoff",
                "uncapped-growth-past-int64-nanoseconds",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
