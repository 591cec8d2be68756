//! The variations of the delay mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::delay`].

use super::{Mutant, on};

/// The largest delay a standard queue sends.
pub fn cap(cap: u64) -> u64 {
    if on(Mutant::DelayCapExclusive) {
        cap - 1
    } else {
        cap
    }
}

/// The `DelaySeconds` a standard queue sends above the cap (`None`: the send fails).
pub fn above_cap(cap: u64) -> Option<u64> {
    on(Mutant::DelayClampedToCap).then_some(cap)
}

/// True when a FIFO queue sends a positive delay.
pub fn fifo_sends_delay() -> bool {
    on(Mutant::DelayFifoDelaySent)
}

/// The visibility timeout of a release after `delay_seconds`.
pub fn visibility_timeout(delay_seconds: u64, send_cap: u64) -> u64 {
    if on(Mutant::DelayReleaseCappedAt900) {
        delay_seconds.min(send_cap)
    } else {
        delay_seconds
    }
}

/// The Redis delayed score under the active mutant (`None`: the rule applies). `now` and
/// `delay` are finite, `delay >= 0`, and both are far below 2^100.
pub fn redis_score(now: f64, delay: f64) -> Option<i128> {
    let whole = |x: f64| x as i128;
    if on(Mutant::RedisDelayCeilOfSum) {
        Some(whole((now + delay).ceil()))
    } else if on(Mutant::RedisDelayRoundsNow) {
        Some(whole(now.round()) + whole(delay.ceil()))
    } else if on(Mutant::RedisDelayTruncatesDelay) {
        Some(whole(now.floor()) + whole(delay.trunc()))
    } else if on(Mutant::RedisDelayTruncPlusOne) {
        Some(whole(now.floor()) + whole(delay.trunc()) + 1)
    } else if on(Mutant::RedisDelayWholeMilliseconds) {
        let millis = whole((delay * 1000.0).round());
        Some(whole(now.floor()) + (millis + 999) / 1000)
    } else {
        None
    }
}
