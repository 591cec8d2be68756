//! Every case of every section of a manifest, enumerated once with the spec's id rule.

use std::collections::BTreeMap;

use serde_json::Value;

use super::ids::{CaseRef, section_cases};

/// Top-level manifest keys that are metadata, not sections (`exceptions`: BabelQueue's
/// deliberate gaps; `decisions`: a suite's table of the cases whose expectation differs from a
/// protocol's reference code).
pub const METADATA_KEYS: [&str; 6] = [
    "schema_version",
    "conformance_version",
    "description",
    "sections",
    "exceptions",
    "decisions",
];

/// One case with the section it belongs to.
#[derive(Debug, Clone)]
pub struct IndexedCase<'a> {
    pub section: String,
    pub id: String,
    pub pointer: String,
    pub case: CaseRef<'a>,
}

/// All cases of a manifest, in manifest order.
#[derive(Debug, Default)]
pub struct CaseIndex<'a> {
    pub cases: Vec<IndexedCase<'a>>,
    /// Section names (top-level blocks that are not metadata), in manifest order.
    pub section_names: Vec<String>,
}

impl<'a> CaseIndex<'a> {
    /// The cases grouped by the file their `file` field names (`None`: no such string field),
    /// each group in manifest order: for checks that read one fixture at a time.
    pub fn by_fixture(&self) -> BTreeMap<Option<&'a str>, Vec<&IndexedCase<'a>>> {
        let mut groups: BTreeMap<Option<&'a str>, Vec<&IndexedCase<'a>>> = BTreeMap::new();
        for c in &self.cases {
            let file = c.case.case.get("file").and_then(Value::as_str);
            groups.entry(file).or_default().push(c);
        }
        groups
    }

    pub fn new(manifest: &'a Value) -> Self {
        let mut index = CaseIndex::default();
        let Some(map) = manifest.as_object() else {
            return index;
        };
        for (section, block) in map {
            if METADATA_KEYS.contains(&section.as_str()) {
                continue;
            }
            index.section_names.push(section.clone());
            for case in section_cases(section, block) {
                index.cases.push(IndexedCase {
                    section: section.clone(),
                    id: case.id.clone(),
                    pointer: case.pointer.clone(),
                    case,
                });
            }
        }
        index
    }

    pub fn len(&self) -> usize {
        self.cases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }

    pub fn sections(&self) -> usize {
        self.section_names.len()
    }

    /// The cases of one section.
    pub fn section<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s IndexedCase<'a>> + 's {
        self.cases.iter().filter(move |c| c.section == name)
    }

    /// The case whose object contains the manifest location `pointer`.
    pub fn case_at(&self, pointer: &str) -> Option<&IndexedCase<'a>> {
        self.cases
            .iter()
            .filter(|c| {
                pointer
                    .strip_prefix(c.pointer.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .max_by_key(|c| c.pointer.len())
    }

    /// The cases that read the manifest value at `pointer`: the case that holds it, else every
    /// case of the block whose parameter it is (`/section/block/...`, or `/section/...` for a
    /// parameter of a section), in manifest order.
    pub fn readers_of(&self, pointer: &str) -> Vec<&IndexedCase<'a>> {
        if let Some(case) = self.case_at(pointer) {
            return vec![case];
        }
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let depth = if tokens.len() >= 3 { 2 } else { 1 };
        let block = format!("/{}", tokens[..depth.min(tokens.len())].join("/"));
        self.cases
            .iter()
            .filter(|c| {
                c.pointer
                    .strip_prefix(block.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_case_that_holds_a_pointer() {
        let m = json!({
            "schema_version": 1,
            "cases": [{ "name": "a" }, { "name": "b", "expect": { "urn": "x" } }],
            "sqs": { "rec": { "cases": [{ "name": "c" }] } }
        });
        let index = CaseIndex::new(&m);
        assert_eq!(index.len(), 3);
        assert_eq!(index.case_at("/cases/1/expect/urn").unwrap().id, "b");
        assert!(index.case_at("/cases/10").is_none());
        assert_eq!(index.case_at("/sqs/rec/cases/0").unwrap().id, "rec/c");
        assert!(index.case_at("/sqs/description").is_none());
    }

    #[test]
    fn metadata_keys_are_not_sections() {
        let m = json!({
            "schema_version": 1,
            "sections": { "s": { "scope": "core" } },
            "decisions": [{ "case": "s/a" }],
            "s": { "cases": [{ "name": "a" }] }
        });
        let index = CaseIndex::new(&m);
        assert_eq!(index.section_names, ["s"]);
        let ids: Vec<&str> = index.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["a"]);
    }

    #[test]
    fn a_value_is_read_by_its_case_or_by_every_case_of_its_block() {
        let m = json!({
            "cases": [{ "name": "a", "file": "f" }, { "name": "b" }],
            "sqs": {
                "rec": { "fixture": "f", "cases": [{ "name": "c" }, { "name": "d" }] },
                "other": { "cases": [{ "name": "e" }] }
            }
        });
        let index = CaseIndex::new(&m);
        let ids =
            |p: &str| -> Vec<String> { index.readers_of(p).iter().map(|c| c.id.clone()).collect() };
        assert_eq!(ids("/cases/0/file"), ["a"]);
        assert_eq!(ids("/sqs/rec/fixture"), ["rec/c", "rec/d"]);
        assert!(ids("").is_empty());
    }
}
