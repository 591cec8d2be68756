//! Per-URN payload schemas (ADR-0024): `data` validated against a draft-07 schema.
//! String lengths (`minLength`) count Unicode code points, not bytes, UTF-16 units or
//! graphemes. A schema that does not compile is an error, never a panic.

use serde_json::Value;

use crate::switch::payload as mutant;
use crate::switch::{go, jvm_dotnet, schema_engine};

/// A compiled draft-07 payload schema.
pub struct PayloadSchema {
    validator: crate::schema::Validator,
    /// The schema as written, kept only while a mutant is on (the binder and enum mutants read
    /// it beside the data).
    written: Option<Value>,
}

impl std::fmt::Debug for PayloadSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PayloadSchema")
    }
}

/// Why a schema could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the schema does not compile as draft-07: {}",
            self.message
        )
    }
}

impl PayloadSchema {
    /// Compiles `schema` as draft-07 (checked against the draft-07 meta-schema).
    pub fn compile(schema: &Value) -> Result<PayloadSchema, SchemaError> {
        let mutated = mutant::schema(schema).or_else(|| schema_engine::schema(schema));
        crate::schema::compile(
            mutated.as_ref().unwrap_or(schema),
            crate::schema::Draft::Draft7,
            false,
        )
        .map(|validator| PayloadSchema {
            validator,
            written: crate::switch::active().map(|_| schema.clone()),
        })
        .map_err(|e| SchemaError {
            message: e.to_string(),
        })
    }

    /// Whether `data` is valid.
    pub fn is_valid(&self, data: &Value) -> bool {
        let mutated = mutant::data(data)
            .or_else(|| schema_engine::data(data))
            .or_else(|| go::payload_data(data))
            .or_else(|| {
                let written = self.written.as_ref()?;
                jvm_dotnet::payload_data(written, data)
            });
        self.validator.is_valid(mutated.as_ref().unwrap_or(data))
    }
}

/// Compiles `schema` and validates `data` against it.
pub fn validate(schema: &Value, data: &Value) -> Result<bool, SchemaError> {
    Ok(PayloadSchema::compile(schema)?.is_valid(data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn order_schema() -> Value {
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "required": ["order_id"],
            "properties": {
                "order_id": { "type": "integer", "minimum": 1 },
                "amount": { "type": "number", "minimum": 0 },
                "currency": { "enum": ["USD", "EUR", "TRY"] }
            },
            "additionalProperties": false
        })
    }

    #[test]
    fn order_table() {
        let schema = PayloadSchema::compile(&order_schema()).expect("compiles");
        let table = [
            (json!({ "order_id": 1042 }), true),
            (
                json!({ "order_id": 1042, "amount": 99.9, "currency": "USD" }),
                true,
            ),
            (json!({ "amount": 10 }), false),
            (json!({ "order_id": "x" }), false),
            (json!({ "order_id": 1, "extra": true }), false),
            (json!({ "order_id": 1, "currency": "GBP" }), false),
            (json!({ "order_id": 0 }), false),
            (json!({ "order_id": 1.0 }), true),
            (json!([1]), false),
        ];
        for (data, want) in table {
            assert_eq!(schema.is_valid(&data), want, "{data}");
        }
    }

    #[test]
    fn min_length_counts_code_points() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "min3": { "type": "string", "minLength": 3 },
                "min2": { "type": "string", "minLength": 2 }
            },
            "additionalProperties": false
        });
        let table = [
            (json!({ "min3": "abc" }), true),
            (json!({ "min3": "ğü" }), false),
            (json!({ "min3": "ğüş" }), true),
            (json!({ "min2": "😀" }), false),
            (json!({ "min3": "😀a" }), false),
            (json!({ "min2": "e\u{0301}" }), true),
        ];
        for (data, want) in table {
            assert_eq!(validate(&schema, &data), Ok(want), "{data}");
        }
    }

    #[test]
    fn bad_schemas_are_errors() {
        for schema in [
            json!({ "type": "no-such-type" }),
            json!({ "minLength": -1 }),
            json!({ "$ref": "#/definitions/missing" }),
            json!({ "$ref": "http://example.invalid/schema.json" }),
            json!({ "$ref": "file:///nonexistent/schema.json" }),
            json!(42),
        ] {
            assert!(PayloadSchema::compile(&schema).is_err(), "{schema}");
        }
        assert!(PayloadSchema::compile(&json!(true)).is_ok());
    }
}
