//! A proposal overlay: cases (and fixtures) this project proposes for the suite's next release,
//! kept apart from `suite/`, which is byte for byte the newest real release.
//!
//! The overlay directory holds `manifest.json` and optionally `fixtures/`. Its manifest is an
//! object of sections, each holding only what it adds:
//!
//! - `"<section>": {"cases": [...]}` appends to the section's own `cases`;
//! - `"<section>": {"<sub_block>": {"cases": [...]}}` appends to that sub-block's `cases`;
//! - a section or sub-block the suite does not have is added whole (a new section also needs its
//!   entry in the overlay's `"sections"` map, merged into the suite's).
//!
//! Nothing may be replaced: a fixture the suite already has, a scalar parameter that differs,
//! or a sub-block that is not a table of cases is refused. The merged suite is stamped with a
//! pre-release of the next minor version (`1.9.0-proposal`), which no real release can carry.

use std::collections::BTreeMap;

use serde_json::Value;

use super::load::{MANIFEST, VERSION_FILE};

/// The pre-release label of a merged suite's version.
pub const PRE_RELEASE: &str = "proposal";

/// Why an overlay cannot be merged: where in the overlay's manifest (a JSON pointer, or a file
/// name) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub at: String,
    pub message: String,
}

fn conflict(at: impl Into<String>, message: impl Into<String>) -> Conflict {
    Conflict {
        at: at.into(),
        message: message.into(),
    }
}

/// The version a suite of `base` becomes with the overlay: the next minor, as a pre-release.
pub fn proposed_version(base: &str) -> String {
    match semver::Version::parse(base.trim()) {
        Ok(v) => format!("{}.{}.0-{PRE_RELEASE}", v.major, v.minor + 1),
        Err(_) => format!("{}-{PRE_RELEASE}", base.trim()),
    }
}

/// Where each part of a merged manifest comes from: what the overlay appended to the suite's
/// `cases` arrays and what it added whole, so that a finding about the merged manifest can name
/// the place in the file its author wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provenance {
    /// The `cases` arrays the overlay appended to: the array's pointer, and how many items the
    /// suite's own array held (the overlay's first item follows them).
    appended: Vec<(String, usize)>,
    /// What the overlay added whole (a section, a sub-block, a member): its pointer, the same in
    /// the overlay's manifest as in the merged one.
    added: Vec<String>,
}

/// The manifest a location of the merged manifest was written in, with its pointer there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The suite's own manifest (the pointer is unchanged by the merge).
    Suite(String),
    /// The overlay's manifest: the pointer in that file.
    Overlay(String),
}

impl Provenance {
    /// Where the merged manifest's `pointer` was written.
    pub fn origin(&self, pointer: &str) -> Origin {
        if self.added.iter().any(|whole| within(pointer, whole)) {
            return Origin::Overlay(pointer.to_string());
        }
        for (array, before) in &self.appended {
            let Some(rest) = pointer
                .strip_prefix(array.as_str())
                .and_then(|r| r.strip_prefix('/'))
            else {
                continue;
            };
            let (token, tail) = rest
                .split_once('/')
                .map_or((rest, None), |(t, r)| (t, Some(r)));
            if let Ok(bqsuite_core::json::pointer::ArrayIndex::Index(i)) =
                bqsuite_core::json::pointer::array_index(token)
                && i >= *before
            {
                let mut here = format!("{array}/{}", i - before);
                if let Some(tail) = tail {
                    here.push('/');
                    here.push_str(tail);
                }
                return Origin::Overlay(here);
            }
        }
        Origin::Suite(pointer.to_string())
    }

    /// The first thing the overlay added whole strictly inside `pointer`: a member it added to a
    /// block the suite has (a change to that block is made there).
    pub fn added_inside(&self, pointer: &str) -> Option<&str> {
        self.added
            .iter()
            .map(String::as_str)
            .find(|added| *added != pointer && within(added, pointer))
    }
}

