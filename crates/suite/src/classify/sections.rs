//! Sections, their parameters and their cases: what was added, removed, changed or extended.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::change::Change;
use super::codes::Code;
use super::normalize::{description_of, strip_own_description, strip_schema};
use super::show::{one_line, quote_list, show, value_diff};
use crate::load::MANIFEST;
use crate::rules::scope_of;
use bqsuite_core::ids::NON_CASE_KEYS;
use bqsuite_core::index::{CaseIndex, IndexedCase};
use bqsuite_core::json;

/// The parameters of a section block: its members that are not cases, not sub-blocks and not its
/// description. `schema` is compared with its annotations stripped.
pub(super) fn section_params(block: &Value) -> BTreeMap<String, (Value, Value)> {
    let mut out = BTreeMap::new();
    if let Value::Object(map) = block {
        for (key, value) in map {
            let is_description = key == "description" && value.is_string();
            let is_cases = key == "cases" && value.is_array();
            // Object sub-keys are cases or sub-blocks (the id rule), except an object `cases`,
            // which the id rule skips: that one is compared as a parameter.
            let is_sub_block =
                value.is_object() && key != "cases" && !NON_CASE_KEYS.contains(&key.as_str());
            if !(is_description || is_cases || is_sub_block) {
                out.insert(key.clone(), param_value(key, value));
            }
        }
    }
    out
}

/// The parameters of a sub-block that holds a `cases` array: its other members.
pub(super) fn sub_block_params(block: &Value) -> BTreeMap<String, (Value, Value)> {
    let mut out = BTreeMap::new();
    if let Value::Object(map) = block {
        for (key, value) in map {
            if (key == "description" && value.is_string()) || key == "cases" {
                continue;
            }
            out.insert(key.clone(), param_value(key, value));
        }
    }
    out
}

/// (full value, value compared for content).
pub(super) fn param_value(key: &str, value: &Value) -> (Value, Value) {
    let compared = if key == "schema" {
        strip_schema(value)
    } else {
        value.clone()
    };
    (value.clone(), compared)
}

/// How two parameter sets differ: (content changes, whether only annotations differ).
pub(super) fn param_diff(
    old: &BTreeMap<String, (Value, Value)>,
    new: &BTreeMap<String, (Value, Value)>,
) -> (Vec<String>, Vec<String>, bool) {
    let mut summary = Vec::new();
    let mut detail = Vec::new();
    let mut annotations = false;
    for (key, (old_full, old_cmp)) in old {
        match new.get(key) {
            None => {
                summary.push(format!("parameter `{key}` removed"));
                detail.push(format!("- {key}: {}", show(old_full)));
            }
            Some((new_full, new_cmp)) => {
                if old_cmp != new_cmp {
                    summary.push(format!("parameter `{key}` changed"));
                    detail.push(format!("- {key}: {}", show(old_full)));
                    detail.push(format!("+ {key}: {}", show(new_full)));
                } else if old_full != new_full {
                    annotations = true;
                }
            }
        }
    }
    for (key, (new_full, _)) in new {
        if !old.contains_key(key) {
            summary.push(format!("parameter `{key}` added"));
            detail.push(format!("+ {key}: {}", show(new_full)));
        }
    }
    (summary, detail, annotations)
}

/// A case's identity within its section: its id and which occurrence of that id it is.
pub(super) type CaseKey = (String, usize);

pub(super) fn keyed<'a, 'b>(
    index: &'b CaseIndex<'a>,
    section: &'b str,
) -> Vec<(CaseKey, &'b IndexedCase<'a>)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    index
        .section(section)
        .map(|c| {
            let n = seen.entry(c.id.as_str()).or_insert(0);
            let key = (c.id.clone(), *n);
            *n += 1;
            (key, c)
        })
        .collect()
}

pub(super) fn shown_id(key: &CaseKey) -> String {
    if key.1 == 0 {
        key.0.clone()
    } else {
        format!("{} (occurrence {})", key.0, key.1 + 1)
    }
}

