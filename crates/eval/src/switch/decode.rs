//! The variations of the decode mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::decode`].

use serde_json::{Map, Value};

use super::{Mutant, on};
use crate::model::blank::is_ascii_blank;
use bqsuite_core::json::parse::{Kind, Node, parse};

/// The parsed envelope under a repeated-key mutant (`None`: no such mutant is on, or the text
/// does not parse, which the normal path reports).
pub fn reparse(text: &str) -> Option<Value> {
    let first_wins = on(Mutant::DecodeDuplicateFirstWins);
    if !first_wins && !on(Mutant::DecodeDuplicateObjectsMerged) {
        return None;
    }
    parse(text).ok().map(|node| fold(&node, first_wins))
}

fn fold(node: &Node, first_wins: bool) -> Value {
    match &node.kind {
        Kind::Object(members) => {
            let mut map = Map::new();
            for m in members {
                let value = fold(&m.value, first_wins);
                match map.get_mut(&m.key) {
                    None => {
                        map.insert(m.key.clone(), value);
                    }
                    Some(_) if first_wins => {}
                    Some(Value::Object(old)) => {
                        if let Value::Object(new) = value {
                            old.extend(new);
                        } else {
                            map.insert(m.key.clone(), value);
                        }
                    }
                    Some(slot) => *slot = value,
                }
            }
            Value::Object(map)
        }
        Kind::Array(items) => Value::Array(items.iter().map(|n| fold(n, first_wins)).collect()),
        _ => node.to_value(),
    }
}

/// The top-level map under [`Mutant::DecodeKeysCaseInsensitive`]: a key whose lower-case
/// spelling is a canonical key stands for it (later keys win).
pub fn fold_key_case(top: Map<String, Value>) -> Map<String, Value> {
    if !on(Mutant::DecodeKeysCaseInsensitive) {
        return top;
    }
    const CANONICAL: [&str; 7] = [
        "job",
        "urn",
        "trace_id",
        "data",
        "meta",
        "attempts",
        "dead_letter",
    ];
    let mut out = Map::new();
    for (key, value) in top {
        let lower = key.to_ascii_lowercase();
        let key = if CANONICAL.contains(&lower.as_str()) {
            lower
        } else {
            key
        };
        out.insert(key, value);
    }
    out
}

/// Whether a job or urn string is blank, as the active mutant reads it (`None`: the model's
/// own ASCII rule applies).
pub fn blank_override(s: &str) -> Option<bool> {
    if on(Mutant::DecodeBlankEmptyOnly) {
        Some(s.is_empty())
    } else if on(Mutant::DecodeBlankUnicode) {
        Some(s.chars().all(char::is_whitespace))
    } else if on(Mutant::DecodeBlankJavaTrim) {
        Some(s.chars().all(|c| c <= ' '))
    } else {
        None
    }
}

/// The identity a non-string job yields under a coercing mutant (`None`: ignored, the rule).
pub fn coerce_job(job: &Value) -> Option<String> {
    let text = match job {
        Value::Array(items) if on(Mutant::DecodeJobArrayCoerced) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(map) if on(Mutant::DecodeJobObjectUnwrapped) => {
            map.values().find_map(Value::as_str)?.to_owned()
        }
        _ => return None,
    };
    (!is_ascii_blank(&text)).then_some(text)
}

/// True when the active mutant refuses an envelope whose `urn` is present but not a string.
pub fn urn_type_is_fatal(top: &Map<String, Value>) -> bool {
    on(Mutant::DecodeUrnNonStringFatal) && top.get("urn").is_some_and(|urn| !urn.is_string())
}

/// True when the active mutant keeps forbidden keys as unknown keys (no warning).
pub fn keeps_forbidden_keys() -> bool {
    on(Mutant::DecodeForbiddenKeysKept)
}

/// Whether a trace_id is blank for `accepts`, as the active mutant reads it (`None`: the
/// model's own ASCII rule applies).
pub fn trace_id_blank_override(t: &str) -> Option<bool> {
    if on(Mutant::AcceptsTraceIdEmptyOnly) {
        Some(t.is_empty())
    } else if on(Mutant::AcceptsTraceIdBlankUnicode) {
        Some(t.chars().all(char::is_whitespace))
    } else {
        None
    }
}

/// True when decode takes an array `data` for a map (keys "0", "1"...).
pub fn accepts_list_data() -> bool {
    on(Mutant::DecodeListDataAccepted)
}

/// The map a list-as-map decoder makes of an array `data`.
pub fn list_as_map(items: &[Value]) -> Map<String, Value> {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| (i.to_string(), v.clone()))
        .collect()
}
