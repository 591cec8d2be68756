//! The variations of the Java and .NET (`jvm-dotnet`) mutants: what the model does instead of
//! the rule while one of them is switched on. Their catalogue entries are in
//! [`crate::mutants::jvm_dotnet`].
//!
//! Each stands for a habit of Java or C# code: an `int` where the contract needs 64 bits,
//! timestamps kept in whole seconds, and case-insensitive stores, key lookups, enums and binders
//! (`StringComparer.OrdinalIgnoreCase`, `Enum.TryParse(value, ignoreCase: true)`,
//! `PropertyNameCaseInsensitive`).

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::{Mutant, on};

/// The `attempts` value encode writes for `attempts` when the counter is a 32-bit `int`: a value
/// past `int.MaxValue` wraps to a negative number (`None`: written as it is).
pub fn attempts_value(attempts: u64) -> Option<Value> {
    (on(Mutant::JvmAttemptsInt32) && attempts > i32::MAX as u64)
        .then(|| Value::from(i64::from(attempts as u32 as i32)))
}

/// The Redis delayed score computed in 32-bit `int` epoch seconds, which wraps after
/// 2038-01-19 (`None`: the rule applies).
pub fn redis_score(now: f64, delay: f64) -> Option<i128> {
    if !on(Mutant::JvmRedisScoreInt32) {
        return None;
    }
    let seconds = now.floor() as i64 as i32;
    let delay = delay.ceil() as i64 as i32;
    Some(i128::from(seconds.wrapping_add(delay)))
}