/// The sub-key whose `cases` array holds `case`, if any (not for single-case sub-keys).
pub(super) fn holder(case: &IndexedCase<'_>) -> Option<String> {
    let sub = case.case.sub_key?;
    (!std::ptr::eq(case.case.case, case.case.parent)).then(|| sub.to_string())
}

pub(super) fn section_names<'a>(old: &'a CaseIndex<'_>, new: &'a CaseIndex<'_>) -> Vec<&'a str> {
    let mut names: Vec<&str> = new.section_names.iter().map(String::as_str).collect();
    for name in &old.section_names {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

pub(super) fn compare_sections(
    old_m: &Value,
    new_m: &Value,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    scopes: &mut Vec<Change>,
    out: &mut Vec<Change>,
) {
    for section in section_names(old_index, new_index) {
        // The section's scope changes come first among its findings.
        let (mine, rest): (Vec<Change>, Vec<Change>) = std::mem::take(scopes)
            .into_iter()
            .partition(|c| c.section.as_deref() == Some(section));
        *scopes = rest;
        out.extend(mine);
        let pointer = json::join("", section);
        match (old_m.get(section), new_m.get(section)) {
            (None, Some(block)) => {
                let cases = keyed(new_index, section);
                let scope = scope_of(new_m, section);
                let scope_text = scope.map_or("no scope".to_string(), |s| format!("scope {s}"));
                let mut change = Change::new(
                    Code::SectionAdded,
                    MANIFEST,
                    format!(
                        "section `{section}` added ({scope_text}, {} case{})",
                        cases.len(),
                        bqsuite_core::diag::plural(cases.len())
                    ),
                )
                .at(&pointer)
                .in_section(section);
                change.description = description_of(block).map(one_line);
                change.scope = scope.map(str::to_string);
                out.push(change);
                for (key, case) in cases {
                    out.push(case_added(section, &key, case));
                }
            }
            (Some(_), None) => {
                let cases = keyed(old_index, section);
                out.push(
                    Change::new(
                        Code::SectionRemoved,
                        MANIFEST,
                        format!(
                            "section `{section}` removed (it had {} case{})",
                            cases.len(),
                            bqsuite_core::diag::plural(cases.len())
                        ),
                    )
                    .in_section(section),
                );
                for (key, case) in cases {
                    out.push(case_removed(section, &key, case));
                }
            }
            (Some(old_block), Some(new_block)) => {
                compare_section(section, old_block, new_block, old_index, new_index, out)
            }
            (None, None) => {}
        }
    }
}

pub(super) fn case_added(section: &str, key: &CaseKey, case: &IndexedCase<'_>) -> Change {
    let id = shown_id(key);
    let mut change = Change::new(
        Code::CaseAdded,
        MANIFEST,
        format!("case `{id}` added to section `{section}`"),
    )
    .at(&case.pointer)
    .case(section, &id);
    change.description = description_of(case.case.case).map(one_line);
    change
}

pub(super) fn case_removed(section: &str, key: &CaseKey, case: &IndexedCase<'_>) -> Change {
    let id = shown_id(key);
    Change::new(
        Code::CaseRemoved,
        MANIFEST,
        format!(
            "case `{id}` removed from section `{section}` (it was at {} in OLD)",
            case.pointer
        ),
    )
    .case(section, &id)
}

/// The sub-keys of a section block that hold a `cases` array.
pub(super) fn holders(block: &Value) -> Vec<(&str, &Value)> {
    match block {
        Value::Object(map) => map
            .iter()
            .filter(|(k, v)| {
                k.as_str() != "cases"
                    && !NON_CASE_KEYS.contains(&k.as_str())
                    && v.get("cases").is_some_and(Value::is_array)
            })
            .map(|(k, v)| (k.as_str(), v))
            .collect(),
        _ => Vec::new(),
    }
}

pub(super) fn compare_section(
    section: &str,
    old_block: &Value,
    new_block: &Value,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    out: &mut Vec<Change>,
) {
    let pointer = json::join("", section);
    compare_form(section, &pointer, old_block, new_block, out);
    let section_inherited = compare_params(
        section,
        (&format!("section `{section}`"), "the section", &pointer),
        &section_params(old_block),
        &section_params(new_block),
        out,
    );
    let block_inherited = compare_holders(section, &pointer, old_block, new_block, out);
    compare_cases(
        section,
        old_index,
        new_index,
        &section_inherited,
        &block_inherited,
        out,
    );
}

/// The section's description, and its form: a block that changed shape (array ↔ object ↔
/// scalar) is a section change in itself.
fn compare_form(
    section: &str,
    pointer: &str,
    old_block: &Value,
    new_block: &Value,
    out: &mut Vec<Change>,
) {
    if description_of(old_block) != description_of(new_block) {
        out.push(
            Change::new(
                Code::DescriptionChanged,
                MANIFEST,
                format!("description of section `{section}` changed"),
            )
            .at(json::join(pointer, "description"))
            .in_section(section),
        );
    }
    let shape = |v: &Value| match v {
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        _ => "scalar",
    };
    if shape(old_block) != shape(new_block)
        || (!old_block.is_array() && !old_block.is_object() && old_block != new_block)
    {
        out.push(
            Change::new(
                Code::SectionChanged,
                MANIFEST,
                format!(
                    "section `{section}` changed its form (a {} in OLD, a {} in NEW)",
                    shape(old_block),
                    shape(new_block)
                ),
            )
            .at(pointer)
            .in_section(section)
            .detail(&[
                format!("- {}", show(old_block)),
                format!("+ {}", show(new_block)),
            ]),
        );
    }
}

/// A block's parameters: a section change when a value changed, a description change when only
/// schema annotations did. `(label, readers, at)` place them: the block in words ("section `s`"
/// or "`s.sub`"), the cases that read them ("the section" or "`sub`"), the block's pointer.
/// Returns the changed parameters as each case that reads them lists them ("NAME ... in BLOCK").
fn compare_params(
    section: &str,
    (label, readers, at): (&str, &str, &str),
    old: &BTreeMap<String, (Value, Value)>,
    new: &BTreeMap<String, (Value, Value)>,
    out: &mut Vec<Change>,
) -> Vec<String> {
    let (summary, detail, annotations) = param_diff(old, new);
    if !summary.is_empty() {
        out.push(
            Change::new(
                Code::SectionChanged,
                MANIFEST,
                format!(
                    "parameters of {label} changed: {} (every case of {readers} reads them)",
                    summary.join(", ")
                ),
            )
            .at(at)
            .in_section(section)
            .detail(&detail),
        );
    } else if annotations {
        out.push(
            Change::new(
                Code::DescriptionChanged,
                MANIFEST,
                format!("schema annotations in the parameters of {label} changed"),
            )
            .at(at)
            .in_section(section),
        );
    }
    summary.iter().map(|s| format!("{s} in {label}")).collect()
}

/// The sub-blocks that hold a cases array on both sides: their descriptions and parameters.
/// Returns, per sub-block, the changed parameters its cases inherit.
fn compare_holders(
    section: &str,
    pointer: &str,
    old_block: &Value,
    new_block: &Value,
    out: &mut Vec<Change>,
) -> HashMap<String, Vec<String>> {
    let old_holders: BTreeMap<&str, &Value> = holders(old_block).into_iter().collect();
    let mut inherited: HashMap<String, Vec<String>> = HashMap::new();
    for (sub, new_sub) in holders(new_block) {
        let Some(old_sub) = old_holders.get(sub) else {
            continue;
        };
        let sub_pointer = json::join(pointer, sub);
        if description_of(old_sub) != description_of(new_sub) {
            out.push(
                Change::new(
                    Code::DescriptionChanged,
                    MANIFEST,
                    format!("description of `{section}.{sub}` changed"),
                )
                .at(json::join(&sub_pointer, "description"))
                .in_section(section),
            );
        }
        let lines = compare_params(
            section,
            (
                &format!("`{section}.{sub}`"),
                &format!("`{sub}`"),
                &sub_pointer,
            ),
            &sub_block_params(old_sub),
            &sub_block_params(new_sub),
            out,
        );
        if !lines.is_empty() {
            inherited.insert(sub.to_string(), lines);
        }
    }
    inherited
}

/// The section's cases, matched by key: added, removed, and changed (with the parameter changes
/// each inherits from its section and its sub-block).
fn compare_cases(
    section: &str,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    section_inherited: &[String],
    block_inherited: &HashMap<String, Vec<String>>,
    out: &mut Vec<Change>,
) {
    let old_cases = keyed(old_index, section);
    let new_cases = keyed(new_index, section);
    let old_by_key: HashMap<&CaseKey, &IndexedCase<'_>> =
        old_cases.iter().map(|(k, c)| (k, *c)).collect();
    let new_keys: BTreeSet<&CaseKey> = new_cases.iter().map(|(k, _)| k).collect();
    let old_fields: BTreeSet<&str> = old_cases
        .iter()
        .filter_map(|(_, c)| c.case.case.as_object())
        .flat_map(|m| m.keys().map(String::as_str))
        .collect();
    for (key, new_case) in &new_cases {
        let Some(old_case) = old_by_key.get(key) else {
            out.push(case_added(section, key, new_case));
            out.extend(super::shape::lacking(section, key, new_case, &old_cases));
            continue;
        };
        let mut inherited = section_inherited.to_vec();
        if let Some(sub) = holder(new_case)
            && holder(old_case).as_deref() == Some(sub.as_str())
            && let Some(lines) = block_inherited.get(&sub)
        {
            inherited.extend(lines.iter().cloned());
        }
        if let Some(change) =
            compare_case(section, key, old_case, new_case, &inherited, &old_fields)
        {
            out.push(change);
        }
    }
    for (key, old_case) in &old_cases {
        if !new_keys.contains(key) {
            out.push(case_removed(section, key, old_case));
        }
    }
}

pub(super) fn compare_case(
    section: &str,
    key: &CaseKey,
    old_case: &IndexedCase<'_>,
    new_case: &IndexedCase<'_>,
    inherited: &[String],
    old_fields: &BTreeSet<&str>,
) -> Option<Change> {
    let id = shown_id(key);
    let old_value = strip_own_description(old_case.case.case);
    let new_value = strip_own_description(new_case.case.case);
    if old_value == new_value && inherited.is_empty() {
        if description_of(old_case.case.case) != description_of(new_case.case.case) {
            return Some(
                Change::new(
                    Code::DescriptionChanged,
                    MANIFEST,
                    format!("description of case `{id}` changed"),
                )
                .at(&new_case.pointer)
                .case(section, &id),
            );
        }
        return None;
    }
    if inherited.is_empty()
        && let (Value::Object(o), Value::Object(n)) = (&old_value, &new_value)
    {
        let kept = o.iter().all(|(k, v)| n.get(k) == Some(v));
        let gained: Vec<String> = n.keys().filter(|k| !o.contains_key(*k)).cloned().collect();
        if kept && !gained.is_empty() && gained.iter().all(|k| !old_fields.contains(k.as_str())) {
            let detail: Vec<String> = gained
                .iter()
                .map(|k| format!("+ {k}: {}", show(&n[k.as_str()])))
                .collect();
            return Some(
                Change::new(
                    Code::CaseExtended,
                    MANIFEST,
                    format!(
                        "case `{id}` gained the field{} {}, new to section `{section}` (a runner \
                         of OLD's version ignores unknown case fields)",
                        bqsuite_core::diag::plural(gained.len()),
                        quote_list(&gained)
                    ),
                )
                .at(&new_case.pointer)
                .case(section, &id)
                .detail(&detail),
            );
        }
    }
    let (mut summary, detail) = value_diff(&old_value, &new_value, "field");
    summary.extend(inherited.iter().cloned());
    Some(
        Change::new(
            Code::CaseChanged,
            MANIFEST,
            format!("case `{id}` changed: {}", summary.join("; ")),
        )
        .at(&new_case.pointer)
        .case(section, &id)
        .detail(&detail),
    )
}
