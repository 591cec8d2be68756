//! Section `trim`: the ASCII whitespace set. Field `op` selects the runner:
//! - `make`: build with the producer API (`urn` and `trace_id` ASCII-trimmed), encode; `expect`
//!   `accept` then every `expect_envelope` pointer holds, `reject` then make refuses;
//! - `decode`: decode `file`; `valid` against accept/reject, `expect` fields for a valid case, and
//!   an invalid case must be refused for lack of identity (the blank rule under test);
//! - `reencode`: decode `file`, encode it unchanged (no attempts bump), every `expect_preserved`
//!   pointer holds (re-emit never trims).

use serde_json::Value;

use crate::eval::case::{Case, Step, compact, finish};
use crate::eval::model::decode::RejectKind;
use crate::eval::model::encode::encode;
use crate::eval::model::expect::{
    check_decode_expectations, check_pointer_values, decode_fixture, describe, describe_make_error,
    make_input, reencode_fixture, reencoded,
};
use crate::eval::model::make::make;
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    match c.str("op")? {
        "make" => run_make(c),
        "decode" => run_decode(c, fixtures),
        "reencode" => run_reencode(c, fixtures),
        other => Err(c.malformed(
            "op",
            format!("`op` must be \"make\", \"decode\" or \"reencode\", not {other:?}"),
        )),
    }
}

fn run_make(c: &Case<'_>) -> Step<()> {
    let expect = c.str("expect")?;
    let accept = match expect {
        "accept" => true,
        "reject" => false,
        other => {
            return Err(c.malformed(
                "expect",
                format!("`expect` must be \"accept\" or \"reject\", not {other:?}"),
            ));
        }
    };
    if accept && c.get("expect_envelope").is_some() {
        c.object("expect_envelope")?;
    }
    let built = make(make_input(c)?).map_err(|e| describe_make_error(&e));
    let encoded = built.and_then(|m| encode(&m).map_err(|e| format!("encode refused: {e}")));
    match (accept, encoded) {
        (true, Ok(out)) => {
            if c.get("expect_envelope").is_some() {
                check_pointer_values(c, "expect_envelope", &out, &[], "")?;
            }
            Ok(())
        }
        (false, Err(_)) => Ok(()),
        (true, Err(words)) => Err(c.mismatch("expect", "accept", words)),
        (false, Ok(out)) => Err(c.mismatch(
            "expect",
            "reject",
            format!(
                "accepted with /job {}",
                compact(out.get("job").unwrap_or(&Value::Null))
            ),
        )),
    }
}

fn run_decode(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let result = decode_fixture(c, fixtures)?;
    check_decode_expectations(c, &result, &[])?;
    match &*result {
        Err(rejection) if rejection.kind != RejectKind::NoIdentity => Err(c.mismatch(
            "reason",
            format!("rejected ({})", RejectKind::NoIdentity.label()),
            describe(&result),
        )),
        _ => Ok(()),
    }
}

