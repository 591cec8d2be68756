//! Delay mutants: SQS `DelaySeconds` and release visibility (section `delay`), and the Redis
//! delayed score `floor(now) + ceil(delay)` (section `redis_delay`).
//!
//! Survivor on the real 1.8.0 suite: `redis-delay-whole-milliseconds` (no case has a delay
//! under half a millisecond above a whole second; `proposal/manifest.json` adds them).
//!
//! A standard queue sends nothing above 900 s: the SDK raises. Only one mutant stands for a
//! send that goes through anyway (`delay-clamped-to-cap`): passing the delay through unchanged
//! fails exactly the cases the clamp fails, since every delay above the cap must be refused and
//! no case can ask which `DelaySeconds` a send that should not happen carries.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::DelayClampedToCap,
        id: "delay-clamped-to-cap",
        family: "delay",
        rule: "a delay above 900 s makes the send fail, it is not shortened",
        habit: "min(delay, 900): silently delivering earlier than asked",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayCapExclusive,
        id: "delay-cap-exclusive",
        family: "delay",
        rule: "a delay of exactly 900 s is sent",
        habit: "an off-by-one `delay < 900` bound check",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayFifoDelaySent,
        id: "delay-fifo-delay-sent",
        family: "delay",
        rule: "a FIFO queue has no per-message delay: a positive delay fails",
        habit: "sending DelaySeconds on every queue type",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayReleaseCappedAt900,
        id: "delay-release-capped-at-900",
        family: "delay",
        rule: "a release's visibility timeout is the delay, up to 43200 s",
        habit: "applying the 900 s DelaySeconds cap to ChangeMessageVisibility too",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::RedisDelayCeilOfSum,
        id: "redis-delay-ceil-of-sum",
        family: "delay",
        rule: "the Redis delayed score is floor(now) + ceil(delay)",
        habit: "ceil(now + delay): rounding the sum instead of each part",
        sections: &["redis_delay"],
    },
    MutantInfo {
        mutant: Mutant::RedisDelayRoundsNow,
        id: "redis-delay-rounds-now",
        family: "delay",
        rule: "the clock is floored to whole seconds",
        habit: "round(now) (or an integer conversion that rounds)",
        sections: &["redis_delay"],
    },
    MutantInfo {
        mutant: Mutant::RedisDelayTruncatesDelay,
        id: "redis-delay-truncates-delay",
        family: "delay",
        rule: "a fractional delay rounds up to whole seconds",
        habit: "casting the delay to an integer (int(delay))",
        sections: &["redis_delay"],
    },
    MutantInfo {
        mutant: Mutant::RedisDelayTruncPlusOne,
        id: "redis-delay-trunc-plus-one",
        family: "delay",
        rule: "a whole-second delay is not rounded up",
        habit: "int(delay) + 1 as a home-made ceiling",
        sections: &["redis_delay"],
    },
    MutantInfo {
        mutant: Mutant::RedisDelayWholeMilliseconds,
        id: "redis-delay-whole-milliseconds",
        family: "delay",
        rule: "any fraction of a second, however small, rounds the delay up",
        habit: "holding the delay as whole milliseconds (round(delay * 1000)) before the ceiling",
        sections: &["redis_delay"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "delay",
        mutants: MUTANTS,
        proposal_kills: &[(
            Mutant::RedisDelayWholeMilliseconds,
            "redis_delay",
            "sub-millisecond-delay-rounds-up",
        )],
        separates: &[],
    };

    family_tests!(FAMILY);
}
