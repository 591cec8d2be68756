//! Section `roundtrip`: unknown keys survive re-emit. Decode the fixture (it must be accepted
//! without any warning), `attempts + 1`, optionally move it to the dead-letter queue
//! (`apply_dead_letter`), encode, then assert `expect_attempts`, every `expect_preserved`
//! pointer (deep equality with type distinction), `expect_absent_after_reencode` and
//! `expect_dead_letter` on that one output.

use serde_json::Value;

use crate::case::{Case, Step, finish};
use crate::memo;
use crate::model::decode::decode_parsed;
use crate::model::encode::{
    DeadLetterError, EncodeError, bump_attempts, dead_letter_move, encode_owned,
};
use crate::model::expect::{
    PARSED, check_block_subset, check_pointer_values, check_pointers_absent, describe_warnings,
    fixture_text, malformed_at, sub_pointer,
};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let expect_attempts = c.int("expect_attempts")?;
    c.object("expect_preserved")?;
    if c.get("producer_schema_valid").is_some() {
        c.bool("producer_schema_valid")?;
    }

    let dead_letter = if c.get("apply_dead_letter").is_some() {
        let block = c.object("apply_dead_letter")?;
        let base = c.ptr("apply_dead_letter");
        let field = |name: &str| -> Step<&str> {
            block.get(name).and_then(Value::as_str).ok_or_else(|| {
                malformed_at(
                    sub_pointer(&base, name),
                    format!("`apply_dead_letter.{name}` must be a string"),
                )
            })
        };
        Some((field("reason")?, field("original_queue")?, base))
    } else {
        None
    };

    // The retry hop depends only on the fixture and the dead-letter arguments: cases that share
    // them share one re-emit (see `memo`). The hop decodes its own copy (from the fixture's parsed
    // value when validation offered it) and moves it through bump, dead-letter move and encode,
    // so the payload is held once, in the output.
    let file = c.str("file")?;
    let text = fixture_text(c, fixtures)?;
    let what = match &dead_letter {
        None => "roundtrip".to_string(),
        Some((reason, queue, _)) => format!("roundtrip\0{reason}\0{queue}"),
    };
    let emitted = memo::get_or_compute(file, &what, || {
        let parsed = memo::take(file, PARSED);
        let mut message =
            decode_parsed(text, parsed).map_err(|r| Hop::Rejected(r.verdict_words()))?;
        if !message.warnings.is_empty() {
            return Err(Hop::Warned(describe_warnings(&message)));
        }
        bump_attempts(&mut message);
        if let Some((reason, queue, _)) = &dead_letter {
            dead_letter_move(&mut message, reason, queue).map_err(Hop::DeadLetter)?;
        }
        encode_owned(message).map_err(Hop::Encode)
    });
    let out = match &*emitted {
        Ok(out) => out,
        Err(Hop::Rejected(words)) => return Err(c.mismatch("file", "accepted", words.clone())),
        Err(Hop::Warned(words)) => {
            return Err(c.mismatch("file", "accepted without a warning", words.clone()));
        }
        Err(Hop::DeadLetter(e)) => {
            let base = dead_letter.map(|(_, _, base)| base).unwrap_or_default();
            return Err(malformed_at(
                sub_pointer(&base, "reason"),
                e.message.clone(),
            ));
        }
        Err(Hop::Encode(e)) => {
            return Err(c.mismatch("file", "re-encoded", format!("encode refused: {e}")));
        }
    };

    c.expect_eq(
        "expect_attempts",
        &Value::from(expect_attempts),
        out.get("attempts").unwrap_or(&Value::Null),
    )?;
    check_pointer_values(c, "expect_preserved", out, &[], "")?;
    if c.get("expect_absent_after_reencode").is_some() {
        check_pointers_absent(c, "expect_absent_after_reencode", out)?;
    }
    if let Some(want) = c.get("expect_dead_letter") {
        check_block_subset(&c.ptr("expect_dead_letter"), want, out.get("dead_letter"))?;
    }
    Ok(())
}

