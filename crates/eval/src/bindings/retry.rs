//! The worker-side retry backoff (ADR-0034 §9), whatever the transport:
//! `d(n) = min(retry_backoff_max, retry_backoff * retry_backoff_multiplier^(n-1))` seconds for
//! the n-th attempt (1-based), a `retry_backoff_max` of 0 meaning no cap. Without jitter the
//! delay is `d(n)`; with full jitter it is drawn uniformly from `[0, d(n)]`, so the model gives
//! the deterministic bounds of the draw instead of a draw.
//!
//! Computed exactly in decimal ([`Dec`]); when a value outgrows the exact representation (a
//! huge uncapped growth, or hundreds of decimal places) the delay is the nearest double
//! instead ([`Amount::Approx`]).

use super::decimal::Dec;

/// The delay randomisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jitter {
    None,
    Full,
}

/// The backoff parameters (seconds; all non-negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub base: Dec,
    pub multiplier: Dec,
    /// 0: no cap.
    pub max: Dec,
}

/// The parameters a worker (helper or runtime) is configured with, each `None` when not given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Given {
    pub base: Option<Dec>,
    pub multiplier: Option<Dec>,
    pub max: Option<Dec>,
    pub jitter: Option<Jitter>,
}

/// The backoff and jitter of a worker configured with `given`: what is not given takes its
/// default (ADR-0034 §9: `retry_backoff` 0, `retry_backoff_multiplier` 1, `retry_backoff_max`
/// 0, no jitter), so an unconfigured worker retries at once.
pub fn configured(given: &Given) -> (Backoff, Jitter) {
    let backoff = Backoff {
        base: given
            .base
            .unwrap_or_else(|| mutant::default_base(Dec::ZERO)),
        multiplier: given
            .multiplier
            .unwrap_or_else(|| mutant::default_multiplier(Dec::ONE)),
        max: given.max.unwrap_or_else(|| mutant::default_max(Dec::ZERO)),
    };
    let jitter = given
        .jitter
        .unwrap_or_else(|| mutant::default_jitter(Jitter::None));
    (backoff, jitter)
}

/// A delay in seconds: exact, or the nearest double when it cannot be held exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    Exact(Dec),
    Approx(f64),
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Amount::Exact(d) => write!(f, "{d}"),
            Amount::Approx(x) => write!(f, "{x} (approximately)"),
        }
    }
}

/// At most this many exact multiplications before giving up on exactness.
const MAX_STEPS: u64 = 4_096;

/// `start * multiplier^times`, stopping early once a growing value reaches `stop` (the result
/// is then only known to be at least `stop`, which the caller caps to; a shrinking value is
/// never stopped). `None`: not exact any more.
fn grow(start: Dec, multiplier: Dec, times: u64, stop: Option<Dec>) -> Option<Dec> {
    if start.is_zero() || times == 0 || multiplier == Dec::ONE {
        return Some(start);
    }
    if multiplier.is_zero() {
        return Some(Dec::ZERO);
    }
    let stop = stop.filter(|_| multiplier.compare(Dec::ONE).is_gt());
    let mut value = start;
    for step in 0..times {
        if step >= MAX_STEPS {
            return None;
        }
        value = value.checked_mul(multiplier)?;
        if stop.is_some_and(|cap| value.compare(cap).is_ge()) {
            return Some(value);
        }
    }
    Some(value)
}

/// The same formula in doubles, for values beyond the exact representation.
fn approximate(b: &Backoff, exponent: u64, cap: Option<Dec>) -> f64 {
    let power = i32::try_from(exponent).unwrap_or(i32::MAX);
    let raw = b.base.to_f64() * b.multiplier.to_f64().powi(power);
    cap.map_or(raw, |c| raw.min(c.to_f64()))
}

