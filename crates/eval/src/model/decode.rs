//! Consumer side of the reference model: text -> [`Decoded`] or a [`Rejection`].
//!
//! Rules (DESIGN.md "Reference model (decode) rules" and the spec's envelope sections):
//! - keys are matched case-sensitively (`JOB`, `Data`, `meta.Queue` are unknown keys);
//! - a repeated key follows last wins and is never merged;
//! - identity: `job` when it is a non-blank string; a non-string `job` is ignored with a warning
//!   at `/job`; a blank string `job` counts as absent (silently). Without an identity from `job`,
//!   `urn` when it is a non-blank string. With an identity from `job`, a present `urn` is a
//!   forbidden key: warning at `/urn`, dropped. No identity -> reject;
//! - `data` must be an object, `meta` an object whose `schema_version` is the integer 1;
//! - `attempts` is an integer >= 0, absent -> 0;
//! - forbidden keys (`timestamp`; `meta.max_retries`, `meta.attempts`, `meta.source`, `meta.ts`)
//!   warn and are dropped; every other unknown key is preserved verbatim, in order.
//!
//! The scan of a text's top-level keys (repeats included) lives in [`super::keys`].

use std::fmt;

use serde_json::{Map, Value};

use super::blank::is_ascii_blank;
use super::constants::{FORBIDDEN_META_KEYS, SUPPORTED_SCHEMA_VERSION};
use crate::switch::decode as mutant;
use crate::switch::jvm_dotnet::is_forbidden_key;
use crate::switch::{php, python};
use bqsuite_core::ids::escape_token;

pub use super::keys::{duplicate_top_level_keys, top_level_keys};

/// A non-fatal finding of decode: the key at `pointer` was ignored or dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// RFC 6901 pointer of the offending key in the inbound envelope (`/urn`, `/meta/ts`).
    pub pointer: String,
    pub message: String,
}

/// Where the resolved URN was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentitySource {
    Job,
    Urn,
}

/// Why decode refused an envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectKind {
    /// The text is not JSON.
    NotJson,
    /// The top level is not a JSON object.
    NotObject,
    /// Neither `job` nor `urn` yields a non-blank string identity.
    NoIdentity,
    /// `data` is missing or not an object.
    Data,
    /// `meta` is missing or not an object.
    Meta,
    /// `meta.schema_version` is missing or not the integer 1.
    SchemaVersion,
    /// `attempts` is present but not an integer >= 0.
    Attempts,
}

impl RejectKind {
    /// A short phrase naming the rejection, for verdict messages.
    pub fn label(self) -> &'static str {
        match self {
            RejectKind::NotJson => "not JSON",
            RejectKind::NotObject => "not a JSON object",
            RejectKind::NoIdentity => "no identity",
            RejectKind::Data => "data is not an object",
            RejectKind::Meta => "meta is not an object",
            RejectKind::SchemaVersion => "unsupported schema_version",
            RejectKind::Attempts => "attempts is not an integer >= 0",
        }
    }
}

/// Decode refused the envelope: `accepts(envelope)` is false.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub kind: RejectKind,
    pub reason: String,
}

impl Rejection {
    fn new(kind: RejectKind, reason: impl Into<String>) -> Self {
        Rejection {
            kind,
            reason: reason.into(),
        }
    }

    /// `rejected (<label>)`, the phrase verdicts use for the derived side.
    pub fn verdict_words(&self) -> String {
        format!("rejected ({})", self.kind.label())
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.label(), self.reason)
    }
}

/// The `meta` block: the five core fields (kept verbatim, `schema_version` already checked) and
/// every other non-forbidden key in inbound order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meta {
    pub id: Option<Value>,
    pub queue: Option<Value>,
    pub lang: Option<Value>,
    pub schema_version: u64,
    pub created_at: Option<Value>,
    /// Unknown meta keys (including `ext` and wrongly cased keys), in order.
    pub extras: Map<String, Value>,
}

