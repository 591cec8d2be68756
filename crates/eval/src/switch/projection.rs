//! The variations of the projection mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::projection`].

use serde_json::{Map, Value};

use super::{Mutant, on};

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
