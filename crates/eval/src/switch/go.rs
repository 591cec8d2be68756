//! The variations of the Go (`go`) mutants: what the model does instead of the rule while one of
//! them is switched on. Their catalogue entries are in [`crate::mutants::go`].
//!
//! Each stands for a habit of Go code: typed structs that read a JSON `null` or a missing header
//! as the zero value, `strings.TrimSpace` (which trims every Unicode space), `time.Time`
//! arithmetic that keeps whole seconds (`t.Unix()`), and functional options that write into a
//! map.

use std::borrow::Cow;

use serde_json::Value;

use super::{Mutant, on};

/// The payload data as a validator sees it after unmarshalling into a typed struct: every
/// `null` member becomes the zero value (`None`: the data as it is). A number field is the
/// common case, so the zero value is written as `0`.
pub fn payload_data(data: &Value) -> Option<Value> {
    on(Mutant::GoPayloadNullAsZeroValue).then(|| nulls_to_zero(data))
}

fn nulls_to_zero(value: &Value) -> Value {
    match value {
        Value::Null => Value::from(0),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), nulls_to_zero(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(nulls_to_zero).collect()),
        other => other.clone(),
    }
}

/// The Kafka `bq-attempts` header as a typed (non-pointer) field reads it: an absent header is
/// the zero value 0, which then overrides the body.
pub fn counter_read(section: &str, counter: Option<u64>) -> Option<u64> {
    if on(Mutant::GoKafkaAbsentHeaderReadsZero) && section == "kafka" {
        Some(counter.unwrap_or(0))
    } else {
        counter
    }
}

/// The idempotency key of a non-empty `meta.id` under the active mutant: `strings.TrimSpace(id)`
/// (`None`: the trimmed id is empty, so the delivery fails open).
pub fn dedup_key(id: &str) -> Option<Cow<'_, str>> {
    if !on(Mutant::GoIdempotencyKeyTrimSpace) {
        return Some(Cow::Borrowed(id));
    }
    let trimmed = id.trim();
    (!trimmed.is_empty()).then_some(Cow::Borrowed(trimmed))
}

/// The Redis delayed score as `now.Add(delay).Unix()` computes it: the whole seconds of the
/// sum, so a sub-second delay can land on the current second (`None`: the rule applies).
pub fn redis_score(now: f64, delay: f64) -> Option<i128> {
    on(Mutant::GoRedisScoreUnixOfSum).then(|| (now + delay).floor() as i128)
}

/// `meta.created_at` as re-emitted after a round trip through `time.Time` and `t.Unix()`: the
/// milliseconds are lost (`None`: written as it was read).
pub fn created_at(value: &Value) -> Option<Value> {
    if !on(Mutant::GoCreatedAtUnixSeconds) {
        return None;
    }
    value.as_u64().map(|ms| Value::from(ms / 1000 * 1000))
}

/// `meta.created_at` as make stamps it from the clock reading `now_ms` under the active mutant
/// (`None`: the rule applies): `time.Now().Unix()`, whole seconds where milliseconds are due.
pub fn make_created_at(now_ms: u64) -> Option<u64> {
    on(Mutant::GoMakeCreatedAtUnixSeconds).then_some(now_ms / 1000)
}

/// The version-gate decision for a string property under `strings.TrimSpace(v)`, then a
/// comparison with "1" or "" (`None`: the rule applies).
pub fn gate_decodes(text: &str) -> Option<bool> {
    if !on(Mutant::GoGateTrimSpace) {
        return None;
    }
    let trimmed = text.trim();
    Some(trimmed == "1" || trimmed.is_empty())
}

/// True when the meta write API's options write into a map, so a repeated key overwrites the
/// earlier one instead of being refused.
pub fn meta_entries_overwrite() -> bool {
    on(Mutant::GoMetaEntriesIntoMap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::with_mutant;
    use serde_json::json;

    #[test]
    fn each_variation_is_off_without_its_mutant() {
        assert_eq!(payload_data(&json!({"a": null})), None);
        assert_eq!(counter_read("kafka", None), None);
        assert_eq!(dedup_key(" a "), Some(Cow::Borrowed(" a ")));
        assert_eq!(redis_score(1000.2, 0.1), None);
        assert_eq!(created_at(&json!(1_749_132_727_123_u64)), None);
        assert_eq!(gate_decodes(" 1"), None);
        assert!(!meta_entries_overwrite());
    }

    #[test]
    fn the_variations() {
        with_mutant(Mutant::GoPayloadNullAsZeroValue, || {
            assert_eq!(
                payload_data(&json!({"a": null, "b": [null]})),
                Some(json!({"a": 0, "b": [0]}))
            );
        });
        with_mutant(Mutant::GoKafkaAbsentHeaderReadsZero, || {
            assert_eq!(counter_read("kafka", None), Some(0));
            assert_eq!(counter_read("sqs", None), None);
        });
        with_mutant(Mutant::GoIdempotencyKeyTrimSpace, || {
            assert_eq!(dedup_key("\u{a0}id-A "), Some(Cow::Borrowed("id-A")));
            assert_eq!(dedup_key(" "), None);
        });
        with_mutant(Mutant::GoRedisScoreUnixOfSum, || {
            assert_eq!(redis_score(1000.2, 0.1), Some(1000));
        });
        with_mutant(Mutant::GoCreatedAtUnixSeconds, || {
            assert_eq!(
                created_at(&json!(1_749_132_727_123_u64)),
                Some(json!(1_749_132_727_000_u64))
            );
        });
        with_mutant(Mutant::GoGateTrimSpace, || {
            assert_eq!(gate_decodes("\u{a0}1"), Some(true));
            assert_eq!(gate_decodes("2"), Some(false));
        });
    }
}
