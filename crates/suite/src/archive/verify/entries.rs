//! The rules on an entry as a whole: its place in a release's layout ([`check_layout`]), and no
//! two entries at one path or at paths that differ only in case ([`Paths`]).

use std::collections::HashMap;

use super::fault::Fault;
use super::findings;
use crate::layout::{self, Place};

/// Refuses an entry that has no place in a release (see [`crate::layout`]): anything but
/// CONFORMANCE_VERSION, manifest.json, LICENSE, and portable `*.json` names directly in fixtures/
/// and schema/.
pub(super) fn check_layout(rel: &str, shown: &str, is_dir: bool) -> Result<(), Fault> {
    match (layout::release_path(rel), is_dir) {
        (Err(refusal), _) => Err(findings::no_place_in_release(shown, &refusal.reason).into()),
        (Ok(Place::DataDir), true) => Ok(()),
        (Ok(Place::DataDir), false) => Err(findings::file_where_directory(shown).into()),
        (Ok(_), true) => Err(findings::directory_where_file(shown).into()),
        (Ok(_), false) => Ok(()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    File,
    Dir,
    /// A directory only implied by the entries below it.
    Implied,
}

/// Every path seen, exactly and case-folded, to refuse duplicates and case collisions.
#[derive(Default)]
pub(super) struct Paths {
    exact: HashMap<String, Kind>,
    folded: layout::CaseFold,
}

impl Paths {
    fn fold_check(&mut self, path: &str) -> Result<(), Fault> {
        match self.folded.clash(path) {
            Some(other) => Err(findings::case_collision(path, &other).into()),
            None => Ok(()),
        }
    }

    pub(super) fn add(&mut self, path: &str, kind: Kind) -> Result<(), Fault> {
        for (i, _) in path.match_indices('/') {
            let ancestor = &path[..i];
            match self.exact.get(ancestor) {
                Some(Kind::File) => {
                    return Err(findings::inside_a_file(path, ancestor).into());
                }
                Some(_) => {}
                None => {
                    self.fold_check(ancestor)?;
                    self.exact.insert(ancestor.to_string(), Kind::Implied);
                }
            }
        }
        match (self.exact.get(path).copied(), kind) {
            (None, _) => {
                self.fold_check(path)?;
                self.exact.insert(path.to_string(), kind);
                Ok(())
            }
            (Some(Kind::Implied), Kind::Dir) => {
                self.exact.insert(path.to_string(), Kind::Dir);
                Ok(())
            }
            (Some(Kind::Implied), _) => Err(findings::file_over_entries(path).into()),
            (Some(_), _) => Err(findings::duplicate(path).into()),
        }
    }
}
