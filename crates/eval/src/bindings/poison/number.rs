//! What a number lexeme (already known to follow the RFC 8259 grammar) can be read as.

/// Written as an integer: no fraction and no exponent (`-0` included, `1.0` and `1e3` not).
pub fn is_integer_form(lexeme: &str) -> bool {
    !lexeme.contains(['.', 'e', 'E'])
}

/// An integer-form lexeme whose value fits a signed 64-bit integer.
pub fn fits_int64(lexeme: &str) -> bool {
    is_integer_form(lexeme) && lexeme.parse::<i64>().is_ok()
}

/// The lexeme's value, read as the nearest double, is finite (`1e400` is not).
pub fn is_finite_double(lexeme: &str) -> bool {
    lexeme.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The lexeme's value survives a re-encoding writer that reads it as a double and writes the
/// shortest text that reads back as the same double: the written text must denote exactly the
/// same value (`1.50` and `1.5e0` do, `1e400`, `1e-400`, `12345678901234567890` and
/// `0.1234567890123456789012345` do not).
pub fn survives_double_round_trip(lexeme: &str) -> bool {
    let Ok(value) = lexeme.parse::<f64>() else {
        return false;
    };
    value.is_finite() && decimal(lexeme) == decimal(&format!("{value:e}"))
}

/// The exact value of a decimal text as (negative, significant digits, exponent of the last
/// digit), zero as (false, "", 0). Handles both JSON lexemes and Rust's `{:e}` output.
fn decimal(text: &str) -> (bool, String, i64) {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], saturating_exponent(&rest[at + 1..])),
        None => (rest, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = format!("{int_part}{frac_part}");
    let mut exponent = exponent.saturating_sub(frac_part.len() as i64);
    let trimmed = digits.trim_start_matches('0').len();
    digits.drain(..digits.len() - trimmed);
    while digits.ends_with('0') {
        digits.pop();
        exponent = exponent.saturating_add(1);
    }
    if digits.is_empty() {
        return (false, String::new(), 0);
    }
    (negative, digits, exponent)
}

/// A signed exponent text read with saturation (a huge exponent stays huge, never wraps).
fn saturating_exponent(text: &str) -> i64 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = digits.bytes().fold(0i64, |acc, b| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(b.wrapping_sub(b'0')))
    });
    if negative { -magnitude } else { magnitude }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_members_need_an_int64_written_as_an_integer() {
        for ok in [
            "0",
            "-0",
            "-1",
            "9223372036854775807",
            "-9223372036854775808",
        ] {
            assert!(fits_int64(ok), "{ok}");
        }
        for bad in ["1.0", "1e3", "1E2", "1e0", "9223372036854775808", "1.5"] {
            assert!(!fits_int64(bad), "{bad}");
        }
    }

    #[test]
    fn finite_doubles() {
        assert!(is_finite_double("1e308") && is_finite_double("1e-400"));
        assert!(!is_finite_double("1e400") && !is_finite_double("-1e400"));
        assert!(!is_finite_double(&"9".repeat(400)));
    }

    #[test]
    fn double_round_trip() {
        for ok in [
            "0",
            "-0",
            "1",
            "0.1",
            "1.50",
            "1.5e0",
            "1e3",
            "-2.5E-3",
            "9007199254740992",
            "0e999999999999999999999",
        ] {
            assert!(survives_double_round_trip(ok), "{ok}");
        }
        for lossy in [
            "1e400",
            "-1e400",
            "1e-400",
            "12345678901234567890",
            "0.1234567890123456789012345",
            "9007199254740993",
            "1e-99999999999999999999",
        ] {
            assert!(!survives_double_round_trip(lossy), "{lossy}");
        }
    }
}
