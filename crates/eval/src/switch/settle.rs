//! The variations of the settle mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::settle`].

use super::{Mutant, on};

/// The max-attempts default a gated delivery would be counted against by a mutant.
const DEFAULT_MAX_ATTEMPTS: u64 = 3;

/// The off-settle word of a binding as the active mutant uses it.
pub fn gate_off_outcome(off: &'static str) -> &'static str {
    if on(Mutant::VersionGateOffAcks) {
        "ack"
    } else {
        off
    }
}

/// `Some("retry")` when the active mutant counts the gated delivery as a failed attempt that is
/// still below the cap.
pub fn gate_counted(bq_attempts: u64) -> Option<&'static str> {
    (on(Mutant::VersionGateCountedAsFailure)
        && bq_attempts.saturating_add(1) < DEFAULT_MAX_ATTEMPTS)
        .then_some("retry")
}

/// True when the active mutant releases a gated delivery under the release strategy.
pub fn gate_release_honoured() -> bool {
    on(Mutant::VersionGateReleaseHonoured)
}

/// Whether the dead_letter strategy writes, given the dead-letter setting.
pub fn gate_strategy_writes(dead_letter: bool) -> bool {
    dead_letter || !on(Mutant::VersionGateDeadLetterStrategyNeedsSetting)
}

/// The outcome after a failed DLQ write.
pub fn gate_write_failed() -> &'static str {
    if on(Mutant::VersionGateWriteFailureAcked) {
        "ack"
    } else {
        "unsettled"
    }
}

/// The record the active mutant writes for `incoming` (`None`: the rule applies). A body that
/// is not JSON cannot be re-encoded and is written as it is.
pub fn gate_record(incoming: &str) -> Option<String> {
    if !on(Mutant::VersionGateRecordReencoded) {
        return None;
    }
    let value = bqsuite_core::json::parse_value(incoming).ok()?;
    serde_json::to_string(&value).ok()
}

/// The `bq-attempts` property (`text`, parsed as `parsed`) as the active mutant reads it.
pub fn exhaustion_property(text: Option<&str>, parsed: Option<u64>) -> Option<u64> {
    if on(Mutant::ExhaustionPropertyIgnored) {
        None
    } else if on(Mutant::ExhaustionInvalidPropertyReadsZero) && text.is_some() {
        Some(parsed.unwrap_or(0))
    } else {
        parsed
    }
}

/// The attempts compared with the cap.
pub fn exhaustion_compared(reconciled: u64, counted: u64) -> u64 {
    if on(Mutant::ExhaustionComparesReconciled) {
        reconciled
    } else {
        counted
    }
}

/// The `dead_letter.attempts` of an exhausted delivery's record.
pub fn exhaustion_record_attempts(reconciled: u64, counted: u64) -> u64 {
    if on(Mutant::ExhaustionRecordAttemptsUncounted) {
        reconciled
    } else {
        counted
    }
}

/// Whether the dead_letter strategy writes, given the dead-letter setting.
pub fn exhaustion_strategy_writes(dead_letter: bool) -> bool {
    dead_letter || !on(Mutant::ExhaustionDeadLetterStrategyNeedsSetting)
}

/// True when the active mutant releases poison under the release strategy.
pub fn exhaustion_release_honoured() -> bool {
    on(Mutant::ExhaustionReleaseHonoured)
}

/// True when the active mutant retries poison before dead-lettering it.
pub fn exhaustion_poison_retried() -> bool {
    on(Mutant::ExhaustionPoisonRetried)
}
