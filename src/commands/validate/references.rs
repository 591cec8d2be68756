//! Files named by the manifest exist, stay inside the suite, and every fixture is used.

use std::collections::BTreeSet;

use serde_json::Value;

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_suite::Suite;
use bqsuite_suite::load::MANIFEST;

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
            out.push(
                Diagnostic::error(
                    Code::CaseShape,
                    MANIFEST,
                    format!("a file reference must be a string, found {value}"),
                )
                .at(pointer),
            );
            continue;
        };
        if let Some(problem) = path_problem(path) {
            out.push(
                Diagnostic::error(
                    Code::BadFileReference,
                    MANIFEST,
                    format!("`{path}` {problem}"),
                )
                .at(pointer)
                .help("write it as fixtures/<name>.json"),
            );
            continue;
        }
        used.insert(path);
        if suite.file(path).is_none() {
            out.push(
                Diagnostic::error(
                    Code::MissingFixture,
                    MANIFEST,
                    format!("`{path}` does not exist in the suite"),
                )
                .at(pointer)
                .help(format!("add {path}, or correct the name")),
            );
        }
    }
    for rel in suite.files_under("fixtures") {
        if rel.ends_with(".json") && !used.contains(rel) {
            out.push(
                Diagnostic::error(Code::OrphanFixture, rel, "no case uses this fixture")
                    .help("reference it from a case, or delete it (it would be released and vendored for nothing)"),
            );
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
