//! The manifest's top-level metadata: its keys, the `sections` scope map and the `exceptions` list.

use std::collections::HashMap;

use serde_json::Value;

use super::change::Change;
use super::codes::Code;
use super::normalize::{description_of, strip_own_description};
use super::show::{shorten, show, show_scope, value_diff};
use crate::load::MANIFEST;
use bqsuite_core::index::CaseIndex;
use bqsuite_core::json;

pub(super) fn compare_metadata(old: &Value, new: &Value, out: &mut Vec<Change>) {
    for key in [
        "schema_version",
        "conformance_version",
        "sections",
        "exceptions",
    ] {
        let pointer = json::join("", key);
        match (old.get(key), new.get(key)) {
            (None, Some(v)) => out.push(
                Change::new(
                    Code::MetadataAdded,
                    MANIFEST,
                    format!("top-level key `{key}` added ({})", shorten(&show(v), 60)),
                )
                .at(pointer),
            ),
            (Some(_), None) => out.push(Change::new(
                Code::MetadataRemoved,
                MANIFEST,
                format!("top-level key `{key}` removed"),
            )),
            (Some(o), Some(n)) if key == "schema_version" && o != n => out.push(
                Change::new(
                    Code::MetadataChanged,
                    MANIFEST,
                    format!(
                        "top-level `schema_version` changed from {} to {}",
                        show(o),
                        show(n)
                    ),
                )
                .at(pointer),
            ),
            _ => {}
        }
    }
    // `sections` and `exceptions` that are not a map / a list are compared as a whole.
    for (key, shape_ok) in [
        ("sections", Value::is_object as fn(&Value) -> bool),
        ("exceptions", Value::is_array),
    ] {
        if let (Some(o), Some(n)) = (old.get(key), new.get(key))
            && (!shape_ok(o) || !shape_ok(n))
            && o != n
        {
            out.push(
                Change::new(
                    Code::MetadataChanged,
                    MANIFEST,
                    format!("top-level `{key}` changed"),
                )
                .at(json::join("", key))
                .detail(&[format!("- {}", show(o)), format!("+ {}", show(n))]),
            );
        }
    }
    match (old.get("description"), new.get("description")) {
        (None, None) => {}
        (o, n) if o == n => {}
        (o, n) => {
            let is_text = |v: Option<&Value>| v.is_none_or(Value::is_string);
            let change = if is_text(o) && is_text(n) {
                Change::new(
                    Code::DescriptionChanged,
                    MANIFEST,
                    "the manifest's top-level description changed".to_string(),
                )
            } else {
                Change::new(
                    Code::MetadataChanged,
                    MANIFEST,
                    "top-level `description` changed (it is not a string)".to_string(),
                )
            };
            out.push(change.at("/description"));
        }
    }
}

pub(super) fn compare_scopes(
    old_m: &Value,
    new_m: &Value,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    out: &mut Vec<Change>,
) {
    let empty = serde_json::Map::new();
    let old_map = old_m
        .get("sections")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let new_map = new_m
        .get("sections")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let is_section =
        |index: &CaseIndex<'_>, name: &str| index.section_names.iter().any(|s| s == name);
    for (name, new_scope) in new_map {
        let pointer = json::join("/sections", name);
        match old_map.get(name) {
            // A new section's scope is reported with the section.
            None if is_section(new_index, name) && !is_section(old_index, name) => {}
            None => out.push(
                Change::new(
                    Code::ScopeAdded,
                    MANIFEST,
                    format!(
                        "section `{name}` is assigned the scope {}",
                        show_scope(new_scope)
                    ),
                )
                .at(pointer)
                .in_section(name),
            ),
            Some(old_scope) if old_scope != new_scope => out.push(
                Change::new(
                    Code::ScopeChanged,
                    MANIFEST,
                    format!(
                        "the scope of section `{name}` changed from {} to {} (it changes which \
                         packages must run it)",
                        show_scope(old_scope),
                        show_scope(new_scope)
                    ),
                )
                .at(pointer)
                .in_section(name),
            ),
            Some(_) => {}
        }
    }
    let sections_key_removed = old_m.get("sections").is_some() && new_m.get("sections").is_none();
    for (name, old_scope) in old_map {
        let removed_section = is_section(old_index, name) && !is_section(new_index, name);
        if !new_map.contains_key(name) && !removed_section && !sections_key_removed {
            out.push(
                Change::new(
                    Code::ScopeRemoved,
                    MANIFEST,
                    format!(
                        "section `{name}` no longer has a scope (it was {})",
                        show_scope(old_scope)
                    ),
                )
                .in_section(name),
            );
        }
    }
}

