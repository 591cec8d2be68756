//! Which suite a fetch is about. A vendored copy says it itself: its `suite.json`, or, when it
//! has none, it is BabelQueue's. Where nothing is on disk yet (a first fetch, or `--update` into a
//! new directory), `--suite NAME` names it, BabelQueue's by default. The description used is the
//! one this bqsuite was built with ([`suites::known`]): a copy names its suite, it does not choose
//! where the release is downloaded from.

use std::fs;
use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell;
use bqsuite_suite::kind::{CopyOf, DESCRIPTION, Kind, copy_of};

use crate::commands::suites;

/// What says which suite a vendored copy is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The copy's `suite.json`.
    Description,
    /// The copy has a manifest but no `suite.json`: BabelQueue's.
    NoDescription,
}

/// The suite a fetch of `dest` is about. `reads_copy` is true for `--check`
/// and `--update`, whose DEST may be a vendored copy; `named` is `--suite`. `Err` (exit 2): the
/// copy's description cannot be read or names a suite this bqsuite does not serve, `--suite`
/// names such a suite, or `--suite` names another suite than the copy's.
pub fn expected(dest: &Path, reads_copy: bool, named: Option<&str>) -> Result<Kind> {
    let copy = if reads_copy { copy_suite(dest)? } else { None };
    match (copy, named) {
        (Some((found, source)), Some(name)) if found.name != name => {
            Err(other_suite(dest, &found, source, name))
        }
        (Some((found, _)), _) => match suites::known_kind(&found.name) {
            Some(kind) => Ok(kind),
            None => Err(Error::bad_path(
                dest.join(DESCRIPTION),
                format!(
                    "names the suite `{}`, which this bqsuite does not serve (it serves {}); \
                     fetch cannot tell where its releases are",
                    shell::escape(&found.name),
                    suites::known_names().join(", ")
                ),
            )),
        },
        (None, name) => {
            let name = name.unwrap_or(suites::DEFAULT_SUITE);
            let kind = suites::known_kind(name).ok_or_else(|| {
                Error::Usage(format!(
                    "--suite must name a suite this bqsuite serves ({}), not `{}`",
                    suites::known_names().join(", "),
                    shell::escape(name)
                ))
            })?;
            Ok(kind)
        }
    }
}

/// Where `kind`'s releases are, in words: `the tags vX.Y.Z of OWNER/REPO` (the suite's own tag
/// pattern) for GitHub releases, else the release URL.
pub fn where_released(kind: &Kind) -> String {
    let repo = kind
        .release_url
        .strip_prefix("https://github.com/")
        .and_then(|rest| rest.rsplit_once("/releases/download/"))
        .filter(|(repo, tag)| repo.split('/').count() == 2 && !tag.contains('/'))
        .map(|(repo, _)| repo);
    match repo {
        Some(repo) => format!(
            "the tags {} of {}",
            shell::escape(&kind.tag("X.Y.Z")),
            shell::escape(repo)
        ),
        None => format!("published at {}", shell::escape(&kind.release_url)),
    }
}

/// The suite of the vendored copy at `dir`, when `dir` is one.
fn copy_suite(dir: &Path) -> Result<Option<(Kind, Source)>> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(None);
    }
    match copy_of(dir)? {
        CopyOf::Unknown => Ok(None),
        CopyOf::Undescribed => Ok(Some((Kind::babelqueue(), Source::NoDescription))),
        CopyOf::Described(kind) => Ok(Some((kind, Source::Description))),
        CopyOf::Unreadable(why) => Err(Error::bad_path(
            dir.join(DESCRIPTION),
            format!(
                "{why}, so it does not say which suite the copy is; vendor the copy again from \
                 its release"
            ),
        )),
    }
}

/// `--suite NAME` names another suite than the copy at `dest`, which is `found`'s.
fn other_suite(dest: &Path, found: &Kind, source: Source, name: &str) -> Error {
    let says = match source {
        Source::NoDescription => format!("it has no {DESCRIPTION}"),
        _ => format!("its {DESCRIPTION} says so"),
    };
    let title = shell::escape(&found.title);
    Error::bad_path(
        dest,
        format!(
            "is a copy of the {title} suite (`{}`: {says}), but --suite expects `{}`; drop \
             --suite to fetch {title}'s release for this copy, or give the directory of a copy of \
             `{}`",
            found.name,
            shell::escape(name),
            shell::escape(name)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_the_releases_are() {
        assert_eq!(
            where_released(&Kind::babelqueue()),
            "the tags vX.Y.Z of BabelQueue/conformance"
        );
        let mut elsewhere = Kind::babelqueue();
        elsewhere.release_url = "https://mirror.example/v{version}".into();
        assert_eq!(
            where_released(&elsewhere),
            "published at https://mirror.example/v{version}"
        );
        let mut sbp = Kind::babelqueue();
        sbp.release_url =
            "https://github.com/BabelQueue/conformance/releases/download/sbp-v{version}".into();
        assert_eq!(
            where_released(&sbp),
            "the tags sbp-vX.Y.Z of BabelQueue/conformance"
        );
        assert_eq!(sbp.tag("0.1.0"), "sbp-v0.1.0");
        assert_eq!(Kind::babelqueue().tag("1.8.0"), "v1.8.0");
    }
}
