//! The comparison itself: every difference between two suites' vendored sets, each classified
//! with a stable code and the SemVer bump it needs.
//!
//! What is compared, and how (see also [`super::normalize`]):
//!
//! - **Cases** are matched by section and case id (the spec's id rule), never by position: a case
//!   that moved to another index with the same id is not a change. An unnamed case is identified
//!   by its index (`<section>#<n>`), so moving it is a removal plus an addition.
//! - A case's content is its object without its own `description`, plus the **parameters** it
//!   inherits: the non-case members of its section (`envelope_file`, `tiers`, `topic`, `schema`
//!   with its annotations stripped...) and, for a case in a sub-block with a `cases` array, the
//!   sub-block's other members (`property`, `envelope_file`...). A changed, added or removed
//!   parameter is one `section-changed` finding for the block *and* a `case-changed` finding for
//!   every case of the block present on both sides (a runner reads the parameter for each case).
//! - A case that only gains top-level fields that no case of its section had in OLD is
//!   `case-extended` (minor): by the spec's "Unknown case fields are ignored", a runner of OLD's
//!   version reads the case exactly as before. A gained field that OLD's runners may already know
//!   (some case of the section had it) changes the case (major).
//! - **Metadata** (top-level `schema_version`, `conformance_version`, `description`, `sections`,
//!   `exceptions`): adding a key is additive (minor), removing one needs major, a changed
//!   `schema_version` needs major. The value of `conformance_version` is the version itself and
//!   is judged separately, never as a change.
//! - **Scopes** (`sections` map): a scope assigned to an existing section that had none is
//!   additive; a changed or withdrawn scope needs major (it changes who must run the section).
//! - **Exceptions** (matched by `family` + `binding`): adding one is additive — it only lifts a
//!   requirement, nothing that passed can fail; removing or changing one needs major.
//! - **Fixtures** are compared as parsed JSON trees (see [`super::normalize`]); **schemas** as
//!   parsed JSON with annotations stripped. A byte difference that is not a content difference is
//!   `fixture-cosmetic` / `schema-cosmetic` / `manifest-cosmetic` (patch).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::normalize::{description_of, same_tree, strip_own_description, strip_schema};
use super::version::Bump;
use crate::json::{self, Kind, Node, Pos};
use crate::suite::Suite;
use crate::suite::ids::NON_CASE_KEYS;
use crate::suite::index::{CaseIndex, IndexedCase};
use crate::suite::load::{MANIFEST, RESULTS_EXAMPLE};

/// Every code a change can carry, with the bump it needs.
pub const CODES: &[(&str, Bump)] = &[
    ("case-added", Bump::Minor),
    ("case-extended", Bump::Minor),
    ("case-removed", Bump::Major),
    ("case-changed", Bump::Major),
    ("section-added", Bump::Minor),
    ("section-removed", Bump::Major),
    ("section-changed", Bump::Major),
    ("scope-added", Bump::Minor),
    ("scope-changed", Bump::Major),
    ("scope-removed", Bump::Major),
    ("exception-added", Bump::Minor),
    ("exception-changed", Bump::Major),
    ("exception-removed", Bump::Major),
    ("metadata-added", Bump::Minor),
    ("metadata-changed", Bump::Major),
    ("metadata-removed", Bump::Major),
    ("fixture-added", Bump::Minor),
    ("fixture-removed", Bump::Major),
    ("fixture-changed", Bump::Major),
    ("fixture-cosmetic", Bump::Patch),
    ("schema-added", Bump::Minor),
    ("schema-removed", Bump::Major),
    ("schema-changed", Bump::Major),
    ("schema-cosmetic", Bump::Patch),
    ("description-changed", Bump::Patch),
    ("manifest-cosmetic", Bump::Patch),
];

/// The bump a change code needs.
pub fn bump_of(code: &str) -> Bump {
    CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(Bump::Major, |(_, b)| *b)
}

