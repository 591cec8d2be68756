//! Re-emit side of the reference model: encode, the attempts bump and the dead-letter move.

use std::fmt;

use serde_json::{Map, Value};

use super::constants::{
    CANONICAL_TOP_KEYS, CORE_META_KEYS, DEAD_LETTER_REASONS, FORBIDDEN_META_KEYS,
    FORBIDDEN_TOP_KEYS, MODEL_LANG, PLACEHOLDER_TIME_MS,
};
use super::decode::Decoded;
use super::decode::IdentitySource;
use crate::switch::{copied, encode as mutant, go, javascript, jvm_dotnet, php, trim};
use bqsuite_core::ids::escape_token;

/// Encode refused to emit the message (never a silent drop).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// The refused key, as written (`timestamp`, `max_retries`).
    pub key: String,
    /// Its pointer in the envelope that would have been emitted (`/timestamp`, `/meta/ts`).
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "encode refused {}: {}", self.pointer, self.message)
    }
}

fn refuse(key: &str, pointer: String, message: String) -> EncodeError {
    EncodeError {
        key: key.to_string(),
        pointer,
        message,
    }
}

/// Emits the envelope: `job` (the resolved URN, never `urn`), `trace_id` (when known), `data`
/// (an empty map stays `{}`), `meta` (core fields then extras), `attempts`, `dead_letter` (when
/// present) and the preserved top-level extras.
///
/// Refuses a forbidden key in the extras (top: `timestamp`, `urn`; meta: `max_retries`,
/// `attempts`, `source`, `ts`) and an extra that would shadow a key encode writes itself.
pub fn encode(message: &Decoded) -> Result<Value, EncodeError> {
    if !mutant::emits_forbidden_extras() {
        refuse_extras(message)?;
    }
    Ok(encode_checked(
        message,
        message.data.clone(),
        !mutant::drops_unknown_keys(),
    ))
}

/// [`encode`] of a message that is not needed afterwards: its `data` moves into the output
/// instead of being copied, so a large payload is held once.
pub fn encode_owned(mut message: Decoded) -> Result<Value, EncodeError> {
    if !mutant::emits_forbidden_extras() {
        refuse_extras(&message)?;
    }
    let data = std::mem::take(&mut message.data);
    Ok(encode_checked(
        &message,
        data,
        !mutant::drops_unknown_keys(),
    ))
}

/// Refuses a forbidden key among the preserved extras, or one that would shadow a key encode
/// writes itself.
fn refuse_extras(message: &Decoded) -> Result<(), EncodeError> {
    for key in message.extras.keys() {
        let k = key.as_str();
        let pointer = format!("/{}", escape_token(k));
        if FORBIDDEN_TOP_KEYS.contains(&k) {
            return Err(refuse(
                k,
                pointer,
                format!("top-level `{k}` is a forbidden key"),
            ));
        }
        if CANONICAL_TOP_KEYS.contains(&k) {
            return Err(refuse(
                k,
                pointer,
                format!("a preserved extra `{k}` collides with the canonical key"),
            ));
        }
    }
    for key in message.meta.extras.keys() {
        let k = key.as_str();
        let pointer = format!("/meta/{}", escape_token(k));
        if FORBIDDEN_META_KEYS.contains(&k) {
            return Err(refuse(k, pointer, format!("`meta.{k}` is a forbidden key")));
        }
        if CORE_META_KEYS.contains(&k) {
            return Err(refuse(
                k,
                pointer,
                format!("a meta extra `{k}` collides with the core meta key"),
            ));
        }
    }
    Ok(())
}

