//! The stable codes of `validate`'s findings.

bqsuite_core::finding_codes! {
    /// The findings of `validate`.
    pub enum Code {
        MissingFile = "missing-file",
        JsonSyntax = "json-syntax",
        DuplicateKey = "duplicate-key",
        ManifestShape = "manifest-shape",
        SectionShape = "section-shape",
        SchemaVersion = "schema-version",
        VersionNotSemver = "version-not-semver",
        VersionMismatch = "version-mismatch",
        SectionsMap = "sections-map",
        SectionUnmapped = "section-unmapped",
        SectionMissingBlock = "section-missing-block",
        InvalidScope = "invalid-scope",
        ExceptionInvalid = "exception-invalid",
        DecisionInvalid = "decision-invalid",
        DuplicateCaseId = "duplicate-case-id",
        CaseShape = "case-shape",
        MisspelledField = "misspelled-field",
        MissingExpect = "missing-expect",
        MissingReason = "missing-reason",
        BadFileReference = "bad-file-reference",
        MissingFixture = "missing-fixture",
        OrphanFixture = "orphan-fixture",
        BadPointer = "bad-pointer",
        PointerNotInFixture = "pointer-not-in-fixture",
        SchemaDraft = "schema-draft",
        SchemaCompile = "schema-compile",
        FixtureSchemaInvalid = "fixture-schema-invalid",
        FixtureSchemaUnexpectedPass = "fixture-schema-unexpected-pass",
        ResultsExampleInvalid = "results-example-invalid",
        ExpectationMismatch = "expectation-mismatch",
        NoReferenceRule = "no-reference-rule",
        UnknownSection = "unknown-section",
    }
}