/// An accepted envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The resolved identity (from `job`, or from the `urn` alias).
    pub urn: String,
    pub identity_source: IdentitySource,
    /// `trace_id` as-is (never trimmed); `None` when absent or not a string.
    pub trace_id: Option<String>,
    pub data: Map<String, Value>,
    pub meta: Meta,
    pub attempts: u64,
    /// The `dead_letter` block, verbatim, when present.
    pub dead_letter: Option<Value>,
    /// Unknown top-level keys, in order.
    pub extras: Map<String, Value>,
    pub warnings: Vec<Warning>,
}

impl Decoded {
    /// True when decode warned about the key at `pointer`.
    pub fn warned_about(&self, pointer: &str) -> bool {
        self.warnings.iter().any(|w| w.pointer == pointer)
    }
}

/// How many texts [`decode`] has parsed in this process: the evaluator's work, observable (a
/// fixture that many cases share must be parsed once per evaluation, not once per case).
pub fn texts_decoded() -> usize {
    TEXTS_DECODED.load(std::sync::atomic::Ordering::Relaxed)
}

static TEXTS_DECODED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Parses `text` (last wins on a repeated key) and decodes it.
pub fn decode(text: &str) -> Result<Decoded, Rejection> {
    decode_parsed(text, None)
}

/// Decodes `text`, whose value `parsed` is when the caller already parsed it (as `decode` does,
/// with [`bqsuite_core::json::parse_value`]).
pub fn decode_parsed(text: &str, parsed: Option<Value>) -> Result<Decoded, Rejection> {
    TEXTS_DECODED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let value: Value = match (mutant::reparse(text), parsed) {
        (Some(value), _) | (None, Some(value)) => value,
        (None, None) => bqsuite_core::json::parse_value(text)
            .map_err(|e| Rejection::new(RejectKind::NotJson, format!("invalid JSON: {e}")))?,
    };
    decode_value(value)
}

fn warn(warnings: &mut Vec<Warning>, pointer: String, message: impl Into<String>) {
    warnings.push(Warning {
        pointer,
        message: message.into(),
    });
}

/// Decodes an already parsed envelope.
pub fn decode_value(value: Value) -> Result<Decoded, Rejection> {
    let Value::Object(top) = value else {
        return Err(Rejection::new(
            RejectKind::NotObject,
            "the envelope is not a JSON object",
        ));
    };
    let mut top = mutant::fold_key_case(top);
    let mut warnings = Vec::new();
    if mutant::urn_type_is_fatal(&top) {
        return Err(Rejection::new(
            RejectKind::NoIdentity,
            "`urn` is not a string",
        ));
    }
    let (urn, identity_source) = decode_identity(&top, &mut warnings)?;
    let data = take_data(&mut top)?;
    let meta_map = match top.get("meta") {
        Some(Value::Object(map)) => map,
        Some(other) => {
            return Err(Rejection::new(
                RejectKind::Meta,
                format!("`meta` is {}, not an object", type_name(other)),
            ));
        }
        None => return Err(Rejection::new(RejectKind::Meta, "`meta` is missing")),
    };
    let meta = decode_meta(meta_map, &mut warnings)?;
    let attempts = match top.get("attempts") {
        None => 0,
        Some(v) => v
            .as_u64()
            .or_else(|| python::bool_as_int(v))
            .ok_or_else(|| {
                Rejection::new(
                    RejectKind::Attempts,
                    format!("`attempts` is {}, not an integer >= 0", compact(v)),
                )
            })?,
    };
    let trace_id = match top.get("trace_id") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            warn(
                &mut warnings,
                "/trace_id".to_string(),
                "`trace_id` is not a string and is ignored",
            );
            None
        }
    };
    let (dead_letter, extras) = the_rest(&top, &mut warnings);
    Ok(Decoded {
        urn,
        identity_source,
        trace_id,
        data,
        meta,
        attempts,
        dead_letter,
        extras,
        warnings,
    })
}

