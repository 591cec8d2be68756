//! Reconciliation mutants: how a binding combines the body's attempts with the broker's native
//! delivery counter. Each hooks one part of the binding's counter rule (its base, its authority,
//! whether it is read at all) for the one binding whose habit it stands for.

use super::info::MutantInfo;
use crate::switch::Mutant;

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

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "reconcile",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[(
            Mutant::KafkaZeroHeaderIgnored,
            "kafka",
            "attempts_reconciliation/header-zero-overrides",
        )],
        separates: &[],
    };

    family_tests!(FAMILY);
}
