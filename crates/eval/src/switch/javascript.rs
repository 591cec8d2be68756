//! The variations of the JavaScript-habit (`javascript`) mutants: truthiness, `String(value)`,
//! `parseInt`, `Date` and the default `Array.prototype.sort`, as the model does them while one
//! of them is switched on. Their catalogue entries are in [`crate::mutants::javascript`].

use serde_json::Value;

use super::{Mutant, on};
use crate::model::blank::is_ascii_blank;

/// The whitespace JavaScript's `parseInt` and `Number` skip (Unicode spaces, line ends, BOM).
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{FEFF}'
}

/// `String(value)` for a JSON value.
fn string_of(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_text(n),
        Value::String(s) => s.clone(),
        // Array.prototype.toString: the elements joined by commas, null as "".
        Value::Array(items) => items
            .iter()
            .map(|v| match v {
                Value::Null => String::new(),
                other => string_of(other),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

/// A JSON number as JavaScript prints it (a double: `1.0` is `"1"`).
fn number_text(n: &serde_json::Number) -> String {
    match (n.as_i64(), n.as_f64()) {
        (Some(i), _) if i.unsigned_abs() <= 1 << 53 => i.to_string(),
        (_, Some(f)) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{f:.0}"),
        (_, Some(f)) => f.to_string(),
        _ => n.to_string(),
    }
}

/// The gate decision (`Some(true)`: decode) under the active JavaScript mutant for the
/// property `value` (`None`: absent). `number_value` is true on ASB, whose properties carry
/// numbers and booleans. `None`: the rule applies.
pub fn gate_decodes(value: Option<&Value>, number_value: bool) -> Option<bool> {
    if matches!(value, Some(Value::Number(_) | Value::Bool(_))) && !number_value {
        return None;
    }
    if on(Mutant::JsGateStringCoerced) {
        // const v = String(props['bq-schema-version']) (when the key is there)
        return Some(match value {
            None => true,
            Some(v) => {
                let text = string_of(v);
                text == "1" || is_ascii_blank(&text)
            }
        });
    }
    if on(Mutant::JsGateFalsyAbsent) {
        // if (!value) { /* no version */ }
        let falsy = match value {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(Value::Number(n)) => n.as_f64() == Some(0.0),
            Some(Value::Bool(b)) => !b,
            Some(_) => false,
        };
        return falsy.then_some(true);
    }
    None
}

/// A text counter as `parseInt(text, 10)` reads it under the active mutant (`None`: the rule
/// applies; `Some(None)`: NaN, ignored). A negative count reads as 0: it never raises one.
pub fn count(text: &str) -> Option<Option<u64>> {
    if !on(Mutant::JsParseIntCounter) {
        return None;
    }
    let rest = text.trim_start_matches(js_space);
    let (negative, rest) = match rest.as_bytes().first() {
        Some(b'-') => (true, &rest[1..]),
        Some(b'+') => (false, &rest[1..]),
        _ => (false, rest),
    };
    let end = rest.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return Some(None);
    }
    let n = rest[..end].parse::<u64>().unwrap_or(u64::MAX);
    Some(Some(if negative { 0 } else { n }))
}

/// `meta.created_at` as an SDK that holds it as a `Date` writes it back (`None`: the rule
/// applies): `JSON.stringify` gives the ISO text with milliseconds, and null for an invalid
/// date.
pub fn created_at(value: &Value) -> Option<Value> {
    if !on(Mutant::JsCreatedAtAsDate) {
        return None;
    }
    let ms = value.as_i64()?;
    const LIMIT: i64 = 8_640_000_000_000_000;
    if !(-LIMIT..=LIMIT).contains(&ms) {
        return Some(Value::Null);
    }
    let seconds = bqsuite_core::timefmt::rfc3339_utc(ms.div_euclid(1000));
    let stem = seconds.strip_suffix('Z').unwrap_or(&seconds);
    Some(Value::String(format!("{stem}.{:03}Z", ms.rem_euclid(1000))))
}

/// A meta write-API value as the active mutant stores it (`None`: the rule applies).
pub fn meta_value(value: &Value) -> Option<Value> {
    on(Mutant::JsMetaValuesStringified).then(|| Value::String(string_of(value)))
}

/// The `VisibilityTimeout` of a release under the active mutant (`None`: the rule applies):
/// `Number(delay) || defaultVisibility` turns a release now into the 30 s default.
pub fn visibility_timeout(delay_seconds: u64) -> Option<u64> {
    (on(Mutant::JsReleaseZeroDelayDefaulted) && delay_seconds == 0).then_some(30)
}

/// The configured tiers after `tiers.sort()` under the active mutant (`None`: the rule
/// applies): the default sort compares the numbers as strings.
pub fn tiers(tiers: &[u64]) -> Option<Vec<u64>> {
    on(Mutant::JsTiersDefaultSort).then(|| {
        let mut sorted = tiers.to_vec();
        sorted.sort_by_key(u64::to_string);
        sorted
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn javascript_strings_and_numbers() {
        assert_eq!(string_of(&json!([1, null, "a", [2, 3]])), "1,,a,2,3");
        assert_eq!(string_of(&json!({"a": 1})), "[object Object]");
        assert_eq!(string_of(&json!(1.0)), "1");
        assert_eq!(string_of(&json!(1.5)), "1.5");
        assert_eq!(string_of(&json!(null)), "null");
        with_count(|| {
            assert_eq!(count("5abc"), Some(Some(5)));
            assert_eq!(count("1e1"), Some(Some(1)));
            assert_eq!(count("\u{a0}4"), Some(Some(4)));
            assert_eq!(count("two"), Some(None));
            assert_eq!(count("-3"), Some(Some(0)));
        });
    }

    fn with_count(f: impl FnOnce()) {
        super::super::with_mutant(Mutant::JsParseIntCounter, f);
    }

    #[test]
    fn dates_print_milliseconds() {
        super::super::with_mutant(Mutant::JsCreatedAtAsDate, || {
            assert_eq!(
                created_at(&json!(1_749_132_727_000_i64)),
                Some(json!("2025-06-05T14:12:07.000Z"))
            );
            assert_eq!(
                created_at(&json!(9_000_000_000_000_000_i64)),
                Some(json!(null))
            );
        });
    }
}
