//! The variations of the JSON Schema engine (`schema-engine`) mutants: what the payload
//! validator does instead of draft-07 while one of them is switched on. Their catalogue entries
//! are in [`crate::mutants::schema_engine`].
//!
//! Each is applied the way the other payload mutants are: the schema or the data is rewritten so
//! that the real draft-07 validator decides as the wrong engine would.

use serde_json::{Map, Number, Value};

use super::{Mutant, on};

/// What a wrong engine reads a schema member `(key, value)` as: the members it stands for
/// instead (`None`: the member as written).
type Rewrite = fn(&str, &Value) -> Option<Vec<(String, Value)>>;

/// The schema the wrong engine effectively applies (`None`: the schema as written).
pub fn schema(schema: &Value) -> Option<Value> {
    let rewrite: Rewrite = if on(Mutant::SchemaMinimumExclusive) {
        |key, value| {
            (key == "minimum").then(|| vec![("exclusiveMinimum".to_owned(), value.clone())])
        }
    } else if on(Mutant::SchemaMinimumTruncatesFraction) {
        // `(long) value >= minimum` holds for every value above `minimum - 1` when the
        // minimum is whole.
        |key, value| {
            let whole = value.as_i64().filter(|_| key == "minimum")?;
            Some(vec![(
                "exclusiveMinimum".to_owned(),
                Value::from(whole.checked_sub(1)?),
            )])
        }
    } else if on(Mutant::SchemaNumberRejectsIntegers) {
        |key, value| {
            (key == "type" && value == "number").then(|| {
                vec![
                    (key.to_owned(), value.clone()),
                    ("not".to_owned(), serde_json::json!({"type": "integer"})),
                ]
            })
        }
    } else if on(Mutant::SchemaDraft3RequiredIgnored) {
        |key, value| (key == "required" && value.is_array()).then(Vec::new)
    } else if on(Mutant::SchemaEnumPythonEquality) {
        |key, value| loosened(key, value, python_equals)
    } else if on(Mutant::SchemaEnumPhpLoose) {
        |key, value| loosened(key, value, php_equals)
    } else {
        return None;
    };
    Some(rewritten(schema, rewrite))
}

/// An `enum` or `const` member as an engine whose equality also holds for `also(v)` of each
/// listed value `v` reads it: an `enum` of the listed values and those (`None`: another member).
fn loosened(
    key: &str,
    value: &Value,
    also: fn(&Value) -> Vec<Value>,
) -> Option<Vec<(String, Value)>> {
    let listed: Vec<Value> = match key {
        "enum" => value.as_array()?.clone(),
        "const" => vec![value.clone()],
        _ => return None,
    };
    let mut held = listed.clone();
    for v in &listed {
        for extra in also(v) {
            if !held.contains(&extra) {
                held.push(extra);
            }
        }
    }
    Some(vec![("enum".to_owned(), Value::Array(held))])
}

/// What Python's `==` also takes for `v`: `True == 1`, `False == 0`.
fn python_equals(v: &Value) -> Vec<Value> {
    match v.as_f64() {
        Some(1.0) => vec![Value::Bool(true)],
        Some(0.0) => vec![Value::Bool(false)],
        _ => Vec::new(),
    }
}

/// What PHP 8's `==` (and `in_array` without strict) also takes for `v`: a number's decimal
/// text and the boolean of its truthiness, a numeric text's number, and `true` for any text
/// that is not empty or `"0"`.
fn php_equals(v: &Value) -> Vec<Value> {
    match v {
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            vec![Value::String(n.to_string()), Value::Bool(x != 0.0)]
        }
        Value::String(s) => {
            let mut out = vec![Value::Bool(!s.is_empty() && s != "0")];
            if let Ok(x) = s.trim().parse::<i64>() {
                out.push(Value::from(x));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// `value` with every member of every object passed through `rewrite` (`None`: kept as is,
/// with its value rewritten in turn).
fn rewritten(value: &Value, rewrite: Rewrite) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                match rewrite(k, v) {
                    Some(members) => out.extend(members),
                    None => {
                        out.insert(k.clone(), rewritten(v, rewrite));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| rewritten(v, rewrite)).collect()),
        other => other.clone(),
    }
}

/// The data as the wrong engine reads it (`None`: as it is).
pub fn data(data: &Value) -> Option<Value> {
    let read: fn(&Value) -> Option<Value> = if on(Mutant::SchemaBooleanAsInteger) {
        |v| v.as_bool().map(|b| Value::from(u8::from(b)))
    } else if on(Mutant::SchemaNumericStringCoerced) {
        |v| {
            let number = v.as_str()?.trim().parse::<f64>().ok()?;
            let integral = number.fract() == 0.0 && number.abs() < 9.0e15;
            Some(if integral {
                Value::from(number as i64)
            } else {
                Value::Number(Number::from_f64(number)?)
            })
        }
    } else if on(Mutant::SchemaRequiredPhpEmpty) {
        // `!empty($data[$name])` as the presence test: a member holding a value PHP calls
        // empty is as good as absent.
        |v| {
            let map = v.as_object()?;
            Some(Value::Object(
                map.iter()
                    .filter(|(_, m)| !php_empty(m))
                    .map(|(k, m)| (k.clone(), m.clone()))
                    .collect(),
            ))
        }
    } else if on(Mutant::SchemaIntegralFloatNotInteger) {
        // A number written as a float (`1042.0`) is not an integer to this engine: moved off
        // the whole number by a half, it stays a number on the same side of a whole bound.
        |v| match v {
            Value::Number(n) if n.is_f64() => {
                let x = n.as_f64()?;
                (x.fract() == 0.0 && x.abs() < 9.0e15)
                    .then(|| Number::from_f64(x + 0.5).map(Value::Number))?
            }
            _ => None,
        }
    } else {
        return None;
    };
    Some(reread(data, read))
}

/// PHP's `empty()`: null, false, 0, 0.0, `""`, `"0"` and an empty array.
fn php_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty() || s == "0",
        Value::Array(a) => a.is_empty(),
        Value::Object(_) => false,
    }
}

