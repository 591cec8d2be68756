//! The proposal's findings, one constructor each: each owns its code, severity and words.

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;

/// The merge found a conflict (`message` says which); the site places it in the proposal.
pub(crate) fn merge_conflict(message: String) -> Diagnostic {
    Diagnostic::error(Code::ProposalConflict, String::new(), message)
        .help("a proposal only adds: new cases, sub-blocks, sections and fixtures")
}

/// The proposal's case `id` of `section` (in `file`) has the id of the suite's case shown at
/// `theirs`.
pub(crate) fn case_id_taken(file: String, section: &str, id: &str, theirs: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ProposalConflict,
        file,
        format!(
            "section `{section}` of the suite already has a case `{id}` ({theirs}); results files \
             could not tell the two apart, and a proposal only adds",
        ),
    )
    .help(format!(
        "give the proposal's case a `name` no case of section `{section}` has (or drop it, \
         if the suite's case already pins what it tests)",
    ))
}

/// The proposal changes the suite in `file` (`what` says how) instead of adding to it.
pub(crate) fn not_additive(file: String, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ProposalNotAdditive,
        file,
        format!("the proposal changes the suite: {what}"),
    )
    .help("a proposal for the next minor release only adds cases and fixtures")
}

/// A case the proposal adds lacks members that the suite's cases of its block all carry (`what`
/// names them): a runner written for the suite reads them and fails.
pub(crate) fn lacks_member(file: String, what: &str) -> Diagnostic {
    Diagnostic::error(Code::ProposalNotAdditive, file, what.to_string()).help(
        "give the case those members, with the values the rule gives them, as the block's \
             other cases have them; or, for a block the suite does not have, make it a section of \
             its own, which a runner of the release does not walk",
    )
}

/// The proposal's case `id` of `section` (in `file`) kills no mutant.
pub(crate) fn added_case_kills_no_mutant(file: &str, section: &str, id: &str) -> Diagnostic {
    Diagnostic::note(
        Code::AddedCaseKillsNoMutant,
        file,
        format!(
            "the proposal's case `{id}` of section `{section}` kills no mutant: every mutant of the \
             catalogue passes it, as the reference model does",
        ),
    )
    .help(
        "if the case was written for a surviving mutant, its input does not set the mutant's habit \
         apart from the rule: choose an input where the two give different results; if it pins \
         a rule no mutant breaks, keep it, and consider adding that mutant to the catalogue \
         (crates/eval/src/mutants/)",
    )
}