/// One difference between OLD and NEW.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Stable kebab-case code (one of [`CODES`]).
    pub code: &'static str,
    /// The bump this change needs.
    pub bump: Bump,
    /// `manifest.json`, `fixtures/<name>` or `schema/<name>`.
    pub file: String,
    /// Where in NEW's file (for removals: absent; the message says where it was in OLD).
    pub pointer: Option<String>,
    pub section: Option<String>,
    pub case: Option<String>,
    pub message: String,
    /// Supporting lines: the fields that differ, the cases that use a fixture.
    pub detail: Option<String>,
    /// For an added case or section: its description in NEW (for release notes).
    pub description: Option<String>,
    /// For an added section: its scope in NEW.
    pub scope: Option<String>,
}

impl Change {
    fn new(code: &'static str, file: &str, message: String) -> Self {
        Change {
            code,
            bump: bump_of(code),
            file: file.to_string(),
            pointer: None,
            section: None,
            case: None,
            message,
            detail: None,
            description: None,
            scope: None,
        }
    }

    fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    fn in_section(mut self, section: &str) -> Self {
        self.section = Some(section.to_string());
        self
    }

    fn case(mut self, section: &str, id: &str) -> Self {
        self.section = Some(section.to_string());
        self.case = Some(id.to_string());
        self
    }

    fn detail(mut self, lines: &[String]) -> Self {
        if !lines.is_empty() {
            self.detail = Some(lines.join("\n"));
        }
        self
    }
}

/// Why a side cannot be compared at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable(pub String);

/// The parsed manifest object of a suite.
pub fn manifest_of(suite: &Suite) -> Result<&Value, Unusable> {
    match suite.files.get(MANIFEST).map(|f| f.json.as_ref()) {
        None => Err(Unusable("it has no manifest.json".into())),
        Some(None) => Err(Unusable("manifest.json was not parsed".into())),
        Some(Some(Err(e))) => Err(Unusable(format!("manifest.json does not parse ({e})"))),
        Some(Some(Ok(doc))) => match doc.value() {
            Some(value) if value.is_object() => Ok(value),
            _ => Err(Unusable("manifest.json is not a JSON object".into())),
        },
    }
}

/// All changes from `old` to `new`, in report order: manifest metadata, then each section (NEW's
/// order, removed sections last), then exceptions, fixtures and schemas.
pub fn compare(old: &Suite, new: &Suite) -> Result<Vec<Change>, (bool, Unusable)> {
    let old_manifest = manifest_of(old).map_err(|u| (true, u))?;
    let new_manifest = manifest_of(new).map_err(|u| (false, u))?;
    let mut out = Vec::new();
    compare_metadata(old_manifest, new_manifest, &mut out);
    let old_index = CaseIndex::new(old_manifest);
    let new_index = CaseIndex::new(new_manifest);
    let mut scopes = Vec::new();
    compare_scopes(
        old_manifest,
        new_manifest,
        &old_index,
        &new_index,
        &mut scopes,
    );
    compare_sections(
        old_manifest,
        new_manifest,
        &old_index,
        &new_index,
        &mut scopes,
        &mut out,
    );
    // Scope entries of names that are not sections on either side.
    out.append(&mut scopes);
    compare_exceptions(old_manifest, new_manifest, &mut out);
    if out.is_empty() {
        manifest_cosmetic(old, new, &mut out);
    }
    compare_fixtures(old, new, &old_index, &new_index, &mut out);
    compare_schemas(old, new, &mut out);
    Ok(out)
}

/// The smallest bump that covers every change.
pub fn needed_bump(changes: &[Change]) -> Bump {
    changes.iter().map(|c| c.bump).max().unwrap_or(Bump::None)
}

// ---------------------------------------------------------------------------------------------
// Rendering helpers.

const SHOWN_CHARS: usize = 160;

/// Compact JSON, shortened for a message.
fn show(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    shorten(&text, SHOWN_CHARS)
}

/// An entry of the `sections` map as a scope name (`"sqs"`), or as JSON when it has no scope.
fn show_scope(entry: &Value) -> String {
    match crate::suite::rules::scope_in(entry) {
        Some(scope) => format!("\"{scope}\""),
        None => show(entry),
    }
}

