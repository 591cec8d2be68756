//! `bqsuite sync`: vendor the canonical suite into sibling SDK checkouts, or `--check` which
//! copies have drifted.
//!
//! For each target of the targets file (a workspace-relative vendored directory whose first
//! component is the SDK repository):
//! - a missing SDK repository is skipped (`--strict` makes it a failure);
//! - a target whose path, or any directory on it, is a symbolic link is refused, as is one with
//!   a link inside its vendored set, so nothing is ever written outside the SDK repository;
//! - `sync` makes the vendored set (CONFORMANCE_VERSION, manifest.json, schema/, fixtures/) equal
//!   to the suite's: changed and new files are written (temporary file + rename), files the suite
//!   no longer has are deleted from the vendored schema/ and fixtures/, identical files are left
//!   untouched, and nothing else in the target directory is touched;
//! - `--check` does the same walk read-only and reports drift per file.
//!
//! The canonical suite is validated first: an invalid suite is never vendored.

pub mod targets;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::diag::{Diagnostic, Report, Severity};
use crate::error::{Error, Result};
use crate::fetch::compare::{self, CompareOptions};
use crate::fsutil;
use crate::suite::load::{self, VENDORED_DIRS, VENDORED_FILES, VERSION_FILE};
use crate::validate;
use targets::Target;

/// The targets file, kept in the suite directory (not part of a release or a vendored copy).
pub const TARGETS_FILE: &str = "sync-targets.txt";

/// What to sync, and how.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The canonical suite directory.
    pub suite: PathBuf,
    /// The directory holding the SDK checkouts (default: the parent of the suite's repository).
    pub workspace: Option<PathBuf>,
    /// The targets file (default: `<suite>/sync-targets.txt`).
    pub targets: Option<PathBuf>,
    /// Report drift only; write nothing.
    pub check: bool,
    /// With `check`: attach unified diffs of changed files.
    pub diff: bool,
    /// A missing SDK repository is a failure, not a skip.
    pub strict: bool,
}

/// What happened to one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// `--check`: the vendored set equals the suite's.
    InSync,
    /// `--check`: the vendored set differs (the findings list how).
    Drift,
    /// `sync`: files were written or deleted.
    Synced { written: usize, deleted: usize },
    /// `sync`: nothing needed changing.
    Unchanged,
    /// The SDK repository is not in the workspace.
    SkippedMissing,
    /// The target could not be checked or synced (the findings say why).
    Failed,
}

impl Status {
    fn word(&self) -> &'static str {
        match self {
            Status::InSync => "in sync",
            Status::Drift => "DRIFT",
            Status::Synced { .. } => "synced",
            Status::Unchanged => "unchanged",
            Status::SkippedMissing => "skip (missing)",
            Status::Failed => "error",
        }
    }
}

/// Runs sync or `sync --check`. `Err` (exit 2) when the suite, the targets file or the workspace
/// cannot be read; every per-target problem is a finding instead.
pub fn sync(options: &Options) -> Result<Report> {
    let suite = load::load(&options.suite)?;
    let mut report = Report::new(options.suite.display().to_string());
    let validation = validate::validate_suite(&suite, &options.suite.display().to_string());
    if !validation.is_clean() {
        report.diagnostics = validation.diagnostics;
        report.push(
            Diagnostic::error(
                "sync-invalid-suite",
                "",
                "the canonical suite is not valid, so it was not vendored anywhere",
            )
            .help("fix the findings above (`bqsuite validate`), then sync again"),
        );
        return Ok(report);
    }
    let canonical_version = suite.version_text().unwrap_or("?").to_string();
    let expected: BTreeMap<String, Vec<u8>> = suite
        .files
        .iter()
        .map(|(rel, file)| (rel.clone(), file.bytes.clone()))
        .collect();

    let targets_path = options
        .targets
        .clone()
        .unwrap_or_else(|| options.suite.join(TARGETS_FILE));
    let text = fs::read_to_string(&targets_path)
        .map_err(|e| Error::io("read targets file", &targets_path, e))?;
    let targets_label = targets_path.display().to_string();
    let (targets, problems) = targets::parse(&text, &targets_label);
    report.diagnostics.extend(problems);

    let workspace = match &options.workspace {
        Some(w) => w.clone(),
        None => default_workspace(&options.suite)?,
    };
    match fs::metadata(&workspace) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Error::bad_path(
                &workspace,
                "the workspace is not a directory",
            ));
        }
        Err(e) => return Err(Error::io("read workspace", &workspace, e)),
    }

    let mut rows = Vec::new();
    for target in &targets {
        let mut findings = Vec::new();
        let status = run_target(options, &workspace, target, &expected, &mut findings);
        let vendored_version = vendored_version(&workspace.join(&target.path));
        let mut line = format!("{:<15} {}", status.word(), target.path);
        match &status {
            Status::Synced { written, deleted } => {
                line.push_str(&format!(" ({written} written, {deleted} deleted)"));
            }
            Status::InSync | Status::Drift => {
                let drift = findings
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                line.push_str(&format!(
                    " (vendored {}, canonical {canonical_version})",
                    vendored_version.as_deref().unwrap_or("none")
                ));
                if drift > 0 {
                    let verb = if drift == 1 {
                        "file differs"
                    } else {
                        "files differ"
                    };
                    line.push_str(&format!(": {drift} {verb}"));
                }
            }
            _ => {}
        }
        report.summary.push(line);
        rows.push(json!({
            "target": target.path,
            "repo": target.repo,
            "status": status.word(),
            "vendored_version": vendored_version,
            "written": if let Status::Synced { written, .. } = status { written } else { 0 },
            "deleted": if let Status::Synced { deleted, .. } = status { deleted } else { 0 },
        }));
        if status == Status::SkippedMissing && options.strict {
            findings.push(
                Diagnostic::error(
                    "sync-missing-repo",
                    target.path.clone(),
                    format!(
                        "SDK repository `{}` is not in the workspace {}",
                        target.repo,
                        workspace.display()
                    ),
                )
                .help("clone it beside the others, or run without --strict to skip it"),
            );
        }
        report.diagnostics.extend(findings);
    }
    let count = |word: &str| rows.iter().filter(|r| r["status"] == word).count();
    report.summary.push(if options.check {
        format!(
            "{} targets: {} in sync, {} drifted, {} skipped, {} errors",
            rows.len(),
            count("in sync"),
            count("DRIFT"),
            count("skip (missing)"),
            count("error")
        )
    } else {
        format!(
            "{} targets: {} synced, {} unchanged, {} skipped, {} errors",
            rows.len(),
            count("synced"),
            count("unchanged"),
            count("skip (missing)"),
            count("error")
        )
    });
    report.data = json!({
        "workspace": workspace.display().to_string(),
        "canonical_version": canonical_version,
        "targets": rows,
    });
    Ok(report)
}

