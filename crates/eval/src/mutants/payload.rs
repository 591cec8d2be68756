//! Payload-schema mutants (ADR-0024): how a validator measures a string for `minLength`, and a
//! validator that lets unlisted properties through.

use serde_json::{Map, Value};

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::PayloadAdditionalPropertiesIgnored,
        id: "payload-additional-properties-ignored",
        family: "payload",
        rule: "additionalProperties: false makes a property the schema does not list invalid",
        habit: "a hand-rolled validator that checks the listed properties and skips the rest",
        sections: &["payload_schema"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthUtf8Bytes,
        id: "payload-length-utf8-bytes",
        family: "payload",
        rule: "minLength counts Unicode code points, not UTF-8 bytes",
        habit: "PHP strlen() / Go len(s) / a byte-length check on the encoded string",
        sections: &["payload_schema_unicode"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthUtf16Units,
        id: "payload-length-utf16-units",
        family: "payload",
        rule: "minLength counts Unicode code points, not UTF-16 code units",
        habit: "JavaScript / Java / C# string.length, which counts an emoji twice",
        sections: &["payload_schema_unicode"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthGraphemes,
        id: "payload-length-graphemes",
        family: "payload",
        rule: "minLength counts Unicode code points, not user-perceived characters",
        habit: "a grapheme-aware length (Swift String.count, grapheme_strlen) that folds a combining mark into its base",
        sections: &["payload_schema_unicode"],
    },
];

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
