//! A misspelled case field gets a did-you-mean naming it and the field it most likely stands
//! for: a required one the evaluator found missing, or an optional one other cases carry (which a
//! runner would otherwise ignore without a word).

use serde_json::Value;

use crate::kit::*;

/// The `misspelled-field` findings of a validation, as `(pointer, message)`.
fn misspelled(suite: &SuiteCopy) -> Vec<(String, String)> {
    let out = bqsuite(&[
        "validate",
        suite.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    findings(&json(&out), "misspelled-field")
        .iter()
        .map(|d| {
            (
                d["pointer"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Renames `from` to `to` in the case at `pointer` of the copy's manifest.
fn rename(suite: &SuiteCopy, pointer: &str, from: &str, to: &str) {
    suite.edit_manifest(|m| {
        let case = m.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
        let value = case
            .remove(from)
            .unwrap_or_else(|| panic!("no {from} at {pointer}"));
        case.insert(to.to_string(), value);
    });
}

/// The pointer of the first case of the manifest, in a `cases` list of any block, that carries
/// `field`.
fn case_with(suite: &SuiteCopy, field: &str) -> String {
    fn walk(v: &Value, at: String, field: &str) -> Option<String> {
        match v {
            Value::Object(map) => {
                if let Some(Value::Array(cases)) = map.get("cases") {
                    for (i, c) in cases.iter().enumerate() {
                        if c.get(field).is_some() {
                            return Some(format!("{at}/cases/{i}"));
                        }
                    }
                }
                map.iter()
                    .find_map(|(k, child)| walk(child, format!("{at}/{k}"), field))
            }
            _ => None,
        }
    }
    let manifest = suite.read_json("manifest.json");
    let mut sections: Vec<(&String, &Value)> = manifest.as_object().unwrap().iter().collect();
    sections.retain(|(k, _)| *k != "sections");
    for (name, block) in sections {
        if let Some(cases) = block.as_array() {
            if let Some(i) = cases.iter().position(|c| c.get(field).is_some()) {
                return format!("/{name}/{i}");
            }
        } else if let Some(p) = walk(block, format!("/{name}"), field) {
            return p;
        }
    }
    panic!("no case carries `{field}`")
}

#[test]
fn a_misspelled_required_field_names_the_field_it_stands_for() {
    let s = SuiteCopy::new();
    let case = case_with(&s, "expect");
    rename(&s, &case, "expect", "expeted");
    let found = misspelled(&s);
    assert_eq!(found.len(), 1, "{found:#?}");
    let (pointer, message) = &found[0];
    assert_eq!(pointer, &format!("{case}/expeted"));
    assert!(
        message.contains("`expeted`") && message.contains("did you mean `expect`?"),
        "{message}"
    );
}

#[test]
fn a_misspelled_optional_field_is_not_ignored_silently() {
    let s = SuiteCopy::new();
    let case = case_with(&s, "expect_warning");
    rename(&s, &case, "expect_warning", "expect_warnign");
    let found = misspelled(&s);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, format!("{case}/expect_warnign"));
    assert!(
        found[0].1.contains("did you mean `expect_warning`?"),
        "{}",
        found[0].1
    );
    // Human output: the finding's block, with the place and the help.
    let out = bqsuite(&["validate", s.path().to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains("warning[misspelled-field]"), "{text}");
    assert!(
        text.contains("help: rename `expect_warnign` to `expect_warning`"),
        "{text}"
    );
}

/// Every real release is free of them: a field only one case has is not a typo when no field is
/// near it.
#[test]
fn no_real_release_has_a_misspelled_field() {
    for entry in std::fs::read_dir(data("real-releases")).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let out = bqsuite(&["validate", dir.to_str().unwrap(), "--format", "json"]);
        let doc = json(&out);
        assert!(
            findings(&doc, "misspelled-field").is_empty(),
            "{}: {doc:#}",
            dir.display()
        );
    }
}
