//! Files named by the manifest exist, stay inside the suite, and every fixture is used.

use std::collections::BTreeSet;

use serde_json::Value;

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_suite::Suite;

/// Manifest keys whose string value names a suite file.
pub const FILE_KEYS: [&str; 2] = ["file", "envelope_file"];

/// Every `(pointer, path)` the manifest names through a [`FILE_KEYS`] key, anywhere in it.
pub fn file_refs(manifest: &Value) -> Vec<(String, &Value)> {
    let mut refs = Vec::new();
    walk(manifest, String::new(), &mut refs);
    refs
}

fn walk<'a>(value: &'a Value, pointer: String, refs: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_ptr = format!("{pointer}/{}", escape_token(key));
                if FILE_KEYS.contains(&key.as_str()) {
                    refs.push((child_ptr.clone(), child));
                }
                walk(child, child_ptr, refs);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, format!("{pointer}/{i}"), refs);
            }
        }
        _ => {}
    }
}

/// Why a named path is unusable, if it is.
fn path_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("is empty");
    }
    if path.starts_with('/') || path.contains('\\') || path.contains(':') {
        return Some("must be a relative path with `/` separators inside the suite");
    }
    if path
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Some("must not contain empty, `.` or `..` components");
    }
    if !path.starts_with("fixtures/") {
        return Some("must name a file under fixtures/");
    }
    None
}

pub fn check(suite: &Suite, manifest: &Value, out: &mut Vec<Diagnostic>) {
    let mut used = BTreeSet::new();
    for (pointer, value) in file_refs(manifest) {
        let Some(path) = value.as_str() else {
            out.push(findings::reference_not_string(value).at(pointer));
            continue;
        };
        if let Some(problem) = path_problem(path) {
            out.push(findings::bad_file_reference(path, problem).at(pointer));
            continue;
        }
        used.insert(path);
        if suite.file(path).is_none() {
            out.push(findings::missing_fixture(path).at(pointer));
        }
    }
    for rel in suite.files_under("fixtures") {
        if rel.ends_with(".json") && !used.contains(rel) {
            out.push(findings::orphan_fixture(rel));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_rules() {
        assert_eq!(path_problem("fixtures/a.json"), None);
        assert!(path_problem("/etc/passwd").is_some());
        assert!(path_problem("fixtures/../manifest.json").is_some());
        assert!(path_problem("schema/x.json").is_some());
        assert!(path_problem("fixtures//a.json").is_some());
        assert!(path_problem("C:fixtures/a.json").is_some());
    }
}