/// Why the retry hop did not produce a message.
enum Hop {
    /// Decode refused the fixture (the verdict in words).
    Rejected(String),
    /// Decode accepted it with warnings (described).
    Warned(String),
    DeadLetter(DeadLetterError),
    Encode(EncodeError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{
        ORDER_CREATED, fixtures, order_created_with, run_all, verdict_pointer,
    };
    use serde_json::json;

    fn files() -> std::collections::BTreeMap<String, String> {
        let meta_extra = ORDER_CREATED.replace(
            "\"created_at\": 1749132727000",
            "\"created_at\": 1749132727000, \"vendor_flag\": true, \"vendor_ctx\": {\"a\": [1, {}]}",
        );
        let top = order_created_with(&[("attempts", json!(1)), ("extra_top", json!(1))]);
        let urn_only = order_created_with(&[
            ("-job", Value::Null),
            ("urn", json!("urn:babel:orders:created")),
        ]);
        let blank_job = order_created_with(&[
            ("job", json!("  ")),
            ("urn", json!("urn:babel:orders:created")),
        ]);
        let job_and_urn = order_created_with(&[("urn", json!("urn:babel:orders:created"))]);
        let dlq = order_created_with(&[("attempts", json!(2)), ("extra_top", json!(1))]);
        let empty = order_created_with(&[("data", json!({}))]);
        fixtures(&[
            ("fixtures/meta.json", &meta_extra),
            ("fixtures/top.json", &top),
            ("fixtures/urn-only.json", &urn_only),
            ("fixtures/blank-job.json", &blank_job),
            ("fixtures/job-and-urn.json", &job_and_urn),
            ("fixtures/dlq.json", &dlq),
            ("fixtures/empty.json", &empty),
        ])
    }

    #[test]
    fn passes_and_flips() {
        let good = json!({"description": "d", "cases": [
            {"name": "meta", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {"/meta/vendor_flag": true, "/meta/vendor_ctx": {"a": [1, {}]}}},
            {"name": "top", "file": "fixtures/top.json", "expect_attempts": 2,
             "expect_preserved": {"/extra_top": 1}},
            {"name": "urn-only", "file": "fixtures/urn-only.json", "expect_attempts": 1,
             "producer_schema_valid": false,
             "expect_preserved": {"/job": "urn:babel:orders:created"},
             "expect_absent_after_reencode": ["/urn"]},
            {"name": "blank-job", "file": "fixtures/blank-job.json", "expect_attempts": 1,
             "expect_preserved": {"/job": "urn:babel:orders:created"},
             "expect_absent_after_reencode": ["/urn"]},
            {"name": "dlq", "file": "fixtures/dlq.json", "expect_attempts": 3,
             "apply_dead_letter": {"reason": "failed", "original_queue": "orders"},
             "expect_preserved": {"/extra_top": 1, "/meta/id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567"},
             "expect_dead_letter": {"reason": "failed", "original_queue": "orders"}},
            {"name": "empty", "file": "fixtures/empty.json", "expect_attempts": 1,
             "expect_preserved": {"/data": {}}}
        ]});
        let verdicts = run_all(run, "roundtrip", &good, &files());
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let flipped = json!({"description": "d", "cases": [
            {"name": "a", "file": "fixtures/meta.json", "expect_attempts": 0,
             "expect_preserved": {}},
            {"name": "b", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {"/meta/vendor_flag": 1}},
            {"name": "c", "file": "fixtures/empty.json", "expect_attempts": 1,
             "expect_preserved": {"/data": []}},
            {"name": "d", "file": "fixtures/urn-only.json", "expect_attempts": 1,
             "expect_preserved": {}, "expect_absent_after_reencode": ["/job"]},
            {"name": "e", "file": "fixtures/job-and-urn.json", "expect_attempts": 1,
             "expect_preserved": {}},
            {"name": "f", "file": "fixtures/dlq.json", "expect_attempts": 3,
             "apply_dead_letter": {"reason": "failed", "original_queue": "orders"},
             "expect_preserved": {}, "expect_dead_letter": {"original_queue": "billing"}},
            {"name": "g", "file": "fixtures/dlq.json", "expect_attempts": 3,
             "expect_preserved": {}, "expect_dead_letter": {"reason": "failed"}},
            {"name": "h", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {"/meta/missing": null}}
        ]});
        let got: Vec<String> = run_all(run, "roundtrip", &flipped, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /roundtrip/cases/0/expect_attempts",
                "mismatch /roundtrip/cases/1/expect_preserved/~1meta~1vendor_flag",
                "mismatch /roundtrip/cases/2/expect_preserved/~1data",
                "mismatch /roundtrip/cases/3/expect_absent_after_reencode/0",
                "mismatch /roundtrip/cases/4/file",
                "mismatch /roundtrip/cases/5/expect_dead_letter/original_queue",
                "mismatch /roundtrip/cases/6/expect_dead_letter",
                "mismatch /roundtrip/cases/7/expect_preserved/~1meta~1missing",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!({"cases": [
            {"name": "a", "file": "fixtures/meta.json", "expect_preserved": {}},
            {"name": "b", "file": "fixtures/meta.json", "expect_attempts": 1},
            {"name": "c", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {"meta/vendor_flag": true}},
            {"name": "d", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {}, "apply_dead_letter": {"reason": "timeout", "original_queue": "o"}},
            {"name": "e", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {}, "apply_dead_letter": {"reason": "failed"}},
            {"name": "f", "file": "fixtures/nope.json", "expect_attempts": 1,
             "expect_preserved": {}},
            {"name": "g", "file": "fixtures/meta.json", "expect_attempts": 1,
             "expect_preserved": {"/x~2": 1}}
        ]});
        let got: Vec<String> = run_all(run, "roundtrip", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /roundtrip/cases/0/expect_attempts",
                "malformed /roundtrip/cases/1/expect_preserved",
                "malformed /roundtrip/cases/2/expect_preserved/meta~1vendor_flag",
                "malformed /roundtrip/cases/3/apply_dead_letter/reason",
                "malformed /roundtrip/cases/4/apply_dead_letter/original_queue",
                "malformed /roundtrip/cases/5/file",
                "malformed /roundtrip/cases/6/expect_preserved/~1x~02",
            ]
        );
    }
}
