//! The reference model of the broker bindings and the consumer helpers the binding sections
//! pin: the schema-version gate, attempts reconciliation, native projections, SQS delay, Kafka
//! backoff, traceparent extraction, the Redis layout, idempotency and payload schemas.
//!
//! Everything here is pure: no I/O, no printing, and no panic on any input. The section runners
//! under `eval::sections` feed manifest cases into these models and compare the results with the
//! manifest's expectations; `harness` holds the helpers they share.

pub mod backoff;
pub mod broker_table;
pub mod decimal;
pub mod delay;
pub mod exhaustion;
pub mod gate;
pub mod harness;
pub mod idempotency;
pub mod payload;
pub mod poison;
pub mod projection;
pub mod reconcile;
pub mod redis;
pub mod redis_delay;
pub mod redis_queue;
pub mod retry;
pub mod settle;
pub mod traceparent;

#[cfg(test)]
pub(crate) mod testutil;

/// A broker binding that carries the schema-version gate and attempts reconciliation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    Sqs,
    Asb,
    Pulsar,
    Kafka,
    Artemis,
}

impl Binding {
    /// The manifest section that holds the binding's cases.
    pub fn section(self) -> &'static str {
        match self {
            Binding::Sqs => "sqs",
            Binding::Asb => "asb",
            Binding::Pulsar => "pulsar",
            Binding::Kafka => "kafka",
            Binding::Artemis => "artemis",
        }
    }

    /// The native property (header) the schema-version gate reads. Artemis uses the JMS-legal
    /// underscore spelling.
    pub fn gate_property(self) -> &'static str {
        match self {
            Binding::Artemis => "bq_schema_version",
            _ => "bq-schema-version",
        }
    }

    /// Whether the binding's native properties can hold a present-but-null value (ASB
    /// application properties, Kafka headers, AMQP properties on Artemis). SQS message
    /// attributes and Pulsar properties cannot.
    pub fn carries_null_property(self) -> bool {
        matches!(self, Binding::Asb | Binding::Kafka | Binding::Artemis)
    }

    /// Whether the gate property is natively typed (AMQP numbers on ASB) rather than a string.
    pub fn carries_number_property(self) -> bool {
        matches!(self, Binding::Asb)
    }
}
