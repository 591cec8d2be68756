//! `adopt`'s findings, one constructor each: each owns its code, severity and words. `retry` is
//! always a whole `bqsuite adopt ...` command line, quoted, with this run's paths.

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;

/// The proposal's manifest (`file`) adds nothing the suite does not have; `check` validates it.
pub(crate) fn nothing_proposed(file: String, check: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptNothingProposed,
        file,
        "the proposal adds nothing: no case, section or fixture to adopt, so no release is made",
    )
    .help(format!(
        "add the new cases to the proposal, check them with `{check}`, then adopt"
    ))
}

/// VERSION (`shown`) is not SemVer (`error` says why); the suite would be written in `file`.
pub(crate) fn version_invalid(file: String, shown: &str, error: &str, retry: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptVersionInvalid,
        file,
        format!("VERSION `{shown}` is not SemVer ({error}), so it cannot name the release"),
    )
    .help(format!(
        "give the version as MAJOR.MINOR.PATCH, without a leading `v`: `{retry}`"
    ))
}

/// VERSION is not greater than the suite's `base` version (read from `file`).
pub(crate) fn version_not_greater(
    file: String,
    version: &str,
    base: &str,
    described: &str,
    retry: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptVersionNotGreater,
        file,
        format!(
            "VERSION {version} is not greater than the suite's version {base} ({described}); the \
             adopted suite is a new release and needs a new version"
        ),
    )
    .help(format!("adopt under the next version: `{retry}`"))
}

/// The change needs a `needed` bump (`why`), but the step to VERSION is `described`.
pub(crate) fn version_insufficient(
    file: String,
    needed: &str,
    why: &str,
    described: &str,
    retry: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptVersionInsufficient,
        file,
        format!("the proposal needs a {needed} bump ({why}), but {described}"),
    )
    .help(format!("adopt under a version that makes it: `{retry}`"))
}

/// The proposal changes the suite in `file` (`what` says how), which only a major release may,
/// and the step to VERSION is `described`.
pub(crate) fn not_additive(file: String, what: &str, described: &str, retry: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptNotAdditive,
        file,
        format!(
            "the proposal changes the suite: {what}; only a major release may change what a \
             release has, and {described}"
        ),
    )
    .help(format!(
        "drop the change from the proposal, or adopt it as a major release: `{retry}`"
    ))
}

/// A case the proposal adds lacks members that the suite's cases of its block all carry (`what`
/// names them), which only a major release may do, and the step to VERSION is `described`.
pub(crate) fn lacks_member(file: String, what: &str, described: &str, retry: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptNotAdditive,
        file,
        format!("{what}; only a major release may do that, and {described}"),
    )
    .help(format!(
        "give the case those members in the proposal, as the block's other cases have them (a \
         new block: make it a section of its own), or adopt it as a major release: `{retry}`"
    ))
}

/// The proposal's fixture `file` would be adopted as `adopted`, a name `taken_by` already has.
pub(crate) fn fixture_name_taken(
    file: String,
    adopted: &str,
    taken_by: &str,
    check: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::AdoptFixtureNameTaken,
        file,
        format!(
            "the fixture would be adopted as `{adopted}` (its name without `proposal-`), but \
             {taken_by} already has that name"
        ),
    )
    .help(format!(
        "rename the proposal's fixture to a `proposal-<name>.json` whose <name> no fixture of \
         the suite has (and its `file` in the proposal's manifest with it), check with \
         `{check}`, then adopt"
    ))
}

/// The earlier copy, moved aside to `aside` once the adopted one was in place, could not be
/// removed (`why`); `remove` removes it.
pub(crate) fn leftover(aside: String, why: &str, remove: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::AdoptLeftover,
        aside,
        format!(
            "the adoption is complete, but the earlier copy moved aside here could not be \
             removed ({why})"
        ),
    )
    .help(format!("remove it: `{remove}`"))
}