/// The parent of the repository that holds the suite directory.
fn default_workspace(suite: &Path) -> Result<PathBuf> {
    let suite = fs::canonicalize(suite).map_err(|e| Error::io("resolve", suite, e))?;
    suite
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::bad_path(
                &suite,
                "has no parent repository and workspace; pass --workspace",
            )
        })
}

/// The vendored CONFORMANCE_VERSION, if readable (never follows a link).
fn vendored_version(dir: &Path) -> Option<String> {
    let path = dir.join(VERSION_FILE);
    let meta = fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > 256 {
        return None;
    }
    fs::read_to_string(path).ok().map(|s| s.trim().to_string())
}

/// How far a target's path exists, checked component by component without following links.
enum PathState {
    RepoMissing,
    /// The repository exists; the vendored directory does not (yet).
    TargetMissing,
    Present,
}

fn refuse(target: &Target, code: &'static str, message: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(code, target.path.clone(), message).help(
        "vendored copies must be real directories inside their SDK repository; replace the link or fix the path",
    ))
}

fn check_path(
    workspace: &Path,
    target: &Target,
) -> std::result::Result<PathState, Box<Diagnostic>> {
    let mut path = workspace.to_path_buf();
    for (i, component) in target.path.split('/').enumerate() {
        path.push(component);
        let shown = target
            .path
            .split('/')
            .take(i + 1)
            .collect::<Vec<_>>()
            .join("/");
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Ok(if i == 0 {
                    PathState::RepoMissing
                } else {
                    PathState::TargetMissing
                });
            }
            Err(e) => {
                return Err(refuse(
                    target,
                    "sync-io",
                    format!("cannot read `{shown}`: {e}"),
                ));
            }
            Ok(m) if m.file_type().is_symlink() => {
                return Err(refuse(
                    target,
                    "sync-symlink",
                    format!(
                        "`{shown}` is a symbolic link; refusing to follow it out of the SDK repository"
                    ),
                ));
            }
            Ok(m) if !m.is_dir() => {
                return Err(refuse(
                    target,
                    "sync-not-a-directory",
                    format!("`{shown}` is not a directory"),
                ));
            }
            Ok(_) => {}
        }
    }
    Ok(PathState::Present)
}

