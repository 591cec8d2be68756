//! The variations of the PHP-habit (`php`) mutants: loose comparison (of the gate property and of
//! `meta.schema_version`), falsy `"0"`, casts and
//! `json_decode($text, true)`, as the model does them while one of them is switched on. Their
//! catalogue entries are in [`crate::mutants::php`].

use serde_json::{Map, Value};

use super::{Mutant, on};
use crate::model::blank::is_ascii_blank;

/// The whitespace PHP 8 allows around a numeric string (and `(int)` skips in front of one).
fn php_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}')
}

/// The length of the longest prefix of `text` that reads as a PHP number:
/// `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`, and whether it holds a fraction or
/// an exponent. `None` when no prefix does.
fn number_prefix(text: &str) -> Option<(usize, bool)> {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i, i > start)
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (after_int, has_int) = digits(i);
    i = after_int;
    let mut real = false;
    let mut has_frac = false;
    if b.get(i) == Some(&b'.') {
        let (after_frac, some) = digits(i + 1);
        if has_int || some {
            i = after_frac;
            has_frac = some;
            real = true;
        }
    }
    if !has_int && !has_frac {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let (after_exp, some) = digits(i + 1 + sign);
        if some {
            i = after_exp;
            real = true;
        }
    }
    Some((i, real))
}

/// The value of a PHP 8 numeric string (leading and trailing ASCII whitespace allowed), or
/// `None` when `text` is not one (`"1"`, `"01"`, `" 1"`, `"1e0"` and `"1.0"` all read 1).
fn numeric_string(text: &str) -> Option<f64> {
    let inner = text.trim_matches(php_space);
    let (end, _) = number_prefix(inner)?;
    (end == inner.len())
        .then(|| inner.parse::<f64>().ok())
        .flatten()
}

/// PHP 8's `(int) $text`: the leading number (after leading whitespace), truncated; 0 when
/// there is none.
fn int_cast(text: &str) -> i128 {
    let inner = text.trim_start_matches(php_space);
    let Some((end, real)) = number_prefix(inner) else {
        return 0;
    };
    let lexeme = &inner[..end];
    if real {
        lexeme.parse::<f64>().map_or(0, |f| f.trunc() as i128)
    } else {
        lexeme.parse::<i128>().unwrap_or(i128::MAX)
    }
}

/// A JSON number as PHP's `(string)` writes it (`1.0` is `"1"`).
fn number_text(value: &serde_json::Number) -> String {
    if value.is_f64() {
        let f = value.as_f64().unwrap_or(f64::NAN);
        if f.fract() == 0.0 && f.abs() < 1e15 {
            return format!("{}", f as i64);
        }
    }
    value.to_string()
}

/// The rule for a string property: exactly `"1"` or ASCII blank decodes.
fn reference_string(text: &str) -> bool {
    text == "1" || is_ascii_blank(text)
}

/// The gate decision (`Some(true)`: decode) under the active PHP mutant for the property
/// `value` (`None`: absent). `number_value` is true on ASB, whose properties carry numbers and
/// booleans. `None`: the rule applies.
pub fn gate_decodes(value: Option<&Value>, number_value: bool) -> Option<bool> {
    let typed = matches!(value, Some(Value::Number(_) | Value::Bool(_)));
    if typed && !number_value {
        return None;
    }
    if on(Mutant::PhpGateEmptyIsAbsent) {
        // if (empty($value)) { /* no version */ }
        let empty = match value {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty() || s == "0",
            Some(Value::Number(n)) => n.as_f64() == Some(0.0),
            Some(Value::Bool(b)) => !b,
            Some(_) => false,
        };
        return empty.then_some(true);
    }
    if on(Mutant::PhpGateLooseEquals) {
        // $value === null || trim($value) === '' || $value == '1'
        return Some(match value {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => is_ascii_blank(s) || numeric_string(s) == Some(1.0),
            Some(Value::Number(n)) => n.as_f64() == Some(1.0),
            Some(Value::Bool(b)) => *b,
            Some(_) => false,
        });
    }
    if on(Mutant::PhpGateStringCast) {
        // $text = (string) $value; then the string rule
        return Some(match value {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => reference_string(s),
            Some(Value::Number(n)) => reference_string(&number_text(n)),
            Some(Value::Bool(b)) => reference_string(if *b { "1" } else { "" }),
            Some(_) => false,
        });
    }
    None
}

