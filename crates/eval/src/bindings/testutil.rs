//! Shared test fixtures and helpers for the binding and section tests.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::{CaseRef, section_cases};

/// The upstream `fixtures/order-created.json`, verbatim.
pub const ORDER_CREATED: &str = r#"{
  "job": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": {
    "order_id": 1042
  },
  "meta": {
    "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
    "queue": "orders",
    "lang": "php",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 0
}
"#;

pub fn order_created() -> Value {
    serde_json::from_str(ORDER_CREATED).expect("fixture parses")
}

/// A fixture source holding `fixtures/order-created.json`.
pub fn fixtures() -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    map.insert(
        "fixtures/order-created.json".to_owned(),
        ORDER_CREATED.to_owned(),
    );
    map
}

pub type Runner = fn(&CaseRef<'_>, &Value, &dyn FixtureSource) -> Verdict;

/// Runs every case of `block` (as section `section`) and returns `(id, verdict)` pairs.
pub fn run_all(
    section: &str,
    block: &Value,
    fixtures: &dyn FixtureSource,
    run: Runner,
) -> Vec<(String, Verdict)> {
    section_cases(section, block)
        .iter()
        .map(|case| (case.id.clone(), run(case, block, fixtures)))
        .collect()
}

/// Asserts every case of `block` passes.
pub fn assert_all_pass(section: &str, block: &Value, run: Runner) {
    let results = run_all(section, block, &fixtures(), run);
    assert!(!results.is_empty(), "{section}: no cases");
    for (id, verdict) in results {
        assert_eq!(verdict, Verdict::Pass, "{section} {id}");
    }
}

/// The verdict of case `id` of `block`.
pub fn verdict_of(section: &str, block: &Value, id: &str, run: Runner) -> Verdict {
    run_all(section, block, &fixtures(), run)
        .into_iter()
        .find(|(case_id, _)| case_id == id)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("{section}: no case {id}"))
}

/// Asserts `verdict` is a mismatch at `pointer`.
pub fn assert_mismatch_at(verdict: &Verdict, pointer: &str) {
    match verdict {
        Verdict::Mismatch(m) => assert_eq!(m.pointer, pointer, "{m:?}"),
        other => panic!("expected a mismatch at {pointer}, got {other:?}"),
    }
}

/// Asserts `verdict` is malformed at `pointer`.
pub fn assert_malformed_at(verdict: &Verdict, pointer: &str) {
    match verdict {
        Verdict::Malformed { pointer: p, .. } => assert_eq!(p, pointer, "{verdict:?}"),
        other => panic!("expected malformed at {pointer}, got {other:?}"),
    }
}

fn pointers(value: &Value, base: &str, out: &mut Vec<String>) {
    out.push(base.to_owned());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let token = bqsuite_core::ids::escape_token(k);
                pointers(v, &format!("{base}/{token}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, &format!("{base}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Replaces every node of `block` in turn with odd values (and removes every object member),
/// running every case each time against good, missing and broken fixtures: a runner must
/// return some verdict and never panic.
pub fn assert_no_panic_on_junk(section: &str, block: &Value, run: Runner) {
    let junk = [
        Value::Null,
        Value::Bool(true),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(u64::MAX),
        serde_json::json!("\u{FEFF}x\u{0B}"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!({ "cases": [1, null, {}] }),
    ];
    let mut broken = fixtures();
    for text in broken.values_mut() {
        *text = "{\"job\": ".to_owned();
    }
    let empty = BTreeMap::new();
    let sources: [&dyn FixtureSource; 3] = [&fixtures(), &broken, &empty];
    let mut all = Vec::new();
    pointers(block, "", &mut all);
    let mut variants = vec![block.clone()];
    for pointer in &all {
        for replacement in &junk {
            let mut copy = block.clone();
            if let Some(slot) = copy.pointer_mut(pointer) {
                *slot = replacement.clone();
                variants.push(copy);
            }
        }
        if let Some((parent, key)) = pointer.rsplit_once('/') {
            let mut copy = block.clone();
            if let Some(Value::Object(map)) = copy.pointer_mut(parent) {
                map.shift_remove(&key.replace("~1", "/").replace("~0", "~"));
                variants.push(copy);
            }
        }
    }
    for variant in &variants {
        for source in sources {
            let _ = run_all(section, variant, source, run);
        }
    }
}
