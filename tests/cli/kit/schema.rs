//! The published `--format json` schema (docs/reference/output.schema.json), and running the
//! real binary so that every document it prints is checked against it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;

use super::{code, root, run_in, sha256_hex, stderr, stdout};

/// A results file of docs/examples.
pub fn example_results(name: &str) -> PathBuf {
    root().join("docs/examples").join(name)
}

pub fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let text = fs::read_to_string(root().join("docs/reference/output.schema.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    })
}

pub fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| jsonschema::draft202012::options().build(schema()).unwrap())
}

/// Why `doc` does not conform to the schema (empty when it does).
pub fn violations(doc: &Value) -> Vec<String> {
    validator()
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Runs bqsuite in `cwd` with `--format json` appended; asserts the exit code, that standard
/// output is exactly one JSON document of format_version 1 that conforms to the schema, whose
/// counts are those of its findings, and that `data` is null exactly when the command could not
/// run. Returns the document.
pub fn run(cwd: &Path, args: &[&str], env: &[(&str, &str)], exit: i32) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = run_in(cwd, &all, env);
    document(&out, args, exit)
}

pub fn document(out: &Output, args: &[&str], exit: i32) -> Value {
    let text = stdout(out);
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not one JSON document ({e}):\n{text}\n{}",
            stderr(out)
        )
    });
    assert_eq!(code(out), exit, "{args:?}: {doc:#}\n{}", stderr(out));
    assert_eq!(doc["format_version"], 1, "{args:?}");
    super::assert_counts(&doc);
    let wrong = violations(&doc);
    assert!(wrong.is_empty(), "{args:?}: {wrong:#?}\n{doc:#}");
    if exit == 2 {
        assert!(doc["error"].is_object(), "{args:?}: {doc:#}");
        assert_eq!(doc["data"], Value::Null, "{args:?}");
    } else {
        assert_eq!(doc["error"], Value::Null, "{args:?}");
        assert!(!doc["data"].is_null(), "{args:?}: data is null: {doc:#}");
    }
    doc
}

/// The lowercase hex sha256 of a file.
pub fn sha256_of(path: &Path) -> String {
    sha256_hex(&fs::read(path).unwrap())
}