/// `d(n)` for `n >= 1`.
pub fn delay(b: &Backoff, n: u64) -> Amount {
    let borrowed = crate::switch::copied::retry_backoff_max(b.max).map(|max| Backoff { max, ..*b });
    let b = borrowed.as_ref().unwrap_or(b);
    let exponent = mutant::exponent(n);
    let cap = mutant::cap(b.max, n);
    let (start, grown_cap, result_cap) = match cap {
        None => (b.base, None, None),
        Some(mutant::Cap::Result(c)) => (b.base, Some(c), Some(c)),
        Some(mutant::Cap::Base(c)) => (b.base.min(c), None, None),
        Some(mutant::Cap::Factor(c)) => {
            // base * min(cap, multiplier^(n-1)).
            return match grow(Dec::ONE, b.multiplier, exponent, Some(c)) {
                Some(factor) => b
                    .base
                    .checked_mul(factor.min(c))
                    .map_or(Amount::Approx(f64::INFINITY), Amount::Exact),
                None => {
                    let factor = approximate(
                        &Backoff {
                            base: Dec::ONE,
                            ..*b
                        },
                        exponent,
                        Some(c),
                    );
                    Amount::Approx(b.base.to_f64() * factor)
                }
            };
        }
    };
    let amount = match grow(start, b.multiplier, exponent, grown_cap) {
        Some(value) => Amount::Exact(result_cap.map_or(value, |c| value.min(c))),
        None => {
            let moved = Backoff { base: start, ..*b };
            Amount::Approx(approximate(&moved, exponent, result_cap))
        }
    };
    mutant::finish(amount)
}

/// The bounds `[low, high]` of the delay with `jitter`: `[d, d]` without jitter, `[0, d]` with
/// full jitter.
pub fn delay_range(b: &Backoff, n: u64, jitter: Jitter) -> (Amount, Amount) {
    let d = delay(b, n);
    if let Some(range) = mutant::jitter_range(d, jitter) {
        return range;
    }
    match jitter {
        Jitter::None => (d, d),
        Jitter::Full => (Amount::Exact(Dec::ZERO), d),
    }
}

/// The retry mutants' variations ([`crate::switch::retry`]), with the three that work on this
/// file's [`Amount`] and [`Jitter`].
mod mutant {
    use crate::bindings::decimal::Dec;
    use crate::bindings::retry::{Amount, Jitter};
    pub use crate::switch::retry::*;
    use crate::switch::{Mutant, on};

    /// The largest delay an int64 count of nanoseconds holds, in seconds.
    const INT64_NANOSECONDS: Dec = Dec::I64_MAX_NANOS;
    /// The delay as the SDK finally holds it.
    pub fn finish(amount: Amount) -> Amount {
        if on(Mutant::RetryBackoffWholeSeconds) {
            match amount {
                Amount::Exact(d) => Amount::Exact(d.floor().unwrap_or(d)),
                Amount::Approx(x) => Amount::Approx(x.floor()),
            }
        } else if on(Mutant::RetryBackoffInt64Nanoseconds) {
            match amount {
                Amount::Exact(d) => Amount::Exact(d.min(INT64_NANOSECONDS)),
                Amount::Approx(x) => Amount::Exact(
                    Dec::from_f64(x).map_or(INT64_NANOSECONDS, |d| d.min(INT64_NANOSECONDS)),
                ),
            }
        } else {
            amount
        }
    }

    /// The jitter a worker uses when none is configured, given the rule's (`rule`).
    pub fn default_jitter(rule: Jitter) -> Jitter {
        if on(Mutant::RetryBackoffDefaultFullJitter) {
            Jitter::Full
        } else {
            rule
        }
    }

