//! The variations of the payload-schema (`payload`) mutants: what the model does instead of the
//! rule while one of them is switched on. Their catalogue entries are in
//! [`crate::mutants::payload`].

use serde_json::{Map, Value};

use super::{Mutant, on};

/// The schema the validator effectively applies (`None`: the schema as written).
pub fn schema(schema: &Value) -> Option<Value> {
    if !on(Mutant::PayloadAdditionalPropertiesIgnored) {
        return None;
    }
    Some(without_additional_properties(schema))
}

fn without_additional_properties(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "additionalProperties")
                .map(|(k, v)| (k.clone(), without_additional_properties(v)))
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(without_additional_properties).collect())
        }
        other => other.clone(),
    }
}

/// The data as a validator with a wrong string length sees it: every string whose length under
/// the active measure differs from its code-point count is replaced by one of that many code
/// points (`None`: no length mutant is on, the data is validated as it is).
pub fn data(data: &Value) -> Option<Value> {
    let measure: fn(&str) -> usize = if on(Mutant::PayloadLengthUtf8Bytes) {
        str::len
    } else if on(Mutant::PayloadLengthUtf16Units) {
        |s| s.encode_utf16().count()
    } else if on(Mutant::PayloadLengthGraphemes) {
        |s| s.chars().filter(|c| !is_combining_mark(*c)).count()
    } else {
        return None;
    };
    Some(remeasured(data, measure))
}

fn remeasured(value: &Value, measure: fn(&str) -> usize) -> Value {
    match value {
        Value::String(s) => {
            let n = measure(s);
            if n == s.chars().count() {
                value.clone()
            } else {
                Value::String("x".repeat(n))
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| remeasured(v, measure)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), remeasured(v, measure)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The combining-mark blocks a simple grapheme count folds into the previous character.
fn is_combining_mark(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}
