//! Section `cases`: the envelope cases. Decode the fixture; `valid` must match accept/reject;
//! for a valid case every `expect` field (`urn`, `data`, `attempts`, `lang`, `schema_version`, and
//! `dead_letter` as a sub-field match) must equal what decode derives; an invalid case carries a
//! `reason`. The `duplicate-keys-last-wins` case must also really repeat `job` and `data` in the
//! fixture text, or it would not test last-wins at all.

use serde_json::Value;

use crate::case::{Case, Step, finish};
use crate::model::decode::duplicate_top_level_keys;
use crate::model::expect::decode_file;
use crate::model::expect::{check_decode_expectations, fixture_text};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// `expect` fields every valid envelope case must carry.
const REQUIRED_EXPECT: [&str; 5] = ["urn", "data", "attempts", "lang", "schema_version"];

/// The case whose fixture text must repeat top-level keys, and the keys it must repeat.
const DUPLICATE_KEYS_CASE: &str = "duplicate-keys-last-wins";
const DUPLICATED_KEYS: [&str; 2] = ["job", "data"];

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let text = fixture_text(c, fixtures)?;
    let result = decode_file(c.str("file")?, text);
    check_decode_expectations(c, &result, &REQUIRED_EXPECT)?;
    if c.get("name").and_then(Value::as_str) == Some(DUPLICATE_KEYS_CASE) {
        let repeated = duplicate_top_level_keys(text);
        if !DUPLICATED_KEYS
            .iter()
            .all(|k| repeated.iter().any(|r| r == k))
        {
            return Err(c.mismatch(
                "file",
                "fixture text repeating the top-level keys job and data",
                if repeated.is_empty() {
                    "no top-level key repeats".to_string()
                } else {
                    let keys: Vec<String> = repeated.iter().map(|k| format!("`{k}`")).collect();
                    format!("repeated top-level keys: {}", keys.join(", "))
                },
            ));
        }
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

    const DUPLICATE: &str = r#"{
  "job": "urn:babel:orders:draft",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": {"order_id": 1, "stale": true},
  "job": "urn:babel:orders:created",
  "data": {"order_id": 1042},
  "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php",
           "schema_version": 1, "created_at": 1749132727000},
  "attempts": 0
}"#;

    fn expect_order(extra: Value) -> Value {
        let mut e = json!({"urn": "urn:babel:orders:created", "data": {"order_id": 1042},
            "attempts": 0, "lang": "php", "schema_version": 1});
        if let (Some(m), Some(x)) = (e.as_object_mut(), extra.as_object()) {
            for (k, v) in x {
                m.insert(k.clone(), v.clone());
            }
        }
        e
    }

    fn files() -> std::collections::BTreeMap<String, String> {
        let wrong_case = order_created_with(&[
            ("-job", Value::Null),
            ("JOB", json!("urn:babel:orders:created")),
        ]);
        let v2 = ORDER_CREATED.replace("\"schema_version\": 1", "\"schema_version\": 2");
        let dead = order_created_with(&[
            ("attempts", json!(3)),
            (
                "dead_letter",
                json!({"reason": "failed", "failed_at": 1, "original_queue": "orders", "attempts": 3}),
            ),
        ]);
        fixtures(&[
            ("fixtures/order-created.json", ORDER_CREATED),
            ("fixtures/invalid-wrong-case-job.json", &wrong_case),
            ("fixtures/v2.json", &v2),
            ("fixtures/dead.json", &dead),
            ("fixtures/dup.json", DUPLICATE),
        ])
    }

    #[test]
    fn passes_and_flips() {
        let good = json!([
            {"name": "order-created", "file": "fixtures/order-created.json", "valid": true,
             "expect": expect_order(json!({}))},
            {"name": "invalid-wrong-case-job", "file": "fixtures/invalid-wrong-case-job.json",
             "valid": false, "reason": "JOB is not job"},
            {"name": "v2", "file": "fixtures/v2.json", "valid": false, "reason": "v2"},
            {"name": "dead", "file": "fixtures/dead.json", "valid": true,
             "expect": expect_order(json!({"attempts": 3,
                "dead_letter": {"reason": "failed", "original_queue": "orders"}}))},
            {"name": "duplicate-keys-last-wins", "file": "fixtures/dup.json", "valid": true,
             "expect": expect_order(json!({}))}
        ]);
        let verdicts = run_all(run, "cases", &good, &files());
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let flipped = json!([
            {"name": "a", "file": "fixtures/order-created.json", "valid": false, "reason": "x"},
            {"name": "b", "file": "fixtures/invalid-wrong-case-job.json", "valid": true,
             "expect": expect_order(json!({}))},
            {"name": "c", "file": "fixtures/order-created.json", "valid": true,
             "expect": expect_order(json!({"attempts": 1}))},
            {"name": "d", "file": "fixtures/dead.json", "valid": true,
             "expect": expect_order(json!({"attempts": 3,
                "dead_letter": {"reason": "poison"}}))},
            {"name": "e", "file": "fixtures/dup.json", "valid": true,
             "expect": expect_order(json!({"data": {"order_id": 1042, "stale": true}}))},
            {"name": "duplicate-keys-last-wins", "file": "fixtures/order-created.json",
             "valid": true, "expect": expect_order(json!({}))},
            {"name": "g", "file": "fixtures/order-created.json", "valid": true,
             "expect": expect_order(json!({"lang": "go"}))},
            {"name": "h", "file": "fixtures/order-created.json", "valid": true,
             "expect": expect_order(json!({"schema_version": 1.0}))},
            {"name": "i", "file": "fixtures/order-created.json", "valid": true,
             "expect": expect_order(json!({"attempts": "0"}))}
        ]);
        let got: Vec<String> = run_all(run, "cases", &flipped, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /cases/0/valid",
                "mismatch /cases/1/valid",
                "mismatch /cases/2/expect/attempts",
                "mismatch /cases/3/expect/dead_letter/reason",
                "mismatch /cases/4/expect/data",
                "mismatch /cases/5/file",
                "mismatch /cases/6/expect/lang",
                "mismatch /cases/7/expect/schema_version",
                "mismatch /cases/8/expect/attempts",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!([
            {"name": "no-file", "valid": true},
            {"name": "missing-fixture", "file": "fixtures/none.json", "valid": true},
            {"name": "no-valid", "file": "fixtures/order-created.json"},
            {"name": "no-expect", "file": "fixtures/order-created.json", "valid": true},
            {"name": "no-reason", "file": "fixtures/v2.json", "valid": false},
            {"name": "partial-expect", "file": "fixtures/order-created.json", "valid": true,
             "expect": {"urn": "urn:babel:orders:created"}}
        ]);
        let got: Vec<String> = run_all(run, "cases", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /cases/0/file",
                "malformed /cases/1/file",
                "malformed /cases/2/valid",
                "malformed /cases/3/expect",
                "malformed /cases/4/reason",
                "malformed /cases/5/expect/data",
            ]
        );
    }
}
