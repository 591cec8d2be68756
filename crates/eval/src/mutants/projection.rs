//! Projection mutants: the native metadata each broker transport writes beside the body.

use super::info::MutantInfo;
use crate::switch::Mutant;

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
    // SURVIVES the real 1.8.0 suite (its one projected envelope has created_at 1749132727000):
    // killed by the proposal/manifest.json cases `*_projection_envelopes/created-at-epoch-zero`.
    MutantInfo {
        mutant: Mutant::CreatedAtZeroDropped,
        id: "created-at-zero-dropped",
        family: "projection",
        rule: "bq-created-at is projected from meta.created_at, 0 (the Unix epoch) included",
        habit: "a truthiness test (if (meta.created_at), if meta.get(\"created_at\"), PHP !empty) that reads the valid 0 as missing and leaves the attribute out",
        sections: &["sqs", "asb"],
    },
    // SURVIVES the real 1.8.0 suite (its Artemis case does not state creation-time): killed by
    // the proposal/manifest.json case `property_projection_envelopes/created-at-epoch-zero`.
    MutantInfo {
        mutant: Mutant::ArtemisCreationTimeNowWhenZero,
        id: "artemis-creation-time-now-when-zero",
        family: "projection",
        rule: "the Artemis creation-time (JMSTimestamp) is meta.created_at in Unix ms, 0 included",
        habit: "creation_time = created_at || Date.now() (if not created_at: time.time()), which stamps the send time on an epoch-0 message",
        sections: &["artemis"],
    },
    // SURVIVES the real 1.8.0 suite (its Kafka case does not state the record timestamp):
    // killed by the proposal/manifest.json case `property_projection_envelopes/created-at-past-2038`.
    MutantInfo {
        mutant: Mutant::KafkaRecordTimestampNow,
        id: "kafka-record-timestamp-now",
        family: "projection",
        rule: "the Kafka record timestamp mirrors meta.created_at (Unix ms)",
        habit: "producing without a timestamp (the client stamps the send time) or passing the current time",
        sections: &["kafka"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "projection",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal cases that do.
        proposal_kills: &[
            (
                Mutant::CreatedAtZeroDropped,
                "sqs",
                "attribute_projection_envelopes/created-at-epoch-zero",
            ),
            (
                Mutant::CreatedAtZeroDropped,
                "asb",
                "property_projection_envelopes/created-at-epoch-zero",
            ),
            (
                Mutant::ArtemisCreationTimeNowWhenZero,
                "artemis",
                "property_projection_envelopes/created-at-epoch-zero",
            ),
            (
                Mutant::KafkaRecordTimestampNow,
                "kafka",
                "property_projection_envelopes/created-at-past-2038",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
