//! Reconciliation mutants: how each binding combines the body's attempts with the broker's
//! native delivery counter.

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::SqsReceiveCountRaw,
        id: "sqs-receive-count-not-decremented",
        family: "reconcile",
        rule: "SQS: max(body, ApproximateReceiveCount - 1)",
        habit: "surfacing ApproximateReceiveCount as the attempts (1 on a first delivery)",
        sections: &["sqs"],
    },
    MutantInfo {
        mutant: Mutant::AsbDeliveryCountRaw,
        id: "asb-delivery-count-not-decremented",
        family: "reconcile",
        rule: "ASB: max(body, DeliveryCount - 1)",
        habit: "reading the 1-based DeliveryCount as if it were 0-based",
        sections: &["asb"],
    },
    MutantInfo {
        mutant: Mutant::PulsarRedeliveryMinusOne,
        id: "pulsar-redelivery-count-minus-one",
        family: "reconcile",
        rule: "Pulsar: max(body, RedeliveryCount), no - 1 (the counter is 0-based)",
        habit: "copying the SQS / ASB - 1 onto a 0-based counter",
        sections: &["pulsar"],
    },
    MutantInfo {
        mutant: Mutant::ArtemisDeliveryMinusOne,
        id: "artemis-delivery-count-minus-one",
        family: "reconcile",
        rule: "Artemis: max(body, delivery-count), no - 1 (the AMQP header is 0-based)",
        habit: "treating the AMQP delivery-count like the 1-based JMSXDeliveryCount",
        sections: &["artemis"],
    },
    MutantInfo {
        mutant: Mutant::KafkaMaxOfHeaderAndBody,
        id: "kafka-max-of-header-and-body",
        family: "reconcile",
        rule: "Kafka: the bq-attempts header wins when present, even when lower than the body",
        habit: "the max(body, broker count) rule of the other bindings applied to Kafka",
        sections: &["kafka"],
    },
    MutantInfo {
        mutant: Mutant::KafkaHeaderIgnored,
        id: "kafka-header-ignored",
        family: "reconcile",
        rule: "Kafka: the bq-attempts header, when present, gives the attempts",
        habit: "reading attempts from the body only and never looking at the headers",
        sections: &["kafka"],
    },
];

/// SQS reconciliation under the active mutant (`None`: the rule applies).
pub fn sqs(body: u64, count: u64) -> Option<u64> {
    on(Mutant::SqsReceiveCountRaw).then(|| body.max(count))
}

/// ASB reconciliation under the active mutant.
pub fn asb(body: u64, count: u64) -> Option<u64> {
    on(Mutant::AsbDeliveryCountRaw).then(|| body.max(count))
}

/// Pulsar reconciliation under the active mutant.
pub fn pulsar(body: u64, count: u64) -> Option<u64> {
    on(Mutant::PulsarRedeliveryMinusOne).then(|| body.max(count.saturating_sub(1)))
}

/// Artemis reconciliation under the active mutant.
pub fn artemis(body: u64, count: u64) -> Option<u64> {
    on(Mutant::ArtemisDeliveryMinusOne).then(|| body.max(count.saturating_sub(1)))
}

/// Kafka reconciliation under the active mutant.
pub fn kafka(body: u64, header: Option<u64>) -> Option<u64> {
    if on(Mutant::KafkaMaxOfHeaderAndBody) {
        Some(header.map_or(body, |h| h.max(body)))
    } else if on(Mutant::KafkaHeaderIgnored) {
        Some(body)
    } else {
        None
    }
}
