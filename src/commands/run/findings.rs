//! `run`'s findings: one constructor each, owning its words. Whatever the adapter said is its own
//! text: the renderer escapes every message under the one rule for untrusted text.

use bqsuite_core::diag::Diagnostic;
use bqsuite_core::evaluator::Mismatch;
use bqsuite_suite::load::MANIFEST;

use super::codes::Code;

/// Case `case` got an answer other than its `expect`; `rerun` runs that case alone.
pub(crate) fn case_failed(case: &str, m: &Mismatch, rerun: &str) -> Diagnostic {
    Diagnostic::error(
        Code::RunCaseFailed,
        MANIFEST,
        format!(
            "case `{case}` fails: expected {} but the adapter answered {}",
            m.expected, m.derived
        ),
    )
    .help(format!(
        "fix the implementation (the case's `description` says what it checks), then run the \
         case alone: `{rerun}`"
    ))
}

/// Case `case` got no usable answer: `what` says what the adapter did; `rerun` runs that case
/// alone.
pub(crate) fn case_errored(case: &str, what: &str, rerun: &str) -> Diagnostic {
    Diagnostic::error(
        Code::RunCaseErrored,
        MANIFEST,
        format!("case `{case}` errored: {what}"),
    )
    .help(format!(
        "fix the adapter (it answers each request with one JSON line carrying its seq), then \
         run the case alone: `{rerun}`"
    ))
}

/// The adapter skipped an operation of case `case`.
pub(crate) fn case_skipped(case: &str, reason: &str) -> Diagnostic {
    Diagnostic::note(
        Code::RunCaseSkipped,
        MANIFEST,
        format!("case `{case}` skipped: {reason}"),
    )
}

/// The adapter (`command`) stopped during the run and was started again.
pub(crate) fn adapter_restarted(command: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::RunAdapterRestarted,
        MANIFEST,
        format!(
            "the adapter `{command}` stopped during the run and was started again once; the \
             case it was answering errored, and a second stop errors every case after it"
        ),
    )
    .help("run the adapter by hand on the errored case's request to see why it stops")
}

/// No case passed and none failed: every selected case was skipped.
pub(crate) fn nothing_checked(cases: usize) -> Diagnostic {
    Diagnostic::error(
        Code::RunNothingChecked,
        MANIFEST,
        format!("nothing was checked: the adapter skipped all {cases} cases it was given"),
    )
    .help("make the adapter answer at least one operation (decode, encode or handshake)")
}
