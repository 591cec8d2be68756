//! Section `trim`: the ASCII whitespace set (space, `\t`, `\n`, `\r`, `\f`, `\v`). Field `mode`
//! selects the runner:
//! - `make`: build with the producer API from `urn` (and `trace_id` when given); `expect` is
//!   either `"reject"` (the URN is blank after the ASCII trim) or an object of envelope fields
//!   (`job`, `trace_id`...) the built envelope must carry with equal values;
//! - `decode`: decode `file`; `valid: true` means it is accepted with `expect.urn` as the
//!   resolved identity and a warning iff `expect_warning`; `valid: false` means decode refuses it
//!   for lack of identity;
//! - `accepts`: `accepts(file)` must equal `expect_accepts` (a blank `trace_id` makes it false),
//!   and decode must succeed exactly when `expect_decode_ok` says so;
//! - `reemit`: one retry hop (decode, `attempts + 1`, encode); `expect_attempts` and every
//!   `expect_preserved` pointer hold on the output: re-emit never trims.

use serde_json::{Map, Value};

use crate::case::{Case, Step, compact, finish};
use crate::model::accepts::accepts;
use crate::model::encode::encode;
use crate::model::expect::{
    check_identity_expectations, check_pointer_values, decode_fixture, describe,
    describe_make_error, mismatch_at, reencoded, retry_fixture, sub_pointer,
};
use crate::model::make::{MakeInput, make};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// The queue make is given: the cases do not name one and no expectation reads it.
const MAKE_QUEUE: &str = "default";

/// What `expect` says a make case yields.
const REJECT: &str = "reject";

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    match c.str("mode")? {
        "make" => run_make(c),
        "decode" => {
            let result = decode_fixture(c, fixtures)?;
            check_identity_expectations(c, &result)
        }
        "accepts" => run_accepts(c, fixtures),
        "reemit" => run_reemit(c, fixtures),
        other => Err(c.malformed(
            "mode",
            format!(
                "`mode` must be \"make\", \"decode\", \"accepts\" or \"reemit\", not {other:?}"
            ),
        )),
    }
}

fn run_make(c: &Case<'_>) -> Step<()> {
    let expect = c.require("expect")?;
    if !expect.is_string() && !expect.is_object() {
        return Err(c.malformed(
            "expect",
            "`expect` must be \"reject\" or an object of envelope fields",
        ));
    }
    let trace_id = match c.get("trace_id") {
        None | Some(Value::Null) => None,
        Some(_) => Some(c.str("trace_id")?.to_string()),
    };
    let input = MakeInput {
        urn: c.str("urn")?.to_string(),
        trace_id,
        queue: MAKE_QUEUE.to_string(),
        data: Map::new(),
        ..MakeInput::default()
    };
    let built = make(input).map_err(|e| describe_make_error(&e));
    let encoded = built.and_then(|m| encode(&m).map_err(|e| format!("encode refused: {e}")));
    match (expect, encoded) {
        (Value::Object(fields), Ok(out)) => {
            let base = c.ptr("expect");
            for (field, want) in fields {
                let got = out.get(field);
                if got != Some(want) {
                    return Err(mismatch_at(
                        sub_pointer(&base, field),
                        compact(want),
                        got.map_or_else(|| "absent".to_string(), compact),
                    ));
                }
            }
            Ok(())
        }
        (Value::String(word), Err(_)) if word == REJECT => Ok(()),
        (want, Err(words)) => Err(c.mismatch("expect", compact(want), words)),
        (want, Ok(out)) => Err(c.mismatch(
            "expect",
            compact(want),
            format!(
                "made with /job {}",
                compact(out.get("job").unwrap_or(&Value::Null))
            ),
        )),
    }
}

fn run_accepts(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let expect_accepts = c.bool("expect_accepts")?;
    let expect_decode_ok = match c.get("expect_decode_ok") {
        None => None,
        Some(_) => Some(c.bool("expect_decode_ok")?),
    };
    let result = decode_fixture(c, fixtures)?;
    if let Some(want) = expect_decode_ok
        && want != result.is_ok()
    {
        let words = |ok: bool| {
            if ok {
                "decode succeeds"
            } else {
                "decode fails"
            }
        };
        return Err(c.mismatch(
            "expect_decode_ok",
            words(want),
            format!("{} ({})", words(result.is_ok()), describe(&result)),
        ));
    }
    let verdict = accepts(&result);
    if verdict.is_ok() == expect_accepts {
        return Ok(());
    }
    let derived = match verdict {
        Ok(()) => "accepts() is true".to_string(),
        Err(why) => format!("accepts() is false ({})", why.label()),
    };
    Err(c.mismatch(
        "expect_accepts",
        format!("accepts() is {expect_accepts}"),
        derived,
    ))
}

