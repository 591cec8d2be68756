//! The stable codes of `sync`'s findings.

bqsuite_core::finding_codes! {
    /// The findings of `sync`.
    pub enum Code {
        SyncBadTarget = "sync-bad-target",
        SyncOverlappingTargets = "sync-overlapping-targets",
        SyncDuplicateTarget = "sync-duplicate-target",
        SyncSymlink = "sync-symlink",
        SyncNotADirectory = "sync-not-a-directory",
        SyncSpecialFile = "sync-special-file",
        SyncInvalidSuite = "sync-invalid-suite",
        SyncNotVendored = "sync-not-vendored",
        SyncOtherSuite = "sync-other-suite",
        SyncMissingRepo = "sync-missing-repo",
        SyncBadManifest = "sync-bad-manifest",
        SyncIo = "sync-io",
        SyncFailed = "sync-failed",
        SyncConflict = "sync-conflict",
        SyncBeingWritten = "sync-being-written",
    }
}