/// Emits the envelope once [`refuse_extras`] passed (see [`encode`]), with `data` as the
/// message's data.
fn encode_checked(message: &Decoded, data: Map<String, Value>, keep_extras: bool) -> Value {
    let mut meta = Map::new();
    let core = [
        ("id", &message.meta.id),
        ("queue", &message.meta.queue),
        ("lang", &message.meta.lang),
    ];
    for (key, value) in core {
        if let Some(v) = value {
            meta.insert(key.to_string(), v.clone());
        }
    }
    meta.insert(
        "schema_version".to_string(),
        Value::from(message.meta.schema_version),
    );
    if let Some(v) = &message.meta.created_at {
        // One mutant at a time is on: at most one of these rewrites the value.
        let written = javascript::created_at(v)
            .or_else(|| go::created_at(v))
            .or_else(|| copied::reemitted_created_at(PLACEHOLDER_TIME_MS));
        meta.insert(
            "created_at".to_string(),
            written.unwrap_or_else(|| v.clone()),
        );
    }
    if keep_extras {
        for (key, value) in &message.meta.extras {
            meta.insert(key.clone(), value.clone());
        }
    }

    let mut out = Map::new();
    let from_alias = message.identity_source == IdentitySource::Urn;
    out.insert(
        mutant::identity_key(from_alias).to_string(),
        Value::String(trim::reencode_value(&message.urn).to_string()),
    );
    if let Some(trace_id) = &message.trace_id {
        out.insert(
            "trace_id".to_string(),
            Value::String(trim::reencode_value(trace_id).to_string()),
        );
    }
    out.insert("data".to_string(), mutant::data_value(data));
    out.insert("meta".to_string(), Value::Object(meta));
    out.insert(
        "attempts".to_string(),
        jvm_dotnet::attempts_value(message.attempts)
            .unwrap_or_else(|| Value::from(message.attempts)),
    );
    if let Some(dead_letter) = &message.dead_letter {
        out.insert("dead_letter".to_string(), dead_letter.clone());
    }
    if keep_extras {
        for (key, value) in &message.extras {
            out.insert(key.clone(), value.clone());
        }
    }
    let out = Value::Object(out);
    php::reencoded(&out).unwrap_or(out)
}

/// [`encode`], serialized as compact JSON text.
pub fn encode_to_string(message: &Decoded) -> Result<String, EncodeError> {
    let value = encode(message)?;
    serde_json::to_string(&value).map_err(|e| refuse("", String::new(), e.to_string()))
}

/// The retry hop: `attempts + 1` (saturating).
pub fn bump_attempts(message: &mut Decoded) {
    if mutant::skips_attempts_bump() {
        return;
    }
    message.attempts = message.attempts.saturating_add(1);
}

/// The DLQ helper refused its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetterError {
    pub message: String,
}

