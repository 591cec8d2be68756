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

/// Every timing mutant (families backoff, delay and retry) against the real 1.8.0 suite, and
/// the `proposal/manifest.json` cases that kill the survivors.
#[cfg(test)]
mod tests {
    use super::super::info::MutantInfo;
    use super::super::{backoff, delay};
    use super::MUTANTS;
    use crate::outcome::{CaseOutcome, Verdict};
    use crate::realkit;
    use crate::switch::Mutant;
    use crate::{evaluate, evaluate_mutant};
    use serde_json::{Map, Value};

    const SECTIONS: [&str; 4] = ["backoff", "delay", "retry_backoff", "redis_delay"];

    /// The mutants the real 1.8.0 suite lets through, each with the proposal case that kills it.
    const SURVIVORS: [(Mutant, &str, &str); 5] = [
        (
            Mutant::BackoffDelayedTopicByDelay,
            "backoff",
            "between-tiers-topic-is-tier-index",
        ),
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
            Mutant::RedisDelayWholeMilliseconds,
            "redis_delay",
            "sub-millisecond-delay-rounds-up",
        ),
    ];

    /// The real 1.8.0 manifest cut down to the timing sections, with the proposal's cases
    /// appended when `with_proposal`.
    fn manifest(with_proposal: bool) -> (Value, std::collections::BTreeMap<String, String>) {
        let (full, files) = if with_proposal {
            realkit::with_proposal()
        } else {
            realkit::release("1.8.0")
        };
        let mut cut = Map::new();
        for s in SECTIONS {
            cut.insert(s.to_owned(), full[s].clone());
        }
        (Value::Object(cut), files)
    }

    fn failing(outcomes: &[CaseOutcome]) -> Vec<(String, String)> {
        outcomes
            .iter()
            .filter(|o| o.verdict != Verdict::Pass)
            .map(|o| (o.section.clone(), o.id.clone()))
            .collect()
    }

    fn ours() -> Vec<&'static MutantInfo> {
        [backoff::MUTANTS, delay::MUTANTS, MUTANTS]
            .into_iter()
            .flatten()
            .collect()
    }

    #[test]
    fn the_real_suite_kills_every_timing_mutant_but_the_listed_survivors() {
        let (manifest, files) = manifest(false);
        assert_eq!(failing(&evaluate(&manifest, &files)), vec![]);
        for info in ours() {
            let killed = failing(&evaluate_mutant(&manifest, &files, info.mutant));
            let survivor = SURVIVORS.iter().any(|(m, _, _)| *m == info.mutant);
            for section in info.sections {
                let in_section = killed.iter().any(|(s, _)| s == section);
                assert_eq!(
                    in_section, !survivor,
                    "{} in {section}: {killed:?}",
                    info.id
                );
            }
        }
    }

    #[test]
    fn the_proposal_cases_pass_and_kill_the_survivors() {
        let (manifest, files) = manifest(true);
        assert_eq!(failing(&evaluate(&manifest, &files)), vec![]);
        for (mutant, section, case) in SURVIVORS {
            let killed = failing(&evaluate_mutant(&manifest, &files, mutant));
            assert!(
                killed.contains(&(section.to_owned(), case.to_owned())),
                "{mutant:?}: {killed:?}"
            );
        }
    }
}
