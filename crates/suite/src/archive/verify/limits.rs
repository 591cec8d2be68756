//! The caps that keep verification bounded ([`Limits`]), derived from the suite's own limits.

use super::header::BLOCK;
use crate::layout;
use crate::limits::SuiteLimits;

/// Caps that keep verification bounded whatever the input (decompression bombs included). The
/// defaults are the suite's own limits ([`crate::limits`]): an archive is accepted only
/// when the loader reads all of its vendored set, so `fetch --update` never vendors part of a
/// release. A library caller may make them smaller; `fetch --update` then loads with the same
/// ([`Limits::suite`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest compressed asset read (download size).
    pub max_archive_bytes: u64,
    /// Largest single regular file (LICENSE included).
    pub max_entry_bytes: u64,
    /// Largest sum of the vendored files' sizes (LICENSE, bounded by `max_entry_bytes`, is not
    /// counted).
    pub max_total_bytes: u64,
    /// Most files of the vendored set (LICENSE is not counted).
    pub max_files: usize,
    /// Most file and directory entries.
    pub max_entries: usize,
    /// Longest entry path, in bytes.
    pub max_path_bytes: usize,
    /// Largest sum of all entry paths' lengths (bounds the memory of duplicate detection).
    pub max_names_bytes: u64,
    /// Largest decompressed tar stream (data, headers, padding, zero blocks).
    pub max_tar_bytes: u64,
    /// Most zero bytes tolerated after the two end-of-archive blocks (tar record padding).
    pub max_padding_bytes: u64,
}

/// Deepest entry path (components, root included).
pub(super) const MAX_DEPTH: usize = 32;
/// Longest CONFORMANCE_VERSION read.
pub(super) const MAX_VERSION_BYTES: u64 = 256;

impl Limits {
    /// The limits derived from the suite's: what a release of a suite within `suite` can be.
    pub fn for_suite(suite: &SuiteLimits) -> Self {
        // The vendored files, LICENSE, and the directories: the root, fixtures/ and schema/.
        let max_entries = suite.max_files + 1 + 1 + layout::DATA_DIRS.len();
        let max_unpacked = suite.max_total_bytes + suite.max_file_bytes;
        // Per entry: a header and up to one block of padding.
        let max_tar_bytes = max_unpacked + max_entries as u64 * 2 * BLOCK as u64 + (1 << 20);
        Limits {
            // Deflate's worst-case expansion is 5 bytes per 64 KiB stored block, plus the header.
            max_archive_bytes: max_tar_bytes + max_tar_bytes / 8192 + (1 << 16),
            max_entry_bytes: suite.max_file_bytes,
            max_total_bytes: suite.max_total_bytes,
            max_files: suite.max_files,
            max_entries,
            max_path_bytes: 1024,
            max_names_bytes: 16 << 20,
            max_tar_bytes,
            max_padding_bytes: 1 << 20,
        }
    }

    /// The suite limits these archive limits keep to: the loader reading an unpacked release uses
    /// them, so it reads everything the verifier accepted.
    pub fn suite(&self) -> SuiteLimits {
        SuiteLimits {
            max_files: self.max_files,
            max_file_bytes: self.max_entry_bytes,
            max_total_bytes: self.max_total_bytes,
        }
    }
}

impl Default for Limits {
    /// [`Limits::for_suite`] of the suite's limits ([`SuiteLimits::SUITE`]).
    fn default() -> Self {
        Limits::for_suite(&SuiteLimits::SUITE)
    }
}
