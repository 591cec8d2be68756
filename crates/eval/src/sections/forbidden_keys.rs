//! Section `forbidden_keys`: warn on decode, never emit. Decode `file`: what decode does (`warn`:
//! accepted with a warning; `accept`: silently; `reject`) must equal `expect` (every real case
//! says `warn`), and the warning must name `forbidden_key`; re-encode it unchanged, then none of
//! `expect_absent_after_reencode` may exist and every `expect_preserved` pointer must hold.

use serde_json::Value;

use crate::case::{Case, Step, finish};
use crate::model::expect::{
    check_pointer_values, check_pointers_absent, decode_fixture, describe_warnings,
    reencode_fixture, reencoded,
};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;
use bqsuite_core::json::pointer::parse_pointer;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let forbidden_key = c.str("forbidden_key")?;
    parse_pointer(forbidden_key).map_err(|e| {
        c.malformed(
            "forbidden_key",
            format!("invalid JSON pointer `{forbidden_key}`: {e}"),
        )
    })?;
    let expect = c.str("expect")?;
    c.require("expect_absent_after_reencode")?;

    let decoded = decode_fixture(c, fixtures)?;
    // What decode does with the fixture, in the section's words: `warn` (accepted with a
    // warning), `accept` (silently) or `reject`.
    let derived = match &*decoded {
        Ok(message) if message.warnings.is_empty() => "accept",
        Ok(_) => "warn",
        Err(_) => "reject",
    };
    if expect != derived {
        let words = match &*decoded {
            Ok(message) => format!("{derived} (accepted, {})", describe_warnings(message)),
            Err(rejection) => format!("{derived} ({})", rejection.verdict_words()),
        };
        return Err(c.mismatch("expect", expect, words));
    }
    let message = match &*decoded {
        Ok(message) => message,
        Err(_) => return Ok(()),
    };
    if !message.warned_about(forbidden_key) {
        return Err(c.mismatch(
            "forbidden_key",
            format!("a warning naming {forbidden_key}"),
            describe_warnings(message),
        ));
    }
    let result = reencode_fixture(c, fixtures)?;
    let out = reencoded(c, &result, "expect", "accepted with a warning")?;
    check_pointers_absent(c, "expect_absent_after_reencode", out)?;
    if c.get("expect_preserved").is_some() {
        check_pointer_values(c, "expect_preserved", out, &[], "")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{
        ORDER_CREATED, fixtures, order_created_with, run_all, verdict_pointer,
    };
    use serde_json::json;

    fn with_meta(extra: &str) -> String {
        ORDER_CREATED.replace(
            "\"created_at\": 1749132727000",
            &format!("\"created_at\": 1749132727000, {extra}"),
        )
    }

    fn files() -> std::collections::BTreeMap<String, String> {
        let ts = order_created_with(&[("timestamp", json!(1749132727))]);
        let max = with_meta("\"max_retries\": 3");
        let att = with_meta("\"attempts\": 5");
        let src = with_meta("\"source\": \"billing\"");
        let mts = with_meta("\"ts\": 1749132727");
        let urn = order_created_with(&[("urn", json!("urn:babel:orders:other"))]);
        let em = order_created_with(&[
            ("job", json!("\u{2003}")),
            ("urn", json!("urn:babel:orders:created")),
        ]);
        fixtures(&[
            ("fixtures/ts.json", &ts),
            ("fixtures/max.json", &max),
            ("fixtures/att.json", &att),
            ("fixtures/src.json", &src),
            ("fixtures/mts.json", &mts),
            ("fixtures/urn.json", &urn),
            ("fixtures/em.json", &em),
            ("fixtures/clean.json", ORDER_CREATED),
        ])
    }

    fn case(name: &str, file: &str, key: &str, absent: Value) -> Value {
        json!({"name": name, "file": file, "forbidden_key": key, "expect": "warn",
               "expect_absent_after_reencode": absent})
    }

    #[test]
    fn passes_and_flips() {
        let mut em = case("em", "fixtures/em.json", "/urn", json!(["/urn"]));
        if let Some(m) = em.as_object_mut() {
            m.insert("expect_preserved".into(), json!({"/job": "\u{2003}"}));
        }
        let mut att = case(
            "att",
            "fixtures/att.json",
            "/meta/attempts",
            json!(["/meta/attempts"]),
        );
        if let Some(m) = att.as_object_mut() {
            m.insert("expect_preserved".into(), json!({"/attempts": 0}));
        }
        let good = json!({"description": "d", "cases": [
            case("ts", "fixtures/ts.json", "/timestamp", json!(["/timestamp"])),
            case("max", "fixtures/max.json", "/meta/max_retries", json!(["/meta/max_retries"])),
            att,
            case("src", "fixtures/src.json", "/meta/source", json!(["/meta/source"])),
            case("mts", "fixtures/mts.json", "/meta/ts", json!(["/meta/ts"])),
            case("urn", "fixtures/urn.json", "/urn", json!(["/urn"])),
            em
        ]});
        let verdicts = run_all(run, "forbidden_keys", &good, &files());
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let mut keep = case("keep", "fixtures/em.json", "/urn", json!(["/urn"]));
        if let Some(m) = keep.as_object_mut() {
            m.insert(
                "expect_preserved".into(),
                json!({"/job": "urn:babel:orders:created"}),
            );
        }
        let flipped = json!({"description": "d", "cases": [
            case("a", "fixtures/clean.json", "/timestamp", json!(["/timestamp"])),
            case("b", "fixtures/ts.json", "/meta/ts", json!([])),
            case("c", "fixtures/ts.json", "/timestamp", json!(["/trace_id"])),
            keep,
            flipped_expect("e", "warn-flipped"),
            flipped_expect("f", "accept")
        ]});
        let got: Vec<String> = run_all(run, "forbidden_keys", &flipped, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /forbidden_keys/cases/0/expect",
                "mismatch /forbidden_keys/cases/1/forbidden_key",
                "mismatch /forbidden_keys/cases/2/expect_absent_after_reencode/0",
                "mismatch /forbidden_keys/cases/3/expect_preserved/~1job",
                "mismatch /forbidden_keys/cases/4/expect",
                "mismatch /forbidden_keys/cases/5/expect",
            ]
        );
    }

    fn flipped_expect(name: &str, expect: &str) -> Value {
        let mut c = case(
            name,
            "fixtures/ts.json",
            "/timestamp",
            json!(["/timestamp"]),
        );
        c["expect"] = json!(expect);
        c
    }

    #[test]
    fn malformed_cases() {
        let mut wrong_expect = case("b", "fixtures/ts.json", "/timestamp", json!([]));
        if let Some(m) = wrong_expect.as_object_mut() {
            m.insert("expect".into(), json!(5));
        }
        let block = json!({"cases": [
            case("a", "fixtures/ts.json", "timestamp", json!([])),
            wrong_expect,
            {"name": "c", "file": "fixtures/ts.json", "forbidden_key": "/timestamp", "expect": "warn"},
            case("d", "fixtures/ts.json", "/timestamp", json!(["timestamp"]))
        ]});
        let got: Vec<String> = run_all(run, "forbidden_keys", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /forbidden_keys/cases/0/forbidden_key",
                "malformed /forbidden_keys/cases/1/expect",
                "malformed /forbidden_keys/cases/2/expect_absent_after_reencode",
                "malformed /forbidden_keys/cases/3/expect_absent_after_reencode/0",
            ]
        );
    }
}
