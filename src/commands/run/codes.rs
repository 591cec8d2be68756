//! The stable codes of `run`'s findings.

bqsuite_core::finding_codes! {
    /// The findings of `run`.
    pub enum Code {
        RunCaseFailed = "run-case-failed",
        RunCaseErrored = "run-case-errored",
        RunCaseSkipped = "run-case-skipped",
        RunAdapterRestarted = "run-adapter-restarted",
        RunNothingChecked = "run-nothing-checked",
    }
}
