//! Produce-side native projections: the redundant, routable view of an envelope each transport
//! puts on the broker's own metadata next to the byte-identical body.
//!
//! Every value is derived from the parsed envelope:
//! - the URN is the resolved identity (`job` when it is a non-blank string, else `urn`);
//! - `trace_id`, `meta.id`, `meta.lang` are strings; `meta.schema_version`, `meta.created_at`
//!   and `attempts` are integers (`attempts` absent reads 0);
//! - SQS wraps each value as `{DataType, StringValue}` (String for ids/strings, Number for
//!   counters); Pulsar properties and Kafka headers are strings (numbers stringified); ASB
//!   application properties and RabbitMQ headers keep native numbers; Artemis carries the URN and
//!   trace_id in JMS-native slots and string-valued `bq_` properties;
//! - the native times are `meta.created_at` as it is, 0 (the epoch) included: Kafka's record
//!   timestamp and Artemis's creation-time, both Unix milliseconds.

use std::fmt;

use serde_json::{Map, Number, Value};

use crate::model::is_ascii_blank;
use crate::switch::projection as mutant;

/// The `app_id` / `bq_app_id` every BabelQueue producer sets.
pub const APP_ID: &str = "babelqueue";
/// The content type of the envelope body.
pub const CONTENT_TYPE: &str = "application/json";
/// The AMQP message annotation that carries JMSType.
pub const JMS_TYPE_ANNOTATION: &str = "x-opt-jms-type";

/// Why an envelope cannot be projected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectionError {
    /// Neither `job` nor `urn` is a non-blank string.
    NoIdentity,
    /// A field the projection needs is missing (RFC 6901 pointer inside the envelope).
    Missing(&'static str),
    /// A field has the wrong type; `expected` names the type.
    Mistyped {
        pointer: &'static str,
        expected: &'static str,
    },
}

impl fmt::Display for ProjectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProjectionError::NoIdentity => {
                write!(f, "the envelope has no identity (no non-blank job or urn)")
            }
            ProjectionError::Missing(pointer) => write!(f, "the envelope has no {pointer}"),
            ProjectionError::Mistyped { pointer, expected } => {
                write!(f, "the envelope's {pointer} is not {expected}")
            }
        }
    }
}

/// The resolved URN: `job` when it is a non-blank string, else `urn` when it is a non-blank
/// string (blank = empty or only ASCII whitespace). Returned verbatim, never trimmed.
pub fn resolve_urn(envelope: &Value) -> Option<&str> {
    let usable = |key: &str| {
        envelope
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !is_ascii_blank(s))
    };
    usable("job").or_else(|| usable("urn"))
}

fn field<'a>(envelope: &'a Value, pointer: &'static str) -> Result<&'a Value, ProjectionError> {
    envelope
        .pointer(pointer)
        .ok_or(ProjectionError::Missing(pointer))
}

fn string_field<'a>(
    envelope: &'a Value,
    pointer: &'static str,
) -> Result<&'a str, ProjectionError> {
    field(envelope, pointer)?
        .as_str()
        .ok_or(ProjectionError::Mistyped {
            pointer,
            expected: "a string",
        })
}

fn integer(value: &Value, pointer: &'static str) -> Result<Number, ProjectionError> {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.clone()),
        _ => Err(ProjectionError::Mistyped {
            pointer,
            expected: "an integer",
        }),
    }
}

fn integer_field(envelope: &Value, pointer: &'static str) -> Result<Number, ProjectionError> {
    integer(field(envelope, pointer)?, pointer)
}

/// The envelope's `attempts`: an integer >= 0, 0 when absent.
fn attempts(envelope: &Value) -> Result<Number, ProjectionError> {
    match envelope.get("attempts") {
        None => Ok(Number::from(0_u64)),
        Some(value) => match value {
            Value::Number(n) if n.is_u64() => Ok(n.clone()),
            _ => Err(ProjectionError::Mistyped {
                pointer: "/attempts",
                expected: "a non-negative integer",
            }),
        },
    }
}

