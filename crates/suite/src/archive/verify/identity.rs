//! Whose release an archive is: the root directory it lies under and the description it carries
//! (`suite.json`, or none for BabelQueue's) must both be the expected suite's, so one suite's
//! asset is never taken for another's.

use bqsuite_core::diag::Diagnostic;

use super::codes::Code;
use super::fault::{Fault, show_path};
use crate::archive::split_root;
use crate::kind::{DESCRIPTION, Kind};

/// The suite an archive must be a release of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// This suite's: the root is `<its asset>-<version>/`, and the archive describes this suite
    /// (a BabelQueue release carries no description; any other suite's carries its own).
    Suite(Kind),
    /// Whichever suite the archive describes, provided its root is `<this asset>-<version>/` and
    /// the description gives this asset: how `diff` reads a tarball it is handed.
    Asset(String),
}

impl Expected {
    /// BabelQueue's releases: what every caller that serves no other suite yet expects.
    pub fn babelqueue() -> Expected {
        Expected::Suite(Kind::babelqueue())
    }

    /// The asset stem the root directory must carry.
    pub fn asset(&self) -> &str {
        match self {
            Expected::Suite(kind) => &kind.asset,
            Expected::Asset(asset) => asset,
        }
    }

    /// The refusal of a first entry whose top-level directory is another suite's release root
    /// (`<other asset>-<version>`), when a given suite's release is expected.
    pub(super) fn foreign_root(&self, path: &[u8], version: &str) -> Option<Fault> {
        let Expected::Suite(kind) = self else {
            return None;
        };
        let first = path.split(|&b| b == b'/').next()?;
        let (stem, _) = split_root(std::str::from_utf8(first).ok()?)?;
        (stem != kind.asset).then(|| root_of_another_suite(&show_path(first), kind, version).into())
    }

    /// Checks the description the archive carried (`None`: it carried none) against the
    /// expected suite.
    pub(super) fn check_description(
        &self,
        root: &str,
        carried: Option<&[u8]>,
    ) -> Result<(), Fault> {
        let shown = format!("{root}/{DESCRIPTION}");
        let found = match carried {
            None => Kind::babelqueue(),
            Some(bytes) => Kind::parse(bytes)
                .map_err(|e| Fault::from(description_unreadable(&shown, &e.to_string())))?,
        };
        match self {
            Expected::Suite(kind) if found.name != kind.name || found.asset != kind.asset => {
                Err(describes_another_suite(&shown, kind, &found, carried.is_some()).into())
            }
            Expected::Asset(asset) if found.asset != *asset => {
                Err(description_names_another_asset(&shown, &found, root, carried.is_some()).into())
            }
            _ => Ok(()),
        }
    }
}

// Findings

fn refuse(shown: &str, message: String) -> Diagnostic {
    Diagnostic::error(Code::ArchiveWrongSuite, shown, message)
}

/// The first entry lies under `first` (shown), another suite's release root.
fn root_of_another_suite(first: &str, expected: &Kind, version: &str) -> Diagnostic {
    refuse(
        first,
        format!(
            "the archive's root `{first}/` is another suite's release, not {}'s: a release of \
             {} {version} has the root `{}/`",
            expected.title,
            expected.title,
            expected.root_dir(version)
        ),
    )
    .help(format!(
        "this is not an asset of {}; use its release `{}`, nothing was written",
        expected.title,
        expected.asset_name(version)
    ))
}

/// The archive describes `found` (or, `carried` false, carries no description and so is
/// BabelQueue's) where `expected`'s release was wanted.
fn describes_another_suite(
    shown: &str,
    expected: &Kind,
    found: &Kind,
    carried: bool,
) -> Diagnostic {
    let what = if carried {
        format!(
            "the archive's `{shown}` describes {} (`{}`), not {} (`{}`)",
            found.title, found.name, expected.title, expected.name
        )
    } else {
        format!(
            "the archive carries no `{shown}`, so it is a release of {}, not of {} (`{}`), \
             whose releases carry their description",
            found.title, expected.title, expected.name
        )
    };
    refuse(shown, what).help(format!(
        "this is not an asset of {}; nothing was written",
        expected.title
    ))
}

/// The archive's description (`carried` false: none, so BabelQueue's) gives an asset other than
/// the one its root is named after.
fn description_names_another_asset(
    shown: &str,
    found: &Kind,
    root: &str,
    carried: bool,
) -> Diagnostic {
    let says = if carried {
        format!("the archive's `{shown}` describes")
    } else {
        format!("the archive carries no `{shown}`, so it is a release of")
    };
    refuse(
        shown,
        format!(
            "{says} {}, whose asset is `{}`, but the archive's root is `{root}/`",
            found.title, found.asset
        ),
    )
    .help("the description disagrees with the files it came with: this is not a release bqsuite wrote")
}

/// The archive's description is not one this bqsuite reads (`why`: what is wrong).
fn description_unreadable(shown: &str, why: &str) -> Diagnostic {
    refuse(
        shown,
        format!("the archive's `{shown}` {why}, so it cannot tell which suite it is"),
    )
    .help("this is not a release bqsuite wrote; nothing was written")
}
