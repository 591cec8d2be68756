//! One target of a sync run: refused when its path or its copy holds a link or a file where a
//! directory belongs; else compared with the canonical suite (`--check`) or written.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use super::findings::{self, Refusal};
use super::outcome::{Options, Status, TargetResult};
use super::targets::Target;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell;
use bqsuite_suite::compare::{self, CompareOptions};
use bqsuite_suite::drift::{self, Change};
use bqsuite_suite::kind::{self, CopyOf, Kind};
use bqsuite_suite::load::VERSION_FILE;
use bqsuite_suite::releases::{self, Identity};
use bqsuite_suite::vendor::{self, PathState, UnsafeKind};

/// The canonical suite as every target is checked or written against it: its vendored files,
/// and what a copy holding exactly those files is, told once from the bytes in memory (a copy
/// equal to the canonical suite is never read a second time or hashed).
struct Canonical<'a> {
    files: &'a BTreeMap<String, Vec<u8>>,
    /// The suite's description: a copy of another suite is neither compared nor written.
    kind: &'a Kind,
    identity: OnceLock<Identity>,
}

impl Canonical<'_> {
    /// What a copy equal to the canonical suite byte for byte is.
    fn identity(&self) -> &Identity {
        self.identity
            .get_or_init(|| releases::identify_files(self.files))
    }

    /// The CONFORMANCE_VERSION such a copy holds, as [`vendored_version`] reads it.
    fn version_text(&self) -> Option<String> {
        version_text(self.files.get(VERSION_FILE)?)
    }
}

/// Checks or syncs every target. Targets are independent, so they are spread over a few threads.
pub(super) fn check_targets(
    options: &Options,
    workspace: &Path,
    targets: &[Target],
    expected: &BTreeMap<String, Vec<u8>>,
    kind: &Kind,
) -> Result<Vec<TargetResult>> {
    let canonical = &Canonical {
        files: expected,
        kind,
        identity: OnceLock::new(),
    };
    let workers = std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
        .clamp(1, 4)
        .min(targets.len().max(1));
    let chunk = targets.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = targets
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|t| run_target(options, workspace, t, canonical))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut results = Vec::with_capacity(targets.len());
        for handle in handles {
            match handle.join() {
                Ok(part) => results.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        Ok(results)
    })
}

/// Largest CONFORMANCE_VERSION file read for the `vendored_version` column.
const MAX_VERSION_BYTES: u64 = 256;

/// The vendored CONFORMANCE_VERSION, if readable (never follows a link).
fn vendored_version(dir: &Path) -> Option<String> {
    let path = dir.join(VERSION_FILE);
    let meta = fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > MAX_VERSION_BYTES {
        return None;
    }
    version_text(&fs::read(path).ok()?)
}

