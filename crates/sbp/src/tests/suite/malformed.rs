//! Cases not shaped as their op needs: each is `Malformed` at the pointer of the field at fault,
//! with a message that says what is wrong.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use bqsuite_core::evaluator::{CaseOutcome, Evaluator, Verdict};

use crate::suite::Sbp;

const PING: &str = "0000000102030405060708090a0b0c0d0e0f01";

/// The outcomes of a section `s` holding `case` and the section's `extra` members, with
/// `fixtures`.
fn outcomes_with(case: Value, extra: Value, fixtures: &[(&str, &str)]) -> Vec<CaseOutcome> {
    let mut section = json!({ "description": "d", "cases": [case] });
    for (k, v) in extra.as_object().unwrap() {
        section[k] = v.clone();
    }
    let manifest = json!({ "schema_version": 1, "s": section });
    let files: BTreeMap<String, String> = fixtures
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Sbp.evaluate(&manifest, &files, None)
}

/// The verdict on the one case of a section `s` holding `case`, with `fixtures`.
fn verdict_with(case: Value, extra: Value, fixtures: &[(&str, &str)]) -> Verdict {
    let outcomes = outcomes_with(case, extra, fixtures);
    assert_eq!(outcomes.len(), 1);
    outcomes.into_iter().next().unwrap().verdict
}

/// The verdict on `case` in a section whose `limits` are `limits`, and the verdict the case-id
/// rule gives that `limits` object, which it counts as a case.
fn with_section_limits(case: Value, limits: Value) -> (Verdict, Verdict) {
    let mut outcomes = outcomes_with(case, json!({ "limits": limits }), &[]);
    assert_eq!(outcomes.len(), 2);
    let (limits, case) = (outcomes.pop().unwrap(), outcomes.pop().unwrap());
    assert_eq!(limits.pointer, "/s/limits");
    (case.verdict, limits.verdict)
}

fn verdict(case: Value) -> Verdict {
    verdict_with(case, json!({}), &[])
}

/// The pointer and message of a malformed verdict.
fn refused(v: Verdict) -> (String, String) {
    match v {
        Verdict::Malformed { pointer, message } => (pointer, message),
        other => panic!("not malformed: {other:?}"),
    }
}

fn assert_refused(v: Verdict, pointer: &str, words: &str) {
    let (at, message) = refused(v);
    assert_eq!(at, pointer, "{message}");
    assert!(message.contains(words), "{message:?} lacks {words:?}");
}

#[test]
fn a_well_formed_case_passes_and_a_wrong_expectation_is_a_mismatch_at_its_field() {
    let frame = json!({"kind": "control", "frameId": "000102030405060708090a0b0c0d0e0f", "op": "ping", "data": ""});
    let ok = json!({"name": "p", "op": "decode", "hex": PING, "expect": {"frame": frame}});
    assert_eq!(verdict(ok), Verdict::Pass);
    let mut wrong = frame.clone();
    wrong["op"] = json!("pong");
    let v = verdict(json!({"name": "p", "op": "decode", "hex": PING, "expect": {"frame": wrong}}));
    let Verdict::Mismatch(m) = v else {
        panic!("{v:?}")
    };
    assert_eq!(m.pointer, "/s/cases/0/expect/frame/op");
    assert_eq!(
        (m.expected.as_str(), m.derived.as_str()),
        ("\"pong\"", "\"ping\"")
    );
    // A frame where an error is expected: the whole outcome is shown, at the expectation.
    let v = verdict(
        json!({"name": "p", "op": "decode", "hex": PING, "expect": {"error": {"code": 1002}}}),
    );
    let Verdict::Mismatch(m) = v else {
        panic!("{v:?}")
    };
    assert_eq!(m.pointer, "/s/cases/0/expect/error");
    assert!(m.derived.starts_with("{\"frame\":"), "{}", m.derived);
}

