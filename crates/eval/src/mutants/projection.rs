//! Projection mutants: the native metadata each broker transport writes beside the body.

use serde_json::{Map, Value};

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::SqsCountersAsString,
        id: "sqs-counters-as-string",
        family: "projection",
        rule: "SQS counters (bq-schema-version, bq-created-at) carry DataType Number",
        habit: "a helper that wraps every message attribute as DataType String",
        sections: &["sqs"],
    },
    MutantInfo {
        mutant: Mutant::AsbPropertiesStringified,
        id: "asb-properties-stringified",
        family: "projection",
        rule: "ASB ApplicationProperties keep native AMQP numbers",
        habit: "copying the SQS habit of stringifying every property value",
        sections: &["asb"],
    },
    MutantInfo {
        mutant: Mutant::BqPropertiesWithoutAttempts,
        id: "bq-properties-without-attempts",
        family: "projection",
        rule: "Pulsar properties and Kafka headers carry bq-attempts",
        habit: "projecting only the identity fields and leaving the counter to the body",
        sections: &["pulsar", "kafka"],
    },
    MutantInfo {
        mutant: Mutant::ArtemisHyphenatedProperties,
        id: "artemis-hyphenated-properties",
        family: "projection",
        rule: "Artemis uses the JMS-legal underscore names (bq_schema_version...)",
        habit: "reusing the bq- hyphen names of the other bindings on JMS",
        sections: &["artemis"],
    },
    MutantInfo {
        mutant: Mutant::RabbitmqHeadersStringified,
        id: "rabbitmq-headers-stringified",
        family: "projection",
        rule: "RabbitMQ headers keep native-typed numbers (x-schema-version, x-attempts)",
        habit: "a client wrapper that turns every AMQP header into a string",
        sections: &["rabbitmq"],
    },
];

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
