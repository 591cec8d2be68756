//! What `fetch --check` reports on a vendored copy with edited fixtures: counts that are those of
//! the findings it lists (JSON and the job summary), and the cases that read an edited file.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::setup::Setup;
use crate::kit::*;

/// The manifest's cases, in any block of any section, as `(section, name, case object)`.
fn named_cases(manifest: &Value) -> Vec<(String, String, Value)> {
    fn walk(section: &str, v: &Value, out: &mut Vec<(String, String, Value)>) {
        match v {
            Value::Array(cases) => {
                for c in cases {
                    let name = c["name"].as_str().unwrap_or_default().to_string();
                    out.push((section.to_string(), name, c.clone()));
                }
            }
            Value::Object(map) => {
                for (key, child) in map {
                    if key == "cases" || child.is_object() {
                        walk(section, child, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (section, block) in manifest.as_object().unwrap() {
        if section != "sections" && section != "exceptions" {
            walk(section, block, &mut out);
        }
    }
    out
}

/// The names of the cases whose own `file` is `rel` (cases that read it directly).
fn cases_naming(copy: &Path, rel: &str) -> Vec<(String, String)> {
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(copy.join("manifest.json")).unwrap()).unwrap();
    named_cases(&manifest)
        .into_iter()
        .filter(|(_, _, c)| c["file"] == rel)
        .map(|(s, n, _)| (s, n))
        .collect()
}

/// One edited fixture is two error findings (the copy's summary and the file): `errors` says so,
/// and so does the job summary, whose table lists each of them.
#[test]
fn counts_are_those_of_the_findings_listed_in_json_and_the_job_summary() {
    let s = Setup::vendored();
    fs::write(s.copy().join("fixtures/order-created.json"), "{}\n").unwrap();
    let out = s.check(&["--format", "json"], &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // `json` asserts that each count is the number of findings of its severity.
    let doc = json(&out);
    let errors = doc["errors"].as_u64().unwrap() as usize;
    assert!(!findings(&doc, "copy-drift").is_empty(), "{doc:#}");
    assert!(!findings(&doc, "drift-changed").is_empty(), "{doc:#}");
    let summary = s.dir.path().join("summary.md");
    let out = s.check(
        &["--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    assert_eq!(code(&out), 1);
    // The per-file finding is left to the copy's annotation, and the notice says so.
    let text = stdout(&out);
    assert!(!text.contains("GitHub shows at most"), "{text}");
    assert!(
        text.contains("1 per-file finding is summed up in the annotation of its copy"),
        "{text}"
    );
    let table = fs::read_to_string(&summary).unwrap();
    assert!(
        table.contains(&format!("`: {errors} errors\n")),
        "{errors} errors in JSON:\n{table}"
    );
    let rows = table.lines().filter(|l| l.starts_with("| ❌ |")).count();
    assert_eq!(rows, errors, "{table}");
}

/// An edited fixture: the `cases:` line names the cases that read it instead of saying that all
/// cases match, and `affected_cases` lists them.
#[test]
fn an_edited_fixture_names_the_cases_that_read_it() {
    let s = Setup::vendored();
    let rel = "fixtures/order-created.json";
    let readers = cases_naming(&s.copy(), rel);
    assert!(!readers.is_empty(), "no case names {rel}");
    fs::write(s.copy().join(rel), "{}\n").unwrap();
    let out = s.check(&[], &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("cases:"))
        .unwrap_or_else(|| panic!("no cases line:\n{text}"));
    assert!(line.contains("match in manifest.json, but"), "{line}");
    assert!(line.contains(" a differing file: "), "{line}");
    for (section, name) in readers.iter().take(5) {
        assert!(line.contains(&format!("{name} ({section})")), "{line}");
    }
    let doc = json(&s.check(&["--format", "json"], &[]));
    let affected = doc["data"]["copy"]["affected_cases"].as_array().unwrap();
    for (section, name) in &readers {
        assert!(
            affected
                .iter()
                .any(|c| c["section"] == section.as_str() && c["case"] == name.as_str()),
            "{section}/{name} not in {affected:?}"
        );
    }
}

/// Many cases reading edited files: the line names the first five and says how many more;
/// `--format json` lists every one.
#[test]
fn the_cases_named_are_bounded_and_json_lists_them_all() {
    let s = Setup::vendored();
    for entry in fs::read_dir(s.copy().join("fixtures")).unwrap() {
        fs::write(entry.unwrap().path(), "{}\n").unwrap();
    }
    let doc = json(&s.check(&["--format", "json"], &[]));
    let affected = doc["data"]["copy"]["affected_cases"].as_array().unwrap();
    assert!(affected.len() > 5, "{affected:?}");
    let text = stdout(&s.check(&[], &[]));
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("cases:"))
        .unwrap();
    assert!(
        line.contains(&format!("{} read a differing file: ", affected.len()))
            && line.ends_with(&format!(" and {} more", affected.len() - 5)),
        "{line}"
    );
}
