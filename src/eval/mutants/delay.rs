//! SQS delay mutants: the DelaySeconds cap and FIFO queues.

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::DelayCapNotEnforced,
        id: "delay-cap-not-enforced",
        family: "delay",
        rule: "a delay above 900 s makes the send fail",
        habit: "passing DelaySeconds through and letting the broker decide",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayClampedToCap,
        id: "delay-clamped-to-cap",
        family: "delay",
        rule: "a delay above 900 s makes the send fail, it is not shortened",
        habit: "min(delay, 900): silently delivering earlier than asked",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayFifoDelaySent,
        id: "delay-fifo-delay-sent",
        family: "delay",
        rule: "a FIFO queue has no per-message delay: a positive delay fails",
        habit: "sending DelaySeconds on every queue type",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::DelayFifoZeroSet,
        id: "delay-fifo-zero-set",
        family: "delay",
        rule: "a FIFO send without delay leaves DelaySeconds unset",
        habit: "always setting DelaySeconds, 0 included (which a FIFO queue refuses)",
        sections: &["delay"],
    },
];

/// The `DelaySeconds` a standard queue sends above the cap (`None`: the send fails).
pub fn standard_above_cap(delay_seconds: u64, cap: u64) -> Option<u64> {
    if on(Mutant::DelayCapNotEnforced) {
        Some(delay_seconds)
    } else if on(Mutant::DelayClampedToCap) {
        Some(cap)
    } else {
        None
    }
}

/// True when a FIFO queue sends a positive delay.
pub fn fifo_sends_delay() -> bool {
    on(Mutant::DelayFifoDelaySent)
}

/// True when a FIFO send without delay sets `DelaySeconds = 0`.
pub fn fifo_sets_zero() -> bool {
    on(Mutant::DelayFifoZeroSet)
}
