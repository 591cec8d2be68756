//! What a sync run found: the options it ran with, each target's status and result, the groups
//! of copies that drifted the same way, and the whole outcome the reports are made of.

use std::path::PathBuf;

use super::targets::Target;
use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::shell;
use bqsuite_suite::drift::{CaseCount, Change};
use bqsuite_suite::releases::Identity;

/// What to sync, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The canonical suite directory.
    pub suite: PathBuf,
    /// The directory holding the SDK checkouts (default: the parent of the suite's repository).
    pub workspace: Option<PathBuf>,
    /// The targets file (default: [`default_targets`](super::default_targets)).
    pub targets: Option<PathBuf>,
    /// Report drift only; write nothing.
    pub check: bool,
    /// With `check`: attach unified diffs of changed files.
    pub diff: bool,
    /// A missing SDK repository is a failure, not a skip.
    pub strict: bool,
    /// How long to wait for another run writing one of the copies (`--lock-wait`).
    pub lock_wait: std::time::Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            suite: PathBuf::new(),
            workspace: None,
            targets: None,
            check: false,
            diff: false,
            strict: false,
            lock_wait: bqsuite_suite::lock::WAIT,
        }
    }
}

impl Options {
    /// The arguments that name this run's suite, workspace, targets and strictness, as the user
    /// gave them, for a fix command that works when pasted in the same directory.
    pub(super) fn fix_args(&self) -> Vec<String> {
        let mut args = vec!["sync".into(), "--suite".into(), shell::arg(&self.suite)];
        if let Some(w) = &self.workspace {
            args.extend(["--workspace".into(), shell::arg(w)]);
        }
        if let Some(t) = &self.targets {
            args.extend(["--targets".into(), shell::arg(t)]);
        }
        if self.strict {
            args.push("--strict".into());
        }
        args
    }
}

/// What happened to one target. The words of [`Status::word`] are stable (JSON `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `--check`: the vendored set equals the suite's.
    InSync,
    /// `--check`: the vendored set differs.
    Drift,
    /// `--check`: the SDK repository exists, the vendored directory does not.
    NotVendored,
    /// The SDK repository is not in the workspace.
    MissingRepo,
    /// The target could not be checked or synced (its findings say why).
    Error,
    /// `sync`: files were written or deleted.
    Synced,
    /// `sync`: nothing needed changing.
    Unchanged,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::InSync => "in-sync",
            Status::Drift => "drift",
            Status::NotVendored => "not-vendored",
            Status::MissingRepo => "missing-repo",
            Status::Error => "error",
            Status::Synced => "synced",
            Status::Unchanged => "unchanged",
        }
    }
}

/// The outcome for one target.
#[derive(Debug, Clone)]
pub struct TargetResult {
    pub target: Target,
    pub status: Status,
    /// The vendored CONFORMANCE_VERSION, when there is one.
    pub vendored_version: Option<String>,
    /// The copy has no CONFORMANCE_VERSION, and its manifest names a version or every other
    /// file is a known release's: an interrupted sync or update ([`Identity::interrupted`]).
    pub incomplete: bool,
    /// `--check`: what the copy is (version, known release, edited files).
    pub identity: Option<Identity>,
    /// `--check`: every differing file (relative to the target), most important first.
    pub files: Vec<(String, Change)>,
    /// `--check`: files of the vendored set that match.
    pub matched: usize,
    /// `--check`: the copy's cases against the canonical suite's (counted once per group).
    pub cases: Option<CaseCount>,
    /// `--check`: the index of the copy's group in [`Outcome::groups`].
    pub group: Option<usize>,
    /// `--check`: what makes two copies' drift the same ([`bqsuite_suite::drift::fingerprint`]).
    pub(super) fingerprint: Option<String>,
    /// `sync`: the files written and deleted (relative to the target).
    pub written: Vec<String>,
    pub deleted: Vec<String>,
    /// Findings about this target (drift per file, refusals, I/O errors, notes).
    pub findings: Vec<Diagnostic>,
}

impl TargetResult {
    pub(super) fn new(target: &Target, status: Status) -> Self {
        TargetResult {
            target: target.clone(),
            status,
            vendored_version: None,
            incomplete: false,
            identity: None,
            files: Vec::new(),
            matched: 0,
            cases: None,
            group: None,
            fingerprint: None,
            written: Vec::new(),
            deleted: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// How many files differ in the given way.
    pub fn count(&self, change: Change) -> usize {
        self.files.iter().filter(|(_, c)| *c == change).count()
    }
}

/// Everything one run found: the report (findings, JSON `data`) and the per-target results the
/// human renderer lays out.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub report: Report,
    pub check: bool,
    pub strict: bool,
    pub workspace: PathBuf,
    pub targets_file: PathBuf,
    pub canonical_version: String,
    pub results: Vec<TargetResult>,
    /// `--check`: the copies that drifted the same way (or are in sync, or not vendored),
    /// largest group first; each lists indexes into `results`.
    pub groups: Vec<Group>,
    /// The command that fixes the drift found, when there is drift to fix.
    pub fix: Option<String>,
}

/// Copies that are the same: drifted the same way, or all in sync, or all not vendored yet.
#[derive(Debug, Clone)]
pub struct Group {
    pub status: Status,
    /// Indexes into the outcome's results, in targets-file order.
    pub members: Vec<usize>,
}
