//! Bridges between a scanned document and `serde_json` values, and the "same parsed JSON"
//! comparison the DLQ record check uses.

use serde_json::{Map, Number, Value};

use super::scan::{Doc, Kind};

/// The document as a `serde_json` value (a repeated name keeps its last value, at the place
/// of its first), or `None` when a number has no `serde_json` form (`1e400`). Built from the
/// deepest nodes up, without recursion: every child is scanned after its parent, so it has a
/// larger index.
pub fn to_value(doc: &Doc<'_>) -> Option<Value> {
    let mut built: Vec<Option<Value>> = vec![None; doc.nodes.len()];
    for i in (0..doc.nodes.len()).rev() {
        let value = match &doc.nodes[i].kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number => Value::Number(doc.source(i).parse::<Number>().ok()?),
            Kind::String { value, .. } => Value::String(value.clone()),
            Kind::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|&k| built[k].take())
                    .collect::<Option<_>>()?,
            ),
            Kind::Object(members) => {
                let mut map = Map::new();
                for (name, k) in members {
                    map.insert(name.text.clone(), built[*k].take()?);
                }
                Value::Object(map)
            }
        };
        built[i] = Some(value);
    }
    built.into_iter().next().flatten()
}

/// Equality of parsed JSON: member order does not matter and numbers compare by value
/// (`1` equals `1.0`).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::poison::scan::scan;
    use serde_json::json;

    #[test]
    fn converts_with_last_wins_and_refuses_unrepresentable_numbers() {
        let doc = scan(r#"{"a":1,"b":[true,null,"x"],"a":{"c":1.5}}"#).unwrap();
        assert_eq!(
            to_value(&doc),
            Some(json!({"a": {"c": 1.5}, "b": [true, null, "x"]}))
        );
        assert_eq!(to_value(&scan(r#"{"n":1e400}"#).unwrap()), None);
    }

    #[test]
    fn compares_parsed_json() {
        assert!(json_eq(
            &json!({"a": 1, "b": [2.0]}),
            &json!({"b": [2], "a": 1.0})
        ));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": null})));
        assert!(!json_eq(&json!({"a": "1"}), &json!({"a": 1})));
    }
}
