//! The stable codes of `adopt`'s findings.

bqsuite_core::finding_codes! {
    /// The findings of adopting a proposal into the suite.
    pub enum Code {
        AdoptNothingProposed = "adopt-nothing-proposed",
        AdoptVersionInvalid = "adopt-version-invalid",
        AdoptVersionNotGreater = "adopt-version-not-greater",
        AdoptVersionInsufficient = "adopt-version-insufficient",
        AdoptNotAdditive = "adopt-not-additive",
        AdoptFixtureNameTaken = "adopt-fixture-name-taken",
        AdoptLeftover = "adopt-leftover",
    }
}
