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
    } else {
        return None;
    };
    Some(rewritten(schema, rewrite))
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
    fn the_data_variations() {
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
