//! The comparison itself: every difference between two suites' vendored sets, each classified
//! with a stable code and the SemVer bump it needs.
//!
//! What is compared, and how (see also [`normalize`]):
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
//! - **Fixtures** are compared as parsed JSON trees (see [`normalize`]); **schemas** as
//!   parsed JSON with annotations stripped. A byte difference that is not a content difference is
//!   `fixture-cosmetic` / `schema-cosmetic` / `manifest-cosmetic` (patch).

pub mod normalize;
pub mod version;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use crate::Suite;
use crate::load::{MANIFEST, RESULTS_EXAMPLE};
use bqsuite_core::ids::NON_CASE_KEYS;
use bqsuite_core::index::{CaseIndex, IndexedCase};
use bqsuite_core::json::{self, Kind, Node, Pos};
use normalize::{description_of, same_tree, strip_own_description, strip_schema};
use version::Bump;

bqsuite_core::finding_codes! {
    /// The kinds of change between two suites, each a stable code with the bump it needs.
    pub enum Code {
        CaseAdded = "case-added",
        CaseExtended = "case-extended",
        CaseRemoved = "case-removed",
        CaseChanged = "case-changed",
        SectionAdded = "section-added",
        SectionRemoved = "section-removed",
        SectionChanged = "section-changed",
        ScopeAdded = "scope-added",
        ScopeChanged = "scope-changed",
        ScopeRemoved = "scope-removed",
        ExceptionAdded = "exception-added",
        ExceptionChanged = "exception-changed",
        ExceptionRemoved = "exception-removed",
        MetadataAdded = "metadata-added",
        MetadataChanged = "metadata-changed",
        MetadataRemoved = "metadata-removed",
        FixtureAdded = "fixture-added",
        FixtureRemoved = "fixture-removed",
        FixtureChanged = "fixture-changed",
        FixtureCosmetic = "fixture-cosmetic",
        SchemaAdded = "schema-added",
        SchemaRemoved = "schema-removed",
        SchemaChanged = "schema-changed",
        SchemaCosmetic = "schema-cosmetic",
        DescriptionChanged = "description-changed",
        ManifestCosmetic = "manifest-cosmetic",
    }
}

/// What a change does, as diff's counts and release notes group changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Something new: a case, section, scope, exception, metadata field, fixture or schema, or
    /// an extended case.
    Added,
    Removed,
    Changed,
    /// A description's wording only.
    Description,
    /// Formatting only: the parsed values are equal.
    Cosmetic,
}

impl Code {
    /// What a change of this kind does.
    pub fn effect(self) -> Effect {
        match self {
            Code::CaseAdded
            | Code::CaseExtended
            | Code::SectionAdded
            | Code::ScopeAdded
            | Code::ExceptionAdded
            | Code::MetadataAdded
            | Code::FixtureAdded
            | Code::SchemaAdded => Effect::Added,
            Code::CaseRemoved
            | Code::SectionRemoved
            | Code::ScopeRemoved
            | Code::ExceptionRemoved
            | Code::MetadataRemoved
            | Code::FixtureRemoved
            | Code::SchemaRemoved => Effect::Removed,
            Code::CaseChanged
            | Code::SectionChanged
            | Code::ScopeChanged
            | Code::ExceptionChanged
            | Code::MetadataChanged
            | Code::FixtureChanged
            | Code::SchemaChanged => Effect::Changed,
            Code::DescriptionChanged => Effect::Description,
            Code::FixtureCosmetic | Code::SchemaCosmetic | Code::ManifestCosmetic => {
                Effect::Cosmetic
            }
        }
    }

    /// The bump a change of this kind needs.
    pub fn bump(self) -> Bump {
        match self {
            Code::CaseRemoved
            | Code::CaseChanged
            | Code::SectionRemoved
            | Code::SectionChanged
            | Code::ScopeChanged
            | Code::ScopeRemoved
            | Code::ExceptionChanged
            | Code::ExceptionRemoved
            | Code::MetadataChanged
            | Code::MetadataRemoved
            | Code::FixtureRemoved
            | Code::FixtureChanged
            | Code::SchemaRemoved
            | Code::SchemaChanged => Bump::Major,
            Code::CaseAdded
            | Code::CaseExtended
            | Code::SectionAdded
            | Code::ScopeAdded
            | Code::ExceptionAdded
            | Code::MetadataAdded
            | Code::FixtureAdded
            | Code::SchemaAdded => Bump::Minor,
            Code::FixtureCosmetic
            | Code::SchemaCosmetic
            | Code::DescriptionChanged
            | Code::ManifestCosmetic => Bump::Patch,
        }
    }
}

/// One difference between OLD and NEW.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// What kind of change it is: a stable code.
    pub code: Code,
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
    fn new(code: Code, file: &str, message: String) -> Self {
        Change {
            code,
            bump: code.bump(),
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
    match crate::rules::scope_in(entry) {
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

mod cosmetic;
mod files;
mod metadata;
mod sections;

use cosmetic::*;
use files::*;
use metadata::*;
use sections::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_bump() {
        assert_eq!(Code::CaseAdded.bump(), Bump::Minor);
        assert_eq!(Code::FixtureCosmetic.bump(), Bump::Patch);
        assert_eq!(Code::SchemaChanged.bump(), Bump::Major);
        let codes: BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(codes.len(), Code::ALL.len());
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
