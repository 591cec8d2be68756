//! The variations of the copied-value (`copied`) mutants: what the model does instead of the
//! rule while one of them is switched on. Their catalogue entries are in
//! [`crate::mutants::copied`].
//!
//! Each stands for a value the author did not compute: copied from the one example a section
//! shows, filled from the neighbouring field, "now" where the contract carries a time through,
//! or a limit borrowed from another transport.

use serde_json::Value;

use super::{Mutant, on};
use crate::bindings::decimal::Dec;

/// SQS's largest `DelaySeconds` (broker-bindings §3.4).
const SQS_MAX_DELAY_SECONDS: f64 = 900.0;

/// SQS's largest visibility timeout, 12 hours (broker-bindings §3.5).
const SQS_MAX_VISIBILITY_SECONDS: u64 = 43_200;

/// Azure Service Bus's default `MaxDeliveryCount`.
const ASB_DEFAULT_MAX_DELIVERY_COUNT: u64 = 10;

/// The `original_queue` the DLQ helper writes when asked for `requested`: the message's own
/// `meta.queue` when the mutant is on and the message has one.
pub fn dead_letter_original_queue<'a>(
    requested: &'a str,
    meta_queue: Option<&'a Value>,
) -> &'a str {
    if on(Mutant::CopiedDeadLetterQueueFromMeta) {
        meta_queue.and_then(Value::as_str).unwrap_or(requested)
    } else {
        requested
    }
}

/// `meta.created_at` as re-emitted by a constructor that stamps the current time, given the
/// model's clock `now_ms` (`None`: written as it was read).
pub fn reemitted_created_at(now_ms: u64) -> Option<Value> {
    on(Mutant::CopiedReemitCreatedAtNow).then(|| Value::from(now_ms))
}

/// The `retry_backoff_max` the worker helper applies: a configured cap of 0 (none) or above
/// 12 hours becomes SQS's visibility limit (`None`: as configured).
pub fn retry_backoff_max(max: Dec) -> Option<Dec> {
    if !on(Mutant::CopiedRetryBackoffSqsVisibilityCap) {
        return None;
    }
    let limit = Dec::from_u64(SQS_MAX_VISIBILITY_SECONDS);
    Some(if max.is_zero() { limit } else { max.min(limit) })
}

/// The Redis delayed score with the delay clamped to SQS's `DelaySeconds` limit (`None`: the
/// rule applies).
pub fn redis_score(now: f64, delay: f64) -> Option<i128> {
    on(Mutant::CopiedRedisDelaySqsCap)
        .then(|| now.floor() as i128 + delay.min(SQS_MAX_DELAY_SECONDS).ceil() as i128)
}

/// The max attempts of a Pulsar consumer configured with none.
pub fn default_max_attempts(contract_default: u64) -> u64 {
    if on(Mutant::CopiedExhaustionMaxAttemptsFromAsb) {
        ASB_DEFAULT_MAX_DELIVERY_COUNT
    } else {
        contract_default
    }
}

/// The correlation id a producer writes, given the envelope's `trace_id` and `meta.id`.
pub fn correlation_id<'a>(trace_id: &'a str, message_id: &'a str) -> &'a str {
    if on(Mutant::CopiedCorrelationIdFromMessageId) {
        message_id
    } else {
        trace_id
    }
}

/// The tiers the requested-delay rule searches: the contract's example list instead of the
/// configured one (`None`: the configured tiers).
pub fn requested_delay_tiers(example: &[u64]) -> Option<Vec<u64>> {
    on(Mutant::CopiedBackoffExampleTiers).then(|| example.to_vec())
}

/// The `meta.id` make writes under the active mutant (`None`: the rule applies): the message's
/// own `trace_id`, the neighbouring id, instead of a fresh one.
pub fn message_id(trace_id: &str) -> Option<String> {
    on(Mutant::CopiedMessageIdFromTraceId).then(|| trace_id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::with_mutant;
    use serde_json::json;

    #[test]
    fn each_variation_is_off_without_its_mutant() {
        let queue = json!("orders");
        assert_eq!(dead_letter_original_queue("other", Some(&queue)), "other");
        assert_eq!(reemitted_created_at(0), None);
        assert_eq!(retry_backoff_max(Dec::ZERO), None);
        assert_eq!(redis_score(1000.0, 3600.0), None);
        assert_eq!(default_max_attempts(3), 3);
        assert_eq!(correlation_id("t", "m"), "t");
        assert_eq!(requested_delay_tiers(&[1]), None);
    }

    #[test]
    fn the_variations() {
        with_mutant(Mutant::CopiedDeadLetterQueueFromMeta, || {
            let queue = json!("orders");
            assert_eq!(dead_letter_original_queue("other", Some(&queue)), "orders");
            assert_eq!(dead_letter_original_queue("other", None), "other");
        });
        with_mutant(Mutant::CopiedRetryBackoffSqsVisibilityCap, || {
            let limit = Dec::from_u64(43_200);
            assert_eq!(retry_backoff_max(Dec::ZERO), Some(limit));
            assert_eq!(
                retry_backoff_max(Dec::from_u64(10)),
                Some(Dec::from_u64(10))
            );
            assert_eq!(retry_backoff_max(Dec::from_u64(99_999)), Some(limit));
        });
        with_mutant(Mutant::CopiedRedisDelaySqsCap, || {
            assert_eq!(redis_score(1000.0, 3600.0), Some(1900));
        });
        with_mutant(Mutant::CopiedExhaustionMaxAttemptsFromAsb, || {
            assert_eq!(default_max_attempts(3), 10);
        });
        with_mutant(Mutant::CopiedCorrelationIdFromMessageId, || {
            assert_eq!(correlation_id("t", "m"), "m");
        });
    }
}
