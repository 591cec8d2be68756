//! The merged suite ([`Merged`]) and, for a finding about it, the file its author wrote: the
//! suite's own manifest or fixture, or the proposal's, each as the user passed its directory,
//! with the line:column and the JSON pointer within that file.
//!
//! The merged manifest exists only in memory, and its indexes are not the proposal's: the third
//! case a proposal appends to a section of 13 cases is `/section/cases/15` there, but
//! `/section/cases/2` in `proposal/manifest.json`. [`Provenance`] says which is which.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::findings;
use bqsuite_core::diag::{Diagnostic, joined};
use bqsuite_core::index::CaseIndex;
use bqsuite_core::json;
use bqsuite_suite::load::{MANIFEST, Suite};
use bqsuite_suite::overlay::{Conflict, Origin, Provenance};

/// A manifest as the user has it on disk: its name as passed, and its text, parsed into a
/// positioned tree the first time a finding needs a line:column.
pub struct Manifest {
    /// The path as the user named it (`proposal/manifest.json`).
    pub shown: String,
    text: Vec<u8>,
    tree: OnceLock<Option<json::Node>>,
}

impl Manifest {
    fn new(dir: &Path, text: Option<&[u8]>) -> Self {
        Manifest {
            shown: joined(dir, MANIFEST),
            text: text.map(<[u8]>::to_vec).unwrap_or_default(),
            tree: OnceLock::new(),
        }
    }

    /// The line:column of `pointer` in this file (of its nearest ancestor when it names a member
    /// that is missing), when the file parses.
    pub fn position(&self, pointer: &str) -> Option<(u32, u32)> {
        let tree = self.tree.get_or_init(|| {
            let text = std::str::from_utf8(&self.text).ok()?;
            json::parse(text).ok()
        });
        let pos = json::nearest_position(tree.as_ref()?, pointer)?;
        Some((pos.line, pos.column))
    }

    /// `proposal/manifest.json:12:9 at /section/cases/2`, or the parts that are known.
    fn place(&self, pointer: &str) -> String {
        let mut place = self.shown.clone();
        if let Some((line, column)) = self.position(pointer) {
            place.push_str(&format!(":{line}:{column}"));
        }
        format!("{place} at {pointer}")
    }
}

/// A suite with a proposal merged in, and where each of its parts was written.
pub struct Merged {
    pub suite: Suite,
    pub sources: Sources,
}

/// The two directories a merged suite was made from, and where each part of it was written.
pub struct Sources {
    suite: PathBuf,
    proposal: PathBuf,
    pub suite_manifest: Manifest,
    pub proposal_manifest: Manifest,
    /// The files the proposal holds (`fixtures/...`), relative to its directory.
    proposal_files: BTreeSet<String>,
    provenance: Provenance,
}

impl Sources {
    /// The sources of the suite at `suite` and the proposal at `proposal`, whose files (relative
    /// path → bytes) are `base` and `extra`.
    pub fn new(
        suite: &Path,
        proposal: &Path,
        base: &BTreeMap<String, Vec<u8>>,
        extra: &BTreeMap<String, Vec<u8>>,
    ) -> Self {
        Sources {
            suite: suite.to_path_buf(),
            proposal: proposal.to_path_buf(),
            suite_manifest: Manifest::new(suite, base.get(MANIFEST).map(Vec::as_slice)),
            proposal_manifest: Manifest::new(proposal, extra.get(MANIFEST).map(Vec::as_slice)),
            proposal_files: extra.keys().cloned().collect(),
            provenance: Provenance::default(),
        }
    }

    /// The files the proposal holds (its `manifest.json` and `fixtures/...`), relative to its
    /// directory.
    pub fn proposal_files(&self) -> impl Iterator<Item = &str> {
        self.proposal_files.iter().map(String::as_str)
    }

    /// Records where the merge put the proposal's additions.
    pub fn merged(&mut self, provenance: Provenance) {
        self.provenance = provenance;
    }

    /// The first thing the proposal added whole strictly inside the merged manifest's `pointer`
    /// (a member added to a block the suite has).
    pub fn added_inside(&self, pointer: &str) -> Option<&str> {
        self.provenance.added_inside(pointer)
    }

    /// Where the merged manifest's `pointer` was written.
    pub fn origin(&self, pointer: &str) -> Origin {
        self.provenance.origin(pointer)
    }

    /// The finding of a conflict the merge found in the proposal's file `at` (a pointer into its
    /// manifest, or the path of one of its files).
    pub fn conflict(&self, c: Conflict) -> Diagnostic {
        let mut d = findings::merge_conflict(c.message);
        if c.at.is_empty() || c.at.starts_with('/') {
            d.file = self.proposal_manifest.shown.clone();
            d.line_col = self.proposal_manifest.position(&c.at);
            d.pointer = Some(c.at);
        } else {
            d.file = joined(&self.proposal, &c.at);
        }
        d
    }

    /// A finding about the merged suite, moved to the file its author wrote: the merged
    /// manifest's findings to the suite's or the proposal's manifest (with the pointer and
    /// line:column there), a fixture's to the directory that holds it.
    pub fn place(&self, d: &mut Diagnostic) {
        if d.file.is_empty() {
            return;
        }
        if d.file != MANIFEST {
            let dir = if self.proposal_files.contains(&d.file) {
                &self.proposal
            } else {
                &self.suite
            };
            d.file = joined(dir, &d.file);
            return;
        }
        let (manifest, pointer) = match d.pointer.as_deref().map(|p| self.origin(p)) {
            Some(Origin::Overlay(p)) => (&self.proposal_manifest, Some(p)),
            Some(Origin::Suite(p)) => (&self.suite_manifest, Some(p)),
            None => (&self.suite_manifest, None),
        };
        d.file = manifest.shown.clone();
        d.line_col = pointer.as_deref().and_then(|p| manifest.position(p));
        d.pointer = pointer;
    }

    /// A `proposal-conflict` for every case the proposal adds under an id a case of the suite
    /// already has in that section: results files could not tell the two apart, and a proposal
    /// only adds.
    pub fn repeated_ids(&self, merged: &Suite) -> Vec<Diagnostic> {
        let Some(manifest) = merged.manifest() else {
            return Vec::new();
        };
        let index = CaseIndex::new(manifest);
        let mut released: BTreeMap<(&str, &str), String> = BTreeMap::new();
        let mut added = Vec::new();
        for case in &index.cases {
            match self.origin(&case.pointer) {
                Origin::Suite(p) => {
                    released.entry((&case.section, &case.id)).or_insert(p);
                }
                Origin::Overlay(p) => added.push((case, p)),
            }
        }
        added
            .into_iter()
            .filter_map(|(case, pointer)| {
                let theirs = released.get(&(case.section.as_str(), case.id.as_str()))?;
                let d = findings::case_id_taken(
                    self.proposal_manifest.shown.clone(),
                    &case.section,
                    &case.id,
                    &self.suite_manifest.place(theirs),
                )
                .case(case.section.clone(), case.id.clone());
                Some(Diagnostic {
                    line_col: self.proposal_manifest.position(&pointer),
                    pointer: Some(pointer),
                    ..d
                })
            })
            .collect()
    }
}
