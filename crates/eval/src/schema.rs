//! Compiling a JSON Schema: the one place the program builds a jsonschema validator.
//!
//! jsonschema's validators are generic code, and Rust compiles generic code into each crate that
//! calls it. Every crate that called `build` would carry its own copy of every keyword's
//! validator (about a megabyte of the release binary each), so the payload schemas here and the
//! suite's schemas that `bqsuite validate` and `bqsuite results` check all compile through
//! [`compile`].

use serde_json::Value;

pub use jsonschema::{Draft, ValidationError, Validator};

/// Compiles `schema` under `draft`. `assert_formats` makes `format` an assertion whatever the
/// draft (the results schema's `date-time`, under 2020-12); otherwise the draft decides: draft-07
/// asserts it, 2020-12 only annotates.
pub fn compile(
    schema: &Value,
    draft: Draft,
    assert_formats: bool,
) -> Result<Validator, ValidationError<'static>> {
    let mut options = jsonschema::options().with_draft(draft);
    if assert_formats {
        options = options.should_validate_formats(true);
    }
    options.build(schema)
}
