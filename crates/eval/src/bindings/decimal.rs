//! Exact non-negative decimals for the timing formulas, so that `0.5 * 3^2` is exactly `4.5`
//! and `0.1 * 3` exactly `0.3`, whatever binary floating point would round them to.
//!
//! A JSON number enters through the shortest decimal text of the double it parsed to (the text
//! the suite wrote, for any literal of up to 15 significant digits). The value is
//! `mantissa * 10^-scale` with trailing zeros stripped, so equal values have equal parts.
//! Every operation is checked: a mantissa beyond `u128` or a scale beyond ±400 is `None`, and
//! the caller falls back to a stated approximation.

use std::cmp::Ordering;

use serde_json::Value;

/// The largest scale magnitude kept exactly.
const MAX_SCALE: i32 = 400;

/// An exact decimal `mantissa * 10^-scale`, never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec {
    mantissa: u128,
    scale: i32,
}

impl Dec {
    pub const ZERO: Dec = Dec {
        mantissa: 0,
        scale: 0,
    };
    pub const ONE: Dec = Dec {
        mantissa: 1,
        scale: 0,
    };
    /// `i64::MAX` nanoseconds, in seconds (9223372036.854775807).
    pub const I64_MAX_NANOS: Dec = Dec {
        mantissa: i64::MAX as u128,
        scale: 9,
    };

    /// `mantissa * 10^-scale`, normalised; `None` when the scale is out of range.
    pub fn new(mut mantissa: u128, mut scale: i32) -> Option<Dec> {
        if mantissa == 0 {
            return Some(Dec::ZERO);
        }
        while mantissa.is_multiple_of(10) {
            mantissa /= 10;
            scale = scale.checked_sub(1)?;
        }
        (scale.abs() <= MAX_SCALE).then_some(Dec { mantissa, scale })
    }

    pub fn from_u64(value: u64) -> Dec {
        Dec::new(u128::from(value), 0).unwrap_or(Dec::ZERO)
    }

    /// The exact value of a finite, non-negative double's shortest decimal text.
    pub fn from_f64(value: f64) -> Option<Dec> {
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        let text = format!("{value:e}");
        let (digits, exponent) = text.split_once('e')?;
        let exponent: i32 = exponent.parse().ok()?;
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mantissa: u128 = format!("{whole}{fraction}").parse().ok()?;
        let fraction_len = i32::try_from(fraction.len()).ok()?;
        Dec::new(mantissa, fraction_len.checked_sub(exponent)?)
    }

    /// A JSON number as an exact decimal (`None`: not a number, or negative).
    pub fn from_json(value: &Value) -> Option<Dec> {
        match value.as_u64() {
            Some(whole) => Some(Dec::from_u64(whole)),
            None => value.as_f64().and_then(Dec::from_f64),
        }
    }

    pub fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// The product, when it stays exact.
    pub fn checked_mul(self, other: Dec) -> Option<Dec> {
        Dec::new(
            self.mantissa.checked_mul(other.mantissa)?,
            self.scale.checked_add(other.scale)?,
        )
    }

    /// Half the value (exact: `x / 2 = 5x / 10`).
    pub fn half(self) -> Option<Dec> {
        Dec::new(self.mantissa.checked_mul(5)?, self.scale.checked_add(1)?)
    }

    /// The largest whole number not above the value.
    pub fn floor(self) -> Option<Dec> {
        if self.scale <= 0 {
            return Some(self);
        }
        let divisor = 10u128.checked_pow(self.scale.unsigned_abs());
        Dec::new(divisor.map_or(0, |d| self.mantissa / d), 0)
    }

    /// Exact comparison (never overflows: a factor that does not fit makes that side larger).
    pub fn compare(self, other: Dec) -> Ordering {
        if self.is_zero() || other.is_zero() {
            return self.mantissa.cmp(&other.mantissa);
        }
        // Bring both to the larger scale: the side with the smaller scale is multiplied up.
        let (a, b, flipped) = if self.scale >= other.scale {
            (self, other, false)
        } else {
            (other, self, true)
        };
        let shift = a.scale.abs_diff(b.scale);
        let order = match 10u128
            .checked_pow(shift)
            .and_then(|f| b.mantissa.checked_mul(f))
        {
            Some(b_up) => a.mantissa.cmp(&b_up),
            None => Ordering::Less,
        };
        if flipped { order.reverse() } else { order }
    }

    pub fn min(self, other: Dec) -> Dec {
        if self.compare(other) == Ordering::Greater {
            other
        } else {
            self
        }
    }

    /// The nearest double (for messages and the approximate fallback).
    pub fn to_f64(self) -> f64 {
        self.to_string().parse().unwrap_or(f64::INFINITY)
    }
}

impl std::fmt::Display for Dec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.mantissa.to_string();
        if self.scale <= 0 {
            return write!(
                f,
                "{digits}{}",
                "0".repeat(self.scale.unsigned_abs() as usize)
            );
        }
        let scale = self.scale.unsigned_abs() as usize;
        if digits.len() > scale {
            let (whole, fraction) = digits.split_at(digits.len() - scale);
            write!(f, "{whole}.{fraction}")
        } else {
            write!(f, "0.{}{digits}", "0".repeat(scale - digits.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(text: &str) -> Dec {
        Dec::from_json(&serde_json::from_str(text).expect("a JSON number")).expect("non-negative")
    }

    #[test]
    fn json_numbers_keep_their_decimal_value() {
        assert_eq!(dec("4.5").to_string(), "4.5");
        assert_eq!(dec("0.001").to_string(), "0.001");
        assert_eq!(dec("1750000000.999").to_string(), "1750000000.999");
        assert_eq!(dec("2000"), dec("2000.0"));
        assert_eq!(dec("1e30").to_string(), format!("1{}", "0".repeat(30)));
        assert_eq!(Dec::from_json(&json!(-1)), None);
        assert_eq!(Dec::from_json(&json!("1")), None);
    }

    #[test]
    fn products_are_exact_where_doubles_are_not() {
        // 0.1 * 3 is 0.30000000000000004 in binary floating point.
        assert_eq!(dec("0.1").checked_mul(dec("3")), Some(dec("0.3")));
        assert_eq!(dec("0.5").checked_mul(dec("9")), Some(dec("4.5")));
        assert_eq!(dec("0.5").half(), Some(dec("0.25")));
        let big = Dec::new(u128::MAX / 3, 0).expect("in range");
        assert_eq!(big.checked_mul(dec("7")), None);
    }

    #[test]
    fn comparison_and_floor() {
        assert_eq!(dec("10").compare(dec("9.99")), Ordering::Greater);
        assert_eq!(dec("0.3").compare(dec("0.30")), Ordering::Equal);
        assert_eq!(dec("1e300").compare(dec("0.5")), Ordering::Greater);
        assert_eq!(dec("0.5").compare(dec("1e300")), Ordering::Less);
        assert_eq!(dec("0").compare(dec("0.0001")), Ordering::Less);
        assert_eq!(dec("4.5").floor(), Some(dec("4")));
        assert_eq!(dec("0.25").floor(), Some(Dec::ZERO));
        assert_eq!(dec("10").min(dec("16")), dec("10"));
    }
}