/// The message's identity: a non-blank string `job`, else a non-blank string `urn`.
fn decode_identity(
    top: &Map<String, Value>,
    warnings: &mut Vec<Warning>,
) -> Result<(String, IdentitySource), Rejection> {
    let from_job = match top.get("job") {
        None => None,
        Some(Value::String(s)) if !is_blank_identity(s) => Some(s.clone()),
        Some(Value::String(_)) => None,
        Some(other) => {
            warn(
                warnings,
                "/job".to_string(),
                "`job` is not a string and is ignored",
            );
            mutant::coerce_job(other)
        }
    };
    if let Some(job) = from_job {
        if top.contains_key("urn") {
            warn(
                warnings,
                "/urn".to_string(),
                "`urn` beside `job` is a forbidden key and is dropped",
            );
        }
        return Ok((job, IdentitySource::Job));
    }
    match top.get("urn") {
        Some(Value::String(s)) if !is_blank_identity(s) => Ok((s.clone(), IdentitySource::Urn)),
        _ => Err(Rejection::new(
            RejectKind::NoIdentity,
            "no non-blank string `job` or `urn`: the message has no identity",
        )),
    }
}

/// `data`, moved out rather than copied (it may be most of the envelope); `top` keeps an empty
/// object under the key, which nothing after reads.
fn take_data(top: &mut Map<String, Value>) -> Result<Map<String, Value>, Rejection> {
    match top.get_mut("data") {
        Some(Value::Object(map)) => Ok(std::mem::take(map)),
        Some(Value::Array(items)) if mutant::accepts_list_data() => Ok(mutant::list_as_map(items)),
        Some(other) => Err(Rejection::new(
            RejectKind::Data,
            format!("`data` is {}, not an object", type_name(other)),
        )),
        None => Err(Rejection::new(RejectKind::Data, "`data` is missing")),
    }
}

/// The top-level members besides the core ones: `dead_letter`, and the extras kept as they
/// are; forbidden keys are dropped with a warning.
fn the_rest(
    top: &Map<String, Value>,
    warnings: &mut Vec<Warning>,
) -> (Option<Value>, Map<String, Value>) {
    let mut extras = Map::new();
    let mut dead_letter = None;
    for (key, value) in top {
        match key.as_str() {
            "job" | "urn" | "trace_id" | "data" | "meta" | "attempts" => {}
            "dead_letter" => dead_letter = Some(value.clone()),
            k if is_forbidden_key(k, &["timestamp"]) && !mutant::keeps_forbidden_keys() => warn(
                warnings,
                format!("/{}", escape_token(k)),
                format!("`{k}` is a forbidden key and is dropped"),
            ),
            _ => {
                extras.insert(key.clone(), value.clone());
            }
        }
    }
    (dead_letter, extras)
}

fn decode_meta(map: &Map<String, Value>, warnings: &mut Vec<Warning>) -> Result<Meta, Rejection> {
    let schema_version = match map.get("schema_version") {
        Some(v) if v.as_u64() == Some(SUPPORTED_SCHEMA_VERSION) || php::loosely_one(v) => {
            SUPPORTED_SCHEMA_VERSION
        }
        Some(v) => {
            return Err(Rejection::new(
                RejectKind::SchemaVersion,
                format!(
                    "meta.schema_version {} is not a supported version",
                    compact(v)
                ),
            ));
        }
        None => {
            return Err(Rejection::new(
                RejectKind::SchemaVersion,
                "meta.schema_version is missing",
            ));
        }
    };
    let mut meta = Meta {
        schema_version,
        ..Meta::default()
    };
    for (key, value) in map {
        let k = key.as_str();
        match k {
            "id" => meta.id = Some(value.clone()),
            "queue" => meta.queue = Some(value.clone()),
            "lang" => meta.lang = Some(value.clone()),
            "created_at" => meta.created_at = Some(value.clone()),
            "schema_version" => {}
            _ if is_forbidden_key(k, &FORBIDDEN_META_KEYS) && !mutant::keeps_forbidden_keys() => {
                warn(
                    warnings,
                    format!("/meta/{}", escape_token(k)),
                    format!("`meta.{k}` is a forbidden key and is dropped"),
                )
            }
            _ => {
                meta.extras.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(meta)
}

/// Whether a string `job` or `urn` is blank (empty or only ASCII whitespace).
fn is_blank_identity(s: &str) -> bool {
    mutant::blank_override(s)
        .or_else(|| php::blank(s))
        .or_else(|| python::blank(s))
        .unwrap_or_else(|| is_ascii_blank(s))
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "<unprintable>".to_string())
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