/// The idempotency key as a case-insensitive store compares it (`StringComparer.OrdinalIgnoreCase`,
/// a case-insensitive database collation): every casing of an id is one key.
pub fn store_key(key: Cow<'_, str>) -> Cow<'_, str> {
    if on(Mutant::DotnetIdempotencyStoreIgnoresCase) {
        Cow::Owned(key.to_lowercase())
    } else {
        key
    }
}

/// Whether decode treats `key` as one of the `forbidden` keys: equal to one of them, or under
/// the active mutant equal ignoring ASCII case (a lookup in a set built with
/// `StringComparer.OrdinalIgnoreCase`, or a Java `TreeMap` with `CASE_INSENSITIVE_ORDER`).
pub fn is_forbidden_key(key: &str, forbidden: &[&str]) -> bool {
    if on(Mutant::DotnetForbiddenKeysIgnoreCase) {
        forbidden.iter().any(|f| f.eq_ignore_ascii_case(key))
    } else {
        forbidden.contains(&key)
    }
}

/// `meta.created_at` as projected into a native timestamp property: in whole seconds
/// (`DateTimeOffset.ToUnixTimeSeconds()` instead of `ToUnixTimeMilliseconds()`), or carried as
/// 32-bit `int` epoch seconds and milliseconds (`(int) (createdAt / 1000)`), which wraps
/// negative after 2038-01-19.
pub fn projected_created_at(created_at: u64) -> Number {
    if on(Mutant::DotnetCreatedAtProjectedInSeconds) {
        Number::from(created_at / 1000)
    } else if on(Mutant::JvmCreatedAtInt32Seconds) {
        let seconds = (created_at / 1000) as u32 as i32;
        Number::from(i64::from(seconds) * 1000 + (created_at % 1000) as i64)
    } else {
        Number::from(created_at)
    }
}

/// The payload data as a case-insensitive binder or enum parser hands it to the validator
/// (`None`: the data as it is):
/// - a member whose name matches a property of `schema` in another casing is bound to it;
/// - a string that matches a member of an `enum` of `schema` in another casing is read as it.
pub fn payload_data(schema: &Value, data: &Value) -> Option<Value> {
    if on(Mutant::DotnetPayloadBinderIgnoresCase) {
        Some(bound(schema, data))
    } else if on(Mutant::DotnetPayloadEnumIgnoresCase) {
        Some(enum_parsed(schema, data))
    } else {
        None
    }
}

/// `data` with each member renamed to the property of `schema` it matches ignoring case.
fn bound(schema: &Value, data: &Value) -> Value {
    let (Some(properties), Value::Object(members)) = (schema["properties"].as_object(), data)
    else {
        return data.clone();
    };
    let renamed: Map<String, Value> = members
        .iter()
        .map(|(name, value)| {
            let target = properties
                .keys()
                .find(|p| p.eq_ignore_ascii_case(name))
                .unwrap_or(name);
            (target.clone(), value.clone())
        })
        .collect();
    Value::Object(renamed)
}

/// `data` with each string member that matches a member of its property's `enum` ignoring case
/// replaced by that member.
fn enum_parsed(schema: &Value, data: &Value) -> Value {
    let (Some(properties), Value::Object(members)) = (schema["properties"].as_object(), data)
    else {
        return data.clone();
    };
    let parsed: Map<String, Value> = members
        .iter()
        .map(|(name, value)| {
            let member = value.as_str().and_then(|text| {
                properties.get(name)?["enum"]
                    .as_array()?
                    .iter()
                    .find(|m| m.as_str().is_some_and(|m| m.eq_ignore_ascii_case(text)))
            });
            (name.clone(), member.unwrap_or(value).clone())
        })
        .collect();
    Value::Object(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::with_mutant;
    use serde_json::json;

    fn schema() -> Value {
        json!({"properties": {"order_id": {}, "currency": {"enum": ["USD", "EUR"]}}})
    }

    #[test]
    fn each_variation_is_off_without_its_mutant() {
        assert_eq!(attempts_value(1 << 31), None);
        assert_eq!(redis_score(2_147_483_647.5, 1.5), None);
        assert_eq!(store_key(Cow::Borrowed("ID-A")), "ID-A");
        assert_eq!(
            projected_created_at(2_147_483_648_123),
            Number::from(2_147_483_648_123_u64)
        );
        assert_eq!(payload_data(&schema(), &json!({"ORDER_ID": 1})), None);
        assert!(!is_forbidden_key("Timestamp", &["timestamp"]));
        assert!(is_forbidden_key("ts", &["max_retries", "ts"]));
    }

    #[test]
    fn the_variations() {
        with_mutant(Mutant::JvmAttemptsInt32, || {
            assert_eq!(attempts_value(1 << 31), Some(json!(-2_147_483_648_i64)));
            assert_eq!(attempts_value(5), None);
        });
        with_mutant(Mutant::JvmRedisScoreInt32, || {
            assert_eq!(redis_score(2_147_483_647.5, 1.5), Some(-2_147_483_647));
            assert_eq!(redis_score(1000.7, 1.5), Some(1002));
        });
        with_mutant(Mutant::DotnetIdempotencyStoreIgnoresCase, || {
            assert_eq!(store_key(Cow::Borrowed("ID-A")), "id-a");
        });
        with_mutant(Mutant::DotnetForbiddenKeysIgnoreCase, || {
            assert!(is_forbidden_key("Timestamp", &["timestamp"]));
            assert!(is_forbidden_key("MAX_retries", &["max_retries", "ts"]));
            assert!(!is_forbidden_key("timestamps", &["timestamp"]));
            assert!(!is_forbidden_key("\u{212A}s", &["ks"]));
        });
        with_mutant(Mutant::DotnetCreatedAtProjectedInSeconds, || {
            assert_eq!(
                projected_created_at(1_749_132_727_000),
                Number::from(1_749_132_727_u64)
            );
        });
        with_mutant(Mutant::JvmCreatedAtInt32Seconds, || {
            assert_eq!(
                projected_created_at(1_749_132_727_000),
                Number::from(1_749_132_727_000_u64)
            );
            assert_eq!(
                projected_created_at(2_147_483_648_123),
                Number::from(-2_147_483_647_877_i64)
            );
        });
        with_mutant(Mutant::DotnetPayloadBinderIgnoresCase, || {
            assert_eq!(
                payload_data(&schema(), &json!({"ORDER_ID": 1, "x": 2})),
                Some(json!({"order_id": 1, "x": 2}))
            );
        });
        with_mutant(Mutant::DotnetPayloadEnumIgnoresCase, || {
            assert_eq!(
                payload_data(&schema(), &json!({"currency": "usd", "order_id": "usd"})),
                Some(json!({"currency": "USD", "order_id": "usd"}))
            );
        });
    }
}
