//! The broker bindings as data: one row per binding section (`sqs`, `asb`, `pulsar`, `kafka`,
//! `artemis`, `rabbitmq`), naming everything the binding runners need to know about it:
//!
//! - which sub-key holds the produce-side projection and which case fields it fills, each
//!   derived from the envelope by a function of [`super::projection`]; which sub-key holds the
//!   same projection over several envelopes, one per case, and the native time (Kafka's record
//!   timestamp, Artemis's creation-time) only those cases state;
//! - how the consume-side reconciliation reads the native counter: the case field, its JSON
//!   typing, the counter's base (1 for a 1-based counter, whose first delivery reads 1) and
//!   whether the counter is raised to the body's count or overrides it;
//! - the native property the schema-version gate reads, and which value types it can carry;
//! - how the version-gate settle rule (`version_gate_<binding>`) settles a gated delivery when
//!   dead-lettering is off.
//!
//! One runner (`eval::sections::broker`) serves every binding section from this table, and
//! `eval::sections::version_gate` finds its binding here from the section name.

use serde_json::Value;

use super::projection::{self, ProjectionSource};

/// How a projected case field is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A whole map (key order free, values type-distinct).
    Map,
    /// One string.
    Text,
}

/// One case field of the projection sub-block and how the model derives it.
#[derive(Debug, Clone, Copy)]
pub struct Projected {
    pub field: &'static str,
    pub shape: Shape,
    pub derive: fn(&ProjectionSource) -> Value,
}

/// A native time the binding sets from `meta.created_at`, stated only by the cases of the
/// envelopes sub-block (the single projection case of 1.8.0 does not state it).
#[derive(Debug, Clone, Copy)]
pub struct NativeTime {
    /// The case field (an integer of Unix milliseconds).
    pub field: &'static str,
    /// Whether every case states it; when not, a case that leaves it out does not assert it.
    pub required: bool,
    pub derive: fn(&ProjectionSource) -> Value,
}

/// How the case gives the native counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterTyping {
    /// A non-negative integer, always present.
    Count,
    /// A non-negative integer, or null when the broker did not set it.
    CountOrNull,
    /// The broker attribute as text (SQS `ApproximateReceiveCount`), or null when absent; text
    /// that is not a plain run of ASCII digits is ignored.
    TextOrNull,
}

/// Whether the native counter is raised to the body's count or replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    /// `max(body, counter - base)`: the body's count is never lowered.
    MaxWithBody,
    /// The counter when present (even lower than the body), else the body.
    CounterWins,
}

/// The attempts reconciliation of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterRule {
    /// The case field that holds the native counter.
    pub field: &'static str,
    pub typing: CounterTyping,
    /// What the counter reads on a first delivery: 1 for a 1-based counter (subtracted), 0 for
    /// a 0-based one (read as it is).
    pub base: u64,
    pub authority: Authority,
}

/// The schema-version gate of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateSpec {
    /// The native property (header, attribute) the gate reads.
    pub property: &'static str,
    /// Whether the property can be present with a null value (ASB application properties, Kafka
    /// headers, AMQP properties on Artemis); SQS attributes and Pulsar properties cannot.
    pub null_value: bool,
    /// Whether the property is natively typed (AMQP numbers on ASB) rather than a string.
    pub number_value: bool,
}

/// How a gated delivery is settled when dead-lettering is off and the strategy writes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffSettle {
    /// Acknowledged, dropped and logged (`ack`).
    Ack,
    /// Left to the broker's own mechanism, not settled by the SDK (`native`).
    Native,
}

impl OffSettle {
    /// The manifest spelling of the outcome.
    pub fn outcome(self) -> &'static str {
        match self {
            OffSettle::Ack => "ack",
            OffSettle::Native => "native",
        }
    }
}

/// The version-gate settle rule of a binding (`version_gate_<binding>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettleRule {
    pub off: OffSettle,
    /// Whether every SDK consumer of this binding has the `on_unknown_urn` strategy option.
    /// When not, an SDK runner without it reports the strategy rows as skip; the reference
    /// model has the option and derives every row either way.
    pub strategy_option_everywhere: bool,
}