fn reread(value: &Value, read: fn(&Value) -> Option<Value>) -> Value {
    if let Some(v) = read(value) {
        return v;
    }
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), reread(v, read)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| reread(v, read)).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::with_mutant;
    use serde_json::json;

    fn order() -> Value {
        json!({"type": "object", "required": ["order_id"], "properties": {
            "order_id": {"type": "integer", "minimum": 1},
            "amount": {"type": "number", "minimum": 0}}})
    }

    #[test]
    fn each_variation_is_off_without_its_mutant() {
        assert_eq!(schema(&order()), None);
        assert_eq!(data(&json!({"order_id": true})), None);
    }

    #[test]
    fn the_schema_variations() {
        let at = |m: Mutant| with_mutant(m, || schema(&order()).expect("rewritten"));
        let s = at(Mutant::SchemaMinimumExclusive);
        assert_eq!(s["properties"]["order_id"]["exclusiveMinimum"], json!(1));
        assert_eq!(s["properties"]["order_id"].get("minimum"), None);
        let s = at(Mutant::SchemaMinimumTruncatesFraction);
        assert_eq!(s["properties"]["amount"]["exclusiveMinimum"], json!(-1));
        let s = at(Mutant::SchemaNumberRejectsIntegers);
        assert_eq!(s["properties"]["amount"]["not"], json!({"type": "integer"}));
        assert_eq!(s["properties"]["order_id"].get("not"), None);
        let s = at(Mutant::SchemaDraft3RequiredIgnored);
        assert_eq!(s.get("required"), None);
    }

    #[test]
    fn loose_equality_widens_enum_and_const() {
        let types = json!({"properties": {
            "priority": {"enum": [0, 1, 2]}, "flag": {"const": 1}, "c": {"enum": ["USD"]}}});
        let s = with_mutant(Mutant::SchemaEnumPythonEquality, || schema(&types).unwrap());
        assert_eq!(
            s["properties"]["priority"]["enum"],
            json!([0, 1, 2, false, true])
        );
        assert_eq!(s["properties"]["flag"], json!({"enum": [1, true]}));
        assert_eq!(s["properties"]["c"]["enum"], json!(["USD"]));
        let s = with_mutant(Mutant::SchemaEnumPhpLoose, || schema(&types).unwrap());
        assert_eq!(
            s["properties"]["priority"]["enum"],
            json!([0, 1, 2, "0", false, "1", true, "2"])
        );
        assert_eq!(s["properties"]["c"]["enum"], json!(["USD", true]));
    }

    #[test]
    fn the_data_variations() {
        assert_eq!(
            with_mutant(Mutant::SchemaRequiredPhpEmpty, || data(
                &json!({"a": 0, "b": "", "c": null, "d": "0", "e": "x", "f": [], "g": 2})
            )),
            Some(json!({"e": "x", "g": 2}))
        );
        let at = |m: Mutant, d: Value| with_mutant(m, || data(&d).expect("reread"));
        assert_eq!(
            at(
                Mutant::SchemaBooleanAsInteger,
                json!({"a": true, "b": [false]})
            ),
            json!({"a": 1, "b": [0]})
        );
        assert_eq!(
            at(
                Mutant::SchemaNumericStringCoerced,
                json!({"a": "1042", "b": "x", "c": "0.5"})
            ),
            json!({"a": 1042, "b": "x", "c": 0.5})
        );
        assert_eq!(
            at(
                Mutant::SchemaIntegralFloatNotInteger,
                json!({"a": 1042.0, "b": 7, "c": 0.25})
            ),
            json!({"a": 1042.5, "b": 7, "c": 0.25})
        );
    }
}
