//! The stable codes of the proposal's findings.

bqsuite_core::finding_codes! {
    /// The findings about a proposal overlay.
    pub enum Code {
        ProposalConflict = "proposal-conflict",
        ProposalNotAdditive = "proposal-not-additive",
        AddedCaseKillsNoMutant = "added-case-kills-no-mutant",
    }
}