fn run_reencode(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    c.object("expect_preserved")?;
    let result = reencode_fixture(c, fixtures)?;
    let out = reencoded(c, &result, "file", "accepted")?;
    check_pointer_values(c, "expect_preserved", out, &[], "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::model::testkit::{fixtures, order_created_with, run_all, verdict_pointer};
    use serde_json::json;

    const URN: &str = "urn:babel:orders:created";
    const TRACE: &str = "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b";

    fn make_case(name: &str, urn: &str, trace: Option<&str>, expect: &str, env: Value) -> Value {
        let mut c = json!({"name": name, "op": "make", "urn": urn, "queue": "orders",
                           "data": {"order_id": 1042}, "expect": expect});
        if let Some(m) = c.as_object_mut() {
            if let Some(t) = trace {
                m.insert("trace_id".into(), json!(t));
            }
            if !env.is_null() {
                m.insert("expect_envelope".into(), env);
            }
        }
        c
    }

    fn files() -> std::collections::BTreeMap<String, String> {
        let no_urn = |job: &str| order_created_with(&[("job", json!(job))]);
        fixtures(&[
            ("fixtures/blank-job.json", &no_urn("  ")),
            (
                "fixtures/blank-both.json",
                &order_created_with(&[("job", json!("\t")), ("urn", json!("\r\n"))]),
            ),
            ("fixtures/vt-ff.json", &no_urn("\u{0B}\u{0C}")),
            ("fixtures/nbsp.json", &no_urn("\u{00A0}")),
            ("fixtures/nel.json", &no_urn("\u{0085}")),
            ("fixtures/ideo.json", &no_urn("\u{3000}")),
            ("fixtures/bom.json", &no_urn("\u{FEFF}")),
            (
                "fixtures/blank-trace.json",
                &order_created_with(&[("trace_id", json!("  "))]),
            ),
            (
                "fixtures/padded.json",
                &order_created_with(&[
                    ("job", json!(" urn:babel:orders:created ")),
                    ("trace_id", json!(format!(" {TRACE} "))),
                ]),
            ),
            (
                "fixtures/v2.json",
                &order_created_with(&[("meta", json!({"schema_version": 2}))]),
            ),
        ])
    }

    fn decode_case(name: &str, file: &str, valid: bool, extra: Value) -> Value {
        let mut c = json!({"name": name, "op": "decode", "file": file, "valid": valid});
        if let (Some(m), Some(x)) = (c.as_object_mut(), extra.as_object()) {
            for (k, v) in x {
                m.insert(k.clone(), v.clone());
            }
        }
        c
    }

    #[test]
    fn passes_and_flips() {
        let nbsp = format!("\u{00A0}{URN}\u{00A0}");
        let em = format!("\u{2003}{URN}\u{2003}");
        let ideo = format!("{URN}\u{3000}");
        let nbsp_trace = format!("\u{00A0}{TRACE}\u{00A0}");
        let reason = json!({"reason": "no identity"});
        let good = json!({"description": "d", "cases": [
            make_case("make-trims-spaces", " urn:babel:orders:created ", None, "accept", json!({"/job": URN})),
            make_case("make-trims-tab-newline-cr", "\t\nurn:babel:orders:created\r\n", None, "accept", json!({"/job": URN})),
            make_case("make-trims-vt-ff", "\u{0B}\u{0C}urn:babel:orders:created\u{0C}\u{0B}", None, "accept", json!({"/job": URN})),
            make_case("make-keeps-nbsp", &nbsp, None, "accept", json!({"/job": nbsp})),
            make_case("make-keeps-em-space", &em, None, "accept", json!({"/job": em})),
            make_case("make-keeps-ideographic-space", &ideo, None, "accept", json!({"/job": ideo})),
            make_case("make-trims-trace-id", URN, Some(&format!("  {TRACE}\t")), "accept", json!({"/trace_id": TRACE})),
            make_case("make-keeps-nbsp-trace-id", URN, Some(&nbsp_trace), "accept", json!({"/trace_id": nbsp_trace})),
            make_case("make-rejects-blank-urn", " \t\r\n", None, "reject", Value::Null),
            make_case("make-rejects-empty-urn", "", None, "reject", Value::Null),
            decode_case("decode-blank-job-no-urn", "fixtures/blank-job.json", false, reason.clone()),
            decode_case("decode-blank-job-blank-urn", "fixtures/blank-both.json", false, reason.clone()),
            decode_case("decode-vt-ff-job-no-urn", "fixtures/vt-ff.json", false, reason.clone()),
            decode_case("decode-nbsp-job-is-identity", "fixtures/nbsp.json", true, json!({"expect": {"urn": "\u{00A0}"}})),
            decode_case("decode-nel-job-is-identity", "fixtures/nel.json", true, json!({"expect": {"urn": "\u{0085}"}})),
            decode_case("decode-ideographic-job-is-identity", "fixtures/ideo.json", true, json!({"expect": {"urn": "\u{3000}"}})),
            decode_case("decode-bom-job-is-identity", "fixtures/bom.json", true, json!({"expect": {"urn": "\u{FEFF}"}})),
            decode_case("decode-blank-trace-id-accepted", "fixtures/blank-trace.json", true,
                        json!({"expect": {"urn": URN, "data": {"order_id": 1042}, "attempts": 0, "lang": "php", "schema_version": 1}})),
            {"name": "reencode-keeps-padded-job-and-trace-id", "op": "reencode", "file": "fixtures/padded.json",
             "expect_preserved": {"/job": " urn:babel:orders:created ", "/trace_id": format!(" {TRACE} "), "/attempts": 0}}
        ]});
        let verdicts = run_all(run, "trim", &good, &files());
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let flipped = json!({"description": "d", "cases": [
            make_case("a", &nbsp, None, "accept", json!({"/job": URN})),
            make_case("b", " \u{0B} ", None, "accept", Value::Null),
            make_case("c", "\u{3000}", None, "reject", Value::Null),
            decode_case("d", "fixtures/nbsp.json", false, reason.clone()),
            decode_case("e", "fixtures/vt-ff.json", true, json!({"expect": {"urn": "\u{0B}\u{0C}"}})),
            decode_case("f", "fixtures/v2.json", false, reason.clone()),
            {"name": "g", "op": "reencode", "file": "fixtures/padded.json",
             "expect_preserved": {"/job": URN}},
            make_case("h", URN, Some(" \t "), "accept", json!({"/trace_id": " \t "}))
        ]});
        let got: Vec<String> = run_all(run, "trim", &flipped, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /trim/cases/0/expect_envelope/~1job",
                "mismatch /trim/cases/1/expect",
                "mismatch /trim/cases/2/expect",
                "mismatch /trim/cases/3/valid",
                "mismatch /trim/cases/4/valid",
                "mismatch /trim/cases/5/reason",
                "mismatch /trim/cases/6/expect_preserved/~1job",
                "mismatch /trim/cases/7/expect_envelope/~1trace_id",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!({"cases": [
            {"name": "a", "urn": URN},
            {"name": "b", "op": "trim"},
            {"name": "c", "op": "make", "urn": URN, "queue": "q", "data": {}, "expect": "maybe"},
            {"name": "d", "op": "make", "urn": 5, "queue": "q", "data": {}, "expect": "accept"},
            {"name": "e", "op": "make", "urn": URN, "trace_id": 5, "queue": "q", "data": {},
             "expect": "accept"},
            {"name": "f", "op": "reencode", "file": "fixtures/padded.json"},
            {"name": "g", "op": "decode", "file": "fixtures/missing.json", "valid": true}
        ]});
        let got: Vec<String> = run_all(run, "trim", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /trim/cases/0/op",
                "malformed /trim/cases/1/op",
                "malformed /trim/cases/2/expect",
                "malformed /trim/cases/3/urn",
                "malformed /trim/cases/4/trace_id",
                "malformed /trim/cases/5/expect_preserved",
                "malformed /trim/cases/6/file",
            ]
        );
    }
}
