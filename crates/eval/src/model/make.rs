//! Producer side of the reference model: `make(urn, trace_id?, queue, data, meta)`.
//!
//! - `urn` and `trace_id` are ASCII-trimmed (only space, `\t`, `\n`, `\v`, `\f`, `\r`; Unicode
//!   spaces stay in the value); a blank URN is an error; a blank or absent trace id is replaced by
//!   a generated one (here a fixed placeholder);
//! - meta entries go through the meta write API: a forbidden key, a core meta key or a repeated
//!   key is an error;
//! - `extras_top` / `extras_meta` stand for preserved unknown keys carried over from an inbound
//!   message; they are not checked here but by [`super::encode::encode`], which refuses forbidden
//!   keys among them.

use std::fmt;

use serde_json::{Map, Value};

use super::blank::is_ascii_blank;
use super::constants::{
    CORE_META_KEYS, FORBIDDEN_META_KEYS, MODEL_LANG, PLACEHOLDER_MESSAGE_ID, PLACEHOLDER_TIME_MS,
    PLACEHOLDER_TRACE_ID, SUPPORTED_SCHEMA_VERSION,
};
use super::decode::{Decoded, IdentitySource, Meta};
use crate::switch::{copied, encode as encode_mutant, go, javascript, python, trim};

/// Everything the producer API (plus test access to the extras containers) takes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MakeInput {
    pub urn: String,
    pub trace_id: Option<String>,
    pub queue: String,
    pub data: Map<String, Value>,
    /// Meta write API entries, in call order (a repeated key is representable).
    pub meta_entries: Vec<(String, Value)>,
    /// Preserved unknown top-level keys.
    pub extras_top: Map<String, Value>,
    /// Preserved unknown meta keys.
    pub extras_meta: Map<String, Value>,
    /// The clock reading make stamps `meta.created_at` with, in Unix milliseconds (`None`: the
    /// placeholder time).
    pub now_ms: Option<u64>,
}

/// make refused its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MakeError {
    /// `urn`, or the refused meta key as written (`max_retries`, `ext`).
    pub offending_key: String,
    pub message: String,
}

impl fmt::Display for MakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "make refused `{}`: {}", self.offending_key, self.message)
    }
}

fn refuse(key: &str, message: String) -> MakeError {
    MakeError {
        offending_key: key.to_string(),
        message,
    }
}

