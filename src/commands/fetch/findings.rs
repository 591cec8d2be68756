//! `fetch`'s findings, one constructor each: each owns its code, severity and words.

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;
use bqsuite_suite::archive::SUMS_FILE;
use bqsuite_suite::archive::verify;

/// The downloaded asset `name` hashes to `digest`, but `source` says `expected`.
pub(crate) fn checksum_mismatch(
    name: &str,
    digest: &str,
    source: &str,
    expected: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::ChecksumMismatch,
        name,
        format!("the asset's sha256 is {digest}, but {source} says {expected}"),
    )
    .help(
        "the download is corrupt or was tampered with (or the pin is wrong); nothing \
         was written",
    )
}

/// The release's SHA256SUMS (shown as `shown`) is larger than `max` bytes.
pub(crate) fn sums_too_large(shown: &str, max: u64) -> Diagnostic {
    checksum_missing(format!("{shown} is larger than {max} bytes"))
}

/// The release's SHA256SUMS (shown as `shown`) is not text.
pub(crate) fn sums_not_text(shown: &str) -> Diagnostic {
    checksum_missing(format!("{shown} is not text"))
}

/// The release's SHA256SUMS (shown as `shown`) has no line for the asset `name`.
pub(crate) fn sums_no_line(shown: &str, name: &str) -> Diagnostic {
    checksum_missing(format!("{shown} has no line for {name}"))
}

fn checksum_missing(why: String) -> Diagnostic {
    Diagnostic::error(Code::ChecksumMissing, SUMS_FILE, why)
        .help("the release is incomplete; pin the asset's hash with --sha256 if you know it")
}

/// The release's SHA256SUMS (shown as `shown`) has lines for `name` with different `hashes`.
pub(crate) fn checksum_ambiguous(shown: &str, name: &str, hashes: &[String]) -> Diagnostic {
    Diagnostic::error(
        Code::ChecksumAmbiguous,
        SUMS_FILE,
        format!(
            "{shown} has {} lines for {name} that disagree ({}); no hash can be trusted",
            hashes.len(),
            hashes.join(", ")
        ),
    )
    .help(
        "the release's SHA256SUMS is corrupt or was tampered with; nothing was written. \
         Pin the hash you trust with --sha256",
    )
}

/// The asset `shown` is `length` bytes, more than `cap`.
pub(crate) fn asset_too_large(shown: &str, length: u64, cap: u64) -> Diagnostic {
    Diagnostic::error(
        verify::Code::ArchiveTooLarge,
        shown,
        format!("{shown} is {length} bytes; an asset is at most {cap} bytes"),
    )
    .help("this is not a release asset")
}

/// The unpacked release cannot be read whole as a vendored set (`problem` says why; `file` is
/// the file concerned, or empty).
pub(crate) fn release_not_read_whole(file: impl Into<String>, problem: &str) -> Diagnostic {
    Diagnostic::error(
        verify::Code::ArchiveTooLarge,
        file,
        format!("the release cannot be read whole as a vendored set: {problem}"),
    )
    .help(READ_WHOLE_HELP)
}

/// The release holds `held` files besides LICENSE, but only `read` were read as its vendored set.
pub(crate) fn release_files_not_read(held: usize, read: usize) -> Diagnostic {
    Diagnostic::error(
        verify::Code::ArchiveTooLarge,
        "",
        format!(
            "the release holds {held} files besides LICENSE, but {read} of them were read as its \
             vendored set"
        ),
    )
    .help(READ_WHOLE_HELP)
}

const READ_WHOLE_HELP: &str =
    "nothing was written; a release `bqsuite release` writes is always read whole";
