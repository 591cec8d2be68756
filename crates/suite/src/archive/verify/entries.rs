//! The rules on an entry as a whole: its place in a release's layout ([`check_layout`]), and no
//! two entries at one path or at paths that differ only in case ([`Paths`]).

use std::collections::HashMap;

use super::codes::Code;
use super::fault::Fault;
use crate::layout::{self, Place};

/// Refuses an entry that has no place in a release (see [`crate::layout`]): anything but
/// CONFORMANCE_VERSION, manifest.json, LICENSE, and portable `*.json` names directly in fixtures/
/// and schema/.
pub(super) fn check_layout(rel: &str, shown: &str, is_dir: bool) -> Result<(), Fault> {
    let refuse = |why: String| {
        Err(Fault::refuse_help(
            Code::ArchiveLayout,
            shown,
            format!("entry `{shown}` {why}"),
            "a release holds only CONFORMANCE_VERSION, manifest.json, LICENSE, fixtures/*.json \
             and schema/*.json, with portable names; this archive is not a release of the suite",
        ))
    };
    match (layout::release_path(rel), is_dir) {
        (Err(refusal), _) => refuse(refusal.reason),
        (Ok(Place::DataDir), true) => Ok(()),
        (Ok(Place::DataDir), false) => refuse("is a file where a release has a directory".into()),
        (Ok(_), true) => refuse("is a directory where a release has a file".into()),
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
            Some(other) => Err(Fault::refuse_help(
                Code::ArchiveCaseCollision,
                path,
                format!("entry `{path}` and entry `{other}` differ only in case"),
                "they would overwrite each other on a case-insensitive file system",
            )),
            None => Ok(()),
        }
    }

    pub(super) fn add(&mut self, path: &str, kind: Kind) -> Result<(), Fault> {
        for (i, _) in path.match_indices('/') {
            let ancestor = &path[..i];
            match self.exact.get(ancestor) {
                Some(Kind::File) => {
                    return Err(Fault::refuse(
                        Code::ArchiveDuplicate,
                        path,
                        format!(
                            "entry `{path}` lies inside `{ancestor}`, which is a regular file \
                             entry"
                        ),
                    ));
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
            (Some(Kind::Implied), _) => Err(Fault::refuse(
                Code::ArchiveDuplicate,
                path,
                format!("entry `{path}` is a regular file, but earlier entries lie inside it"),
            )),
            (Some(_), _) => Err(Fault::refuse_help(
                Code::ArchiveDuplicate,
                path,
                format!("entry `{path}` appears more than once"),
                "a later copy would silently replace the earlier one",
            )),
        }
    }
}