impl fmt::Display for DeadLetterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Moves the message to the dead-letter queue: everything is kept (unknown keys included) and the
/// `dead_letter` block is (re)placed with `{reason, original_queue, failed_at, attempts, lang}`.
/// `reason` must be one of `failed`, `unknown_urn`, `poison`.
pub fn dead_letter_move(
    message: &mut Decoded,
    reason: &str,
    original_queue: &str,
) -> Result<(), DeadLetterError> {
    if !DEAD_LETTER_REASONS.contains(&reason) {
        return Err(DeadLetterError {
            message: format!(
                "dead-letter reason {reason:?} is not one of {}",
                DEAD_LETTER_REASONS.join(", ")
            ),
        });
    }
    let mut block = Map::new();
    block.insert("reason".to_string(), Value::from(reason));
    let original_queue =
        copied::dead_letter_original_queue(original_queue, message.meta.queue.as_ref());
    block.insert("original_queue".to_string(), Value::from(original_queue));
    block.insert("failed_at".to_string(), Value::from(PLACEHOLDER_TIME_MS));
    block.insert("attempts".to_string(), Value::from(message.attempts));
    block.insert("lang".to_string(), Value::from(MODEL_LANG));
    message.dead_letter = Some(Value::Object(block));
    if mutant::dead_letter_drops_extras() {
        message.extras.clear();
        message.meta.extras.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::decode::decode;
    use super::*;
    use serde_json::json;

    const BASE: &str = r#"{"job":"urn:babel:orders:created","trace_id":"t","data":{},
        "meta":{"id":"i","queue":"orders","lang":"cobol","schema_version":1,"created_at":5,
        "vendor_flag":true,"ext":{"acme":{"a":[1,{}]}}},"attempts":2,"extra_top":1}"#;

    fn base() -> Decoded {
        decode(BASE).expect("fixture decodes")
    }

    #[test]
    fn roundtrip_keeps_everything() {
        let out = encode(&base()).expect("encodes");
        assert_eq!(
            out,
            json!({"job":"urn:babel:orders:created","trace_id":"t","data":{},
                "meta":{"id":"i","queue":"orders","lang":"cobol","schema_version":1,
                "created_at":5,"vendor_flag":true,"ext":{"acme":{"a":[1,{}]}}},
                "attempts":2,"extra_top":1})
        );
        assert_eq!(out.pointer("/data"), Some(&json!({})));
        let text = encode_to_string(&base()).expect("encodes");
        assert!(text.contains("\"data\":{}"));
    }

    #[test]
    fn urn_alias_reemits_as_job() {
        let d =
            decode(r#"{"urn":"urn:x","data":{},"meta":{"schema_version":1}}"#).expect("accepted");
        let out = encode(&d).expect("encodes");
        assert_eq!(out.pointer("/job"), Some(&json!("urn:x")));
        assert_eq!(out.pointer("/urn"), None);
        assert_eq!(out.pointer("/attempts"), Some(&json!(0)));
        assert_eq!(out.pointer("/trace_id"), None);
    }

    #[test]
    fn rejections() {
        let table: Vec<(bool, &str, Value, &str)> = vec![
            (true, "timestamp", json!(1), "/timestamp"),
            (true, "urn", json!("urn:y"), "/urn"),
            (true, "job", json!("urn:y"), "/job"),
            (true, "data", json!({}), "/data"),
            (false, "max_retries", json!(3), "/meta/max_retries"),
            (false, "attempts", json!(3), "/meta/attempts"),
            (false, "source", json!("s"), "/meta/source"),
            (false, "ts", json!(0), "/meta/ts"),
            (false, "id", json!("x"), "/meta/id"),
            (false, "schema_version", json!(2), "/meta/schema_version"),
        ];
        for (top, key, value, pointer) in table {
            let mut d = base();
            if top {
                d.extras.insert(key.to_string(), value);
            } else {
                d.meta.extras.insert(key.to_string(), value);
            }
            let err = encode(&d).expect_err(pointer);
            assert_eq!(err.pointer, pointer);
            assert_eq!(err.key, key);
        }
        let mut d = base();
        d.extras.insert("Timestamp".to_string(), json!(1));
        d.meta.extras.insert("TS".to_string(), json!(1));
        assert!(encode(&d).is_ok(), "wrong-case keys are ordinary extras");
    }

    #[test]
    fn bump_and_dead_letter() {
        let mut d = base();
        bump_attempts(&mut d);
        assert_eq!(d.attempts, 3);
        dead_letter_move(&mut d, "failed", "orders").expect("moved");
        let out = encode(&d).expect("encodes");
        assert_eq!(out.pointer("/dead_letter/reason"), Some(&json!("failed")));
        assert_eq!(
            out.pointer("/dead_letter/original_queue"),
            Some(&json!("orders"))
        );
        assert_eq!(out.pointer("/dead_letter/attempts"), Some(&json!(3)));
        assert_eq!(out.pointer("/attempts"), Some(&json!(3)));
        assert_eq!(out.pointer("/extra_top"), Some(&json!(1)));
        assert_eq!(out.pointer("/meta/vendor_flag"), Some(&json!(true)));
        assert!(dead_letter_move(&mut d, "timeout", "orders").is_err());
        let mut max = base();
        max.attempts = u64::MAX;
        bump_attempts(&mut max);
        assert_eq!(max.attempts, u64::MAX);
    }
}
