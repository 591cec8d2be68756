//! One writer per copy: before a sync writes anything it takes the lock of every copy it may
//! write ([`bqsuite_suite::lock`]), in one order every run shares (so two syncs never wait on each
//! other in a circle), and holds them all until it is done. A copy another run keeps locked past
//! the wait stops the whole run with nothing written.

use std::fs;
use std::path::Path;
use std::time::Instant;

use super::outcome::Options;
use super::targets::Target;
use bqsuite_core::error::Result;
use bqsuite_core::shell;
use bqsuite_suite::lock::{self, Lock};
use bqsuite_suite::vendor::{self, PathState};

/// Takes the lock of each target sync may write: those whose SDK repository exists and whose
/// path holds no link (the others are refused or skipped without a write). A copy not made yet
/// gets its parent directories first, as the write would.
pub(super) fn take(options: &Options, workspace: &Path, targets: &[Target]) -> Result<Vec<Lock>> {
    let mut copies = Vec::new();
    for target in targets {
        // A target that cannot be looked at or prepared is reported by its own row, unwritten.
        let Ok(Ok(PathState::Present | PathState::TargetMissing)) =
            vendor::check_path(workspace, &target.path)
        else {
            continue;
        };
        let dir = workspace.join(&target.path);
        if dir.parent().is_some_and(|p| fs::create_dir_all(p).is_err()) {
            continue;
        }
        copies.push((lock::path_for(&dir)?, dir));
    }
    copies.sort();
    copies.dedup_by(|a, b| a.0 == b.0);
    let deadline = Instant::now() + options.lock_wait;
    let again = shell::command(&options.fix_args());
    copies
        .iter()
        .map(|(_, dir)| {
            let left = deadline.saturating_duration_since(Instant::now());
            lock::acquire(dir, left)
                .map_err(|refusal| refusal.into_error(dir, options.lock_wait, &again))
        })
        .collect()
}
