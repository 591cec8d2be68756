//! The stable codes of `diff`'s own findings.

bqsuite_core::finding_codes! {
    /// The findings of `diff` about the version.
    pub enum Code {
        VersionBump = "version-bump",
        VersionBumpInsufficient = "version-bump-insufficient",
        VersionMissing = "version-missing",
        VersionInvalid = "version-invalid",
        SinceSkipped = "since-skipped",
    }
}
