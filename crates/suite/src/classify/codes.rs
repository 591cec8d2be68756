//! The kinds of change between two suites: each a stable code, with the bump it needs and what
//! it does.

use super::version::Bump;

bqsuite_core::finding_codes! {
    /// The kinds of change between two suites, each a stable code with the bump it needs.
    pub enum Code {
        CaseAdded = "case-added",
        CaseExtended = "case-extended",
        CaseLacksMember = "case-lacks-member",
        CaseRemoved = "case-removed",
        CaseChanged = "case-changed",
        SectionAdded = "section-added",
        SectionRemoved = "section-removed",
        SectionChanged = "section-changed",
        ScopeAdded = "scope-added",
        ScopeChanged = "scope-changed",
        ScopeRemoved = "scope-removed",
        ExceptionAdded = "exception-added",
        ExceptionChanged = "exception-changed",
        ExceptionRemoved = "exception-removed",
        MetadataAdded = "metadata-added",
        MetadataChanged = "metadata-changed",
        MetadataRemoved = "metadata-removed",
        FixtureAdded = "fixture-added",
        FixtureRemoved = "fixture-removed",
        FixtureChanged = "fixture-changed",
        FixtureCosmetic = "fixture-cosmetic",
        SchemaAdded = "schema-added",
        SchemaRemoved = "schema-removed",
        SchemaChanged = "schema-changed",
        SchemaCosmetic = "schema-cosmetic",
        DescriptionChanged = "description-changed",
        ManifestCosmetic = "manifest-cosmetic",
        DecisionChanged = "decision-changed",
        SuiteDescriptionChanged = "suite-description-changed",
        SuiteTitleChanged = "suite-title-changed",
    }
}

/// What a change does, as diff's counts and release notes group changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Something new: a case, section, scope, exception, metadata field, fixture or schema, or
    /// an extended case.
    Added,
    Removed,
    Changed,
    /// A description's wording only.
    Description,
    /// Formatting only: the parsed values are equal.
    Cosmetic,
}

impl Code {
    /// What a change of this kind does.
    pub fn effect(self) -> Effect {
        match self {
            Code::CaseAdded
            | Code::CaseExtended
            | Code::SectionAdded
            | Code::ScopeAdded
            | Code::ExceptionAdded
            | Code::MetadataAdded
            | Code::FixtureAdded
            | Code::SchemaAdded => Effect::Added,
            Code::CaseRemoved
            | Code::SectionRemoved
            | Code::ScopeRemoved
            | Code::ExceptionRemoved
            | Code::MetadataRemoved
            | Code::FixtureRemoved
            | Code::SchemaRemoved => Effect::Removed,
            Code::CaseChanged
            | Code::CaseLacksMember
            | Code::SectionChanged
            | Code::ScopeChanged
            | Code::ExceptionChanged
            | Code::MetadataChanged
            | Code::FixtureChanged
            | Code::SchemaChanged
            | Code::SuiteDescriptionChanged => Effect::Changed,
            Code::DescriptionChanged | Code::DecisionChanged | Code::SuiteTitleChanged => {
                Effect::Description
            }
            Code::FixtureCosmetic | Code::SchemaCosmetic | Code::ManifestCosmetic => {
                Effect::Cosmetic
            }
        }
    }

    /// The bump a change of this kind needs: an addition a minor release, a removal or a
    /// change a major one, wording and formatting a patch.
    pub fn bump(self) -> Bump {
        match self.effect() {
            Effect::Added => Bump::Minor,
            Effect::Removed | Effect::Changed => Bump::Major,
            Effect::Description | Effect::Cosmetic => Bump::Patch,
        }
    }
}
