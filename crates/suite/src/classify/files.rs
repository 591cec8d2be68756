//! Fixtures and schema files: added, removed, changed, or changed only in formatting.

use std::collections::BTreeSet;

use serde_json::Value;

use super::change::{Change, manifest_of};
use super::codes::Code;
use super::normalize::{same_tree, strip_schema};
use crate::Suite;
use crate::load::RESULTS_EXAMPLE;
use bqsuite_core::index::CaseIndex;
use bqsuite_core::json::{self, Kind, Node};

/// The pointers of every string of `manifest` that is exactly `rel` (a file's path): where the
/// manifest names the file, in document order.
pub(crate) fn mentions(manifest: &Value, rel: &str) -> Vec<String> {
    fn walk(value: &Value, pointer: &mut String, rel: &str, hits: &mut Vec<String>) {
        match value {
            Value::String(s) if s == rel => hits.push(pointer.clone()),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    walk(item, pointer, rel, hits);
                    pointer.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&json::escape(k));
                    walk(v, pointer, rel, hits);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut hits = Vec::new();
    walk(manifest, &mut String::new(), rel, &mut hits);
    hits
}

/// The cases of `manifest` that mention the file `rel` (`section: id`, or a whole section when
/// it is a block parameter).
pub(super) fn users(manifest: &Value, index: &CaseIndex<'_>, rel: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for pointer in mentions(manifest, rel) {
        let user = match index.case_at(&pointer) {
            Some(case) => format!("{}: {}", case.section, case.id),
            None => {
                let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
                let block = if tokens.len() >= 3 {
                    format!("{}.{}", tokens[0], tokens[1])
                } else {
                    tokens.first().copied().unwrap_or_default().to_string()
                };
                format!("every case of {block} (a block parameter)")
            }
        };
        if !out.contains(&user) {
            out.push(user);
        }
    }
    out
}

pub(super) fn used_by(manifest: &Value, index: &CaseIndex<'_>, rel: &str) -> Vec<String> {
    let users = users(manifest, index, rel);
    if users.is_empty() {
        Vec::new()
    } else {
        vec![format!("used by: {}", users.join(", "))]
    }
}

/// The pointer of the first place two trees differ (member order and keys count).
pub(super) fn first_tree_difference(a: &Node, b: &Node, pointer: &str) -> String {
    match (&a.kind, &b.kind) {
        (Kind::Array(x), Kind::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if !same_tree(p, q) {
                    return first_tree_difference(p, q, &format!("{pointer}/{i}"));
                }
            }
            pointer.to_string()
        }
        (Kind::Object(x), Kind::Object(y)) => {
            for (p, q) in x.iter().zip(y) {
                if p.key != q.key {
                    return pointer.to_string();
                }
                if !same_tree(&p.value, &q.value) {
                    return first_tree_difference(&p.value, &q.value, &json::join(pointer, &p.key));
                }
            }
            pointer.to_string()
        }
        _ => pointer.to_string(),
    }
}

/// The pointer of the first place two values differ.
pub(super) fn first_value_difference(a: &Value, b: &Value, pointer: &str) -> String {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    return first_value_difference(p, q, &format!("{pointer}/{i}"));
                }
            }
            pointer.to_string()
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, p) in x {
                match y.get(k) {
                    Some(q) if p == q => {}
                    Some(q) => return first_value_difference(p, q, &json::join(pointer, k)),
                    None => return json::join(pointer, k),
                }
            }
            for k in y.keys() {
                if !x.contains_key(k) {
                    return json::join(pointer, k);
                }
            }
            pointer.to_string()
        }
        _ => pointer.to_string(),
    }
}

pub(super) fn shown_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// Which side a parse failure is on.
pub(super) fn unparsed(old_ok: bool, new_ok: bool) -> &'static str {
    match (old_ok, new_ok) {
        (false, false) => "neither side parses as JSON",
        (false, true) => "OLD's copy does not parse as JSON",
        _ => "NEW's copy does not parse as JSON",
    }
}

pub(super) fn paths_under<'a>(old: &'a Suite, new: &'a Suite, dir: &'a str) -> BTreeSet<&'a str> {
    old.files_under(dir).chain(new.files_under(dir)).collect()
}

