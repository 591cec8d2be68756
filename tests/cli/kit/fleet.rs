//! A workspace shaped like the real fleet, and an independent count of a copy's cases against a
//! suite's (the spec's case-id rule, written again in a few lines, so that the counts bqsuite
//! prints are checked against something it did not compute).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use super::{bqsuite_in, copy_tree, data, real_1_8_0, repo_targets, unversioned_copy};

/// The targets of the repository's sync-targets.txt, in order.
pub fn real_targets() -> Vec<String> {
    let text = fs::read_to_string(repo_targets()).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The SDK repositories of sync-targets.txt that are not cloned in a fleet's workspace, as in
/// the real fleet (three repositories, one copy each).
pub const NOT_CLONED: [&str; 3] = [
    "babelqueue-java",
    "babelqueue-java-redis",
    "babelqueue-dotnet-redis",
];

pub fn repo_of(target: &str) -> &str {
    target.split('/').next().unwrap()
}

/// `ws/conformance` (the suite repository: the bundled suite and the real targets file) beside
/// the SDK checkouts.
pub struct Fleet {
    dir: tempfile::TempDir,
}

impl Fleet {
    pub fn new() -> Fleet {
        let dir = tempfile::tempdir().unwrap();
        let fleet = Fleet { dir };
        let repo = fleet.repo();
        // The canonical suite: the real 1.8.0, which the fleet's copies are pinned against
        // (suite/ holds it only until the proposal is adopted).
        copy_tree(&real_1_8_0(), &repo.join("suite"));
        fs::copy(repo_targets(), repo.join("sync-targets.txt")).unwrap();
        for target in real_targets() {
            if !NOT_CLONED.contains(&repo_of(&target)) {
                unversioned_copy(&fleet.ws().join(&target));
            }
        }
        fleet
    }

    pub fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    pub fn repo(&self) -> PathBuf {
        self.ws().join("conformance")
    }

    pub fn check(&self, extra: &[&str]) -> Output {
        let mut args = vec!["sync", "--check", "--workspace", ".."];
        args.extend_from_slice(extra);
        bqsuite_in(&self.repo(), &args)
    }
}

// ---------------------------------------------------------------------------------------------
// The independent count: the spec's case-id rule over two manifests, compared by content.

pub const METADATA: [&str; 5] = [
    "schema_version",
    "conformance_version",
    "description",
    "sections",
    "exceptions",
];

pub fn without_description(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v
        && m.get("description").is_some_and(Value::is_string)
    {
        m.remove("description");
    }
    v
}

/// The members of a block a case inherits: everything but its description, its `cases` array
/// and (for a section) its object sub-keys other than `schema`.
pub fn params(block: &Value, section_level: bool) -> Value {
    let Value::Object(m) = block else {
        return Value::Null;
    };
    let inherited = |k: &str, v: &Value| match k {
        "description" => !v.is_string(),
        "cases" => !v.is_array(),
        "schema" => true,
        _ => !(section_level && v.is_object()),
    };
    Value::Object(
        m.iter()
            .filter(|(k, v)| inherited(k, v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// Every case of a manifest, by (section, id, occurrence): what a runner reads for it (the case
/// without its description, and the parameters of its blocks); and the sections, in order.
#[derive(Default)]
pub struct Cases {
    cases: BTreeMap<(String, String, usize), Value>,
    sections: Vec<String>,
}

impl Cases {
    fn add(&mut self, section: &str, id: String, content: Value) {
        let mut n = 0;
        while self
            .cases
            .contains_key(&(section.to_string(), id.clone(), n))
        {
            n += 1;
        }
        self.cases.insert((section.to_string(), id, n), content);
    }

    /// The cases of a `cases` array: `prefix` + name, or `unnamed` + index.
    fn listed(
        &mut self,
        section: &str,
        items: &[Value],
        prefix: &str,
        unnamed: &str,
        inherited: &Value,
    ) {
        for (i, item) in items.iter().enumerate() {
            let id = match item.get("name").and_then(Value::as_str) {
                Some(name) => format!("{prefix}{name}"),
                None => format!("{unnamed}{i}"),
            };
            self.add(
                section,
                id,
                serde_json::json!([without_description(item), inherited]),
            );
        }
    }

    fn of(manifest: &Value) -> Cases {
        let mut out = Cases::default();
        for (section, block) in manifest.as_object().unwrap() {
            if METADATA.contains(&section.as_str()) {
                continue;
            }
            out.sections.push(section.clone());
            let unnamed = format!("{section}#");
            match block {
                Value::Array(items) => out.listed(section, items, "", &unnamed, &Value::Null),
                Value::Object(m) => {
                    let own = params(block, true);
                    for (key, value) in m {
                        match (key.as_str(), value) {
                            ("description" | "schema", _) => {}
                            ("cases", Value::Array(items)) => {
                                let inherited = serde_json::json!([own]);
                                out.listed(section, items, "", &unnamed, &inherited);
                            }
                            ("cases", _) => {}
                            (_, Value::Object(sub)) => match sub.get("cases") {
                                Some(Value::Array(items)) => {
                                    let inherited = serde_json::json!([own, params(value, false)]);
                                    let prefix = format!("{key}/");
                                    out.listed(section, items, &prefix, &prefix, &inherited);
                                }
                                _ => {
                                    let content =
                                        serde_json::json!([without_description(value), [own]]);
                                    out.add(section, key.clone(), content);
                                }
                            },
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// (missing, changed, extra, expected, missing sections) of `copy` against `suite`.
pub fn independent(copy: &Path, suite: &Path) -> (u64, u64, u64, u64, Vec<String>) {
    let read = |p: &Path| -> Value {
        serde_json::from_str(&fs::read_to_string(p.join("manifest.json")).unwrap()).unwrap()
    };
    let have = Cases::of(&read(copy));
    let want = Cases::of(&read(suite));
    let missing = want
        .cases
        .keys()
        .filter(|k| !have.cases.contains_key(*k))
        .count();
    let extra = have
        .cases
        .keys()
        .filter(|k| !want.cases.contains_key(*k))
        .count();
    let changed = want
        .cases
        .iter()
        .filter(|(k, v)| have.cases.get(*k).is_some_and(|h| h != *v))
        .count();
    let lacking = want
        .sections
        .into_iter()
        .filter(|s| !have.sections.contains(s))
        .collect();
    (
        missing as u64,
        changed as u64,
        extra as u64,
        want.cases.len() as u64,
        lacking,
    )
}

pub fn counted(r: &Value) -> (u64, u64, u64, u64, Vec<String>) {
    let c = &r["cases"];
    let n = |k: &str| {
        c[k].as_u64()
            .unwrap_or_else(|| panic!("no cases.{k} in {r:#}"))
    };
    let sections = r["missing_sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (
        n("missing"),
        n("changed"),
        n("extra"),
        n("expected"),
        sections,
    )
}

/// Every real release and the upstream copy (as the fleet holds it), by name.
pub fn old_copies(into: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let upstream = into.join("upstream");
    unversioned_copy(&upstream);
    out.push(("upstream".to_string(), upstream));
    for entry in fs::read_dir(data("real-releases")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            out.push((name.clone(), entry.path()));
        }
    }
    out.sort();
    out
}
