//! Test-only: the real published releases of the suite (`tests/data/real-releases/<version>`),
//! and the flip check every section runner must survive: change one expectation of a real case
//! to another plausible value and the runner must answer with a mismatch inside that case.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::outcome::Verdict;
use crate::sections;
use bqsuite_core::ids::{CaseRef, section_cases};

/// The versions of every real release held as test data, oldest first.
pub const REAL_VERSIONS: [&str; 8] = [
    "1.0.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.8.0",
];

/// The directory of the real release `version`.
pub fn release_dir(version: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/real-releases")
        .join(version)
}

/// The manifest of the real release `version`, and every file of it by relative path.
pub fn release(version: &str) -> (Value, BTreeMap<String, String>) {
    let dir = release_dir(version);
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&dir) {
        let entry = entry.expect("readable test data");
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(&dir).expect("under dir");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(entry.path()).expect("UTF-8 test data");
            files.insert(rel, text);
        }
    }
    let manifest = serde_json::from_str(&files["manifest.json"]).expect("manifest parses");
    (manifest, files)
}

/// Runs one case of `section` with the runner the evaluator has for it.
pub fn run_case(
    section: &str,
    case: &CaseRef<'_>,
    block: &Value,
    files: &BTreeMap<String, String>,
) -> Verdict {
    let run = sections::runner(section).unwrap_or_else(|| panic!("no runner for `{section}`"));
    run(case, block, files)
}

/// Every case of `section` in the real release `version` passes (none skipped, none malformed).
pub fn assert_section_passes(version: &str, section: &str) {
    let (manifest, files) = release(version);
    let block = &manifest[section];
    let cases = section_cases(section, block);
    assert!(!cases.is_empty(), "{version} has no case in `{section}`");
    let failing: Vec<String> = cases
        .iter()
        .filter_map(|c| match run_case(section, c, block, &files) {
            Verdict::Pass => None,
            other => Some(format!("{} ({}): {other}", c.id, c.pointer)),
        })
        .collect();
    assert!(
        failing.is_empty(),
        "{version} `{section}`: {} of {} cases do not pass:\n{}",
        failing.len(),
        cases.len(),
        failing.join("\n")
    );
}

/// Whether a case field states an expectation (what a flip changes).
pub fn is_expectation(field: &str) -> bool {
    field == "valid" || field.starts_with("expect")
}

/// Like [`is_expectation`], counting also the fields a broker binding's projection cases state
/// (`headers`, `record_timestamp`...), which the model derives and compares as they are.
pub fn is_expectation_in(section: &str, field: &str) -> bool {
    is_expectation(field)
        || crate::bindings::broker_table::binding(section).is_some_and(|b| {
            b.projection.iter().any(|p| p.field == field)
                || b.native_time.is_some_and(|t| t.field == field)
        })
}

