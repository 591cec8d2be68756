//! The Redis delayed score (broker-bindings §1.6, ADR-0033): a message delayed by `delay`
//! seconds at clock `now` (fractional epoch seconds) is due at the whole second
//! `floor(now) + ceil(delay)`.
//!
//! Exactness: a JSON integer is taken as the integer it writes; a fractional number is the
//! double it parses to, which is exactly what an SDK's clock and delay hold. `floor` and `ceil`
//! of a double are exact, and the sum is taken in 128-bit integers, so no rounding enters
//! (adding in doubles first, or `ceil(now + delay)`, would).

use serde_json::Value;

use crate::switch::delay as mutant;

/// Inputs are kept below this magnitude so every step stays an exact integer.
const LIMIT: f64 = 1e30;

/// `floor` (`up = false`) or `ceil` (`up = true`) of a JSON number; `None` when it is not a
/// number or too large.
fn whole(value: &Value, up: bool) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = value.as_u64() {
        return Some(i128::from(u));
    }
    let x = value.as_f64().filter(|x| x.abs() < LIMIT)?;
    Some((if up { x.ceil() } else { x.floor() }) as i128)
}

/// A clock reading the model accepts: a number below 10^30 in magnitude.
pub fn valid_now(now: &Value) -> bool {
    whole(now, false).is_some()
}

/// A delay the model accepts: a non-negative number below 10^30 (a negative delay is not
/// pinned by the contract).
pub fn valid_delay(delay: &Value) -> bool {
    whole(delay, true).is_some() && delay.as_f64().is_some_and(|d| d >= 0.0)
}

/// `floor(now) + ceil(delay)`, for inputs that pass [`valid_now`] and [`valid_delay`].
pub fn score(now: &Value, delay: &Value) -> Option<i128> {
    if let (Some(n), Some(d)) = (now.as_f64(), delay.as_f64())
        && let Some(s) = mutant::redis_score(n, d)
            .or_else(|| crate::switch::go::redis_score(n, d))
            .or_else(|| crate::switch::jvm_dotnet::redis_score(n, d))
            .or_else(|| crate::switch::copied::redis_score(n, d))
    {
        return Some(s);
    }
    whole(now, false)?.checked_add(whole(delay, true)?)
}

/// The stated score as an integer, when it is a whole number (`1002` or `1002.0`).
pub fn stated_score(expected: &Value) -> Option<i128> {
    let integral = expected
        .as_f64()
        .is_some_and(|x| x.fract() == 0.0 && x.abs() < LIMIT);
    if expected.is_i64() || expected.is_u64() || integral {
        whole(expected, false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(now: Value, delay: Value) -> i128 {
        score(&now, &delay).expect("valid inputs")
    }

    #[test]
    fn score_table() {
        assert_eq!(at(json!(1000.7), json!(1.5)), 1002);
        assert_eq!(at(json!(1000.0), json!(5)), 1005);
        assert_eq!(at(json!(1000.2), json!(0.1)), 1001);
        assert_eq!(at(json!(1000.9), json!(2)), 1002);
        assert_eq!(at(json!(1750000000.999), json!(0.001)), 1750000001);
        assert_eq!(at(json!(1000.5), json!(3.0)), 1003);
        assert_eq!(at(json!(1000.0), json!(2.001)), 1003);
        assert_eq!(at(json!(1000.0), json!(0.0004)), 1001);
        assert_eq!(at(json!(-0.5), json!(0)), -1);
    }

    #[test]
    fn large_integers_stay_exact() {
        // 2^53 + 1 is not a double: adding in doubles would lose the 1.
        let now = json!(9_007_199_254_740_993u64);
        assert_eq!(at(now, json!(1)), 9_007_199_254_740_994);
        assert_eq!(
            at(json!(u64::MAX), json!(u64::MAX)),
            2 * i128::from(u64::MAX)
        );
    }

    #[test]
    fn the_domain() {
        assert!(valid_now(&json!(-3.5)) && !valid_now(&json!(1e300)) && !valid_now(&json!("1")));
        assert!(valid_delay(&json!(0)) && !valid_delay(&json!(-0.5)) && !valid_delay(&json!(null)));
        assert_eq!(stated_score(&json!(1002.0)), Some(1002));
        assert_eq!(stated_score(&json!(1002.5)), None);
        assert_eq!(stated_score(&json!(-4)), Some(-4));
    }
}
