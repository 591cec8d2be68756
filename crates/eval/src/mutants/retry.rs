//! Worker retry backoff mutants: the formula `d(n) = min(max, base * multiplier^(n-1))` and
//! its full-jitter bounds (section `retry_backoff`).
//!
//! Survivors on the real 1.8.0 suite (every capped case there has a base of 1, no delay
//! reaches 2^33 s, and every case states all four parameters, so no default is ever used):
//! `retry-backoff-caps-factor`, `retry-backoff-first-retry-uncapped`,
//! `retry-backoff-int64-nanoseconds` and the four `retry-backoff-default-*`;
//! `proposal/manifest.json` adds the cases that kill them (for the defaults, its
//! `retry_backoff_defaults` section).

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
    MutantInfo {
        mutant: Mutant::RetryBackoffDefaultBaseOneSecond,
        id: "retry-backoff-default-base-one-second",
        family: "retry",
        rule: "an unconfigured retry_backoff is 0: a worker configured with nothing retries at once",
        habit: "defaulting the base (the helper's argument or the runtime's setting) to 1 s",
        sections: &["retry_backoff_defaults"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffDefaultMultiplierTwo,
        id: "retry-backoff-default-multiplier-two",
        family: "retry",
        rule: "an unconfigured retry_backoff_multiplier is 1: a configured base alone is a constant delay",
        habit: "exponential backoff out of the box: a multiplier of 2 unless one is configured",
        sections: &["retry_backoff_defaults"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffDefaultCap600,
        id: "retry-backoff-default-cap-600",
        family: "retry",
        rule: "an unconfigured retry_backoff_max is 0: no cap",
        habit: "capping the delay at 600 s unless a cap is configured (Celery's retry_backoff_max)",
        sections: &["retry_backoff_defaults"],
    },
    MutantInfo {
        mutant: Mutant::RetryBackoffDefaultFullJitter,
        id: "retry-backoff-default-full-jitter",
        family: "retry",
        rule: "an unconfigured retry_jitter is none: the delay is exactly d(n)",
        habit: "full jitter unless turned off (Celery's retry_jitter)",
        sections: &["retry_backoff_defaults"],
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
            (
                Mutant::RetryBackoffDefaultBaseOneSecond,
                "retry_backoff_defaults",
                "nothing-given-retries-at-once",
            ),
            (
                Mutant::RetryBackoffDefaultMultiplierTwo,
                "retry_backoff_defaults",
                "base-alone-is-a-constant-delay",
            ),
            (
                Mutant::RetryBackoffDefaultCap600,
                "retry_backoff_defaults",
                "growth-without-a-cap-is-uncapped",
            ),
            (
                Mutant::RetryBackoffDefaultFullJitter,
                "retry_backoff_defaults",
                "no-jitter-given-is-exact",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