/// Whether `pointer` is `whole` or inside it.
fn within(pointer: &str, whole: &str) -> bool {
    pointer
        .strip_prefix(whole)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Appends what `overlay` adds to `manifest`, in place. Every conflict is listed.
pub fn merge_manifest(manifest: &mut Value, overlay: &Value) -> Result<(), Vec<Conflict>> {
    merge_manifest_tracked(manifest, overlay).map(|_| ())
}

/// [`merge_manifest`], saying where the overlay's additions went.
pub fn merge_manifest_tracked(
    manifest: &mut Value,
    overlay: &Value,
) -> Result<Provenance, Vec<Conflict>> {
    let mut conflicts = Vec::new();
    let mut provenance = Provenance::default();
    let Some(sections) = overlay.as_object() else {
        return Err(vec![conflict(
            "",
            "the overlay's manifest must be an object of sections",
        )]);
    };
    let Some(target) = manifest.as_object_mut() else {
        return Err(vec![conflict("", "the suite's manifest is not an object")]);
    };
    for (name, block) in sections {
        let at = bqsuite_core::json::join("", name);
        match target.get_mut(name) {
            None => {
                target.insert(name.clone(), block.clone());
                provenance.added.push(at);
            }
            Some(existing) => add_into(existing, block, &at, &mut provenance, &mut conflicts),
        }
    }
    if conflicts.is_empty() {
        Ok(provenance)
    } else {
        Err(conflicts)
    }
}

/// Adds `add` into `existing` at `at`: arrays named `cases` are appended, objects merged member
/// by member, and an equal scalar is accepted; anything else would replace data.
fn add_into(
    existing: &mut Value,
    add: &Value,
    at: &str,
    provenance: &mut Provenance,
    out: &mut Vec<Conflict>,
) {
    match (existing, add) {
        (Value::Array(items), Value::Array(more)) if at.ends_with("/cases") => {
            provenance.appended.push((at.to_string(), items.len()));
            items.extend(more.iter().cloned());
        }
        (Value::Object(members), Value::Object(more)) => {
            for (key, value) in more {
                let here = bqsuite_core::json::join(at, key);
                match members.get_mut(key) {
                    None => {
                        members.insert(key.clone(), value.clone());
                        provenance.added.push(here);
                    }
                    Some(current) => add_into(current, value, &here, provenance, out),
                }
            }
        }
        (current, value) if *current == *value => {}
        _ => out.push(conflict(
            at,
            "would replace what the suite already has; a proposal only adds cases, sub-blocks and sections",
        )),
    }
}

/// The files of the suite `base` (relative path → bytes) with the overlay `overlay_files` (its
/// `manifest.json` and `fixtures/...`) merged in, and the version stamped as a proposal.
pub fn merge_files(
    base: &BTreeMap<String, Vec<u8>>,
    overlay_files: &BTreeMap<String, Vec<u8>>,
) -> Result<BTreeMap<String, Vec<u8>>, Vec<Conflict>> {
    merge_tracked(base, overlay_files).map(|overlaid| overlaid.files)
}

/// The files of a suite with an overlay merged in, and where the overlay's additions went.
pub struct Overlaid {
    pub files: BTreeMap<String, Vec<u8>>,
    pub provenance: Provenance,
}

/// [`merge_files`], with the [`Provenance`] of the merged manifest.
pub fn merge_tracked(
    base: &BTreeMap<String, Vec<u8>>,
    overlay_files: &BTreeMap<String, Vec<u8>>,
) -> Result<Overlaid, Vec<Conflict>> {
    let parse = |rel: &str, bytes: &[u8], whose: &str| -> Result<Value, Vec<Conflict>> {
        serde_json::from_slice(bytes)
            .map_err(|e| vec![conflict(rel, format!("the {whose} {rel} is not JSON: {e}"))])
    };
    let mut merged = base.clone();
    let mut conflicts = Vec::new();
    let base_manifest = base
        .get(MANIFEST)
        .ok_or_else(|| vec![conflict(MANIFEST, "the suite has no manifest.json")])?;
    let mut manifest = parse(MANIFEST, base_manifest, "suite's")?;
    let overlay = overlay_files
        .get(MANIFEST)
        .ok_or_else(|| vec![conflict(MANIFEST, "the overlay has no manifest.json")])?;
    let overlay = parse(MANIFEST, overlay, "overlay's")?;
    let provenance = match merge_manifest_tracked(&mut manifest, &overlay) {
        Ok(provenance) => provenance,
        Err(found) => {
            conflicts.extend(found);
            Provenance::default()
        }
    };
    for (rel, bytes) in overlay_files {
        if rel == MANIFEST {
            continue;
        }
        if !rel.starts_with("fixtures/") {
            conflicts.push(conflict(
                rel,
                "an overlay holds only manifest.json and fixtures/",
            ));
        } else if merged.insert(rel.clone(), bytes.clone()).is_some() {
            conflicts.push(conflict(
                rel,
                "the suite already has this fixture; a proposal adds new ones",
            ));
        }
    }
    if !conflicts.is_empty() {
        return Err(conflicts);
    }
    let base_version = base
        .get(VERSION_FILE)
        .map(|b| String::from_utf8_lossy(b).trim().to_string())
        .unwrap_or_default();
    let version = proposed_version(&base_version);
    if let Some(map) = manifest.as_object_mut()
        && map.contains_key("conformance_version")
    {
        map.insert("conformance_version".into(), Value::String(version.clone()));
    }
    let mut text = serde_json::to_string_pretty(&manifest).expect("a JSON value serialises");
    text.push('\n');
    merged.insert(MANIFEST.to_string(), text.into_bytes());
    merged.insert(
        VERSION_FILE.to_string(),
        format!("{version}\n").into_bytes(),
    );
    Ok(Overlaid {
        files: merged,
        provenance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cases_are_appended_and_new_blocks_added() {
        let mut m =
            json!({"s": {"cases": [{"name": "a"}], "sub": {"p": 1, "cases": [{"name": "b"}]}}});
        let overlay = json!({
            "s": {"cases": [{"name": "a2"}], "sub": {"p": 1, "cases": [{"name": "b2"}]}, "new": {"cases": []}},
            "t": {"cases": [{"name": "c"}]}
        });
        merge_manifest(&mut m, &overlay).unwrap();
        assert_eq!(m["s"]["cases"], json!([{"name": "a"}, {"name": "a2"}]));
        assert_eq!(
            m["s"]["sub"]["cases"],
            json!([{"name": "b"}, {"name": "b2"}])
        );
        assert_eq!(m["s"]["new"], json!({"cases": []}));
        assert_eq!(m["t"]["cases"], json!([{"name": "c"}]));
    }

    #[test]
    fn nothing_is_replaced() {
        let mut m = json!({"s": {"sub": {"p": 1, "cases": []}, "list": [1]}});
        let overlay = json!({"s": {"sub": {"p": 2}, "list": [2]}});
        let conflicts = merge_manifest(&mut m, &overlay).unwrap_err();
        let at: Vec<&str> = conflicts.iter().map(|c| c.at.as_str()).collect();
        assert_eq!(at, ["/s/sub/p", "/s/list"]);
    }

    #[test]
    fn each_addition_is_placed_in_the_overlay_and_the_rest_in_the_suite() {
        let mut m = json!({"s": {"cases": [{"name": "a"}, {"name": "b"}], "sub": {"cases": [{"name": "c"}]}}});
        let overlay = json!({
            "s": {"cases": [{"name": "a2", "x": 1}], "sub": {"p": 1}, "new": {"cases": [{}]}},
            "t": {"cases": [{"name": "d"}]}
        });
        let provenance = merge_manifest_tracked(&mut m, &overlay).unwrap();
        let origin = |p: &str| provenance.origin(p);
        assert_eq!(
            origin("/s/cases/1/name"),
            Origin::Suite("/s/cases/1/name".into())
        );
        assert_eq!(origin("/s/cases/2"), Origin::Overlay("/s/cases/0".into()));
        assert_eq!(
            origin("/s/cases/2/x"),
            Origin::Overlay("/s/cases/0/x".into())
        );
        assert_eq!(
            origin("/s/sub/cases/0"),
            Origin::Suite("/s/sub/cases/0".into())
        );
        assert_eq!(origin("/s/sub/p"), Origin::Overlay("/s/sub/p".into()));
        assert_eq!(
            origin("/s/new/cases/0"),
            Origin::Overlay("/s/new/cases/0".into())
        );
        assert_eq!(origin("/t"), Origin::Overlay("/t".into()));
        assert_eq!(origin("/s"), Origin::Suite("/s".into()));
        assert_eq!(origin("/s/cases"), Origin::Suite("/s/cases".into()));
        // A key that merely starts like an added one is not inside it.
        assert_eq!(origin("/s/newer"), Origin::Suite("/s/newer".into()));
        // A member the overlay added to a block the suite has.
        assert_eq!(provenance.added_inside("/s/sub"), Some("/s/sub/p"));
        assert_eq!(provenance.added_inside("/s/sub/p"), None);
        assert_eq!(provenance.added_inside("/s/cases"), None);
    }

    #[test]
    fn the_merged_suite_is_a_pre_release_of_the_next_minor() {
        assert_eq!(proposed_version("1.8.0"), "1.9.0-proposal");
        let base: BTreeMap<String, Vec<u8>> = [
            ("CONFORMANCE_VERSION", "1.8.0\n"),
            (
                "manifest.json",
                r#"{"conformance_version": "1.8.0", "s": {"cases": []}}"#,
            ),
            ("fixtures/a.json", "{}"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
        let mut overlay: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        overlay.insert(
            "manifest.json".into(),
            br#"{"s": {"cases": [{"name": "x"}]}}"#.to_vec(),
        );
        overlay.insert("fixtures/b.json".into(), b"{}".to_vec());
        let merged = merge_files(&base, &overlay).unwrap();
        assert_eq!(merged["CONFORMANCE_VERSION"], b"1.9.0-proposal\n");
        let m: Value = serde_json::from_slice(&merged["manifest.json"]).unwrap();
        assert_eq!(m["conformance_version"], "1.9.0-proposal");
        assert!(merged.contains_key("fixtures/b.json"));
        overlay.insert("fixtures/a.json".into(), b"[]".to_vec());
        assert_eq!(
            merge_files(&base, &overlay).unwrap_err()[0].at,
            "fixtures/a.json"
        );
    }
}
