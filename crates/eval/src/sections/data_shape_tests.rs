//! Tests of the `data_shape` runner: synthetic cases and their flips, whitespace stripping,
//! malformed cases, and the real releases (every case passes, every flipped expectation is caught).

use super::*;
use crate::model::testkit::{fixtures, order_created_with, run_all, verdict_pointer};
use crate::realkit;
use serde_json::json;

fn files() -> std::collections::BTreeMap<String, String> {
    let array = order_created_with(&[("data", json!([1, 2]))]);
    let null = order_created_with(&[("data", Value::Null)]);
    let string = order_created_with(&[("data", json!("order 1042"))]);
    let no_job = order_created_with(&[("-job", Value::Null), ("data", json!([1]))]);
    let fine = order_created_with(&[]);
    fixtures(&[
        ("fixtures/array.json", &array),
        ("fixtures/null.json", &null),
        ("fixtures/string.json", &string),
        ("fixtures/no-job.json", &no_job),
        ("fixtures/fine.json", &fine),
    ])
}

#[test]
fn passes_and_flips() {
    let good = json!({"description": "d", "cases": [
        {"name": "empty-data", "mode": "encode", "urn": "urn:babel:orders:created",
         "queue": "orders", "data": {}, "expect_encoded_data_json": "{}"},
        {"name": "spaced", "mode": "encode", "urn": "urn:x", "queue": "orders",
         "data": {"a": [1]}, "expect_encoded_data_json": "{ \"a\" : [ 1 ] }"},
        {"name": "data-array-rejected", "mode": "decode", "file": "fixtures/array.json",
         "valid": false, "reason": "array"},
        {"name": "data-null-rejected", "mode": "decode", "file": "fixtures/null.json",
         "valid": false, "reason": "null"},
        {"name": "data-string-rejected", "mode": "decode", "file": "fixtures/string.json",
         "valid": false, "reason": "string"},
        {"name": "fine", "mode": "decode", "file": "fixtures/fine.json", "valid": true}
    ]});
    let verdicts = run_all(run, "data_shape", &good, &files());
    assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

    let flipped = json!({"description": "d", "cases": [
        {"name": "a", "mode": "encode", "urn": "urn:x", "queue": "orders", "data": {},
         "expect_encoded_data_json": "[]"},
        {"name": "b", "mode": "decode", "file": "fixtures/array.json", "valid": true},
        {"name": "c", "mode": "decode", "file": "fixtures/no-job.json", "valid": false,
         "reason": "array"},
        {"name": "d", "mode": "encode", "urn": " ", "queue": "orders", "data": {},
         "expect_encoded_data_json": "{}"},
        {"name": "e", "mode": "decode", "file": "fixtures/fine.json", "valid": false,
         "reason": "x"},
        {"name": "f", "mode": "encode", "urn": "urn:x", "queue": "orders", "data": {},
         "expect_encoded_data_json": "{}-flipped"},
        {"name": "g", "mode": "encode", "urn": "urn:x", "queue": "orders", "data": {},
         "expect_encoded_data_json": "{"},
        {"name": "h", "mode": "encode", "urn": "urn:x", "queue": "orders", "data": {"a": " "},
         "expect_encoded_data_json": "{\"a\":\"\"}"}
    ]});
    let got: Vec<String> = run_all(run, "data_shape", &flipped, &files())
        .iter()
        .map(verdict_pointer)
        .collect();
    assert_eq!(
        got,
        [
            "mismatch /data_shape/cases/0/expect_encoded_data_json",
            "mismatch /data_shape/cases/1/valid",
            "mismatch /data_shape/cases/2/reason",
            "mismatch /data_shape/cases/3/urn",
            "mismatch /data_shape/cases/4/valid",
            "mismatch /data_shape/cases/5/expect_encoded_data_json",
            "mismatch /data_shape/cases/6/expect_encoded_data_json",
            "mismatch /data_shape/cases/7/expect_encoded_data_json",
        ]
    );
}

#[test]
fn real_releases_pass_and_catch_flips() {
    for v in realkit::REAL_VERSIONS {
        realkit::assert_section_passes(v, "data_shape");
        assert!(realkit::assert_flips_caught(v, "data_shape") > 0, "{v}");
    }
}

#[test]
fn whitespace_inside_strings_is_kept() {
    assert_eq!(
        strip_insignificant_whitespace(" { \"a b\" : [ 1 , \"\\\" x\" ] }\n"),
        "{\"a b\":[1,\"\\\" x\"]}"
    );
    assert_eq!(strip_insignificant_whitespace("{} -flipped"), "{}-flipped");
}

#[test]
fn malformed_cases() {
    let block = json!({"cases": [
        {"name": "a"},
        {"name": "b", "mode": "transcode"},
        {"name": "c", "mode": "encode", "urn": "u", "queue": "q", "data": [],
         "expect_encoded_data_json": "[]"},
        {"name": "d", "mode": "encode", "urn": "u", "queue": "q", "data": {},
         "expect_encoded_data_json": {}},
        {"name": "e", "mode": "decode", "file": "fixtures/array.json", "valid": false}
    ]});
    let got: Vec<String> = run_all(run, "data_shape", &block, &files())
        .iter()
        .map(verdict_pointer)
        .collect();
    assert_eq!(
        got,
        [
            "malformed /data_shape/cases/0/mode",
            "malformed /data_shape/cases/1/mode",
            "malformed /data_shape/cases/2/data",
            "malformed /data_shape/cases/3/expect_encoded_data_json",
            "malformed /data_shape/cases/4/reason",
        ]
    );
}