/// One broker binding.
#[derive(Debug, Clone, Copy)]
pub struct BrokerBinding {
    /// The manifest section of the binding.
    pub section: &'static str,
    /// The sub-key that holds the produce-side projection.
    pub projection_key: &'static str,
    pub projection: &'static [Projected],
    /// The sub-key whose `cases` each name an envelope and state its projection.
    pub envelopes_key: &'static str,
    /// The native time those cases state, on the bindings that set one.
    pub native_time: Option<NativeTime>,
    pub reconciliation: Option<CounterRule>,
    pub gate: Option<GateSpec>,
    pub settle: Option<SettleRule>,
}

/// The sub-key of the reconciliation table in every binding that has one.
pub const RECONCILIATION_KEY: &str = "attempts_reconciliation";
/// The sub-key of the schema-version gate table in every binding that has one.
pub const GATE_KEY: &str = "schema_version_gate";
/// The prefix of the version-gate settle sections (`version_gate_sqs`...).
pub const SETTLE_PREFIX: &str = "version_gate_";

const HYPHEN_GATE: GateSpec = GateSpec {
    property: "bq-schema-version",
    null_value: false,
    number_value: false,
};

/// Every binding section, in manifest order.
pub const BINDINGS: [BrokerBinding; 6] = [
    BrokerBinding {
        section: "sqs",
        projection_key: "attribute_projection",
        projection: &[Projected {
            field: "message_attributes",
            shape: Shape::Map,
            derive: |s| Value::Object(projection::sqs_message_attributes(s)),
        }],
        envelopes_key: "attribute_projection_envelopes",
        native_time: None,
        reconciliation: Some(CounterRule {
            field: "approximate_receive_count",
            typing: CounterTyping::TextOrNull,
            base: 1,
            authority: Authority::MaxWithBody,
        }),
        gate: Some(HYPHEN_GATE),
        settle: Some(SettleRule {
            off: OffSettle::Native,
            strategy_option_everywhere: true,
        }),
    },
    BrokerBinding {
        section: "asb",
        projection_key: "property_projection",
        projection: &[
            Projected {
                field: "message",
                shape: Shape::Map,
                derive: |s| Value::Object(projection::asb_message(s)),
            },
            Projected {
                field: "application_properties",
                shape: Shape::Map,
                derive: |s| Value::Object(projection::asb_application_properties(s)),
            },
        ],
        envelopes_key: "property_projection_envelopes",
        native_time: None,
        reconciliation: Some(CounterRule {
            field: "delivery_count",
            typing: CounterTyping::Count,
            base: 1,
            authority: Authority::MaxWithBody,
        }),
        gate: Some(GateSpec {
            property: "bq-schema-version",
            null_value: true,
            number_value: true,
        }),
        settle: Some(SettleRule {
            off: OffSettle::Native,
            strategy_option_everywhere: false,
        }),
    },
    BrokerBinding {
        section: "pulsar",
        projection_key: "property_projection",
        projection: &[Projected {
            field: "properties",
            shape: Shape::Map,
            derive: |s| Value::Object(projection::pulsar_properties(s)),
        }],
        envelopes_key: "property_projection_envelopes",
        native_time: None,
        reconciliation: Some(PULSAR_COUNTER),
        gate: Some(HYPHEN_GATE),
        settle: Some(SettleRule {
            off: OffSettle::Ack,
            strategy_option_everywhere: false,
        }),
    },
    BrokerBinding {
        section: "kafka",
        projection_key: "property_projection",
        projection: &[Projected {
            field: "headers",
            shape: Shape::Map,
            derive: |s| Value::Object(projection::kafka_headers(s)),
        }],
        envelopes_key: "property_projection_envelopes",
        native_time: Some(NativeTime {
            field: "record_timestamp",
            required: false,
            derive: |s| Value::Number(projection::kafka_record_timestamp(s)),
        }),
        reconciliation: Some(CounterRule {
            field: "header_attempts",
            typing: CounterTyping::CountOrNull,
            base: 0,
            authority: Authority::CounterWins,
        }),
        gate: Some(GateSpec {
            property: "bq-schema-version",
            null_value: true,
            number_value: false,
        }),
        // A version-gated Kafka record takes the poison path: no settle section.
        settle: None,
    },
    BrokerBinding {
        section: "artemis",
        projection_key: "property_projection",
        projection: &[
            Projected {
                field: "jms_type_annotation",
                shape: Shape::Text,
                derive: |s| {
                    Value::String(projection::artemis_projection(s).jms_type_annotation.into())
                },
            },
            Projected {
                field: "jms_type",
                shape: Shape::Text,
                derive: |s| Value::String(projection::artemis_projection(s).jms_type),
            },
            Projected {
                field: "correlation_id",
                shape: Shape::Text,
                derive: |s| Value::String(projection::artemis_projection(s).correlation_id),
            },
            Projected {
                field: "properties",
                shape: Shape::Map,
                derive: |s| Value::Object(projection::artemis_projection(s).properties),
            },
        ],
        envelopes_key: "property_projection_envelopes",
        native_time: Some(NativeTime {
            field: "creation_time",
            required: true,
            derive: |s| Value::Number(projection::artemis_projection(s).creation_time),
        }),
        reconciliation: Some(CounterRule {
            field: "delivery_count",
            typing: CounterTyping::Count,
            base: 0,
            authority: Authority::MaxWithBody,
        }),
        gate: Some(GateSpec {
            property: "bq_schema_version",
            null_value: true,
            number_value: false,
        }),
        settle: Some(SettleRule {
            off: OffSettle::Ack,
            strategy_option_everywhere: true,
        }),
    },
    BrokerBinding {
        section: "rabbitmq",
        projection_key: "property_projection",
        projection: &[
            Projected {
                field: "properties",
                shape: Shape::Map,
                derive: |s| Value::Object(projection::rabbitmq_projection(s).properties),
            },
            Projected {
                field: "headers",
                shape: Shape::Map,
                derive: |s| Value::Object(projection::rabbitmq_projection(s).headers),
            },
        ],
        envelopes_key: "property_projection_envelopes",
        native_time: None,
        // Consume-side attempts are runtime-specific on RabbitMQ; no gate table either.
        reconciliation: None,
        gate: None,
        settle: None,
    },
];