/// Whether decode takes `meta.schema_version` for the supported version 1 under the active
/// mutant's `$meta['schema_version'] == 1` (`false`: only the rule's integer 1 is): PHP 8 holds
/// that for the float 1.0, for `true` and for every numeric string worth 1 (`"1"`, `"01"`,
/// `" 1"`, `"1 "`, `"1.0"`, `"1e0"`).
pub fn loosely_one(value: &Value) -> bool {
    on(Mutant::PhpSchemaVersionLooseEquals)
        && match value {
            Value::Number(n) => n.as_f64() == Some(1.0),
            Value::String(s) => numeric_string(s) == Some(1.0),
            Value::Bool(b) => *b,
            _ => false,
        }
}

/// Whether a string `job`, `urn` or `trace_id` is blank under the active mutant (`None`: the
/// rule applies): `$job ?: $urn` also skips the falsy string `"0"`.
pub fn blank(text: &str) -> Option<bool> {
    on(Mutant::PhpZeroStringIsAbsent).then(|| text == "0" || is_ascii_blank(text))
}

/// A text counter under the active mutant's `(int)` cast (`None`: the rule applies). A
/// negative count reads as 0: it can never raise a count.
pub fn count(text: &str) -> Option<Option<u64>> {
    on(Mutant::PhpIntCastCounter)
        .then(|| Some(u64::try_from(int_cast(text).max(0)).unwrap_or(u64::MAX)))
}

/// The seen-set key of `id` under the active mutant (`None`: `id` itself): `strtolower`, or
/// the class of ids a loose `in_array` finds equal (numeric strings compare as numbers).
pub fn dedup_key(id: &str) -> Option<String> {
    if on(Mutant::PhpSeenSetStrtolower) {
        Some(id.to_ascii_lowercase())
    } else if on(Mutant::PhpSeenSetLooseInArray) {
        numeric_string(id).map(|n| format!("\u{0}number:{}", n + 0.0))
    } else {
        None
    }
}

/// The envelope as `json_encode(json_decode($text, true))` writes it back (`None`: the rule
/// applies): every object with no members, or with the members "0", "1"... in order, becomes
/// an array.
pub fn reencoded(envelope: &Value) -> Option<Value> {
    on(Mutant::PhpAssocArrayReencode).then(|| assoc(envelope.clone()))
}

fn assoc(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let sequential = map.keys().enumerate().all(|(i, k)| *k == i.to_string());
            if sequential {
                Value::Array(map.into_iter().map(|(_, v)| assoc(v)).collect())
            } else {
                Value::Object(
                    map.into_iter()
                        .map(|(k, v)| (k, assoc(v)))
                        .collect::<Map<String, Value>>(),
                )
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(assoc).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn php_numbers() {
        for (text, want) in [
            ("1", Some(1.0)),
            ("01", Some(1.0)),
            (" 1", Some(1.0)),
            ("1 ", Some(1.0)),
            ("1e0", Some(1.0)),
            ("1.0", Some(1.0)),
            (".5", Some(0.5)),
            ("1\n", Some(1.0)),
            ("x", None),
            ("1x", None),
            ("\u{a0}1", None),
            ("", None),
            (".", None),
        ] {
            assert_eq!(numeric_string(text), want, "{text:?}");
        }
        for (text, want) in [
            ("5abc", 5),
            ("not-a-number", 0),
            ("1e1", 10),
            (" 7", 7),
            ("-3", -3),
            ("2.9", 2),
        ] {
            assert_eq!(int_cast(text), want, "{text:?}");
        }
    }

    #[test]
    fn schema_version_loose_equals() {
        let ones = json!([1, 1.0, "1", "1.0", "01", " 1", "1 ", "1e0", true]);
        let others = json!([2, 0.5, "1x", "", "one", false, null, [1], {"v": 1}]);
        let all = || {
            ones.as_array()
                .into_iter()
                .chain(others.as_array())
                .flatten()
        };
        assert!(all().all(|v| !loosely_one(v)));
        super::super::with_mutant(Mutant::PhpSchemaVersionLooseEquals, || {
            for v in ones.as_array().into_iter().flatten() {
                assert!(loosely_one(v), "{v}");
            }
            for v in others.as_array().into_iter().flatten() {
                assert!(!loosely_one(v), "{v}");
            }
        });
    }

    #[test]
    fn assoc_arrays_lose_object_shape() {
        let v = serde_json::json!({"a": {}, "b": {"0": "x", "1": {"k": []}}, "c": {"1": 2}});
        assert_eq!(
            assoc(v),
            serde_json::json!({"a": [], "b": ["x", {"k": []}], "c": {"1": 2}})
        );
    }
}
