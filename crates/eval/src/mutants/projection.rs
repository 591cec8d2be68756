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
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};

    const FAMILY: Family = Family {
        name: "projection",
        mutants: MUTANTS,
        proposal_kills: &[],
        separates: &[],
    };

    family_tests!(FAMILY);
}
