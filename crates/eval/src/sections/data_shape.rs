//! Section `data_shape`: `data` is always an object.
//! - `mode: "encode"`: build with the producer API from `urn`, `queue`, `data`, encode, and compare
//!   the compact JSON text of the emitted `data` with `expect_encoded_data_json` once the
//!   whitespace between its tokens is removed (any text: an expectation that is not JSON is a
//!   mismatch, not a malformed case): an empty map is `{}`, never `[]`.
//! - `mode: "decode"`: decode `file`; `valid` must match accept/reject, and a rejection must be for
//!   the shape of `data` (not some other defect of the fixture).

use serde_json::Value;

use crate::case::{Case, Step, compact, finish};
use crate::model::decode::RejectKind;
use crate::model::encode::encode;
use crate::model::expect::{
    check_decode_expectations, decode_fixture, describe, make_error_verdict, make_input,
    strip_insignificant_whitespace,
};
use crate::model::make::make;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    match c.str("mode")? {
        "encode" => run_encode(c),
        "decode" => run_decode(c, fixtures),
        other => Err(c.malformed(
            "mode",
            format!("`mode` must be \"encode\" or \"decode\", not {other:?}"),
        )),
    }
}

fn run_encode(c: &Case<'_>) -> Step<()> {
    let expected_text = c.str("expect_encoded_data_json")?;
    let message = make(make_input(c)?).map_err(|e| make_error_verdict(c, &e, "data"))?;
    let out = encode(&message).map_err(|e| {
        c.mismatch(
            "expect_encoded_data_json",
            expected_text,
            format!("encode refused: {e}"),
        )
    })?;
    let derived = compact(out.get("data").unwrap_or(&Value::Null));
    let wanted = strip_insignificant_whitespace(expected_text);
    if wanted == derived || same_json(&wanted, out.get("data")) {
        Ok(())
    } else {
        Err(c.mismatch("expect_encoded_data_json", wanted, derived))
    }
}

/// Whether `text` is JSON whose value equals `derived` (type distinction kept: `[]` is not
/// `{}`): the same data written with other escapes or key order still agrees.
fn same_json(text: &str, derived: Option<&Value>) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| Some(&v) == derived)
}

fn run_decode(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let result = decode_fixture(c, fixtures)?;
    check_decode_expectations(c, &result, &[])?;
    match &*result {
        Err(rejection) if rejection.kind != RejectKind::Data => Err(c.mismatch(
            "reason",
            format!("rejected ({})", RejectKind::Data.label()),
            describe(&result),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
#[path = "data_shape_tests.rs"]
mod tests;