/// The fields every projection draws on, read once from the envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionSource {
    pub urn: String,
    pub trace_id: String,
    pub message_id: String,
    pub lang: String,
    pub schema_version: Number,
    pub created_at: Number,
    pub attempts: Number,
}

impl ProjectionSource {
    /// Reads the projection inputs from a parsed envelope.
    pub fn from_envelope(envelope: &Value) -> Result<ProjectionSource, ProjectionError> {
        if !envelope.is_object() {
            return Err(ProjectionError::Mistyped {
                pointer: "",
                expected: "an object",
            });
        }
        let urn = resolve_urn(envelope).ok_or(ProjectionError::NoIdentity)?;
        Ok(ProjectionSource {
            urn: urn.to_owned(),
            trace_id: string_field(envelope, "/trace_id")?.to_owned(),
            message_id: string_field(envelope, "/meta/id")?.to_owned(),
            lang: string_field(envelope, "/meta/lang")?.to_owned(),
            schema_version: integer_field(envelope, "/meta/schema_version")?,
            created_at: projected_created_at(integer_field(envelope, "/meta/created_at")?),
            attempts: attempts(envelope)?,
        })
    }
}

/// `meta.created_at` as the projections write it (a mutant may move it to seconds, or through
/// 32-bit seconds).
fn projected_created_at(created_at: Number) -> Number {
    match created_at.as_u64() {
        Some(ms) => crate::switch::jvm_dotnet::projected_created_at(ms),
        None => created_at,
    }
}

/// The correlation id the projections write (a mutant may fill it from `meta.id`).
fn correlation_id(source: &ProjectionSource) -> Value {
    Value::String(
        crate::switch::copied::correlation_id(&source.trace_id, &source.message_id).to_owned(),
    )
}

fn map_of<const N: usize>(entries: [(&str, Value); N]) -> Map<String, Value> {
    entries
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

fn sqs_attribute(data_type: &str, value: String) -> Value {
    Value::Object(map_of([
        ("DataType", Value::String(data_type.to_owned())),
        ("StringValue", Value::String(value)),
    ]))
}

/// SQS `MessageAttributes`.
pub fn sqs_message_attributes(source: &ProjectionSource) -> Map<String, Value> {
    let attributes = map_of([
        ("bq-job", sqs_attribute("String", source.urn.clone())),
        (
            "bq-trace-id",
            sqs_attribute("String", source.trace_id.clone()),
        ),
        (
            "bq-message-id",
            sqs_attribute("String", source.message_id.clone()),
        ),
        (
            "bq-schema-version",
            sqs_attribute("Number", source.schema_version.to_string()),
        ),
        (
            "bq-source-lang",
            sqs_attribute("String", source.lang.clone()),
        ),
        (
            "bq-created-at",
            sqs_attribute("Number", source.created_at.to_string()),
        ),
    ]);
    mutant::sqs(mutant::created_at_kept(attributes, &source.created_at))
}

/// ASB native message fields (`subject`, `correlation_id`, `message_id`, `content_type`).
pub fn asb_message(source: &ProjectionSource) -> Map<String, Value> {
    map_of([
        ("subject", Value::String(source.urn.clone())),
        ("correlation_id", correlation_id(source)),
        ("message_id", Value::String(source.message_id.clone())),
        ("content_type", Value::String(CONTENT_TYPE.to_owned())),
    ])
}

/// ASB `ApplicationProperties`, AMQP-typed (numbers stay numbers).
pub fn asb_application_properties(source: &ProjectionSource) -> Map<String, Value> {
    let properties = map_of([
        (
            "bq-schema-version",
            Value::Number(source.schema_version.clone()),
        ),
        ("bq-source-lang", Value::String(source.lang.clone())),
        ("bq-created-at", Value::Number(source.created_at.clone())),
    ]);
    mutant::asb(mutant::created_at_kept(properties, &source.created_at))
}

/// The string-valued `bq-` set shared by Pulsar properties and Kafka headers.
fn bq_string_properties(source: &ProjectionSource) -> Map<String, Value> {
    mutant::bq_strings(map_of([
        ("bq-job", Value::String(source.urn.clone())),
        ("bq-trace-id", Value::String(source.trace_id.clone())),
        ("bq-message-id", Value::String(source.message_id.clone())),
        (
            "bq-schema-version",
            Value::String(source.schema_version.to_string()),
        ),
        ("bq-source-lang", Value::String(source.lang.clone())),
        ("bq-attempts", Value::String(source.attempts.to_string())),
    ]))
}

/// Pulsar message properties (string to string).
pub fn pulsar_properties(source: &ProjectionSource) -> Map<String, Value> {
    bq_string_properties(source)
}

/// Kafka record headers (UTF-8 byte strings).
pub fn kafka_headers(source: &ProjectionSource) -> Map<String, Value> {
    bq_string_properties(source)
}

/// The Kafka record timestamp: `meta.created_at`, Unix milliseconds.
pub fn kafka_record_timestamp(source: &ProjectionSource) -> Number {
    mutant::kafka_record_timestamp(source.created_at.clone())
}

/// The Artemis (AMQP 1.0 / JMS) projection.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtemisProjection {
    /// The message annotation that carries JMSType (`x-opt-jms-type`).
    pub jms_type_annotation: &'static str,
    /// JMSType = the URN.
    pub jms_type: String,
    /// JMSCorrelationID = trace_id.
    pub correlation_id: String,
    /// JMSMessageID slot = meta.id.
    pub message_id: String,
    /// creation-time (JMSTimestamp) = meta.created_at, Unix ms.
    pub creation_time: Number,
    /// The string-valued `bq_` application properties.
    pub properties: Map<String, Value>,
}