fn run_reemit(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let expect_attempts = c.int("expect_attempts")?;
    c.object("expect_preserved")?;
    let result = retry_fixture(c, fixtures)?;
    let out = reencoded(c, &result, "file", "accepted")?;
    c.expect_eq(
        "expect_attempts",
        &Value::from(expect_attempts),
        out.get("attempts").unwrap_or(&Value::Null),
    )?;
    check_pointer_values(c, "expect_preserved", out, &[], "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{fixtures, order_created_with, run_all, verdict_pointer};
    use serde_json::json;

    fn files() -> std::collections::BTreeMap<String, String> {
        fixtures(&[
            (
                "fixtures/blank-trace.json",
                &order_created_with(&[("trace_id", json!("\u{0B}"))]),
            ),
            (
                "fixtures/nbsp-trace.json",
                &order_created_with(&[("trace_id", json!("\u{00A0}"))]),
            ),
            (
                "fixtures/no-trace.json",
                &order_created_with(&[("-trace_id", Value::Null)]),
            ),
            (
                "fixtures/bad-data.json",
                &order_created_with(&[("data", json!([]))]),
            ),
            (
                "fixtures/blank-job.json",
                &order_created_with(&[("job", json!("\u{0C}")), ("urn", json!("urn:acme:b"))]),
            ),
            (
                "fixtures/padded.json",
                &order_created_with(&[("job", json!("\u{0B}urn:acme:a "))]),
            ),
        ])
    }

    #[test]
    fn each_mode_derives_its_rule() {
        let block = json!({"cases": [
            {"name": "a", "mode": "make", "urn": "\u{0B} urn:acme:a\u{3000}\u{0C}", "trace_id": "\t\u{0B}",
             "expect": {"job": "urn:acme:a\u{3000}", "trace_id": crate::model::PLACEHOLDER_TRACE_ID}},
            {"name": "b", "mode": "make", "urn": "\u{0B}\u{0C}", "expect": "reject"},
            {"name": "c", "mode": "accepts", "file": "fixtures/blank-trace.json",
             "expect_accepts": false, "expect_decode_ok": true},
            {"name": "d", "mode": "accepts", "file": "fixtures/nbsp-trace.json",
             "expect_accepts": true, "expect_decode_ok": true},
            {"name": "e", "mode": "accepts", "file": "fixtures/no-trace.json", "expect_accepts": false},
            {"name": "f", "mode": "accepts", "file": "fixtures/bad-data.json",
             "expect_accepts": false, "expect_decode_ok": false},
            {"name": "g", "mode": "decode", "file": "fixtures/blank-job.json", "valid": true,
             "expect": {"urn": "urn:acme:b"}, "expect_warning": false},
            {"name": "h", "mode": "reemit", "file": "fixtures/padded.json", "expect_attempts": 1,
             "expect_preserved": {"/job": "\u{0B}urn:acme:a "}}
        ]});
        let got: Vec<String> = run_all(run, "trim", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert!(got.iter().all(|v| v == "pass"), "{got:?}");
    }

    #[test]
    fn wrong_expectations_are_mismatches() {
        let block = json!({"cases": [
            {"name": "a", "mode": "make", "urn": " urn:acme:a ", "expect": "reject"},
            {"name": "b", "mode": "make", "urn": " \t", "expect": "reject-flipped"},
            {"name": "c", "mode": "make", "urn": " \t", "expect": {"job": ""}},
            {"name": "d", "mode": "make", "urn": "\u{00A0}urn:acme:a", "expect": {"job": "urn:acme:a"}},
            {"name": "e", "mode": "accepts", "file": "fixtures/blank-trace.json",
             "expect_accepts": true, "expect_decode_ok": true},
            {"name": "f", "mode": "accepts", "file": "fixtures/blank-trace.json",
             "expect_accepts": false, "expect_decode_ok": false},
            {"name": "g", "mode": "decode", "file": "fixtures/blank-job.json", "valid": true,
             "expect": {"urn": "urn:acme:b"}, "expect_warning": true},
            {"name": "h", "mode": "decode", "file": "fixtures/bad-data.json", "valid": false,
             "reason": "no identity"},
            {"name": "i", "mode": "reemit", "file": "fixtures/padded.json", "expect_attempts": 0,
             "expect_preserved": {"/job": "\u{0B}urn:acme:a "}},
            {"name": "j", "mode": "reemit", "file": "fixtures/padded.json", "expect_attempts": 1,
             "expect_preserved": {"/job": "urn:acme:a"}}
        ]});
        let got: Vec<String> = run_all(run, "trim", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /trim/cases/0/expect",
                "mismatch /trim/cases/1/expect",
                "mismatch /trim/cases/2/expect",
                "mismatch /trim/cases/3/expect/job",
                "mismatch /trim/cases/4/expect_accepts",
                "mismatch /trim/cases/5/expect_decode_ok",
                "mismatch /trim/cases/6/expect_warning",
                "mismatch /trim/cases/7/reason",
                "mismatch /trim/cases/8/expect_attempts",
                "mismatch /trim/cases/9/expect_preserved/~1job",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!({"cases": [
            {"name": "a", "urn": "urn:acme:a"},
            {"name": "b", "mode": "trim"},
            {"name": "c", "mode": "make", "urn": "urn:acme:a", "expect": true},
            {"name": "d", "mode": "make", "urn": 5, "expect": "reject"},
            {"name": "e", "mode": "make", "urn": "urn:acme:a", "trace_id": 5, "expect": {}},
            {"name": "f", "mode": "accepts", "file": "fixtures/blank-trace.json", "expect_accepts": "no"},
            {"name": "g", "mode": "reemit", "file": "fixtures/padded.json", "expect_attempts": 1},
            {"name": "h", "mode": "decode", "file": "fixtures/missing.json", "valid": true}
        ]});
        let got: Vec<String> = run_all(run, "trim", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /trim/cases/0/mode",
                "malformed /trim/cases/1/mode",
                "malformed /trim/cases/2/expect",
                "malformed /trim/cases/3/urn",
                "malformed /trim/cases/4/trace_id",
                "malformed /trim/cases/5/expect_accepts",
                "malformed /trim/cases/6/expect_preserved",
                "malformed /trim/cases/7/file",
            ]
        );
    }
}
