//! The variations of the projection mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::projection`].

use serde_json::{Map, Number, Value};

use super::{Mutant, on};

/// The wall clock a "now" mutant reads: a fixed instant (2026-01-01T00:00:00Z, Unix ms), so the
/// model stays a pure function; no fixture has it as its `created_at`.
pub const SEND_TIME_MS: u64 = 1_767_225_600_000;

fn stringify(map: &mut Map<String, Value>) {
    for value in map.values_mut() {
        if let Value::Number(n) = value {
            *value = Value::String(n.to_string());
        }
    }
}

/// SQS `MessageAttributes` as the active mutant writes them.
pub fn sqs(mut attributes: Map<String, Value>) -> Map<String, Value> {
    if on(Mutant::SqsCountersAsString) {
        for value in attributes.values_mut() {
            if let Some(map) = value.as_object_mut() {
                map.insert("DataType".to_owned(), Value::String("String".to_owned()));
            }
        }
    }
    attributes
}

/// A projection with its `bq-created-at` entry, which a truthiness test (`if (meta.created_at)`)
/// leaves out when `created_at` is 0.
pub fn created_at_kept(mut map: Map<String, Value>, created_at: &Number) -> Map<String, Value> {
    if on(Mutant::CreatedAtZeroDropped) && created_at.as_u64() == Some(0) {
        map.remove("bq-created-at");
    }
    map
}

/// The Kafka record timestamp as the active mutant sets it: the send time instead of
/// `created_at`.
pub fn kafka_record_timestamp(created_at: Number) -> Number {
    if on(Mutant::KafkaRecordTimestampNow) {
        Number::from(SEND_TIME_MS)
    } else {
        created_at
    }
}

/// The Artemis creation-time as the active mutant sets it: the send time when `created_at` is 0
/// (`created_at || Date.now()`).
pub fn artemis_creation_time(created_at: Number) -> Number {
    if on(Mutant::ArtemisCreationTimeNowWhenZero) && created_at.as_u64() == Some(0) {
        Number::from(SEND_TIME_MS)
    } else {
        created_at
    }
}

/// ASB `ApplicationProperties` as the active mutant writes them.
pub fn asb(mut properties: Map<String, Value>) -> Map<String, Value> {
    if on(Mutant::AsbPropertiesStringified) {
        stringify(&mut properties);
    }
    properties
}

/// The shared Pulsar / Kafka `bq-` string set as the active mutant writes it.
pub fn bq_strings(mut properties: Map<String, Value>) -> Map<String, Value> {
    if on(Mutant::BqPropertiesWithoutAttempts) {
        properties.remove("bq-attempts");
    }
    properties
}

/// The Artemis application properties as the active mutant writes them.
pub fn artemis(properties: Map<String, Value>) -> Map<String, Value> {
    if !on(Mutant::ArtemisHyphenatedProperties) {
        return properties;
    }
    properties
        .into_iter()
        .map(|(k, v)| (k.replace('_', "-"), v))
        .collect()
}

/// The RabbitMQ headers as the active mutant writes them.
pub fn rabbitmq_headers(mut headers: Map<String, Value>) -> Map<String, Value> {
    if on(Mutant::RabbitmqHeadersStringified) {
        stringify(&mut headers);
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::with_mutant;
    use serde_json::json;

    fn with_created_at(ms: u64) -> Map<String, Value> {
        [("bq-created-at".to_owned(), json!(ms))]
            .into_iter()
            .collect()
    }

    #[test]
    fn the_rule_keeps_every_created_at() {
        let zero = Number::from(0_u64);
        assert_eq!(created_at_kept(with_created_at(0), &zero).len(), 1);
        assert_eq!(kafka_record_timestamp(zero.clone()), zero);
        assert_eq!(artemis_creation_time(zero.clone()), zero);
    }

    #[test]
    fn truthiness_drops_only_zero() {
        with_mutant(Mutant::CreatedAtZeroDropped, || {
            let zero = Number::from(0_u64);
            assert!(created_at_kept(with_created_at(0), &zero).is_empty());
            let one = Number::from(1_u64);
            assert_eq!(created_at_kept(with_created_at(1), &one).len(), 1);
        });
    }

    #[test]
    fn now_mutants_read_the_send_time() {
        let now = Number::from(SEND_TIME_MS);
        let later = Number::from(2_147_483_648_123_u64);
        with_mutant(Mutant::KafkaRecordTimestampNow, || {
            assert_eq!(kafka_record_timestamp(later.clone()), now);
        });
        with_mutant(Mutant::ArtemisCreationTimeNowWhenZero, || {
            assert_eq!(artemis_creation_time(Number::from(0_u64)), now);
            assert_eq!(artemis_creation_time(later.clone()), later);
        });
    }
}