/// The Artemis projection.
pub fn artemis_projection(source: &ProjectionSource) -> ArtemisProjection {
    ArtemisProjection {
        jms_type_annotation: JMS_TYPE_ANNOTATION,
        jms_type: source.urn.clone(),
        correlation_id: crate::switch::copied::correlation_id(&source.trace_id, &source.message_id)
            .to_owned(),
        message_id: source.message_id.clone(),
        creation_time: mutant::artemis_creation_time(source.created_at.clone()),
        properties: mutant::artemis(map_of([
            (
                "bq_schema_version",
                Value::String(source.schema_version.to_string()),
            ),
            ("bq_source_lang", Value::String(source.lang.clone())),
            ("bq_attempts", Value::String(source.attempts.to_string())),
            ("bq_app_id", Value::String(APP_ID.to_owned())),
        ])),
    }
}

/// The RabbitMQ (AMQP 0-9-1) projection: basic properties and native-typed headers.
#[derive(Debug, Clone, PartialEq)]
pub struct RabbitmqProjection {
    pub properties: Map<String, Value>,
    pub headers: Map<String, Value>,
}

/// The RabbitMQ projection.
pub fn rabbitmq_projection(source: &ProjectionSource) -> RabbitmqProjection {
    RabbitmqProjection {
        properties: map_of([
            ("type", Value::String(source.urn.clone())),
            ("correlation_id", correlation_id(source)),
            ("message_id", Value::String(source.message_id.clone())),
            ("app_id", Value::String(APP_ID.to_owned())),
            ("content_type", Value::String(CONTENT_TYPE.to_owned())),
        ]),
        headers: mutant::rabbitmq_headers(map_of([
            (
                "x-schema-version",
                Value::Number(source.schema_version.clone()),
            ),
            ("x-source-lang", Value::String(source.lang.clone())),
            ("x-attempts", Value::Number(source.attempts.clone())),
        ])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::order_created;
    use serde_json::json;

    fn source() -> ProjectionSource {
        ProjectionSource::from_envelope(&order_created()).expect("fixture projects")
    }

    #[test]
    fn sqs_matches_upstream() {
        let want = json!({
            "bq-job":            { "DataType": "String", "StringValue": "urn:babel:orders:created" },
            "bq-trace-id":       { "DataType": "String", "StringValue": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b" },
            "bq-message-id":     { "DataType": "String", "StringValue": "f1e2d3c4-b5a6-4789-90ab-cdef01234567" },
            "bq-schema-version": { "DataType": "Number", "StringValue": "1" },
            "bq-source-lang":    { "DataType": "String", "StringValue": "php" },
            "bq-created-at":     { "DataType": "Number", "StringValue": "1749132727000" }
        });
        assert_eq!(Value::Object(sqs_message_attributes(&source())), want);
    }

    #[test]
    fn asb_keeps_numbers() {
        let s = source();
        assert_eq!(
            Value::Object(asb_application_properties(&s)),
            json!({ "bq-schema-version": 1, "bq-source-lang": "php", "bq-created-at": 1749132727000_u64 })
        );
        assert_eq!(asb_message(&s)["content_type"], json!("application/json"));
        assert_eq!(
            asb_message(&s)["subject"],
            json!("urn:babel:orders:created")
        );
    }

    #[test]
    fn string_sets_stringify_numbers() {
        let s = source();
        let headers = kafka_headers(&s);
        assert_eq!(headers["bq-schema-version"], json!("1"));
        assert_eq!(headers["bq-attempts"], json!("0"));
        assert_eq!(pulsar_properties(&s), headers);
    }

    #[test]
    fn artemis_and_rabbitmq() {
        let s = source();
        let a = artemis_projection(&s);
        assert_eq!(a.jms_type_annotation, "x-opt-jms-type");
        assert_eq!(a.properties["bq_app_id"], json!("babelqueue"));
        let r = rabbitmq_projection(&s);
        assert_eq!(r.headers["x-attempts"], json!(0));
        assert_eq!(r.properties["type"], json!("urn:babel:orders:created"));
    }

    #[test]
    fn native_times_and_bq_created_at_mirror_created_at_zero_included() {
        let mut env = order_created();
        env["meta"]["created_at"] = json!(0);
        let s = ProjectionSource::from_envelope(&env).expect("projects");
        assert_eq!(kafka_record_timestamp(&s), Number::from(0_u64));
        assert_eq!(artemis_projection(&s).creation_time, Number::from(0_u64));
        assert_eq!(
            sqs_message_attributes(&s)["bq-created-at"],
            json!({ "DataType": "Number", "StringValue": "0" })
        );
        assert_eq!(asb_application_properties(&s)["bq-created-at"], json!(0));
        env["meta"]["created_at"] = json!(2_147_483_648_123_u64);
        let s = ProjectionSource::from_envelope(&env).expect("projects");
        assert_eq!(
            kafka_record_timestamp(&s),
            Number::from(2_147_483_648_123_u64)
        );
    }

    #[test]
    fn urn_resolution() {
        assert_eq!(resolve_urn(&json!({ "job": "a", "urn": "b" })), Some("a"));
        assert_eq!(resolve_urn(&json!({ "job": " \t", "urn": "b" })), Some("b"));
        assert_eq!(resolve_urn(&json!({ "job": 7, "urn": "b" })), Some("b"));
        assert_eq!(
            resolve_urn(&json!({ "job": "\u{2003}", "urn": "b" })),
            Some("\u{2003}")
        );
        assert_eq!(resolve_urn(&json!({ "urn": "" })), None);
        assert_eq!(resolve_urn(&json!([1])), None);
    }

    #[test]
    fn errors_instead_of_panics() {
        assert_eq!(
            ProjectionSource::from_envelope(&json!({})),
            Err(ProjectionError::NoIdentity)
        );
        assert_eq!(
            ProjectionSource::from_envelope(&json!({ "job": "u" })),
            Err(ProjectionError::Missing("/trace_id"))
        );
        let mut env = order_created();
        env["meta"]["schema_version"] = json!("1");
        assert!(matches!(
            ProjectionSource::from_envelope(&env),
            Err(ProjectionError::Mistyped { .. })
        ));
        let mut env = order_created();
        env["attempts"] = json!(-1);
        assert!(ProjectionSource::from_envelope(&env).is_err());
        assert!(ProjectionSource::from_envelope(&json!("x")).is_err());
    }
}
