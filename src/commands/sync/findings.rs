//! `sync`'s findings, one constructor each: each owns its code, severity and words.

use super::codes::Code;
use bqsuite_core::diag::{Diagnostic, count};
use bqsuite_core::shell::escape;
use bqsuite_suite::kind::{DESCRIPTION, Kind};
use bqsuite_suite::load::MANIFEST;

use super::targets::Target;
use super::targets_file_name;
use bqsuite_suite::lock::Holder;
use bqsuite_suite::vendor::UnsafeKind;

// ---------------------------------------------------------------- the targets file

/// The targets line `shown` (in `file`) contains control characters.
pub(crate) fn target_control_characters(file: &str, shown: &str) -> Diagnostic {
    bad_target(file, shown, "must not contain control characters")
}

/// The targets line `shown` (in `file`) contains invisible characters.
pub(crate) fn target_invisible_characters(file: &str, shown: &str) -> Diagnostic {
    bad_target(
        file,
        shown,
        "must not contain invisible, formatting or bidirectional characters (they make \
         the path read differently from what it is)",
    )
}

/// The targets line `shown` (in `file`) is not a relative `/`-separated path.
pub(crate) fn target_not_relative(file: &str, shown: &str) -> Diagnostic {
    bad_target(
        file,
        shown,
        "must be a path relative to the workspace, with `/` separators",
    )
}

/// The targets line `shown` (in `file`) has an empty, `.` or `..` component.
pub(crate) fn target_bad_components(file: &str, shown: &str) -> Diagnostic {
    bad_target(
        file,
        shown,
        "must not contain empty, `.` or `..` components",
    )
}

/// The targets line `shown` (in `file`) names a repository, not a directory inside one.
pub(crate) fn target_is_repository(file: &str, shown: &str) -> Diagnostic {
    bad_target(
        file,
        shown,
        "must name a directory inside an SDK repository (`<repo>/<path>`), not the repository itself",
    )
}

fn bad_target(file: &str, shown: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(Code::SyncBadTarget, file, format!("`{shown}` {problem}"))
        .help("write `<repo>/<path>` of the copy, e.g. go-sdk/testdata/conformance")
}

/// The target `entry` (line `line` of `file`) and `other` (line `other_line`) overlap.
pub(crate) fn overlapping_targets(
    file: &str,
    entry: &str,
    line: u32,
    other: &str,
    other_line: u32,
) -> Diagnostic {
    Diagnostic::error(
        Code::SyncOverlappingTargets,
        file,
        format!(
            "`{}` (line {line}) and `{}` (line {other_line}) overlap: one vendored copy would \
             sit inside the other",
            escape(entry),
            escape(other),
        ),
    )
    .help("keep one of the two lines")
}

/// The target `entry` (in `file`) is listed twice, first on line `first`.
pub(crate) fn duplicate_target(file: &str, entry: &str, first: u32) -> Diagnostic {
    Diagnostic::warning(
        Code::SyncDuplicateTarget,
        file,
        format!(
            "`{}` is listed twice (first on line {first})",
            escape(entry),
        ),
    )
}

/// The target `shown` (in `file`) is inside the canonical suite at `suite`.
pub(crate) fn target_inside_suite(file: &str, shown: &str, suite: &str) -> Diagnostic {
    target_and_suite(file, shown, "is inside the canonical suite", suite)
}

/// The target `shown` (in `file`) holds the canonical suite at `suite`.
pub(crate) fn target_holds_suite(file: &str, shown: &str, suite: &str) -> Diagnostic {
    target_and_suite(file, shown, "holds the canonical suite", suite)
}

fn target_and_suite(file: &str, shown: &str, how: &str, suite: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SyncBadTarget,
        file,
        format!(
            "`{shown}` {how} ({}); syncing it would rewrite the suite itself",
            escape(suite)
        ),
    )
    .help(
        "list the vendored copies of the SDK repositories, e.g. go-sdk/testdata/conformance, \
         not the canonical suite",
    )
}

// ---------------------------------------------------------------- the canonical suite

/// A check's canonical suite has no manifest.json.
pub(crate) fn canonical_without_manifest() -> Diagnostic {
    Diagnostic::error(
        Code::SyncInvalidSuite,
        MANIFEST,
        "the canonical suite has no manifest.json",
    )
}

/// The canonical suite is not valid; `validate` is the command that explains it.
pub(crate) fn canonical_invalid(validate: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SyncInvalidSuite,
        "",
        "the canonical suite is not valid, so no copy was compared or written",
    )
    .help(format!(
        "fix the findings above (`{validate}`), then run again"
    ))
}

// ---------------------------------------------------------------- the copies

/// The repository `repo` of `target` is not in the workspace `workspace` (with `--strict`).
pub(crate) fn missing_repo(target: String, repo: &str, workspace: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SyncMissingRepo,
        target,
        format!("SDK repository `{repo}` is not in the workspace {workspace}"),
    )
    .help("clone it beside the others, or run without --strict to skip it")
}

/// Why a copy was refused: `shown` (a path in the workspace, unescaped) is `what`.
pub(crate) struct Refusal<'a> {
    /// The target (the finding is filed under it) and its line in the targets file.
    pub target: String,
    pub line: u32,
    pub shown: &'a str,
    pub what: &'a str,
    /// `sync --check` (compared) or `sync` (written).
    pub check: bool,
    /// The command to run once the path is fixed.
    pub then: &'a str,
}

