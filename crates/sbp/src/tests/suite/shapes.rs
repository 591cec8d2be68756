//! No manifest makes the runners panic: every op with every input and `expect` replaced by odd
//! values, whole manifests of odd shapes, and random JSON (proptest). Each case still gets one
//! verdict, and a case that cannot run is `Malformed`, never `Pass`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Value, json};

use bqsuite_core::evaluator::{Evaluator, Verdict};

use crate::suite::Sbp;

/// Values of every JSON type, and strings that are almost hex, frames or codes.
fn odd_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(1.5),
        json!(u64::MAX),
        json!(""),
        json!("0"),
        json!("zz"),
        json!("ABCD"),
        json!("0000000102030405060708090a0b0c0d0e0f01"),
        json!("fixtures/none.json"),
        json!("fixtures/bad.json"),
        json!("\u{202e}\n"),
        json!([]),
        json!([1, "00", null]),
        json!({}),
        json!({"kind": "message"}),
        json!({"kind": "error", "frameId": "000102030405060708090a0b0c0d0e0f", "code": 70000, "message": "", "details": ""}),
        json!({"code": 1002}),
        json!({"max_frame": "1"}),
    ]
}

/// The fields any op reads.
const FIELDS: [&str; 11] = [
    "hex",
    "file",
    "frame",
    "frames",
    "limits",
    "seed",
    "count",
    "length_bound",
    "expect",
    "op",
    "name",
];

const OPS: [&str; 8] = [
    "decode",
    "encode",
    "vector",
    "roundtrip",
    "sequence",
    "handshake",
    "fuzz",
    "other",
];

fn fixtures() -> BTreeMap<String, String> {
    let mut f = BTreeMap::new();
    f.insert("fixtures/bad.json".into(), "[1, 2".into());
    f
}

/// Runs every case of `manifest`, checking one outcome per case; a case that names no known op
/// is malformed.
fn run(manifest: &Value) {
    let index = bqsuite_core::index::CaseIndex::new(manifest);
    let outcomes = Sbp.evaluate(manifest, &fixtures(), None);
    assert_eq!(outcomes.len(), index.len());
    for (o, c) in outcomes.iter().zip(&index.cases) {
        let op = c.case.case.get("op").and_then(Value::as_str).unwrap_or("");
        if !OPS[..7].contains(&op) {
            assert!(
                matches!(o.verdict, Verdict::Malformed { .. }),
                "{}: {:?}",
                o.pointer,
                o.verdict
            );
        }
    }
}

#[test]
fn every_op_survives_every_odd_field() {
    let base = json!({"frame": {"kind": "control", "frameId": "000102030405060708090a0b0c0d0e0f", "op": "close", "data": ""},
        "hex": "0000000102030405060708090a0b0c0d0e0f03", "frames": ["0000000102030405060708090a0b0c0d0e0f03"],
        "seed": 1, "count": 50, "length_bound": 80, "expect": {"codes": [1002]}});
    let mut cases = Vec::new();
    for op in OPS {
        for field in FIELDS {
            for value in odd_values() {
                let mut case = base.clone();
                case["name"] = json!(format!("c{}", cases.len()));
                case["op"] = json!(op);
                case[field] = value;
                cases.push(case);
            }
        }
    }
    run(&json!({"s": {"limits": {"max_frame": 64}, "cases": cases}}));
}

#[test]
fn odd_manifests_give_one_verdict_per_case() {
    for manifest in [
        json!(null),
        json!([]),
        json!({"s": []}),
        json!({"s": [1, "x", null, {}]}),
        json!({"s": {"cases": [{"op": "decode"}], "limits": 5}}),
        json!({"s": {"sub": {"op": "decode", "hex": "", "expect": {"error": {"code": 1002}}}}}),
        json!({"s": {"cases": [{"op": "sequence", "frames": [[]], "expect": {"frames": 1}}]}}),
        json!({"s": {"cases": [{"op": "vector", "hex": "", "expect": {"frame": {"kind": 1}}}]}}),
    ] {
        run(&manifest);
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[0-9a-fA-Z]{0,40}".prop_map(Value::from),
        prop::sample::select(OPS.to_vec()).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(prop::sample::select(FIELDS.to_vec()), inner, 0..5)
                .prop_map(|m| {
                    Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_cases_never_panic(cases in prop::collection::vec(json_value(), 0..6)) {
        run(&json!({"s": {"cases": cases}}));
    }
}