/// Pulsar's RedeliveryCount: 0-based, raised to the body's count. `pulsar_exhaustion` reuses it.
pub const PULSAR_COUNTER: CounterRule = CounterRule {
    field: "redelivery_count",
    typing: CounterTyping::Count,
    base: 0,
    authority: Authority::MaxWithBody,
};

/// The binding of `section` (`sqs`...).
pub fn binding(section: &str) -> Option<&'static BrokerBinding> {
    BINDINGS.iter().find(|b| b.section == section)
}

/// The binding a version-gate settle section (`version_gate_sqs`) is about, when it has a
/// settle rule.
pub fn settle_binding(section: &str) -> Option<(&'static BrokerBinding, SettleRule)> {
    let b = binding(section.strip_prefix(SETTLE_PREFIX)?)?;
    Some((b, b.settle?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_is_found_by_its_section() {
        for b in &BINDINGS {
            assert_eq!(binding(b.section).map(|x| x.section), Some(b.section));
            assert!(!b.projection.is_empty());
        }
        assert!(binding("redis").is_none());
    }

    #[test]
    fn settle_sections_name_their_binding() {
        for (section, off) in [
            ("version_gate_sqs", OffSettle::Native),
            ("version_gate_asb", OffSettle::Native),
            ("version_gate_pulsar", OffSettle::Ack),
            ("version_gate_artemis", OffSettle::Ack),
        ] {
            let (_, rule) = settle_binding(section).expect(section);
            assert_eq!(rule.off, off);
        }
        assert!(settle_binding("version_gate_kafka").is_none());
        assert!(settle_binding("sqs").is_none());
    }

    #[test]
    fn the_envelopes_sub_key_follows_the_projection_key() {
        for b in &BINDINGS {
            assert_eq!(b.envelopes_key, format!("{}_envelopes", b.projection_key));
        }
        let timed: Vec<(&str, &str)> = BINDINGS
            .iter()
            .filter_map(|b| b.native_time.map(|t| (b.section, t.field)))
            .collect();
        assert_eq!(
            timed,
            [("kafka", "record_timestamp"), ("artemis", "creation_time")]
        );
    }

    #[test]
    fn one_based_counters_are_sqs_and_asb() {
        let one_based: Vec<&str> = BINDINGS
            .iter()
            .filter(|b| b.reconciliation.is_some_and(|r| r.base == 1))
            .map(|b| b.section)
            .collect();
        assert_eq!(one_based, ["sqs", "asb"]);
    }
}