/// `text` cut to `max` characters (with `…`).
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

/// Description text on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn quote_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The differences between two objects' members, as `field \`k\` changed/added/removed` and
/// `-`/`+` detail lines.
fn member_diff(
    old: &serde_json::Map<String, Value>,
    new: &serde_json::Map<String, Value>,
    what: &str,
) -> (Vec<String>, Vec<String>) {
    let mut summary = Vec::new();
    let mut detail = Vec::new();
    for (key, old_value) in old {
        match new.get(key) {
            None => {
                summary.push(format!("{what} `{key}` removed"));
                detail.push(format!("- {key}: {}", show(old_value)));
            }
            Some(new_value) if new_value != old_value => {
                summary.push(format!("{what} `{key}` changed"));
                detail.push(format!("- {key}: {}", show(old_value)));
                detail.push(format!("+ {key}: {}", show(new_value)));
            }
            Some(_) => {}
        }
    }
    for (key, new_value) in new {
        if !old.contains_key(key) {
            summary.push(format!("{what} `{key}` added"));
            detail.push(format!("+ {key}: {}", show(new_value)));
        }
    }
    (summary, detail)
}

/// The differences between two values (objects member by member, anything else as a whole).
fn value_diff(old: &Value, new: &Value, what: &str) -> (Vec<String>, Vec<String>) {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => member_diff(o, n, what),
        _ if old == new => (Vec::new(), Vec::new()),
        _ => (
            vec!["its value changed".to_string()],
            vec![format!("- {}", show(old)), format!("+ {}", show(new))],
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Metadata.

fn compare_metadata(old: &Value, new: &Value, out: &mut Vec<Change>) {
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
                    "metadata-added",
                    MANIFEST,
                    format!("top-level key `{key}` added ({})", shorten(&show(v), 60)),
                )
                .at(pointer),
            ),
            (Some(_), None) => out.push(Change::new(
                "metadata-removed",
                MANIFEST,
                format!("top-level key `{key}` removed"),
            )),
            (Some(o), Some(n)) if key == "schema_version" && o != n => out.push(
                Change::new(
                    "metadata-changed",
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
                    "metadata-changed",
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
                    "description-changed",
                    MANIFEST,
                    "the manifest's top-level description changed".to_string(),
                )
            } else {
                Change::new(
                    "metadata-changed",
                    MANIFEST,
                    "top-level `description` changed (it is not a string)".to_string(),
                )
            };
            out.push(change.at("/description"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sections and cases.

/// The parameters of a section block: its members that are not cases, not sub-blocks and not its
/// description. `schema` is compared with its annotations stripped.
fn section_params(block: &Value) -> BTreeMap<String, (Value, Value)> {
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
fn sub_block_params(block: &Value) -> BTreeMap<String, (Value, Value)> {
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
fn param_value(key: &str, value: &Value) -> (Value, Value) {
    let compared = if key == "schema" {
        strip_schema(value)
    } else {
        value.clone()
    };
    (value.clone(), compared)
}

/// How two parameter sets differ: (content changes, whether only annotations differ).
fn param_diff(
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
type CaseKey = (String, usize);

fn keyed<'a, 'b>(
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

fn shown_id(key: &CaseKey) -> String {
    if key.1 == 0 {
        key.0.clone()
    } else {
        format!("{} (occurrence {})", key.0, key.1 + 1)
    }
}

/// The sub-key whose `cases` array holds `case`, if any (not for single-case sub-keys).
fn holder(case: &IndexedCase<'_>) -> Option<String> {
    let sub = case.case.sub_key?;
    (!std::ptr::eq(case.case.case, case.case.parent)).then(|| sub.to_string())
}

use crate::suite::rules::scope_of;

fn section_names<'a>(old: &'a CaseIndex<'_>, new: &'a CaseIndex<'_>) -> Vec<&'a str> {
    let mut names: Vec<&str> = new.section_names.iter().map(String::as_str).collect();
    for name in &old.section_names {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

fn compare_sections(
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
                    "section-added",
                    MANIFEST,
                    format!(
                        "section `{section}` added ({scope_text}, {} case{})",
                        cases.len(),
                        crate::diag::plural(cases.len())
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
                        "section-removed",
                        MANIFEST,
                        format!(
                            "section `{section}` removed (it had {} case{})",
                            cases.len(),
                            crate::diag::plural(cases.len())
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

fn case_added(section: &str, key: &CaseKey, case: &IndexedCase<'_>) -> Change {
    let id = shown_id(key);
    let mut change = Change::new(
        "case-added",
        MANIFEST,
        format!("case `{id}` added to section `{section}`"),
    )
    .at(&case.pointer)
    .case(section, &id);
    change.description = description_of(case.case.case).map(one_line);
    change
}

fn case_removed(section: &str, key: &CaseKey, case: &IndexedCase<'_>) -> Change {
    let id = shown_id(key);
    Change::new(
        "case-removed",
        MANIFEST,
        format!(
            "case `{id}` removed from section `{section}` (it was at {} in OLD)",
            case.pointer
        ),
    )
    .case(section, &id)
}

/// The sub-keys of a section block that hold a `cases` array.
fn holders(block: &Value) -> Vec<(&str, &Value)> {
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

fn compare_section(
    section: &str,
    old_block: &Value,
    new_block: &Value,
    old_index: &CaseIndex<'_>,
    new_index: &CaseIndex<'_>,
    out: &mut Vec<Change>,
) {
    let pointer = json::join("", section);
    if description_of(old_block) != description_of(new_block) {
        out.push(
            Change::new(
                "description-changed",
                MANIFEST,
                format!("description of section `{section}` changed"),
            )
            .at(json::join(&pointer, "description"))
            .in_section(section),
        );
    }
    // A block that changed shape (array ↔ object ↔ scalar) is a section change in itself.
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
                "section-changed",
                MANIFEST,
                format!(
                    "section `{section}` changed its form (a {} in OLD, a {} in NEW)",
                    shape(old_block),
                    shape(new_block)
                ),
            )
            .at(&pointer)
            .in_section(section)
            .detail(&[
                format!("- {}", show(old_block)),
                format!("+ {}", show(new_block)),
            ]),
        );
    }

    // Section parameters.
    let (sec_summary, sec_detail, sec_annotations) =
        param_diff(&section_params(old_block), &section_params(new_block));
    let section_inherited: Vec<String> = sec_summary
        .iter()
        .map(|s| format!("{s} in section `{section}`"))
        .collect();
    if !sec_summary.is_empty() {
        out.push(
            Change::new(
                "section-changed",
                MANIFEST,
                format!(
                    "parameters of section `{section}` changed: {} (every case of the section \
                     reads them)",
                    sec_summary.join(", ")
                ),
            )
            .at(&pointer)
            .in_section(section)
            .detail(&sec_detail),
        );
    } else if sec_annotations {
        out.push(
            Change::new(
                "description-changed",
                MANIFEST,
                format!("schema annotations in the parameters of section `{section}` changed"),
            )
            .at(&pointer)
            .in_section(section),
        );
    }

    // Sub-blocks that hold a cases array on both sides.
    let old_holders: BTreeMap<&str, &Value> = holders(old_block).into_iter().collect();
    let mut block_inherited: HashMap<String, Vec<String>> = HashMap::new();
    for (sub, new_sub) in holders(new_block) {
        let Some(old_sub) = old_holders.get(sub) else {
            continue;
        };
        let sub_pointer = json::join(&pointer, sub);
        if description_of(old_sub) != description_of(new_sub) {
            out.push(
                Change::new(
                    "description-changed",
                    MANIFEST,
                    format!("description of `{section}.{sub}` changed"),
                )
                .at(json::join(&sub_pointer, "description"))
                .in_section(section),
            );
        }
        let (summary, detail, annotations) =
            param_diff(&sub_block_params(old_sub), &sub_block_params(new_sub));
        if !summary.is_empty() {
            out.push(
                Change::new(
                    "section-changed",
                    MANIFEST,
                    format!(
                        "parameters of `{section}.{sub}` changed: {} (every case of `{sub}` \
                         reads them)",
                        summary.join(", ")
                    ),
                )
                .at(&sub_pointer)
                .in_section(section)
                .detail(&detail),
            );
            block_inherited.insert(
                sub.to_string(),
                summary
                    .iter()
                    .map(|s| format!("{s} in `{section}.{sub}`"))
                    .collect(),
            );
        } else if annotations {
            out.push(
                Change::new(
                    "description-changed",
                    MANIFEST,
                    format!("schema annotations in the parameters of `{section}.{sub}` changed"),
                )
                .at(&sub_pointer)
                .in_section(section),
            );
        }
    }

    // Cases.
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
            continue;
        };
        let mut inherited = section_inherited.clone();
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

fn compare_case(
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
                    "description-changed",
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
                    "case-extended",
                    MANIFEST,
                    format!(
                        "case `{id}` gained the field{} {}, new to section `{section}` (a runner \
                         of OLD's version ignores unknown case fields)",
                        crate::diag::plural(gained.len()),
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
            "case-changed",
            MANIFEST,
            format!("case `{id}` changed: {}", summary.join("; ")),
        )
        .at(&new_case.pointer)
        .case(section, &id)
        .detail(&detail),
    )
}

// ---------------------------------------------------------------------------------------------
// Scopes and exceptions.

fn compare_scopes(
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
                    "scope-added",
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
                    "scope-changed",
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
                    "scope-removed",
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
fn exception_key(entry: &Value) -> String {
    match (
        entry.get("family").and_then(Value::as_str),
        entry.get("binding").and_then(Value::as_str),
    ) {
        (Some(f), Some(b)) => format!("{f}/{b}"),
        _ => serde_json::to_string(&strip_own_description(entry)).unwrap_or_default(),
    }
}

fn compare_exceptions(old_m: &Value, new_m: &Value, out: &mut Vec<Change>) {
    let list = |m: &Value| -> Vec<Value> {
        m.get("exceptions")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let keyed = |items: &[Value]| -> Vec<((String, usize), usize)> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        items
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let k = exception_key(e);
                let n = seen.entry(k.clone()).or_insert(0);
                let key = (k, *n);
                *n += 1;
                (key, i)
            })
            .collect()
    };
    let (old_list, new_list) = (list(old_m), list(new_m));
    let old_keyed = keyed(&old_list);
    let new_keyed = keyed(&new_list);
    let old_by: HashMap<&(String, usize), usize> = old_keyed.iter().map(|(k, i)| (k, *i)).collect();
    let new_by: HashMap<&(String, usize), usize> = new_keyed.iter().map(|(k, i)| (k, *i)).collect();
    for (key, i) in &new_keyed {
        let pointer = format!("/exceptions/{i}");
        let entry = &new_list[*i];
        match old_by.get(key) {
            None => out.push(
                Change::new(
                    "exception-added",
                    MANIFEST,
                    format!(
                        "exception `{}` added (it lifts a requirement; nothing that passed can \
                         fail)",
                        shorten(&key.0, 80)
                    ),
                )
                .at(pointer)
                .detail(&[format!("+ {}", show(entry))]),
            ),
            Some(j) => {
                let old_entry = &old_list[*j];
                let (o, n) = (
                    strip_own_description(old_entry),
                    strip_own_description(entry),
                );
                if o != n {
                    let (summary, detail) = value_diff(&o, &n, "field");
                    out.push(
                        Change::new(
                            "exception-changed",
                            MANIFEST,
                            format!(
                                "exception `{}` changed: {}",
                                shorten(&key.0, 80),
                                summary.join("; ")
                            ),
                        )
                        .at(pointer)
                        .detail(&detail),
                    );
                } else if description_of(old_entry) != description_of(entry) {
                    out.push(
                        Change::new(
                            "description-changed",
                            MANIFEST,
                            format!("description of exception `{}` changed", shorten(&key.0, 80)),
                        )
                        .at(pointer),
                    );
                }
            }
        }
    }
    for (key, i) in &old_keyed {
        if !new_by.contains_key(key) {
            out.push(
                Change::new(
                    "exception-removed",
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

// ---------------------------------------------------------------------------------------------
// Formatting-only manifest edits.

/// The byte offset of a parser position in `text`.
fn offset_of(text: &str, pos: Pos) -> Option<usize> {
    let (mut line, mut column) = (1u32, 1u32);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if line == pos.line && column == pos.column {
            return Some(i);
        }
        match c {
            '\n' => {
                line += 1;
                column = 1;
            }
            '\r' => {
                if chars.peek().is_some_and(|(_, n)| *n == '\n') {
                    chars.next();
                }
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
    }
    None
}

/// The manifest text with the value of the top-level `conformance_version` cut out (it changes
/// with every release and is not a change of the suite).
fn without_version(text: &str, tree: &Node) -> String {
    let Some(member) = tree.member("conformance_version") else {
        return text.to_string();
    };
    let Some(start) = offset_of(text, member.value.pos) else {
        return text.to_string();
    };
    let bytes = text.as_bytes();
    let end = match &member.value.kind {
        Kind::String(_) if bytes.get(start) == Some(&b'"') => {
            let mut i = start + 1;
            loop {
                match bytes.get(i) {
                    None => return text.to_string(),
                    Some(b'\\') => i += 2,
                    Some(b'"') => break i + 1,
                    Some(_) => i += 1,
                }
            }
        }
        Kind::Number(raw) => start + raw.len(),
        _ => return text.to_string(),
    };
    match (text.get(..start), text.get(end..)) {
        (Some(head), Some(tail)) => format!("{head}{tail}"),
        _ => text.to_string(),
    }
}

fn manifest_cosmetic(old: &Suite, new: &Suite, out: &mut Vec<Change>) {
    fn text_and_tree(s: &Suite) -> Option<(&str, &Node)> {
        let file = s.file(MANIFEST)?;
        Some((file.text()?, file.tree()?))
    }
    let (Some((old_text, old_tree)), Some((new_text, new_tree))) =
        (text_and_tree(old), text_and_tree(new))
    else {
        return;
    };
    if without_version(old_text, old_tree) != without_version(new_text, new_tree) {
        out.push(Change::new(
            "manifest-cosmetic",
            MANIFEST,
            "manifest.json differs only in formatting, key order or the order of cases (no case, \
             section or metadata changed)"
                .to_string(),
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures and schemas.

/// The cases of `manifest` that mention the file `rel` (`section: id`, or a whole section when
/// it is a block parameter).
fn users(manifest: &Value, index: &CaseIndex<'_>, rel: &str) -> Vec<String> {
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
    let mut out: Vec<String> = Vec::new();
    for pointer in hits {
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

fn used_by(manifest: &Value, index: &CaseIndex<'_>, rel: &str) -> Vec<String> {
    let users = users(manifest, index, rel);
    if users.is_empty() {
        Vec::new()
    } else {
        vec![format!("used by: {}", users.join(", "))]
    }
}

/// The pointer of the first place two trees differ (member order and keys count).
fn first_tree_difference(a: &Node, b: &Node, pointer: &str) -> String {
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
fn first_value_difference(a: &Value, b: &Value, pointer: &str) -> String {
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

fn shown_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// Which side a parse failure is on.
fn unparsed(old_ok: bool, new_ok: bool) -> &'static str {
    match (old_ok, new_ok) {
        (false, false) => "neither side parses as JSON",
        (false, true) => "OLD's copy does not parse as JSON",
        _ => "NEW's copy does not parse as JSON",
    }
}

fn paths_under<'a>(old: &'a Suite, new: &'a Suite, dir: &'a str) -> BTreeSet<&'a str> {
    old.files_under(dir).chain(new.files_under(dir)).collect()
}

fn compare_fixtures(
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
                Change::new("fixture-added", rel, format!("fixture `{rel}` added"))
                    .detail(&used_by(new_m, new_index, rel)),
            ),
            (Some(_), None) => out.push(
                Change::new("fixture-removed", rel, format!("fixture `{rel}` removed"))
                    .detail(&used_by(old_m, old_index, rel)),
            ),
            (Some(o), Some(n)) if o.bytes != n.bytes => {
                let change = match (o.tree(), n.tree()) {
                    (Some(a), Some(b)) if same_tree(a, b) => Change::new(
                        "fixture-cosmetic",
                        rel,
                        format!(
                            "fixture `{rel}` changed only in whitespace or string-escape \
                             spelling (same parsed JSON)"
                        ),
                    ),
                    (Some(a), Some(b)) => {
                        let at = first_tree_difference(a, b, "");
                        Change::new(
                            "fixture-changed",
                            rel,
                            format!(
                                "fixture `{rel}` changed (first difference at {})",
                                shown_pointer(&at)
                            ),
                        )
                        .at(at)
                    }
                    (a, b) if rel.ends_with(".json") => Change::new(
                        "fixture-changed",
                        rel,
                        format!(
                            "fixture `{rel}` changed ({})",
                            unparsed(a.is_some(), b.is_some())
                        ),
                    ),
                    _ => Change::new(
                        "fixture-changed",
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
fn without_stamp(example: &Value, suite_version: Option<&str>) -> Value {
    let mut out = example.clone();
    if let (Some(map), Some(version)) = (out.as_object_mut(), suite_version)
        && map.get("conformance_version").and_then(Value::as_str) == Some(version.trim())
    {
        map.remove("conformance_version");
    }
    out
}

fn compare_schemas(old: &Suite, new: &Suite, out: &mut Vec<Change>) {
    for rel in paths_under(old, new, "schema") {
        match (old.file(rel), new.file(rel)) {
            (None, Some(_)) => out.push(Change::new(
                "schema-added",
                rel,
                format!("schema file `{rel}` added"),
            )),
            (Some(_), None) => out.push(Change::new(
                "schema-removed",
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
                                "schema-changed",
                                rel,
                                format!(
                                    "schema file `{rel}` changed (first difference at {})",
                                    shown_pointer(&at)
                                ),
                            )
                            .at(at)
                        } else if a != b {
                            Change::new(
                                "description-changed",
                                rel,
                                format!(
                                    "descriptions (description/title/$comment annotations) in \
                                     `{rel}` changed"
                                ),
                            )
                        } else {
                            Change::new(
                                "schema-cosmetic",
                                rel,
                                format!(
                                    "schema file `{rel}` changed only in formatting or key order \
                                     (same parsed JSON)"
                                ),
                            )
                        }
                    }
                    (a, b) => Change::new(
                        "schema-changed",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_bump() {
        assert_eq!(bump_of("case-added"), Bump::Minor);
        assert_eq!(bump_of("fixture-cosmetic"), Bump::Patch);
        assert_eq!(bump_of("schema-changed"), Bump::Major);
        let codes: BTreeSet<&str> = CODES.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes.len(), CODES.len());
    }

    #[test]
    fn version_value_is_cut_out() {
        let text =
            "{\n  \"schema_version\": 1,\n  \"conformance_version\": \"1.5.0\",\n  \"x\": 2\n}";
        let tree = json::parse(text).unwrap();
        assert_eq!(
            without_version(text, &tree),
            "{\n  \"schema_version\": 1,\n  \"conformance_version\": ,\n  \"x\": 2\n}"
        );
        let text2 = "{\"conformance_version\":\"1.\\\"6.0\"}";
        let tree2 = json::parse(text2).unwrap();
        assert_eq!(without_version(text2, &tree2), "{\"conformance_version\":}");
    }

    #[test]
    fn offsets_follow_line_breaks() {
        let text = "a\r\nbé\rc";
        assert_eq!(offset_of(text, Pos { line: 2, column: 2 }), Some(4));
        assert_eq!(offset_of(text, Pos { line: 3, column: 1 }), Some(7));
        assert_eq!(offset_of(text, Pos { line: 9, column: 1 }), None);
    }
}