/// For every case of `section` in the real release `version` and every expectation field of it,
/// changes the field's first leaf to another plausible value (see [`flip`]) and checks that the
/// runner reports a mismatch whose pointer lies inside that case. Returns the flips made.
pub fn assert_flips_caught(version: &str, section: &str) -> usize {
    let (manifest, files) = release(version);
    let pointers: Vec<(String, Vec<String>)> = section_cases(section, &manifest[section])
        .iter()
        .map(|c| {
            let fields = c
                .case
                .as_object()
                .map(|o| o.keys().filter(|k| is_expectation(k)).cloned().collect())
                .unwrap_or_default();
            (c.pointer.clone(), fields)
        })
        .collect();
    let mut problems = Vec::new();
    let mut flips = 0;
    for (case_ptr, fields) in &pointers {
        for field in fields {
            let field_ptr = format!("{case_ptr}/{}", bqsuite_core::ids::escape_token(field));
            let mut changed = manifest.clone();
            let Some((leaf_ptr, new)) = flip(&manifest, section, field, &field_ptr) else {
                problems.push(format!("{field_ptr}: no leaf to flip"));
                continue;
            };
            *pointer_mut(&mut changed, &leaf_ptr) = new.clone();
            flips += 1;
            let block = &changed[section];
            let case = section_cases(section, block)
                .into_iter()
                .find(|c| &c.pointer == case_ptr)
                .expect("case still there");
            match run_case(section, &case, block, &files) {
                Verdict::Mismatch(m) if m.pointer.starts_with(case_ptr.as_str()) => {}
                other => problems.push(format!(
                    "{leaf_ptr} set to {new}: expected a mismatch in {case_ptr}, got {other:?}"
                )),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{version} `{section}`: {} flips not caught:\n{}",
        problems.len(),
        problems.join("\n")
    );
    flips
}

/// The pointer of the first leaf (depth first, document order) of the expectation at
/// `field_ptr`, and another plausible value for it: a different value that another case of the
/// section holds at the same place (for a list of pointers that must be absent: the root
/// pointer, which always exists), else a negated boolean, a number plus one, another string the
/// field holds in the section or else a string with a suffix, an element added to an empty
/// array, a key added to an empty object.
pub fn flip(
    manifest: &Value,
    section: &str,
    field: &str,
    field_ptr: &str,
) -> Option<(String, Value)> {
    let value = manifest.pointer(field_ptr)?;
    let (sub, leaf) = first_leaf(value, String::new());
    let leaf_ptr = format!("{field_ptr}{sub}");
    let mut seen = Vec::new();
    for c in section_cases(section, &manifest[section]) {
        if let Some(v) = c.case.get(field).and_then(|v| v.pointer(&sub))
            && v != leaf
            && !v.is_object()
            && !v.is_array()
            && !seen.contains(v)
        {
            seen.push(v.clone());
        }
    }
    // A list of pointers that must be absent is made false by naming the root, which always exists.
    if field.contains("absent") && leaf.is_string() {
        return Some((leaf_ptr, Value::String(String::new())));
    }
    let same_kind = seen
        .iter()
        .find(|v| kind(v) == kind(leaf))
        .cloned()
        .or_else(|| other_word(manifest, section, field, leaf));
    let new = match (same_kind, leaf) {
        (Some(v), _) => v,
        (None, Value::Bool(b)) => Value::Bool(!b),
        (None, Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i + 1),
            None => Value::from(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        (None, Value::String(s)) => Value::String(format!("{s}-flipped")),
        (None, Value::Null) => seen.first().cloned().unwrap_or(Value::Bool(false)),
        (None, Value::Array(_)) => Value::Array(vec![Value::String("/flipped".into())]),
        (None, Value::Object(_)) => serde_json::json!({"flipped": true}),
    };
    Some((leaf_ptr, new))
}

/// For a string leaf no other case holds at the same place: a different string the same field
/// holds elsewhere in the section (a word of a closed vocabulary, such as a stamp form, stays
/// one of its words rather than becoming unknown).
fn other_word(manifest: &Value, section: &str, field: &str, leaf: &Value) -> Option<Value> {
    fn strings<'v>(value: &'v Value, out: &mut Vec<&'v Value>) {
        match value {
            Value::String(_) => out.push(value),
            Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            Value::Object(members) => members.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    if !leaf.is_string() {
        return None;
    }
    let mut all = Vec::new();
    for c in section_cases(section, &manifest[section]) {
        if let Some(v) = c.case.get(field) {
            strings(v, &mut all);
        }
    }
    all.into_iter().find(|v| *v != leaf).cloned()
}

fn kind(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// The first leaf of `value`: a scalar, or an empty array or object.
fn first_leaf(value: &Value, at: String) -> (String, &Value) {
    match value {
        Value::Array(items) if !items.is_empty() => first_leaf(&items[0], format!("{at}/0")),
        Value::Object(members) if !members.is_empty() => {
            let (k, v) = members.iter().next().expect("non-empty");
            first_leaf(v, format!("{at}/{}", bqsuite_core::ids::escape_token(k)))
        }
        _ => (at, value),
    }
}

fn pointer_mut<'v>(value: &'v mut Value, ptr: &str) -> &'v mut Value {
    value
        .pointer_mut(ptr)
        .unwrap_or_else(|| panic!("no value at {ptr}"))
}

/// The real 1.8.0 with this project's proposal (`proposal/`: its `manifest.json` overlay and its
/// `fixtures/`) merged in, as `bqsuite proposal` merges it.
pub fn with_proposal() -> (Value, BTreeMap<String, String>) {
    let (_, files) = release("1.8.0");
    let base: BTreeMap<String, Vec<u8>> = files
        .into_iter()
        .map(|(k, v)| (k, v.into_bytes()))
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proposal");
    let mut overlay = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&root) {
        let entry = entry.expect("readable proposal");
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "json") {
            let rel = entry.path().strip_prefix(&root).expect("under root");
            let rel = rel.to_string_lossy().replace('\\', "/");
            overlay.insert(rel, std::fs::read(entry.path()).expect("readable"));
        }
    }
    let merged = bqsuite_suite::overlay::merge_files(&base, &overlay)
        .unwrap_or_else(|c| panic!("the proposal does not merge: {c:?}"));
    let files: BTreeMap<String, String> = merged
        .into_iter()
        .map(|(k, v)| (k, String::from_utf8(v).expect("UTF-8")))
        .collect();
    let manifest = serde_json::from_str(&files["manifest.json"]).expect("merged manifest parses");
    (manifest, files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bqsuite_core::index::CaseIndex;

    /// Every section of every real release: each case passes, and a flip of any expectation of
    /// any case is a mismatch at that case. One place, so a new section or release is covered
    /// without a test of its own.
    #[test]
    fn every_section_of_every_real_release_passes_and_catches_every_flip() {
        let mut flips = 0;
        for v in REAL_VERSIONS {
            let (manifest, _) = release(v);
            for section in CaseIndex::new(&manifest).section_names {
                assert_section_passes(v, &section);
                flips += assert_flips_caught(v, &section);
            }
        }
        // One flip per expectation field of every case of the eight releases (3,464 cases; a
        // case with no expectation field, such as a projection, has none to flip).
        assert_eq!(flips, 2883);
    }
}