/// Refuses a target with a link (or other non-regular entry) anywhere in its vendored set.
fn check_vendored_entries(dir: &Path, target: &Target) -> std::result::Result<(), Box<Diagnostic>> {
    let mut roots: Vec<PathBuf> = VENDORED_FILES.iter().map(|f| dir.join(f)).collect();
    roots.extend(VENDORED_DIRS.iter().map(|d| dir.join(d)));
    for root in roots {
        if fs::symlink_metadata(&root).is_err() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&root).follow_links(false) {
            let entry = entry.map_err(|e| {
                refuse(
                    target,
                    "sync-io",
                    format!("cannot walk the vendored copy: {e}"),
                )
            })?;
            let kind = entry.file_type();
            if kind.is_symlink() || !(kind.is_file() || kind.is_dir()) {
                let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
                return Err(refuse(
                    target,
                    "sync-symlink",
                    format!(
                        "`{}/{}` is {}; refusing to write through it",
                        target.path,
                        rel.display(),
                        if kind.is_symlink() {
                            "a symbolic link"
                        } else {
                            "not a regular file"
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn run_target(
    options: &Options,
    workspace: &Path,
    target: &Target,
    expected: &BTreeMap<String, Vec<u8>>,
    findings: &mut Vec<Diagnostic>,
) -> Status {
    let dir = workspace.join(&target.path);
    let state = match check_path(workspace, target) {
        Ok(state) => state,
        Err(d) => {
            findings.push(*d);
            return Status::Failed;
        }
    };
    match state {
        PathState::RepoMissing => return Status::SkippedMissing,
        PathState::Present => {
            if let Err(d) = check_vendored_entries(&dir, target) {
                findings.push(*d);
                return Status::Failed;
            }
        }
        PathState::TargetMissing => {}
    }
    let present = matches!(state, PathState::Present);
    if options.check {
        if !present {
            findings.push(
                Diagnostic::error(
                    "sync-not-vendored",
                    target.path.clone(),
                    format!(
                        "the vendored directory does not exist ({} files missing)",
                        expected.len()
                    ),
                )
                .help("run `bqsuite sync` to vendor the suite"),
            );
            return Status::Drift;
        }
        return check_target(options, target, &dir, expected, findings);
    }
    match write_target(&dir, expected, present) {
        Ok((0, 0)) => Status::Unchanged,
        Ok((written, deleted)) => Status::Synced { written, deleted },
        Err(e) => {
            findings.push(
                Diagnostic::error("sync-failed", target.path.clone(), e.to_string())
                    .help("fix the cause and sync again; files already replaced are complete, never half-written"),
            );
            Status::Failed
        }
    }
}

fn check_target(
    options: &Options,
    target: &Target,
    dir: &Path,
    expected: &BTreeMap<String, Vec<u8>>,
    findings: &mut Vec<Diagnostic>,
) -> Status {
    let compare_options = CompareOptions {
        diff: options.diff,
        expected_label: "the canonical suite".into(),
    };
    match compare::compare_files(expected, dir, &compare_options) {
        Ok(comparison) => {
            let clean = comparison.is_clean();
            findings.extend(comparison.findings.into_iter().map(|mut d| {
                d.file = format!("{}/{}", target.path, d.file);
                if d.code.starts_with("drift-") {
                    d.help = Some("run `bqsuite sync` to re-vendor the canonical suite".into());
                }
                d
            }));
            if clean { Status::InSync } else { Status::Drift }
        }
        Err(e) => {
            findings.push(Diagnostic::error(
                "sync-io",
                target.path.clone(),
                e.to_string(),
            ));
            Status::Failed
        }
    }
}

/// Makes the vendored set of `dir` equal to `expected`. Returns (files written, files deleted).
fn write_target(
    dir: &Path,
    expected: &BTreeMap<String, Vec<u8>>,
    present: bool,
) -> Result<(usize, usize)> {
    if !present {
        // The repository exists and nothing on the way is a link (checked); create the rest.
        fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    }
    let mut written = 0;
    for (rel, bytes) in expected {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            match fs::symlink_metadata(parent) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(Error::bad_path(
                        parent,
                        "is in the way: a directory is needed here",
                    ));
                }
                Err(_) => fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?,
            }
        }
        if same_content(&path, bytes) {
            continue;
        }
        fsutil::write_atomic(&path, bytes)?;
        written += 1;
    }
    let mut deleted = 0;
    let expected_dirs: BTreeSet<String> = expected
        .keys()
        .flat_map(|rel| {
            rel.match_indices('/')
                .map(move |(i, _)| rel[..i].to_string())
        })
        .collect();
    for top in VENDORED_DIRS {
        let root = dir.join(top);
        if fs::symlink_metadata(&root).is_err() {
            continue;
        }
        // Children before parents, so emptied directories can be removed.
        let entries: Vec<_> = walkdir::WalkDir::new(&root)
            .follow_links(false)
            .contents_first(true)
            .into_iter()
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| Error::io("walk", &root, e.into()))?;
        for entry in entries {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap_or(entry.path())
                .to_string_lossy()
                .replace('\\', "/");
            if entry.file_type().is_dir() {
                if !expected_dirs.contains(&rel) {
                    // Only an emptied directory goes; anything still inside stays untouched.
                    let _ = fs::remove_dir(entry.path());
                }
            } else if !expected.contains_key(&rel) {
                fs::remove_file(entry.path()).map_err(|e| Error::io("delete", entry.path(), e))?;
                deleted += 1;
            }
        }
    }
    Ok((written, deleted))
}

/// True when `path` is a regular file holding exactly `bytes` (never follows a link).
fn same_content(path: &Path, bytes: &[u8]) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => {
            fs::read(path).map(|b| b == bytes).unwrap_or(false)
        }
        _ => false,
    }
}