/// An exception's identity: `family/binding`, or its whole content when it has no such fields.
pub(super) fn exception_key(entry: &Value) -> String {
    match (
        entry.get("family").and_then(Value::as_str),
        entry.get("binding").and_then(Value::as_str),
    ) {
        (Some(f), Some(b)) => format!("{f}/{b}"),
        _ => serde_json::to_string(&strip_own_description(entry)).unwrap_or_default(),
    }
}

/// Exceptions are matched by family and binding (or by their whole text); the nth of a repeated
/// key is matched with the nth on the other side.
type ExceptionKey = (String, usize);

/// A manifest's exceptions, each with its key and its index in the list.
fn keyed_exceptions(m: &Value) -> (Vec<Value>, Vec<(ExceptionKey, usize)>) {
    let list = m
        .get("exceptions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let keyed = list
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let k = exception_key(e);
            let n = seen.entry(k.clone()).or_insert(0);
            let key = (k, *n);
            *n += 1;
            (key, i)
        })
        .collect();
    (list, keyed)
}

pub(super) fn compare_exceptions(old_m: &Value, new_m: &Value, out: &mut Vec<Change>) {
    let (old_list, old_keyed) = keyed_exceptions(old_m);
    let (new_list, new_keyed) = keyed_exceptions(new_m);
    let old_by: HashMap<&ExceptionKey, usize> = old_keyed.iter().map(|(k, i)| (k, *i)).collect();
    let new_by: HashMap<&ExceptionKey, usize> = new_keyed.iter().map(|(k, i)| (k, *i)).collect();
    for (key, i) in &new_keyed {
        let pointer = format!("/exceptions/{i}");
        let entry = &new_list[*i];
        let name = shorten(&key.0, 80);
        match old_by.get(key) {
            None => out.push(
                Change::new(
                    Code::ExceptionAdded,
                    MANIFEST,
                    format!(
                        "exception `{name}` added (it lifts a requirement; nothing that passed \
                         can fail)"
                    ),
                )
                .at(pointer)
                .detail(&[format!("+ {}", show(entry))]),
            ),
            Some(j) => out.extend(exception_changed(&name, &old_list[*j], entry, pointer)),
        }
    }
    for (key, i) in &old_keyed {
        if !new_by.contains_key(key) {
            out.push(
                Change::new(
                    Code::ExceptionRemoved,
                    MANIFEST,
                    format!(
                        "exception `{}` removed (the family must now run what it was exempt \
                         from)",
                        shorten(&key.0, 80)
                    ),
                )
                .detail(&[format!("- {}", show(&old_list[*i]))]),
            );
        }
    }
}

/// An exception on both sides: changed in substance, in its description only, or not at all.
fn exception_changed(
    name: &str,
    old_entry: &Value,
    entry: &Value,
    pointer: String,
) -> Option<Change> {
    let (o, n) = (
        strip_own_description(old_entry),
        strip_own_description(entry),
    );
    if o != n {
        let (summary, detail) = value_diff(&o, &n, "field");
        return Some(
            Change::new(
                Code::ExceptionChanged,
                MANIFEST,
                format!("exception `{name}` changed: {}", summary.join("; ")),
            )
            .at(pointer)
            .detail(&detail),
        );
    }
    (description_of(old_entry) != description_of(entry)).then(|| {
        Change::new(
            Code::DescriptionChanged,
            MANIFEST,
            format!("description of exception `{name}` changed"),
        )
        .at(pointer)
    })
}