    /// The jitter bounds under the active mutant (`None`: the rule applies).
    pub fn jitter_range(d: Amount, jitter: Jitter) -> Option<(Amount, Amount)> {
        if jitter != Jitter::Full {
            return None;
        }
        if on(Mutant::RetryBackoffEqualJitter) {
            let low = match d {
                Amount::Exact(x) => x
                    .half()
                    .map_or(Amount::Approx(x.to_f64() / 2.0), Amount::Exact),
                Amount::Approx(x) => Amount::Approx(x / 2.0),
            };
            Some((low, d))
        } else if on(Mutant::RetryBackoffJitterIgnored) {
            Some((d, d))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(x: f64) -> Dec {
        Dec::from_f64(x).expect("non-negative")
    }

    fn d(base: f64, multiplier: f64, max: f64, n: u64) -> Amount {
        let b = Backoff {
            base: dec(base),
            multiplier: dec(multiplier),
            max: dec(max),
        };
        delay(&b, n)
    }

    #[test]
    fn formula_table() {
        let table = [
            (0.0, 1.0, 0.0, 5, "0"),
            (5.0, 1.0, 0.0, 4, "5"),
            (1.0, 2.0, 0.0, 1, "1"),
            (1.0, 2.0, 0.0, 6, "32"),
            (1.0, 2.0, 10.0, 4, "8"),
            (1.0, 2.0, 10.0, 5, "10"),
            (1.0, 2.0, 10.0, 1_000_000, "10"),
            (0.5, 3.0, 0.0, 3, "4.5"),
            (0.1, 3.0, 0.0, 2, "0.3"),
            (2.0, 10.0, 0.0, 4, "2000"),
            (30.0, 2.0, 10.0, 1, "10"),
            (3.0, 0.0, 0.0, 1, "3"),
            (3.0, 0.0, 0.0, 2, "0"),
            (8.0, 0.5, 0.0, 4, "1"),
            (30.0, 0.5, 10.0, 3, "7.5"),
            (30.0, 0.5, 10.0, 2, "10"),
        ];
        for (base, multiplier, max, n, want) in table {
            match d(base, multiplier, max, n) {
                Amount::Exact(got) => {
                    assert_eq!(got.to_string(), want, "{base} {multiplier} {max} {n}")
                }
                other => panic!("{base} {multiplier} {max} {n}: {other:?}"),
            }
        }
    }

    #[test]
    fn huge_uncapped_growth_falls_back_to_doubles_within_bounded_work() {
        match d(1.0, 2.0, 0.0, 1_000) {
            Amount::Approx(x) => assert_eq!(x, 2f64.powi(999)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(d(1.0, 1.5, 0.0, u64::MAX), Amount::Approx(_)));
        assert!(matches!(d(1.0, 0.5, 0.0, u64::MAX), Amount::Approx(_)));
        assert_eq!(d(7.0, 1.0, 0.0, u64::MAX), Amount::Exact(dec(7.0)));
    }

    #[test]
    fn what_is_not_given_takes_its_default() {
        let (backoff, jitter) = configured(&Given::default());
        assert_eq!(
            backoff,
            Backoff {
                base: Dec::ZERO,
                multiplier: Dec::ONE,
                max: Dec::ZERO
            }
        );
        assert_eq!(jitter, Jitter::None);
        assert_eq!(delay(&backoff, 7), Amount::Exact(Dec::ZERO));
        let given = Given {
            base: Some(dec(3.0)),
            jitter: Some(Jitter::Full),
            ..Given::default()
        };
        let (backoff, jitter) = configured(&given);
        assert_eq!((backoff.base, backoff.multiplier), (dec(3.0), Dec::ONE));
        assert_eq!(jitter, Jitter::Full);
        assert_eq!(delay(&backoff, 4), Amount::Exact(dec(3.0)));
    }

    #[test]
    fn jitter_bounds() {
        let b = Backoff {
            base: dec(1.0),
            multiplier: dec(2.0),
            max: dec(10.0),
        };
        let exact = |x: f64| Amount::Exact(dec(x));
        assert_eq!(delay_range(&b, 3, Jitter::None), (exact(4.0), exact(4.0)));
        assert_eq!(delay_range(&b, 6, Jitter::Full), (exact(0.0), exact(10.0)));
    }
}
