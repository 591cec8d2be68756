//! `diff`'s findings, one constructor each: each owns its code, severity and words.

use super::codes::Code;
use bqsuite_core::diag::{Diagnostic, Severity};
use bqsuite_suite::classify::Change;
use bqsuite_suite::classify::version::Bump;
use bqsuite_suite::load::{MANIFEST, VERSION_FILE};

/// One change between the two suites, as a note (its words are the change's).
pub(crate) fn change_note(c: &Change) -> Diagnostic {
    let mut d = Diagnostic::note(c.code, c.file.clone(), c.message.clone());
    if let Some(p) = &c.pointer {
        d = d.at(p.clone());
    }
    if let (Some(section), Some(id)) = (&c.section, &c.case) {
        d = d.case(section.clone(), id.clone());
    }
    if let Some(detail) = &c.detail {
        d = d.detail(detail.clone());
    }
    d
}

/// The suite `side` (at `shown`) has no usable CONFORMANCE_VERSION (`why` says what it has).
pub(crate) fn version_missing(side: &str, shown: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::VersionMissing,
        VERSION_FILE,
        format!("{side} ({shown}) has {why}, so the version bump cannot be checked"),
    )
    .help("put the suite's SemVer (e.g. 1.5.0) in CONFORMANCE_VERSION")
}

/// The CONFORMANCE_VERSION of `side` (`shortened`) is not SemVer (`error` says why).
pub(crate) fn version_invalid(side: &str, shortened: &str, error: &str) -> Diagnostic {
    Diagnostic::error(
        Code::VersionInvalid,
        VERSION_FILE,
        format!(
            "{side}'s CONFORMANCE_VERSION `{shortened}` is not SemVer ({error}), so the version bump \
             cannot be checked",
        ),
    )
    .help("write MAJOR.MINOR.PATCH, e.g. 1.5.0 (a pre-release: 1.6.0-pre)")
}

/// The change from `old` to `new` needs a `needed` bump, but `described`; `suggestion` is the
/// least version that would do.
pub(crate) fn version_bump_insufficient(
    old: &semver::Version,
    new: &semver::Version,
    needed: Bump,
    described: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let mut d = Diagnostic::error(
        Code::VersionBumpInsufficient,
        VERSION_FILE,
        format!(
            "the change from OLD {old} to NEW {new} needs a {needed} bump ({}), but {described}",
            needed.reason()
        ),
    );
    if let Some(s) = suggestion {
        d = d.help(format!(
            "set NEW's CONFORMANCE_VERSION to {s} or later (and the manifest's \
             conformance_version with it)"
        ));
    }
    d
}

/// A reading problem of the suite `side` (at `shown`), not compared: an error when `outside`
/// the suite layout (no release can hold it), else a warning.
pub(crate) fn side_problem(
    problem: &Diagnostic,
    side: &str,
    shown: &str,
    outside: bool,
) -> Diagnostic {
    let mut d = problem.clone();
    if !outside {
        d.severity = Severity::Warning;
    }
    d.message = format!(
        "{side} ({shown}): {} (not compared{})",
        d.message,
        if outside {
            "; no release can hold it"
        } else {
            ""
        }
    );
    d
}

/// `duplicate` (a `duplicate-case-id` finding about case `id` of `section`) reworded: the case
/// added repeats the released one at `kept`.
pub(crate) fn duplicate_of_released(
    duplicate: Diagnostic,
    id: &str,
    section: &str,
    kept: &str,
) -> Diagnostic {
    Diagnostic {
        message: format!(
            "case id `{id}` is used twice in section `{section}`: the case added here repeats \
             the released one at {kept}; results files could not tell them apart",
        ),
        help: Some("give the added case a unique `name`".into()),
        ..duplicate
    }
}

/// The version rules since `old` were not checked (`why` says why).
pub(crate) fn since_skipped(old: &str, why: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::SinceSkipped,
        MANIFEST,
        format!("the version rules since {old} were not checked: {why}"),
    )
}

/// The summary of the changes since `old` (whose version is `old_version`): the counts (added,
/// removed, changed, description edits, cosmetic), the bump `needed`, and the version verdict.
pub(crate) fn version_bump(
    old: &str,
    old_version: Option<&str>,
    [added, removed, changed, descriptions, cosmetic]: [usize; 5],
    needed: Bump,
    verdict: Option<&str>,
) -> Diagnostic {
    let verdict = verdict.map_or(String::new(), |t| format!("; {t}"));
    let since = format!("since {old} ({})", old_version.unwrap_or("no version"));
    let message = if needed == Bump::None {
        format!("{since}: nothing changed, so no bump is needed{verdict}")
    } else {
        format!(
            "{since}: {added} added, {removed} removed, {changed} changed, {descriptions} \
             description edit{}, {cosmetic} cosmetic; the change needs a {} bump ({}){verdict}",
            bqsuite_core::diag::plural(descriptions),
            needed,
            needed.reason()
        )
    };
    Diagnostic::note(Code::VersionBump, VERSION_FILE, message)
}
