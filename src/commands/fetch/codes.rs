//! The stable codes of `fetch`'s own findings.

bqsuite_core::finding_codes! {
    /// The findings of `fetch` about the release's checksum.
    pub enum Code {
        ChecksumMismatch = "checksum-mismatch",
        ChecksumMissing = "checksum-missing",
        ChecksumAmbiguous = "checksum-ambiguous",
    }
}
