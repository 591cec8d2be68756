//! A suite's JSON Schemas as the commands compile them: under the draft their `$schema` must
//! name ([`compile_for_draft`]), and each violation of a document as a pointer and a message
//! ([`violations`]). `validate` (the suite's schemas, its example results file) and `results`
//! (an SDK's results file) both compile here.
//!
//! The validator itself is built by `bqsuite_eval::schema::compile`, the one place the program
//! instantiates jsonschema's generic validators (each crate that did would carry a copy of them
//! in the binary, about a megabyte: see the `dist` profile in Cargo.toml). Nothing but this file
//! in the package reaches for it.

use serde_json::Value;

pub use bqsuite_eval::schema::Validator;
use bqsuite_eval::schema::{self as json_schema, Draft};

/// JSON Schema draft-07 (the envelope schema).
pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
/// JSON Schema draft 2020-12 (the results schema).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Why a schema cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unusable {
    /// Its `$schema` is missing or names another draft: the words that follow "the schema".
    Draft(String),
    /// It does not compile: the words that follow "the schema".
    Compile(String),
}

impl Unusable {
    /// The words that follow "the schema".
    pub fn message(&self) -> &str {
        match self {
            Unusable::Draft(m) | Unusable::Compile(m) => m,
        }
    }
}

/// Compiles `schema` under the draft its `$schema` must name (`draft_uri`, one of [`DRAFT_07`]
/// and [`DRAFT_2020_12`]). `assert_formats` makes `format` an assertion whatever the draft (the
/// results schema's `date-time`); otherwise the draft decides.
pub fn compile_for_draft(
    schema: &Value,
    draft_uri: &str,
    assert_formats: bool,
) -> Result<Validator, Unusable> {
    match schema.get("$schema").and_then(Value::as_str) {
        Some(uri) if uri.trim_end_matches('#') == draft_uri.trim_end_matches('#') => {}
        Some(uri) => {
            return Err(Unusable::Draft(format!(
                "declares `$schema: {uri}` but must be `{draft_uri}`"
            )));
        }
        None => {
            return Err(Unusable::Draft(format!(
                "has no `$schema`; it must declare `{draft_uri}`"
            )));
        }
    }
    let draft = if draft_uri == DRAFT_07 {
        Draft::Draft7
    } else {
        Draft::Draft202012
    };
    json_schema::compile(schema, draft, assert_formats)
        .map_err(|e| Unusable::Compile(format!("does not compile: {e}")))
}

/// Each schema violation of `instance` as `(instance pointer, message)`, at most `limit`.
pub fn violations(validator: &Validator, instance: &Value, limit: usize) -> Vec<(String, String)> {
    validator
        .iter_errors(instance)
        .take(limit)
        .map(|e| (e.instance_path().as_str().to_string(), e.to_string()))
        .collect()
}
