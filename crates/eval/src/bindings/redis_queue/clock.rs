//! Whole-second arithmetic of the scores (broker-bindings §1.1, §1.6): every score is
//! `floor(now)` plus whole seconds, computed exactly and rounded once to the double Redis
//! stores, as an SDK with arbitrary-precision integers does.

use crate::switch::redis as mutant;

/// An integer number of seconds, exact when it fits `i128`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Whole {
    Exact(i128),
    Big(f64),
}

impl Whole {
    fn of_integral(v: f64) -> Whole {
        if v.abs() < 1e36 {
            Whole::Exact(v as i128)
        } else {
            Whole::Big(v)
        }
    }

    /// The double Redis stores for this integer.
    pub fn score(self) -> f64 {
        match self {
            Whole::Exact(i) => i as f64,
            Whole::Big(f) => f,
        }
    }

    /// `self + other`, exact when both are.
    pub fn plus(self, other: Whole) -> Whole {
        match (self, other) {
            (Whole::Exact(a), Whole::Exact(b)) => match a.checked_add(b) {
                Some(sum) => Whole::Exact(sum),
                None => Whole::Big(a as f64 + b as f64),
            },
            (a, b) => Whole::Big(a.score() + b.score()),
        }
    }
}

/// A step's clock: the time the SDK reads, fractional epoch seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Now {
    /// The value as a double.
    pub value: f64,
    /// The exact value when the manifest wrote an integer.
    pub integer: Option<i128>,
}

impl Now {
    /// `floor(now)`: the unit of every score.
    pub fn floor(self) -> Whole {
        match self.integer {
            Some(i) => Whole::Exact(i),
            None => Whole::of_integral(self.value.floor()),
        }
    }

    /// The bound a migrate or sweep compares scores with (`score <= floor(now)`).
    pub fn due_bound(self) -> f64 {
        if mutant::due_against_unfloored_clock() {
            return self.value;
        }
        self.floor().score()
    }
}

/// `ceil(max(delay, 0))` in whole seconds.
pub fn ceil_delay(delay: f64, exact: Option<i128>) -> Whole {
    if let Some(i) = exact {
        return Whole::Exact(i.max(0));
    }
    Whole::of_integral(delay.max(0.0).ceil())
}

/// The available-at score of a delayed push or a release: `floor(now) + ceil(delay)`.
pub fn available_at(now: Now, delay: f64, exact_delay: Option<i128>) -> f64 {
    if mutant::delay_score_unfloored() {
        return (now.value + delay.max(0.0)).ceil();
    }
    now.floor().plus(ceil_delay(delay, exact_delay)).score()
}

/// The reservation deadline: `floor(now) + retry_after`, or `+inf` when recovery is disabled.
pub fn deadline(now: Now, retry_after: Option<u64>) -> f64 {
    match retry_after {
        None if mutant::null_retry_after_finite() => now.floor().score(),
        None => f64::INFINITY,
        Some(_) if mutant::deadline_unfloored() => now.value + retry_after.unwrap_or(0) as f64,
        Some(r) => now.floor().plus(Whole::Exact(i128::from(r))).score(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now(v: f64) -> Now {
        Now {
            value: v,
            integer: None,
        }
    }

    #[test]
    fn scores() {
        assert_eq!(available_at(now(1000.7), 1.5, None), 1002.0);
        assert_eq!(available_at(now(1000.2), 0.1, None), 1001.0);
        assert_eq!(available_at(now(1000.9), 2.0, Some(2)), 1002.0);
        assert_eq!(available_at(now(1000.5), -3.0, None), 1000.0);
        assert_eq!(deadline(now(1000.9), Some(30)), 1030.0);
        assert_eq!(deadline(now(1000.9), None), f64::INFINITY);
        let big = Now {
            value: 9007199254740993.0,
            integer: Some(9007199254740993),
        };
        // Exact sum first, one rounding after: 9007199254740993 + 1 = 2^53 + 2.
        assert_eq!(available_at(big, 1.0, Some(1)), 9007199254740994.0);
    }
}
