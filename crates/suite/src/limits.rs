//! The one set of limits on what a suite holds, and so on what a release carries: the loader
//! (`validate`, `release`, `sync`, `diff`, `fetch --update`) reads at most this much, `release`
//! therefore packs at most this much, and the archive verifier behind `fetch` (and `diff` of a
//! tarball) accepts at most this much ([`crate::archive::verify::Limits`] is derived from these
//! values). An archive that passes verification is therefore always read whole by the loader:
//! `fetch --update` can never vendor part of a release.
//!
//! The counts and sizes are of the vendored set (CONFORMANCE_VERSION, manifest.json, fixtures/,
//! schema/); the LICENSE a release adds is bounded by [`MAX_FILE_BYTES`] on its own.

/// Largest single file of a suite (and the LICENSE of a release).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Largest sum of the sizes of a suite's files.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;
/// Most files in a suite.
pub const MAX_FILES: usize = 50_000;

/// The limits as values, for code that is handed them (the archive verifier's limits can be
/// made smaller by a library caller; the loader behind `fetch --update` then uses the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuiteLimits {
    /// Most files of the vendored set.
    pub max_files: usize,
    /// Largest single file.
    pub max_file_bytes: u64,
    /// Largest sum of the files' sizes.
    pub max_total_bytes: u64,
}

impl SuiteLimits {
    /// The limits every command uses: [`MAX_FILES`], [`MAX_FILE_BYTES`], [`MAX_TOTAL_BYTES`].
    pub const SUITE: SuiteLimits = SuiteLimits {
        max_files: MAX_FILES,
        max_file_bytes: MAX_FILE_BYTES,
        max_total_bytes: MAX_TOTAL_BYTES,
    };
}

impl Default for SuiteLimits {
    fn default() -> Self {
        SuiteLimits::SUITE
    }
}