pub(super) fn compare_fixtures(
    old: &Suite,
    new: &Suite,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    out: &mut Vec<Change>,
) {
    let null = Value::Null;
    let old_m = manifest_of(old).unwrap_or(&null);
    let new_m = manifest_of(new).unwrap_or(&null);
    for rel in paths_under(old, new, "fixtures") {
        match (old.file(rel), new.file(rel)) {
            (None, Some(_)) => out.push(
                Change::new(Code::FixtureAdded, rel, format!("fixture `{rel}` added"))
                    .detail(&used_by(new_m, new_index, rel)),
            ),
            (Some(_), None) => out.push(
                Change::new(
                    Code::FixtureRemoved,
                    rel,
                    format!("fixture `{rel}` removed"),
                )
                .detail(&used_by(old_m, old_index, rel)),
            ),
            (Some(o), Some(n)) if o.bytes != n.bytes => {
                let change = match (o.tree(), n.tree()) {
                    (Some(a), Some(b)) if same_tree(a, b) => Change::new(
                        Code::FixtureCosmetic,
                        rel,
                        format!(
                            "fixture `{rel}` changed only in whitespace or string-escape \
                             spelling (same parsed JSON)"
                        ),
                    ),
                    (Some(a), Some(b)) => {
                        let at = first_tree_difference(a, b, "");
                        Change::new(
                            Code::FixtureChanged,
                            rel,
                            format!(
                                "fixture `{rel}` changed (first difference at {})",
                                shown_pointer(&at)
                            ),
                        )
                        .at(at)
                    }
                    (a, b) if rel.ends_with(".json") => Change::new(
                        Code::FixtureChanged,
                        rel,
                        format!(
                            "fixture `{rel}` changed ({})",
                            unparsed(a.is_some(), b.is_some())
                        ),
                    ),
                    _ => Change::new(
                        Code::FixtureChanged,
                        rel,
                        format!("fixture `{rel}` changed (its bytes differ)"),
                    ),
                };
                out.push(change.detail(&used_by(new_m, new_index, rel)));
            }
            _ => {}
        }
    }
}

/// The results example without its `conformance_version` when that names the suite's own
/// version: the stamp follows every release (1.5.0's example says 1.5.0, 1.6.0's says 1.6.0) and
/// is no change of the format. A stamp that names another version is kept, so it still counts.
pub(super) fn without_stamp(example: &Value, suite_version: Option<&str>) -> Value {
    let mut out = example.clone();
    if let (Some(map), Some(version)) = (out.as_object_mut(), suite_version)
        && map.get("conformance_version").and_then(Value::as_str) == Some(version.trim())
    {
        map.remove("conformance_version");
    }
    out
}

pub(super) fn compare_schemas(old: &Suite, new: &Suite, out: &mut Vec<Change>) {
    for rel in paths_under(old, new, "schema") {
        match (old.file(rel), new.file(rel)) {
            (None, Some(_)) => out.push(Change::new(
                Code::SchemaAdded,
                rel,
                format!("schema file `{rel}` added"),
            )),
            (Some(_), None) => out.push(Change::new(
                Code::SchemaRemoved,
                rel,
                format!("schema file `{rel}` removed"),
            )),
            (Some(o), Some(n)) if o.bytes != n.bytes => {
                let is_schema = rel.ends_with(".schema.json");
                let content = |v: &Value, suite: &Suite| {
                    if is_schema {
                        strip_schema(v)
                    } else if rel == RESULTS_EXAMPLE {
                        without_stamp(v, suite.version_text())
                    } else {
                        v.clone()
                    }
                };
                let change = match (
                    o.doc().and_then(|d| d.value()),
                    n.doc().and_then(|d| d.value()),
                ) {
                    (Some(a), Some(b)) => {
                        let (ca, cb) = (content(a, old), content(b, new));
                        if ca == cb && rel == RESULTS_EXAMPLE {
                            // Only the version stamp followed the release: no change.
                            continue;
                        }
                        if ca != cb {
                            let at = first_value_difference(&ca, &cb, "");
                            Change::new(
                                Code::SchemaChanged,
                                rel,
                                format!(
                                    "schema file `{rel}` changed (first difference at {})",
                                    shown_pointer(&at)
                                ),
                            )
                            .at(at)
                        } else if a != b {
                            Change::new(
                                Code::DescriptionChanged,
                                rel,
                                format!(
                                    "descriptions (description/title/$comment annotations) in \
                                     `{rel}` changed"
                                ),
                            )
                        } else {
                            Change::new(
                                Code::SchemaCosmetic,
                                rel,
                                format!(
                                    "schema file `{rel}` changed only in formatting or key order \
                                     (same parsed JSON)"
                                ),
                            )
                        }
                    }
                    (a, b) => Change::new(
                        Code::SchemaChanged,
                        rel,
                        format!(
                            "schema file `{rel}` changed ({})",
                            unparsed(a.is_some(), b.is_some())
                        ),
                    ),
                };
                out.push(change);
            }
            _ => {}
        }
    }
}
