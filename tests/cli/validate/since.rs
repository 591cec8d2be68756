//! `validate --since` points a duplicate case id at the case that was added, not at the released
//! one it repeats (issue 21, item 8).

use serde_json::Value;

use crate::kit::{SuiteCopy, bqsuite, bundled_suite, code, stdout};

fn duplicate_pointer(args: &[&str]) -> (String, String) {
    let out = bqsuite(args);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "duplicate-case-id")
        .unwrap_or_else(|| panic!("no duplicate-case-id in {doc:#}"))
        .clone();
    (
        d["pointer"].as_str().unwrap().to_string(),
        d["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn since_points_a_duplicate_id_at_the_added_case() {
    let s = SuiteCopy::new();
    // A new case, inserted before the released `urn-alias`, reusing its id.
    s.edit_manifest(|m| {
        let cases = m["cases"].as_array_mut().unwrap();
        let mut added = cases[1].clone();
        added["description"] = "a new case that reuses a released id".into();
        cases.insert(0, added);
    });
    let new = s.path();
    let new = new.to_str().unwrap();
    // Without --since the finding is on the later one in manifest order: the released case.
    let (pointer, _) = duplicate_pointer(&["validate", new, "--format", "json"]);
    assert_eq!(pointer, "/cases/2");
    // With --since it is on the case that was added, and names the released one.
    let old = bundled_suite();
    let (pointer, message) = duplicate_pointer(&[
        "validate",
        new,
        "--since",
        old.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(pointer, "/cases/0", "{message}");
    assert!(message.contains("released one at /cases/2"), "{message}");
}

/// `--since OLD` says what was added in one line per added section before the verdict, not one
/// note per change; `--format json` still lists every change.
#[test]
fn since_prints_one_line_per_added_section() {
    let old = crate::kit::real_release("1.0.0");
    let args = ["validate", "suite", "--since", old.to_str().unwrap()];
    let out = bqsuite(&args);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(!text.contains("note[case-added]"), "{text}");
    assert!(!text.contains("note[section-added]"), "{text}");
    let doc = crate::kit::json(&bqsuite(&[&args[..], &["--format", "json"]].concat()));
    let added: Vec<&str> = crate::kit::findings(&doc, "section-added")
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(!added.is_empty(), "{doc:#}");
    assert!(
        !crate::kit::findings(&doc, "case-added").is_empty(),
        "{doc:#}"
    );
    for message in &added {
        let line = format!("since {}: {message}", old.display());
        assert_eq!(
            text.lines().filter(|l| *l == line).count(),
            1,
            "{line}:\n{text}"
        );
    }
    // The lines come before the verdict, and the report stays short.
    assert!(text.lines().last().unwrap().starts_with("ok: "), "{text}");
    assert!(text.lines().count() < added.len() + 12, "{text}");
}