/// The text of a CONFORMANCE_VERSION file's bytes, escaped for display: `None` when it is too
/// large or not UTF-8.
fn version_text(bytes: &[u8]) -> Option<String> {
    if bytes.len() as u64 > MAX_VERSION_BYTES {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    Some(shell::escape(text.trim()))
}

/// A target refused because `found` (a path relative to `base`, the workspace or the copy) is a
/// link or not a directory: one finding that names the path, what it is, and what to do.
fn refusal(
    options: &Options,
    workspace: &Path,
    target: &Target,
    found: &vendor::Unsafe,
    inside_copy: bool,
) -> Diagnostic {
    let shown = if inside_copy {
        format!("{}/{}", target.path, found.path)
    } else {
        found.path.clone()
    };
    let what = match found.kind {
        UnsafeKind::NotADirectory
            if fs::symlink_metadata(workspace.join(&shown)).is_ok_and(|m| m.is_file()) =>
        {
            "a regular file, not a directory"
        }
        _ => found.what(),
    };
    let then = shell::command(&options.fix_args());
    // Filed under the target (the message names the exact path): that is the row it belongs to.
    let r = Refusal {
        target: target.path.clone(),
        line: target.line,
        shown: &shown,
        what,
        check: options.check,
        then: &then,
    };
    match (found.kind, inside_copy) {
        (UnsafeKind::Symlink, true) => findings::symlink_in_copy(r),
        (UnsafeKind::Symlink, false) => findings::symlink_at_target(r),
        (kind, true) => findings::unsafe_in_copy(kind, r),
        (kind, false) => findings::unsafe_at_target(kind, r),
    }
}

fn run_target(
    options: &Options,
    workspace: &Path,
    target: &Target,
    canonical: &Canonical,
) -> TargetResult {
    let expected = canonical.files;
    let dir = workspace.join(&target.path);
    let failed = |d: Diagnostic| {
        let mut r = TargetResult::new(target, Status::Error);
        r.findings.push(d);
        r
    };
    let state = match vendor::check_path(workspace, &target.path) {
        Ok(Ok(state)) => state,
        Ok(Err(found)) => return failed(refusal(options, workspace, target, &found, false)),
        Err(e) => {
            return failed(findings::io(target.path.clone(), &e.to_string()));
        }
    };
    // A link or a special file in the copy's vendored set refuses the copy.
    let refused = || match vendor::check_entries(&dir) {
        Ok(Ok(())) => None,
        Ok(Err(found)) => Some(failed(refusal(options, workspace, target, &found, true))),
        Err(e) => Some(failed(findings::io(target.path.clone(), &e.to_string()))),
    };
    if state == PathState::Present
        && let Some(problem) = other_suite(options, target, &dir, canonical)
    {
        return failed(problem);
    }
    match state {
        PathState::RepoMissing => TargetResult::new(target, Status::MissingRepo),
        PathState::TargetMissing if options.check => not_vendored(target, expected),
        PathState::Present if options.check => {
            // A copy another run is writing gets no verdict: looked at before and after reading.
            let being_written = || {
                bqsuite_suite::lock::holder(&dir).map(|holder| {
                    let then = shell::command(&check_args(options));
                    failed(findings::being_written(target.path.clone(), &holder, &then))
                })
            };
            if let Some(r) = being_written() {
                return r;
            }
            // Compared first: the comparison never reads through a link, and a link or a special
            // file anywhere in the vendored set makes the copy differ (it is a changed or an
            // extra entry), so a copy found in sync has none and is not walked again for them.
            // Any other copy is looked at as if before the comparison: a refusal (or an error
            // walking the copy) wins over what the comparison found.
            let checked = check_target(options, target, &dir, canonical);
            let checked = if checked.status == Status::InSync {
                checked
            } else {
                refused().unwrap_or(checked)
            };
            being_written().unwrap_or(checked)
        }
        // Nothing is written into a copy before it is known to hold no link.
        PathState::Present => {
            refused().unwrap_or_else(|| write_target(options, target, &dir, expected, true))
        }
        PathState::TargetMissing => write_target(options, target, &dir, expected, false),
    }
}

/// A copy of another suite is that suite's business: never compared with this one, never
/// overwritten by it. The finding that says so (or that the copy could not be read), if any.
fn other_suite(
    options: &Options,
    target: &Target,
    dir: &Path,
    canonical: &Canonical,
) -> Option<Diagnostic> {
    let copy = match kind::copy_of(dir) {
        Ok(copy) => copy,
        Err(e) => return Some(findings::io(target.path.clone(), &e.to_string())),
    };
    let found = copy.kind().filter(|k| k.name != canonical.kind.name)?;
    let then = shell::command(&check_args(options));
    Some(findings::other_suite(
        target,
        &found,
        copy == CopyOf::Undescribed,
        canonical.kind,
        &then,
    ))
}

/// `sync --check` of a target with no copy yet: every file of the suite is missing.
fn not_vendored(target: &Target, expected: &BTreeMap<String, Vec<u8>>) -> TargetResult {
    let mut r = TargetResult::new(target, Status::NotVendored);
    r.findings
        .push(findings::not_vendored(target.path.clone(), expected.len()));
    r.files = expected
        .keys()
        .map(|rel| (rel.clone(), Change::Missing))
        .collect();
    drift::sort_files(&mut r.files);
    r.fingerprint = Some("not-vendored".into());
    r
}

fn check_target(
    options: &Options,
    target: &Target,
    dir: &Path,
    canonical: &Canonical,
) -> TargetResult {
    let compare_options = CompareOptions {
        diff: options.diff,
        expected_label: "the canonical suite".into(),
        keep_manifest: false,
    };
    let comparison =
        match compare::compare_files_unidentified(canonical.files, dir, &compare_options) {
            Ok(c) => c,
            Err(e) => {
                let mut r = TargetResult::new(target, Status::Error);
                r.findings
                    .push(findings::io(target.path.clone(), &e.to_string()));
                return r;
            }
        };
    let status = if comparison.is_clean() {
        Status::InSync
    } else {
        Status::Drift
    };
    let mut r = TargetResult::new(target, status);
    // A copy in sync holds the canonical bytes, so it is what the canonical suite is; only a
    // copy that differs is read again, hashed once, for its identity and its group.
    let digests = if status == Status::InSync {
        r.vendored_version = canonical.version_text();
        r.identity = Some(canonical.identity().clone());
        None
    } else {
        r.vendored_version = vendored_version(dir);
        let digests = releases::digests_of(dir);
        r.identity = Some(releases::identify_hashed(dir, digests.as_ref()));
        digests
    };
    r.incomplete = r.identity.as_ref().is_some_and(|id| id.interrupted);
    r.matched = comparison.matched;
    for mut d in comparison.findings {
        if let Some(change) = Change::of(d.code) {
            r.files.push((d.file.clone(), change));
        }
        d.file = format!("{}/{}", target.path, d.file);
        r.findings.push(d);
    }
    drift::sort_files(&mut r.files);
    r.fingerprint = if status == Status::InSync {
        Some("in-sync".into())
    } else {
        drift::fingerprint(digests.as_ref(), &r.files)
    };
    r
}

/// This run's arguments, `--check` included when it is a check.
fn check_args(options: &Options) -> Vec<String> {
    let mut args = options.fix_args();
    if options.check {
        args.push("--check".into());
    }
    args
}

/// Writes the copy: the whole write planned first, so that anything in the way refuses the copy
/// with nothing in it changed (`sync-conflict`); a failure after that is `sync-failed`.
fn write_target(
    options: &Options,
    target: &Target,
    dir: &Path,
    expected: &BTreeMap<String, Vec<u8>>,
    present: bool,
) -> TargetResult {
    let failed = |d: Diagnostic| {
        let mut r = TargetResult::new(target, Status::Error);
        r.vendored_version = vendored_version(dir);
        r.findings.push(d);
        r
    };
    if !present {
        // The repository exists and nothing on the way is a link (checked); create the rest.
        if let Err(e) = fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e)) {
            return failed(findings::sync_failed(target.path.clone(), &e.to_string()));
        }
    }
    let plan = match vendor::plan(dir, expected) {
        Ok(plan) => plan,
        Err(e @ Error::BadPath { .. }) => {
            let then = shell::command(&options.fix_args());
            return failed(findings::conflict(
                target.path.clone(),
                &e.to_string(),
                &then,
            ));
        }
        Err(e) => return failed(findings::sync_failed(target.path.clone(), &e.to_string())),
    };
    match plan.write() {
        Ok(applied) => {
            let status = if applied.is_empty() {
                Status::Unchanged
            } else {
                Status::Synced
            };
            let mut r = TargetResult::new(target, status);
            r.vendored_version = vendored_version(dir);
            r.written = applied.written;
            r.deleted = applied.deleted;
            r
        }
        Err(e) => failed(findings::sync_failed(target.path.clone(), &e.to_string())),
    }
}
