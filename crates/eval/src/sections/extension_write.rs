//! Section `extension_write`: the producer meta write API. Build with `urn`, `queue`, `data` and
//! the `meta` entries, encode, and check every `expect_envelope` pointer; then decode that output,
//! `attempts + 1`, encode again and check the same pointers plus `/attempts == 1` (extension keys
//! survive a retry hop). An `expect_envelope` entry for `/attempts` itself is only checked on the
//! first output, since the hop changes it by design.

use serde_json::Value;

use crate::case::{Case, Step, compact, finish};
use crate::model::decode::decode;
use crate::model::encode::{bump_attempts, encode};
use crate::model::expect::{
    check_pointer_values, make_error_verdict, make_input, meta_entries, mismatch_at,
};
use crate::model::make::make;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// What the retry hop writes at `/attempts` (a new message starts at 0).
const ATTEMPTS_AFTER_HOP: u64 = 1;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case)))
}

fn run_case(c: &Case<'_>) -> Step<()> {
    c.object("expect_envelope")?;
    let mut input = make_input(c)?;
    input.meta_entries = meta_entries(c, "meta")?;
    let message = make(input).map_err(|e| make_error_verdict(c, &e, "meta"))?;
    let out = encode(&message)
        .map_err(|e| c.mismatch("meta", "encoded", format!("encode refused: {e}")))?;
    check_pointer_values(c, "expect_envelope", &out, &[], "")?;

    let text = serde_json::to_string(&out)
        .map_err(|e| c.mismatch("meta", "encoded", format!("unserializable output: {e}")))?;
    let mut hop = decode(&text).map_err(|r| {
        c.mismatch(
            "meta",
            "the encoded message decodes for the retry hop",
            r.verdict_words(),
        )
    })?;
    bump_attempts(&mut hop);
    let again = encode(&hop).map_err(|e| {
        c.mismatch(
            "meta",
            "re-encoded after the retry hop",
            format!("encode refused: {e}"),
        )
    })?;
    check_pointer_values(
        c,
        "expect_envelope",
        &again,
        &["/attempts"],
        " after the retry hop",
    )?;
    let attempts = again.get("attempts").unwrap_or(&Value::Null);
    if attempts != &Value::from(ATTEMPTS_AFTER_HOP) {
        return Err(mismatch_at(
            c.case.pointer.clone(),
            format!("/attempts = {ATTEMPTS_AFTER_HOP} after the retry hop"),
            format!("/attempts = {}", compact(attempts)),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{fixtures, run_all, verdict_pointer};
    use serde_json::json;

    fn case(name: &str, meta: Value, expect: Value) -> Value {
        json!({"name": name, "urn": "urn:babel:orders:created", "queue": "orders",
               "data": {"order_id": 1042}, "meta": meta, "expect_envelope": expect})
    }

    #[test]
    fn passes_and_flips() {
        let good = json!({"description": "d", "cases": [
            case("flat-scalar-key", json!({"vendor_flag": true}),
                 json!({"/meta/vendor_flag": true, "/meta/queue": "orders",
                        "/job": "urn:babel:orders:created"})),
            case("vendor-block-under-ext", json!({"ext": {"acme": {"a": {"b": 1}, "t": [1, "x"]}}}),
                 json!({"/meta/ext/acme": {"a": {"b": 1}, "t": [1, "x"]}})),
            case("two-vendors", json!({"ext": {"acme": {"a": 1}, "globex": {"g": [true]}}}),
                 json!({"/meta/ext/acme/a": 1, "/meta/ext/globex/g/0": true})),
            case("mixed", json!({"s": "v", "i": 7, "a": [1], "o": {}}),
                 json!({"/meta/s": "v", "/meta/i": 7, "/meta/a": [1], "/meta/o": {}})),
            case("non-ascii-value", json!({"note": "Café — naïve ☕"}),
                 json!({"/meta/note": "Café — naïve ☕"})),
            case("attempts-zero", json!({"k": 1}), json!({"/attempts": 0, "/meta/k": 1}))
        ]});
        let verdicts = run_all(run, "extension_write", &good, &fixtures(&[]));
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let flipped = json!({"description": "d", "cases": [
            case("a", json!({"vendor_flag": true}), json!({"/meta/vendor_flag": "true"})),
            case("b", json!({"o": {}}), json!({"/meta/o": []})),
            case("c", json!({"max_retries": 3}), json!({"/meta/max_retries": 3})),
            case("d", json!({"k": 1}), json!({"/vendor_flag": 1})),
            case("e", json!({"k": 1}), json!({"/attempts": 1}))
        ]});
        let got: Vec<String> = run_all(run, "extension_write", &flipped, &fixtures(&[]))
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /extension_write/cases/0/expect_envelope/~1meta~1vendor_flag",
                "mismatch /extension_write/cases/1/expect_envelope/~1meta~1o",
                "mismatch /extension_write/cases/2/meta",
                "mismatch /extension_write/cases/3/expect_envelope/~1vendor_flag",
                "mismatch /extension_write/cases/4/expect_envelope/~1attempts",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!({"cases": [
            {"name": "a", "urn": "u", "queue": "q", "data": {}, "expect_envelope": {}},
            {"name": "b", "urn": "u", "queue": "q", "data": {}, "meta": {}},
            {"name": "c", "urn": "u", "data": {}, "meta": {}, "expect_envelope": {}},
            {"name": "d", "urn": "u", "queue": "q", "data": {}, "meta": [],
             "expect_envelope": {}},
            {"name": "e", "urn": "u", "queue": "q", "data": {}, "meta": {},
             "expect_envelope": {"job": "u"}}
        ]});
        let got: Vec<String> = run_all(run, "extension_write", &block, &fixtures(&[]))
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /extension_write/cases/0/meta",
                "malformed /extension_write/cases/1/expect_envelope",
                "malformed /extension_write/cases/2/queue",
                "malformed /extension_write/cases/3/meta",
                "malformed /extension_write/cases/4/expect_envelope/job",
            ]
        );
    }
}
