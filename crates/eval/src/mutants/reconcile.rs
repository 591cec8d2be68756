//! Reconciliation mutants: how a binding combines the body's attempts with the broker's native
//! delivery counter. Each hooks one part of the binding's counter rule (its base, its authority,
//! whether it is read at all) for the one binding whose habit it stands for.

use super::{Mutant, MutantInfo, on};
use crate::bindings::broker_table::Authority;

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
        sections: &["pulsar", "pulsar_exhaustion"],
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
    // SURVIVES the real 1.8.0 suite (no case with a 0 header over a higher body): killed by
    // the proposal/manifest.json case `kafka/attempts_reconciliation/header-zero-overrides`.
    MutantInfo {
        mutant: Mutant::KafkaZeroHeaderIgnored,
        id: "kafka-zero-header-ignored",
        family: "reconcile",
        rule: "Kafka: a bq-attempts header of 0 is present and overrides the body",
        habit: "a falsy fallback (Number(header) || body, header ?: body) that treats 0 as absent",
        sections: &["kafka"],
    },
];

/// The counter's base (1 for a 1-based counter) as the active mutant reads it for `section`.
pub fn base(section: &str, base: u64) -> u64 {
    let raw = (on(Mutant::SqsReceiveCountRaw) && section == "sqs")
        || (on(Mutant::AsbDeliveryCountRaw) && section == "asb");
    let minus_one = (on(Mutant::PulsarRedeliveryMinusOne)
        && (section == "pulsar" || section == "pulsar_exhaustion"))
        || (on(Mutant::ArtemisDeliveryMinusOne) && section == "artemis");
    if raw {
        0
    } else if minus_one {
        1
    } else {
        base
    }
}

/// The counter's authority as the active mutant applies it for `section`.
pub fn authority(section: &str, authority: Authority) -> Authority {
    if on(Mutant::KafkaMaxOfHeaderAndBody) && section == "kafka" {
        Authority::MaxWithBody
    } else {
        authority
    }
}

/// The native counter as the active mutant reads it for `section` (`None`: not read).
pub fn counter_read(section: &str, counter: Option<u64>) -> Option<u64> {
    let kafka = section == "kafka";
    if (on(Mutant::KafkaHeaderIgnored) && kafka)
        || (on(Mutant::KafkaZeroHeaderIgnored) && kafka && counter == Some(0))
    {
        None
    } else {
        counter
    }
}