#[test]
fn bad_hex_names_its_byte_offset() {
    let v = verdict(
        json!({"name": "x", "op": "decode", "hex": "00aG", "expect": {"error": {"code": 1002}}}),
    );
    assert_refused(v, "/s/cases/0/hex", "byte 3");
    let v = verdict(
        json!({"name": "x", "op": "decode", "hex": "00A0", "expect": {"error": {"code": 1002}}}),
    );
    assert_refused(v, "/s/cases/0/hex", "uppercase hex digit at byte 2");
    let v = verdict(
        json!({"name": "x", "op": "decode", "hex": "000", "expect": {"error": {"code": 1002}}}),
    );
    assert_refused(v, "/s/cases/0/hex", "odd number");
    let v = verdict(
        json!({"name": "x", "op": "sequence", "frames": [PING, "zz"], "expect": {"frames": []}}),
    );
    assert_refused(v, "/s/cases/0/frames/1", "byte 0");
    let frame = json!({"kind": "control", "frameId": "000102030405060708090a0b0c0d0e0f", "op": "close", "data": "0x"});
    let v = verdict(json!({"name": "x", "op": "encode", "frame": frame, "expect": {"hex": ""}}));
    assert_refused(v, "/s/cases/0/frame/data", "byte 1");
}

#[test]
fn an_unknown_or_missing_op_is_refused_at_op() {
    let v = verdict(json!({"name": "x", "op": "decrypt", "hex": PING, "expect": {}}));
    assert_refused(v, "/s/cases/0/op", "unknown op `decrypt`");
    let v = verdict(json!({"name": "x", "hex": PING, "expect": {}}));
    assert_refused(v, "/s/cases/0/op", "missing field `op`");
    let v = verdict(json!({"name": "x", "op": 3, "hex": PING, "expect": {}}));
    assert_refused(v, "/s/cases/0/op", "must be a string");
    // Control and bidi characters from the manifest are shown escaped.
    let (_, message) = refused(verdict(
        json!({"name": "x", "op": "a\u{202e}b\n", "expect": {}}),
    ));
    assert!(message.contains("a\\u{202e}b\\n"), "{message}");
}

#[test]
fn a_missing_or_misshapen_expect_is_refused_at_expect() {
    let v = verdict(json!({"name": "x", "op": "decode", "hex": PING}));
    assert_refused(v, "/s/cases/0/expect", "missing field `expect`");
    let v = verdict(json!({"name": "x", "op": "decode", "hex": PING, "expect": {"hex": PING}}));
    assert_refused(
        v,
        "/s/cases/0/expect",
        "{\"frame\": ...} or {\"error\": ...}",
    );
    let both = json!({"frame": {}, "error": {"code": 1002}});
    let v = verdict(json!({"name": "x", "op": "decode", "hex": PING, "expect": both}));
    assert_refused(v, "/s/cases/0/expect", "must be");
    let v = verdict(
        json!({"name": "x", "op": "fuzz", "seed": 1, "count": 1, "length_bound": 80, "expect": {"codes": [1002, "1003"]}}),
    );
    assert_refused(v, "/s/cases/0/expect/codes", "array of error codes");
}