/// Builds a new message (attempts 0, lang [`MODEL_LANG`], placeholder id, created_at from
/// `now_ms` or the placeholder time).
pub fn make(input: MakeInput) -> Result<Decoded, MakeError> {
    let urn = python::strip(&input.urn).unwrap_or_else(|| trim::make_trim_urn(&input.urn));
    let checked = if trim::blank_check_before_trim() {
        input.urn.is_empty()
    } else {
        is_ascii_blank(urn)
    };
    if checked {
        return Err(refuse(
            "urn",
            "the URN is blank after ASCII trim".to_string(),
        ));
    }
    let trim_trace_id = |t| python::strip(t).unwrap_or_else(|| trim::make_trim_trace_id(t));
    let trace_id = match input.trace_id.as_deref().map(trim_trace_id) {
        Some(t) if !is_ascii_blank(t) => t.to_string(),
        _ => PLACEHOLDER_TRACE_ID.to_string(),
    };

    let mut extras = input.extras_meta;
    let mut written: Vec<&str> = Vec::new();
    for (key, value) in &input.meta_entries {
        let k = key.as_str();
        if FORBIDDEN_META_KEYS.contains(&k) {
            if encode_mutant::drops_forbidden_meta() {
                continue;
            }
            return Err(refuse(k, format!("`meta.{k}` is a forbidden key")));
        }
        if CORE_META_KEYS.contains(&k) {
            return Err(refuse(
                k,
                format!("`meta.{k}` is a core meta key owned by the SDK"),
            ));
        }
        if written.contains(&k) && !crate::switch::go::meta_entries_overwrite() {
            return Err(refuse(
                k,
                format!("meta key `{k}` is supplied more than once"),
            ));
        }
        written.push(k);
        let stored = javascript::meta_value(value).unwrap_or_else(|| value.clone());
        extras.insert(key.clone(), stored);
    }

    let now_ms = input.now_ms.unwrap_or(PLACEHOLDER_TIME_MS);
    let created_at = go::make_created_at(now_ms).unwrap_or(now_ms);
    let id = python::message_id(PLACEHOLDER_MESSAGE_ID)
        .or_else(|| copied::message_id(&trace_id))
        .unwrap_or_else(|| PLACEHOLDER_MESSAGE_ID.to_string());
    Ok(Decoded {
        urn: urn.to_string(),
        identity_source: IdentitySource::Job,
        trace_id: Some(trace_id),
        data: input.data,
        meta: Meta {
            id: Some(Value::from(id)),
            queue: Some(Value::from(input.queue)),
            lang: Some(Value::from(MODEL_LANG)),
            schema_version: SUPPORTED_SCHEMA_VERSION,
            created_at: Some(Value::from(created_at)),
            extras,
        },
        attempts: 0,
        dead_letter: None,
        extras: input.extras_top,
        warnings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::encode::encode;
    use super::*;
    use serde_json::json;

    fn input(urn: &str, trace_id: Option<&str>) -> MakeInput {
        MakeInput {
            urn: urn.to_string(),
            trace_id: trace_id.map(str::to_string),
            queue: "orders".to_string(),
            ..MakeInput::default()
        }
    }

    #[test]
    fn urn_trimming() {
        let u = "urn:babel:orders:created";
        let table: &[(&str, Option<&str>)] = &[
            (" urn:babel:orders:created ", Some(u)),
            ("\t\nurn:babel:orders:created\r\n", Some(u)),
            ("\u{0B}\u{0C}urn:babel:orders:created\u{0C}\u{0B}", Some(u)),
            (
                "\u{00A0}urn:babel:orders:created\u{00A0}",
                Some("\u{00A0}urn:babel:orders:created\u{00A0}"),
            ),
            (
                "\u{2003}urn:babel:orders:created\u{2003}",
                Some("\u{2003}urn:babel:orders:created\u{2003}"),
            ),
            (
                "urn:babel:orders:created\u{3000}",
                Some("urn:babel:orders:created\u{3000}"),
            ),
            ("\u{FEFF}", Some("\u{FEFF}")),
            (" \t\r\n", None),
            ("", None),
            ("\u{0B}\u{0C}", None),
        ];
        for (raw, want) in table {
            match (make(input(raw, None)), want) {
                (Ok(d), Some(w)) => {
                    let out = encode(&d).expect("encodes");
                    assert_eq!(out.pointer("/job"), Some(&json!(w)), "{raw:?}");
                }
                (Err(e), None) => assert_eq!(e.offending_key, "urn"),
                (got, want) => panic!("{raw:?}: {got:?} vs {want:?}"),
            }
        }
    }

    #[test]
    fn trace_id_trimming() {
        let t = "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b";
        let table: &[(Option<&str>, String)] = &[
            (
                Some("  7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b\t"),
                t.to_string(),
            ),
            (Some(t), t.to_string()),
            (
                Some("\u{00A0}7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b\u{00A0}"),
                format!("\u{00A0}{t}\u{00A0}"),
            ),
            (Some(" \t"), PLACEHOLDER_TRACE_ID.to_string()),
            (Some(""), PLACEHOLDER_TRACE_ID.to_string()),
            (None, PLACEHOLDER_TRACE_ID.to_string()),
        ];
        for (raw, want) in table {
            let d = make(input("urn:x", *raw)).expect("made");
            assert_eq!(d.trace_id.as_deref(), Some(want.as_str()), "{raw:?}");
        }
    }

    #[test]
    fn meta_write_api() {
        type Entries<'a> = Vec<(&'a str, Value)>;
        let table: Vec<(Entries<'_>, Option<&str>)> = vec![
            (vec![("vendor_flag", json!(true))], None),
            (vec![("ext", json!({"acme": {"a": [1]}}))], None),
            (vec![("Queue", json!("x"))], None),
            (vec![("max_retries", json!(3))], Some("max_retries")),
            (vec![("attempts", json!(3))], Some("attempts")),
            (vec![("source", json!("s"))], Some("source")),
            (vec![("ts", json!(1))], Some("ts")),
            (vec![("id", json!("x"))], Some("id")),
            (vec![("queue", json!("x"))], Some("queue")),
            (vec![("lang", json!("go"))], Some("lang")),
            (vec![("schema_version", json!(1))], Some("schema_version")),
            (vec![("created_at", json!(1))], Some("created_at")),
            (
                vec![("ext", json!({"a": 1})), ("ext", json!({"b": 2}))],
                Some("ext"),
            ),
        ];
        for (entries, want) in table {
            let mut i = input("urn:x", None);
            i.meta_entries = entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            match (make(i), want) {
                (Ok(d), None) => {
                    let out = encode(&d).expect("encodes");
                    for (k, v) in &entries {
                        assert_eq!(out.pointer(&format!("/meta/{k}")), Some(v));
                    }
                    assert_eq!(out.pointer("/meta/lang"), Some(&json!("php")));
                    assert_eq!(out.pointer("/meta/schema_version"), Some(&json!(1)));
                    assert_eq!(out.pointer("/attempts"), Some(&json!(0)));
                    assert_eq!(out.pointer("/data"), Some(&json!({})));
                }
                (Err(e), Some(k)) => assert_eq!(e.offending_key, k),
                (got, want) => panic!("{entries:?}: {got:?} vs {want:?}"),
            }
        }
    }

    #[test]
    fn extras_are_refused_by_encode() {
        let table: Vec<(bool, &str)> = vec![
            (true, "timestamp"),
            (true, "urn"),
            (false, "max_retries"),
            (false, "ts"),
        ];
        for (top, key) in table {
            let mut i = input("urn:x", None);
            let map = if top {
                &mut i.extras_top
            } else {
                &mut i.extras_meta
            };
            map.insert(key.to_string(), json!(1));
            let d = make(i).expect("make itself accepts extras");
            assert_eq!(encode(&d).map_err(|e| e.key), Err(key.to_string()));
        }
    }
}
