//! What a comparison yields: each difference ([`Change`]) with its stable [`Code`] and the
//! SemVer bump that code needs, or why a side cannot be compared at all
//! ([`Unusable`], from [`manifest_of`]).

use serde_json::Value;

use super::codes::Code;
use super::version::Bump;
use crate::Suite;
use crate::load::MANIFEST;

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
    pub(super) fn new(code: Code, file: &str, message: String) -> Self {
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

    pub(super) fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    pub(super) fn in_section(mut self, section: &str) -> Self {
        self.section = Some(section.to_string());
        self
    }

    pub(super) fn case(mut self, section: &str, id: &str) -> Self {
        self.section = Some(section.to_string());
        self.case = Some(id.to_string());
        self
    }

    pub(super) fn detail(mut self, lines: &[String]) -> Self {
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