#[test]
fn a_fixture_missing_or_not_of_the_fixture_shape_is_refused_at_file() {
    let case = json!({"name": "x", "op": "decode", "file": "fixtures/f.json", "expect": {"error": {"code": 1002}}});
    assert_refused(
        verdict(case.clone()),
        "/s/cases/0/file",
        "`fixtures/f.json` is not a file of the suite",
    );
    let with = |text: &str| verdict_with(case.clone(), json!({}), &[("fixtures/f.json", text)]);
    assert_refused(with("{"), "/s/cases/0/file", "is not JSON");
    for text in [
        r#"{"hex": "00"}"#,
        r#"{"description": "d", "hex": 0}"#,
        r#"{"description": "d", "hex": "00", "more": 1}"#,
        r#"["00"]"#,
    ] {
        assert_refused(
            with(text),
            "/s/cases/0/file",
            "is not a fixture of the shape",
        );
    }
    assert_refused(
        with(r#"{"description": "d", "hex": "0000F0"}"#),
        "/s/cases/0/file",
        "byte 4",
    );
    // A good fixture is read.
    let good = format!(r#"{{"description": "d", "hex": "{PING}"}}"#);
    assert_eq!(with(&good), Verdict::Mismatch(expected_frame_not_error()));
}

#[test]
fn a_fixture_the_caller_parsed_is_used_without_reading_it_again() {
    let manifest = json!({"s": {"cases": [
        {"name": "x", "op": "decode", "file": "fixtures/f.json", "expect": {"error": {"code": 1002}}}
    ]}});
    let index = bqsuite_core::index::CaseIndex::new(&manifest);
    let parsed = json!({"description": "d", "hex": PING});
    let none: BTreeMap<String, String> = BTreeMap::new();
    let outcomes = Sbp.evaluate_some(
        &manifest,
        &index,
        &[0],
        &none,
        Some(("fixtures/f.json", parsed)),
        None,
    );
    assert_eq!(
        outcomes[0].verdict,
        Verdict::Mismatch(expected_frame_not_error())
    );
}

fn expected_frame_not_error() -> bqsuite_core::evaluator::Mismatch {
    bqsuite_core::evaluator::Mismatch {
        pointer: "/s/cases/0/expect/error".into(),
        expected: r#"{"error":{"code":1002}}"#.into(),
        derived: r#"{"frame":{"kind":"control","frameId":"000102030405060708090a0b0c0d0e0f","op":"ping","data":""}}"#.into(),
    }
}

#[test]
fn limits_are_inherited_from_the_section_and_checked_at_their_field() {
    let case =
        json!({"name": "x", "op": "decode", "hex": PING, "expect": {"error": {"code": 1000}}});
    // A section's limits apply to its cases; the case's own win.
    let (v, section) = with_section_limits(case.clone(), json!({"max_frame": 18}));
    assert_eq!(v, Verdict::Pass);
    // The object itself is a case under the case-id rule: it says so rather than pass.
    assert_refused(section, "/s/limits", "give each case its own `limits`");
    let mut own = case.clone();
    own["limits"] = json!({"max_frame": 19});
    let (v, _) = with_section_limits(own, json!({"max_frame": 18}));
    assert!(matches!(v, Verdict::Mismatch(_)), "{v:?}");
    let (v, _) = with_section_limits(case.clone(), json!({"max_frames": 18}));
    assert_refused(v, "/s/limits/max_frames", "unknown limit");
    let mut bad = case;
    bad["limits"] = json!({"max_handshake": -1});
    assert_refused(
        verdict(bad),
        "/s/cases/0/limits/max_handshake",
        "non-negative integer",
    );
}

#[test]
fn unknown_fields_and_mistyped_inputs_are_refused_at_their_field() {
    let v = verdict(json!({"name": "x", "op": "decode", "hex": PING, "limit": {}, "expect": {}}));
    assert_refused(v, "/s/cases/0/limit", "unknown field `limit`");
    let v = verdict(json!({"name": "x", "op": "decode", "hex": PING, "file": "f", "expect": {}}));
    assert_refused(v, "/s/cases/0/file", "not both");
    let v = verdict(json!({"name": "x", "op": "roundtrip", "expect": {"same_bytes": true}}));
    assert_refused(v, "/s/cases/0/hex", "give `hex` or `file`");
    let v = verdict(
        json!({"name": "x", "op": "fuzz", "seed": 1, "count": 1, "length_bound": 64, "expect": {"codes": []}}),
    );
    assert_refused(v, "/s/cases/0/length_bound", "below 80");
    let v = verdict(
        json!({"name": "x", "op": "fuzz", "seed": 1, "count": 1_000_001, "length_bound": 80, "expect": {"codes": []}}),
    );
    assert_refused(v, "/s/cases/0/count", "from 0 to 1000000");
    let frame = json!({"kind": "ack", "frameId": "000102030405060708090a0b0c0d0e", "ackId": "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"});
    let v = verdict(json!({"name": "x", "op": "encode", "frame": frame, "expect": {"hex": ""}}));
    assert_refused(
        v,
        "/s/cases/0/frame/frameId",
        "30 hex digits where 32 belong",
    );
    let frame = json!({"kind": "control", "frameId": "000102030405060708090a0b0c0d0e0f", "timestamp": "01", "op": "ping", "data": ""});
    let v = verdict(json!({"name": "x", "op": "encode", "frame": frame, "expect": {"hex": ""}}));
    assert_refused(v, "/s/cases/0/frame/timestamp", "decimal int64");
    let frame = json!({"kind": "ack", "frameId": "000102030405060708090a0b0c0d0e0f"});
    let v = verdict(json!({"name": "x", "op": "encode", "frame": frame, "expect": {"hex": ""}}));
    assert_refused(v, "/s/cases/0/frame/ackId", "no `ackId`");
    let v = verdict(json!("not a case"));
    assert_refused(v, "/s/cases/0", "a case is an object");
}
