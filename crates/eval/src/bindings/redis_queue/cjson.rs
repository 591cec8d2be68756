//! The reserve script's rewrite of a popped job (broker-bindings §1.1, ADR-0033 A1): decode
//! with Redis' bundled cjson inside `pcall`, add one to a numeric `attempts`, encode again
//! inside a second `pcall`. Any failure keeps the raw job as the `:reserved` member.
//!
//! The encoding imitates cjson, which only matters once the member is parsed back: numbers are
//! written with 14 significant digits (`%.14g`, so a 15-digit integer comes back in exponent
//! form), an empty object or array becomes `{}`, a duplicated key keeps its last value, and a
//! non-finite number (`1e400`, `NaN`, `Infinity`) cannot be encoded at all.

use super::json_text::{Dialect, JVal, parse};
use crate::switch::redis as mutant;

/// The `:reserved` member the reserve script stores for `job`: `Ok(rewritten)` when the job
/// decodes to a table whose `attempts` is a number and re-encodes after the increment,
/// `Err(Fallback)` when the script keeps the raw job.
pub fn reserved_member(job: &str) -> Result<String, Fallback> {
    let decoded = parse(job, Dialect::Cjson).ok_or(Fallback::Decode)?;
    let attempts = match decoded.member("attempts") {
        Some(JVal::Num(n)) => n.value,
        _ => return Err(Fallback::Attempts),
    };
    let bumped = with_member(decoded, "attempts", attempts + 1.0);
    let mut out = String::new();
    match encode(&bumped, &mut out) {
        Ok(()) => Ok(out),
        Err(()) => Err(Fallback::Encode),
    }
}

/// Why the reserve script kept the raw job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// `cjson.decode` failed (the first `pcall`).
    Decode,
    /// The job decoded but is not an object with a numeric `attempts`.
    Attempts,
    /// `cjson.encode` failed after the increment (the second `pcall`).
    Encode,
}

/// Whether a script without a guard at the step that failed would abort after its `LPOP`
/// (losing the job); the mutants of the guards ask this.
pub fn aborts_without_guard(fallback: Fallback) -> bool {
    match fallback {
        Fallback::Decode => mutant::decode_unguarded(),
        Fallback::Encode => mutant::encode_unguarded(),
        Fallback::Attempts => false,
    }
}

/// `value` with its member `key` set to the number `n` (the Lua table assignment).
fn with_member(value: JVal, key: &str, n: f64) -> JVal {
    let JVal::Obj(members) = value else {
        return value;
    };
    let mut out: Vec<(String, JVal)> = Vec::with_capacity(members.len());
    for (k, v) in members {
        match out.iter_mut().find(|(seen, _)| *seen == k) {
            Some(slot) => slot.1 = v,
            None => out.push((k, v)),
        }
    }
    let number = JVal::Num(super::json_text::Num {
        value: n,
        integer: None,
        int_literal: false,
    });
    match out.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = number,
        None => out.push((key.to_owned(), number)),
    }
    JVal::Obj(out)
}

/// cjson's encoding of a decoded value; `Err` for a non-finite number.
fn encode(value: &JVal, out: &mut String) -> Result<(), ()> {
    match value {
        JVal::Null => out.push_str("null"),
        JVal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JVal::Num(n) => {
            if !n.value.is_finite() {
                return Err(());
            }
            out.push_str(&format_g14(n.value));
        }
        JVal::Str(s) => escape(s, out),
        JVal::Arr(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode(item, out)?;
            }
            out.push(']');
        }
        JVal::Arr(_) => out.push_str("{}"),
        JVal::Obj(members) => {
            // A Lua table holds one value per key: the last one written.
            out.push('{');
            let mut first = true;
            for (i, (k, v)) in members.iter().enumerate() {
                if members[i + 1..].iter().any(|(later, _)| later == k) {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                escape(k, out);
                out.push(':');
                encode(v, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

fn escape(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// C's `%.14g` of a finite double.
pub fn format_g14(v: f64) -> String {
    const P: i32 = 14;
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    // Scientific form with P significant digits, correctly rounded.
    let sci = format!("{:.*e}", (P - 1) as usize, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..P).contains(&exp) {
        let mantissa = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (P - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{v:.decimals$}")).to_owned()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn member_json(job: &str) -> Value {
        serde_json::from_str(&reserved_member(job).expect("rewritten")).expect("valid JSON")
    }

    #[test]
    fn g14_matches_c_printf() {
        for (v, s) in [
            (1.0, "1"),
            (2.5, "2.5"),
            (1749132727000.0, "1749132727000"),
            (123456789012345.0, "1.2345678901234e+14"),
            (1e15, "1e+15"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-3.25, "-3.25"),
            (1.0 / 3.0, "0.33333333333333"),
        ] {
            assert_eq!(format_g14(v), s, "{v}");
        }
    }

    #[test]
    fn attempts_bumped_and_cjson_quirks_kept() {
        assert_eq!(
            member_json(
                "{\"job\":\"a/b\",\"attempts\":2,\"x\":{\"k\":[1,2]},\"e\":[],\"big\":123456789012345}"
            ),
            json!({"job": "a/b", "attempts": 3, "x": {"k": [1, 2]}, "e": {}, "big": 1.2345678901234e14})
        );
        assert_eq!(
            member_json("{\"attempts\":0,\"attempts\":5}"),
            json!({"attempts": 6})
        );
    }

    #[test]
    fn fallbacks() {
        for (job, why) in [
            ("not-json", Fallback::Decode),
            ("", Fallback::Decode),
            ("{\"attempts\":", Fallback::Decode),
            ("{\"attempts\":\"3\"}", Fallback::Attempts),
            ("{\"attempts\":null}", Fallback::Attempts),
            ("{\"data\":{}}", Fallback::Attempts),
            ("42", Fallback::Attempts),
            ("[]", Fallback::Attempts),
            ("null", Fallback::Attempts),
            ("{\"attempts\":0,\"data\":{\"n\":1e400}}", Fallback::Encode),
            ("{\"attempts\":0,\"data\":{\"n\":NaN}}", Fallback::Encode),
            (
                "{\"attempts\":0,\"data\":{\"n\":-Infinity}}",
                Fallback::Encode,
            ),
            ("{\"attempts\":Infinity}", Fallback::Encode),
        ] {
            assert_eq!(reserved_member(job), Err(why), "{job}");
        }
    }
}
