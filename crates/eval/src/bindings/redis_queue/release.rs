//! The body a release hands back (broker-bindings §1.1, ADR-0031): the delivered body with
//! `attempts` advanced by one and every other member, its type, its position and `{}` / `[]`
//! kept; integers of any length stay exact. A body that is not a JSON object with a numeric
//! (non-boolean) `attempts` goes back unchanged.
//!
//! The SDK reads the body with a map-based reader (a repeated member keeps its first position
//! and its last value; `NaN` / `Infinity` constants are read) and writes compact JSON without
//! escaping non-ASCII characters.

use super::cjson;
use super::json_text::{Dialect, JVal, Num, parse};
use crate::switch::redis as mutant;

/// The released body for the delivered `body`.
pub fn released_body(body: &str) -> String {
    let Some(JVal::Obj(members)) = parse(body, Dialect::Python) else {
        return body.to_owned();
    };
    let mut map: Vec<(String, JVal)> = Vec::with_capacity(members.len());
    for (k, v) in members {
        match map.iter_mut().find(|(seen, _)| *seen == k) {
            Some(slot) => slot.1 = v,
            None => map.push((k, v)),
        }
    }
    let Some(slot) = map.iter_mut().find(|(k, _)| k == "attempts") else {
        return body.to_owned();
    };
    let JVal::Num(n) = &slot.1 else {
        return body.to_owned();
    };
    if mutant::release_keeps_attempts() {
        return body.to_owned();
    }
    if mutant::release_body_cjson()
        && let Ok(member) = cjson::reserved_member(body)
    {
        return member;
    }
    slot.1 = JVal::Num(plus_one(n));
    let mut out = String::new();
    write(&JVal::Obj(map), &mut out);
    out
}

/// `n + 1`: exact for an integer literal, a double otherwise.
fn plus_one(n: &Num) -> Num {
    match n.integer {
        Some(i) if n.int_literal => match i.checked_add(1) {
            Some(j) => Num {
                value: j as f64,
                integer: Some(j),
                int_literal: true,
            },
            None => float(n.value + 1.0),
        },
        _ => float(n.value + 1.0),
    }
}

fn float(value: f64) -> Num {
    Num {
        value,
        integer: None,
        int_literal: false,
    }
}

/// Compact JSON of a value whose objects hold each key once.
fn write(value: &JVal, out: &mut String) {
    match value {
        JVal::Null => out.push_str("null"),
        JVal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JVal::Num(n) => out.push_str(&number(n)),
        JVal::Str(s) => string(s, out),
        JVal::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        JVal::Obj(members) => {
            out.push('{');
            let mut first = true;
            for (i, (k, v)) in members.iter().enumerate() {
                // A nested repeated member: first position, last value.
                if members[..i].iter().any(|(seen, _)| seen == k) {
                    continue;
                }
                let last = members[i..]
                    .iter()
                    .rev()
                    .find(|(later, _)| later == k)
                    .map_or(v, |(_, lv)| lv);
                if !first {
                    out.push(',');
                }
                first = false;
                string(k, out);
                out.push(':');
                write(last, out);
            }
            out.push('}');
        }
    }
}

/// An integer literal keeps its digits; a double is written so it reads back as a double.
fn number(n: &Num) -> String {
    match n.integer {
        Some(i) if n.int_literal => i.to_string(),
        _ if n.value.is_nan() => "NaN".to_owned(),
        _ if n.value == f64::INFINITY => "Infinity".to_owned(),
        _ if n.value == f64::NEG_INFINITY => "-Infinity".to_owned(),
        // Debug formatting always shows a fraction or an exponent.
        _ => format!("{:?}", n.value),
    }
}

fn string(s: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn released(body: &str) -> Value {
        serde_json::from_str(&released_body(body)).expect("valid JSON")
    }

    #[test]
    fn only_attempts_changes() {
        let body = "{\"job\":\"urn:a\",\"attempts\":1,\"x\":{\"e\":{},\"l\":[],\"k\":[1,2.5,null]},\
                    \"t\":\"caf\u{e9} a/b \u{2603}\",\"big\":123456789012345678901234567890}";
        let out = released_body(body);
        assert!(
            out.contains("\"big\":123456789012345678901234567890"),
            "{out}"
        );
        assert!(out.contains("caf\u{e9} a/b \u{2603}"), "{out}");
        assert_eq!(
            released(body)["x"],
            json!({"e": {}, "l": [], "k": [1, 2.5, null]})
        );
        assert_eq!(released(body)["attempts"], json!(2));
        assert_eq!(released("{\"attempts\":1.5}")["attempts"], json!(2.5));
        assert_eq!(
            released_body("{\"a\":1,\"attempts\":0,\"a\":2}"),
            "{\"a\":2,\"attempts\":1}"
        );
    }

    #[test]
    fn unchanged_without_a_numeric_attempts() {
        for body in [
            "not-json",
            "[]",
            "{\"attempts\":\"3\"}",
            "{\"attempts\":true}",
            "{\"a\":1}",
        ] {
            assert_eq!(released_body(body), body);
        }
    }
}
