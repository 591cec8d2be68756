//! Exact comparison of an expectation with what the model derives: the first difference, at the
//! pointer of the expectation field that holds it. A member missing on either side is a
//! difference at that member's pointer.

use serde_json::Value;

use bqsuite_core::evaluator::{Mismatch, Verdict};
use bqsuite_core::json::pointer::join;

/// What a side shows for a member it does not have.
const ABSENT: &str = "(absent)";

/// `Pass` when `expected` (at `pointer`) equals `derived`, else the first difference.
pub(crate) fn verdict(expected: &Value, derived: &Value, pointer: &str) -> Verdict {
    match first_difference(expected, derived, pointer) {
        None => Verdict::Pass,
        Some(m) => Verdict::Mismatch(m),
    }
}

/// A mismatch at `pointer` between two texts.
pub(crate) fn mismatch(pointer: &str, expected: String, derived: String) -> Verdict {
    Verdict::Mismatch(Mismatch {
        pointer: pointer.to_owned(),
        expected,
        derived,
    })
}

/// Compact JSON.
pub(crate) fn compact(value: &Value) -> String {
    value.to_string()
}

fn first_difference(expected: &Value, derived: &Value, pointer: &str) -> Option<Mismatch> {
    let differ = || {
        Some(Mismatch {
            pointer: pointer.to_owned(),
            expected: compact(expected),
            derived: compact(derived),
        })
    };
    match (expected, derived) {
        (Value::Object(e), Value::Object(d)) => {
            for (key, ev) in e {
                let at = join(pointer, key);
                match d.get(key) {
                    Some(dv) => {
                        if let Some(m) = first_difference(ev, dv, &at) {
                            return Some(m);
                        }
                    }
                    None => return Some(one_sided(at, Some(ev), None)),
                }
            }
            d.iter()
                .find(|(key, _)| !e.contains_key(*key))
                .map(|(key, dv)| one_sided(join(pointer, key), None, Some(dv)))
        }
        (Value::Array(e), Value::Array(d)) => {
            for (at, (ev, dv)) in e.iter().zip(d).enumerate() {
                if let Some(m) = first_difference(ev, dv, &join(pointer, &at.to_string())) {
                    return Some(m);
                }
            }
            let at = e.len().min(d.len());
            (e.len() != d.len())
                .then(|| one_sided(join(pointer, &at.to_string()), e.get(at), d.get(at)))
        }
        _ if expected == derived => None,
        _ => differ(),
    }
}

fn one_sided(pointer: String, expected: Option<&Value>, derived: Option<&Value>) -> Mismatch {
    let show = |v: Option<&Value>| v.map_or_else(|| ABSENT.to_owned(), compact);
    Mismatch {
        pointer,
        expected: show(expected),
        derived: show(derived),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(expected: Value, derived: Value) -> Option<(String, String, String)> {
        first_difference(&expected, &derived, "/c/expect")
            .map(|m| (m.pointer, m.expected, m.derived))
    }

    #[test]
    fn the_first_difference_is_reported_at_its_field() {
        assert_eq!(
            at(json!({"a": [1, {"b": "x"}]}), json!({"a": [1, {"b": "x"}]})),
            None
        );
        assert_eq!(
            at(json!({"a": 1, "b": 2}), json!({"a": 1, "b": 3})),
            Some(("/c/expect/b".into(), "2".into(), "3".into()))
        );
        assert_eq!(
            at(json!({"a": 1}), json!({"a": 1, "t": "5"})),
            Some(("/c/expect/t".into(), ABSENT.into(), "\"5\"".into()))
        );
        assert_eq!(
            at(json!({"a": 1, "t": "5"}), json!({"a": 1})),
            Some(("/c/expect/t".into(), "\"5\"".into(), ABSENT.into()))
        );
        assert_eq!(
            at(json!([1, 2]), json!([1])),
            Some(("/c/expect/1".into(), "2".into(), ABSENT.into()))
        );
        assert_eq!(
            at(json!({"k/~": 1}), json!({"k/~": 2})),
            Some(("/c/expect/k~1~0".into(), "1".into(), "2".into()))
        );
        // Types differ: the values are shown whole.
        assert_eq!(
            at(json!({"code": "1002"}), json!({"code": 1002})),
            Some(("/c/expect/code".into(), "\"1002\"".into(), "1002".into()))
        );
    }
}