impl Refusal<'_> {
    fn message(&self) -> String {
        format!(
            "`{}` is {}, so the copy was not {} (targets file line {})",
            escape(self.shown),
            self.what,
            if self.check { "compared" } else { "written" },
            self.line
        )
    }

    fn finding(self, code: Code, help: String) -> Diagnostic {
        let message = self.message();
        Diagnostic::error(code, self.target, message).help(help)
    }
}

/// A link inside the copy.
pub(crate) fn symlink_in_copy(r: Refusal<'_>) -> Diagnostic {
    let help = format!(
        "bqsuite never reads or writes through a link: replace it with a regular file or \
         delete it, then run `{}`",
        r.then
    );
    r.finding(Code::SyncSymlink, help)
}

/// A link on the way to the copy.
pub(crate) fn symlink_at_target(r: Refusal<'_>) -> Diagnostic {
    let help = format!(
        "bqsuite never reads or writes through a link: replace it with a real directory (or \
         fix line {} of the targets file), then run `{}`",
        r.line, r.then
    );
    r.finding(Code::SyncSymlink, help)
}

/// Something else than a file or a directory (of `kind`) inside the copy.
pub(crate) fn unsafe_in_copy(kind: UnsafeKind, r: Refusal<'_>) -> Diagnostic {
    let help = format!("remove it, then run `{}`", r.then);
    r.finding(unsafe_code(kind), help)
}

/// Something else than a directory (of `kind`) on the way to the copy.
pub(crate) fn unsafe_at_target(kind: UnsafeKind, r: Refusal<'_>) -> Diagnostic {
    let help = format!(
        "move it out of the way (or fix line {} of the targets file), then run `{}`",
        r.line, r.then
    );
    r.finding(unsafe_code(kind), help)
}

fn unsafe_code(kind: UnsafeKind) -> Code {
    match kind {
        UnsafeKind::Symlink => Code::SyncSymlink,
        UnsafeKind::NotADirectory => Code::SyncNotADirectory,
        UnsafeKind::SpecialFile => Code::SyncSpecialFile,
    }
}

/// An I/O failure (`error`) while looking at `target`.
pub(crate) fn io(target: String, error: &str) -> Diagnostic {
    Diagnostic::error(Code::SyncIo, target, error)
}

/// A check found no vendored directory at `target`; `files` files are missing.
pub(crate) fn not_vendored(target: String, files: usize) -> Diagnostic {
    Diagnostic::error(
        Code::SyncNotVendored,
        target,
        format!(
            "the vendored directory does not exist ({} missing)",
            count(files, "file", "files")
        ),
    )
}

/// The copy at `target` is `found`'s (`undescribed`: it has a manifest and no suite.json, so it
/// is BabelQueue's), not `canonical`'s, the suite this run vendors; `then` is this run's command.
pub(crate) fn other_suite(
    target: &Target,
    found: &Kind,
    undescribed: bool,
    canonical: &Kind,
    then: &str,
) -> Diagnostic {
    let says = if undescribed {
        format!("it has a {MANIFEST} and no {DESCRIPTION}")
    } else {
        format!("its {DESCRIPTION} says so")
    };
    Diagnostic::error(
        Code::SyncOtherSuite,
        target.path.clone(),
        format!(
            "the copy is of the {} suite (`{}`: {says}), not of {} (`{}`), the suite this run \
             vendors, so it was neither compared nor written (targets file line {})",
            escape(&found.title),
            found.name,
            canonical.title,
            canonical.name,
            target.line
        ),
    )
    .help(format!(
        "list it in {}'s targets file ({}) and sync it from that suite's directory; or, if this \
         line is a mistake, remove it and run `{then}`",
        found.name,
        targets_file_name(found)
    ))
}

/// Writing the copy at `target` failed (`error`).
pub(crate) fn sync_failed(target: String, error: &str) -> Diagnostic {
    Diagnostic::error(Code::SyncFailed, target, error).help(
        "fix the cause and sync again; every file is either old or new, never \
         half-written, and the copy names no version until it is complete",
    )
}

/// The plan of the write of the copy at `target` found something in the way (`error` names it),
/// before anything was written; `then` is this run's command.
pub(crate) fn conflict(target: String, error: &str, then: &str) -> Diagnostic {
    Diagnostic::error(Code::SyncConflict, target, error).help(format!(
        "the copy was left exactly as it was; move what is in the way, then run `{then}`"
    ))
}

/// `--check` found the copy at `target` being written by another run (`holder`); `then` is this
/// run's command.
pub(crate) fn being_written(target: String, holder: &Holder, then: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SyncBeingWritten,
        target,
        format!(
            "the copy is being written by another bqsuite run ({}), so it was not compared",
            holder.describe()
        ),
    )
    .help(format!("run `{then}` again when that run has finished"))
}

/// The copy's manifest `file` is not JSON (`why`); `fix` re-vendors it.
pub(crate) fn bad_manifest(file: String, why: &str, fix: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SyncBadManifest,
        file.clone(),
        format!(
            "`{}` is not JSON ({why}), so the copy's cases cannot be compared",
            escape(&file)
        ),
    )
    .help(format!(
        "`{fix}` re-vendors it from the canonical suite (or restore the file \
         from the SDK's history)"
    ))
}
