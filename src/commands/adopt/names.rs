//! The adopted suite's files: the merged suite with each proposed fixture under its final name
//! (`fixtures/proposal-foo.json` becomes `fixtures/foo.json`, and every `file` or
//! `envelope_file` of the manifest that names it follows), and VERSION in CONFORMANCE_VERSION and
//! the manifest's `conformance_version`. Pure: nothing here reads or writes a file.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::print;
use crate::commands::validate::references::file_refs;
use bqsuite_suite::load::{MANIFEST, VERSION_FILE};

/// What a proposed fixture's name starts with until it is adopted.
pub const PROPOSED_PREFIX: &str = "proposal-";

/// The name the proposal's file `rel` is adopted under: without [`PROPOSED_PREFIX`] (a name
/// that is only the prefix and an extension keeps it, there being nothing else to name it).
pub fn final_name(rel: &str) -> String {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    match name.strip_prefix(PROPOSED_PREFIX) {
        Some(rest) if !rest.is_empty() && !rest.starts_with('.') => {
            if dir.is_empty() {
                rest.to_string()
            } else {
                format!("{dir}/{rest}")
            }
        }
        _ => rel.to_string(),
    }
}

/// A final name that is taken: the proposal's file, its final name, and whether the one that
/// has it is another file of the proposal (else the suite's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    pub proposed: String,
    pub adopted: String,
    pub by_proposal: bool,
}

/// The renames (proposal's name → final name) of the proposal's files `proposed` in the merged
/// suite's `files`, or every final name that is taken.
pub fn plan(
    proposed: &BTreeSet<String>,
    files: &BTreeMap<String, Vec<u8>>,
) -> Result<BTreeMap<String, String>, Vec<Clash>> {
    let mut renames = BTreeMap::new();
    let mut clashes = Vec::new();
    for rel in proposed {
        let adopted = final_name(rel);
        if adopted == *rel {
            continue;
        }
        if files.contains_key(&adopted) {
            clashes.push(Clash {
                proposed: rel.clone(),
                by_proposal: proposed.contains(&adopted),
                adopted,
            });
        } else {
            renames.insert(rel.clone(), adopted);
        }
    }
    if clashes.is_empty() {
        Ok(renames)
    } else {
        Err(clashes)
    }
}

/// The adopted suite's files: `files` (the merged suite's, its manifest `manifest`) with the
/// `renames` applied and `version` stamped. The manifest keeps the layout of `original` (the
/// suite's own manifest text) wherever it is unchanged ([`print::over`]).
pub fn finalise(
    mut files: BTreeMap<String, Vec<u8>>,
    manifest: &Value,
    original: Option<&str>,
    renames: &BTreeMap<String, String>,
    version: &str,
) -> BTreeMap<String, Vec<u8>> {
    let mut manifest = manifest.clone();
    for (from, to) in renames {
        if let Some(bytes) = files.remove(from) {
            files.insert(to.clone(), bytes);
        }
    }
    let follow: Vec<(String, String)> = file_refs(&manifest)
        .into_iter()
        .filter_map(|(pointer, value)| {
            let to = renames.get(value.as_str()?)?;
            Some((pointer, to.clone()))
        })
        .collect();
    for (pointer, to) in follow {
        if let Some(slot) = manifest.pointer_mut(&pointer) {
            *slot = Value::String(to);
        }
    }
    if let Some(map) = manifest.as_object_mut()
        && map.contains_key("conformance_version")
    {
        map.insert("conformance_version".into(), Value::String(version.into()));
    }
    let text = original
        .and_then(|o| print::over(o, &manifest))
        .unwrap_or_else(|| {
            let mut text =
                serde_json::to_string_pretty(&manifest).expect("a JSON value serialises");
            text.push('\n');
            text
        });
    files.insert(MANIFEST.to_string(), text.into_bytes());
    files.insert(
        VERSION_FILE.to_string(),
        format!("{version}\n").into_bytes(),
    );
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn files(names: &[&str]) -> BTreeMap<String, Vec<u8>> {
        names
            .iter()
            .map(|n| (n.to_string(), n.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn a_proposed_fixture_loses_its_prefix() {
        assert_eq!(final_name("fixtures/proposal-a.json"), "fixtures/a.json");
        assert_eq!(final_name("fixtures/b.json"), "fixtures/b.json");
        assert_eq!(
            final_name("fixtures/proposal-.json"),
            "fixtures/proposal-.json"
        );
        assert_eq!(
            final_name("fixtures/x-proposal-a.json"),
            "fixtures/x-proposal-a.json"
        );
    }

    #[test]
    fn a_taken_final_name_is_a_clash() {
        let proposed: BTreeSet<String> = ["fixtures/proposal-a.json", "fixtures/proposal-b.json"]
            .map(String::from)
            .into();
        let merged = files(&[
            "fixtures/a.json",
            "fixtures/proposal-a.json",
            "fixtures/proposal-b.json",
        ]);
        let clashes = plan(&proposed, &merged).unwrap_err();
        assert_eq!(
            clashes,
            [Clash {
                proposed: "fixtures/proposal-a.json".into(),
                adopted: "fixtures/a.json".into(),
                by_proposal: false,
            }]
        );
    }

    #[test]
    fn references_follow_the_rename_and_the_version_is_stamped() {
        let manifest = json!({
            "conformance_version": "1.8.0",
            "s": {"envelope_file": "fixtures/proposal-a.json",
                  "cases": [{"file": "fixtures/proposal-a.json"}, {"file": "fixtures/c.json"},
                            {"note": "fixtures/proposal-a.json"}]}
        });
        let merged = files(&["fixtures/proposal-a.json", "fixtures/c.json"]);
        let proposed = ["fixtures/proposal-a.json".to_string()].into();
        let renames = plan(&proposed, &merged).unwrap();
        let out = finalise(merged, &manifest, None, &renames, "1.9.0");
        assert!(out.contains_key("fixtures/a.json"));
        assert!(!out.contains_key("fixtures/proposal-a.json"));
        assert_eq!(out[VERSION_FILE], b"1.9.0\n");
        let m: Value = serde_json::from_slice(&out[MANIFEST]).unwrap();
        assert_eq!(m["conformance_version"], "1.9.0");
        assert_eq!(m["s"]["envelope_file"], "fixtures/a.json");
        assert_eq!(m["s"]["cases"][0]["file"], "fixtures/a.json");
        assert_eq!(m["s"]["cases"][1]["file"], "fixtures/c.json");
        // Only the keys that name a file are references.
        assert_eq!(m["s"]["cases"][2]["note"], "fixtures/proposal-a.json");
    }
}
