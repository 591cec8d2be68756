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
//! - A case added without a member that every case of its block had in OLD is
//!   `case-lacks-member` (major): a runner of OLD's version reads that member and fails (the
//!   `shape` module).
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
//! - A described suite's **decisions** rows (matched by case id) are wording (`decision-changed`,
//!   patch); its **description** (`suite.json`): a new `title` is wording, any other field
//!   changed needs major (the `described` module).

mod change;
mod codes;
pub mod normalize;
mod show;
pub mod version;

use crate::Suite;
use bqsuite_core::index::CaseIndex;
use version::Bump;

pub use change::{Change, Unusable, manifest_of};
pub use codes::{Code, Effect};
pub use show::shorten;

pub(crate) use files::mentions;

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
    compare_decisions(old_manifest, new_manifest, &mut out);
    if out.is_empty() {
        manifest_cosmetic(old, new, &mut out);
    }
    compare_fixtures(old, new, &old_index, &new_index, &mut out);
    compare_schemas(old, new, &mut out);
    compare_description(old, new, &mut out);
    Ok(out)
}

/// The smallest bump that covers every change.
pub fn needed_bump(changes: &[Change]) -> Bump {
    changes.iter().map(|c| c.bump).max().unwrap_or(Bump::None)
}

mod cosmetic;
mod described;
mod files;
mod metadata;
mod sections;
mod shape;

use cosmetic::*;
use described::*;
use files::*;
use metadata::*;
use sections::*;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use bqsuite_core::json::{self, Pos};

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
