//! Test-only helpers for the section runners' unit tests: inline fixtures and one-case runs.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::{CaseRef, section_cases};

/// The signature every section runner shares.
pub type Runner = fn(&CaseRef<'_>, &Value, &dyn FixtureSource) -> Verdict;

/// fixtures/order-created.json of the suite.
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

/// A fixture source holding `files` (relative path, text).
pub fn fixtures(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// `ORDER_CREATED` with top-level `changes` applied (a `null`-valued key `"-"`-prefixed removes).
pub fn order_created_with(changes: &[(&str, Value)]) -> String {
    let mut value: Value = serde_json::from_str(ORDER_CREATED).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        for (key, v) in changes {
            if let Some(stripped) = key.strip_prefix('-') {
                map.remove(stripped);
            } else {
                map.insert(key.to_string(), v.clone());
            }
        }
    }
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// Runs every case of `block` (as section `section`) and returns the verdicts in order.
pub fn run_all(
    runner: Runner,
    section: &str,
    block: &Value,
    files: &BTreeMap<String, String>,
) -> Vec<Verdict> {
    section_cases(section, block)
        .iter()
        .map(|c| runner(c, block, files))
        .collect()
}

/// `pass`, `mismatch <pointer>`, `malformed <pointer>`, or the debug form of any other verdict.
pub fn verdict_pointer(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Pass => "pass".to_string(),
        Verdict::Mismatch(m) => format!("mismatch {}", m.pointer),
        Verdict::Malformed { pointer, .. } => format!("malformed {pointer}"),
        other => format!("{other:?}"),
    }
}
