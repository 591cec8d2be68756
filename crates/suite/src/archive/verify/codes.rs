//! The stable codes of an archive's refusals.

bqsuite_core::finding_codes! {
    /// Why an archive is refused.
    pub enum Code {
        ArchiveSymlink = "archive-symlink",
        ArchiveHardlink = "archive-hardlink",
        ArchiveSpecial = "archive-special",
        ArchiveUnknownType = "archive-unknown-type",
        ArchiveSparse = "archive-sparse",
        ArchiveExtensionHeader = "archive-extension-header",
        ArchiveAmbiguousHeader = "archive-ambiguous-header",
        ArchiveAbsolutePath = "archive-absolute-path",
        ArchiveDotdot = "archive-dotdot",
        ArchiveBadPath = "archive-bad-path",
        ArchiveOutsideRoot = "archive-outside-root",
        ArchiveMultipleRoots = "archive-multiple-roots",
        ArchiveDuplicate = "archive-duplicate",
        ArchiveCaseCollision = "archive-case-collision",
        ArchiveLayout = "archive-layout",
        ArchiveEntryTooLarge = "archive-entry-too-large",
        ArchiveTooLarge = "archive-too-large",
        ArchiveTooManyEntries = "archive-too-many-entries",
        ArchiveCorrupt = "archive-corrupt",
        ArchiveTruncated = "archive-truncated",
        ArchiveTrailingGarbage = "archive-trailing-garbage",
        ArchiveVersionMismatch = "archive-version-mismatch",
        ArchiveWrongSuite = "archive-wrong-suite",
    }
}
