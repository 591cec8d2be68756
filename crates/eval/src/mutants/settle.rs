//! Settle mutants: how a consumer settles a version-gated delivery (`version_gate_<binding>`,
//! ADR-0037) and a delivery at the Pulsar max-attempts cap (`pulsar_exhaustion`, ADR-0036).

use super::info::MutantInfo;
use crate::switch::Mutant;

/// Every version-gate settle section.
const GATE_SETTLE_SECTIONS: &[&str] = &[
    "version_gate_pulsar",
    "version_gate_artemis",
    "version_gate_sqs",
    "version_gate_asb",
];

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::VersionGateCountedAsFailure,
        id: "version-gate-counted-as-failure",
        family: "settle",
        rule: "a version-gated delivery is settled on its first delivery, never retried, whatever the attempts",
        habit: "routing the gate rejection through the handler-failure path, which retries below max attempts",
        sections: GATE_SETTLE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::VersionGateReleaseHonoured,
        id: "version-gate-release-honoured",
        family: "settle",
        rule: "the release strategy behaves as fail for a version-gated delivery: it is never released",
        habit: "applying the configured on_unknown_urn strategy verbatim, so the delivery is requeued forever",
        sections: GATE_SETTLE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::VersionGateWriteFailureAcked,
        id: "version-gate-write-failure-acked",
        family: "settle",
        rule: "a failed write to <queue>.dlq leaves the delivery unsettled (not acknowledged)",
        habit: "acknowledging in a finally block, so a failed DLQ write loses the message",
        sections: GATE_SETTLE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::VersionGateRecordReencoded,
        id: "version-gate-record-reencoded",
        family: "settle",
        rule: "the DLQ record of a version-gated delivery is the incoming body byte for byte",
        habit: "decoding the body and re-encoding it before the write (canonical whitespace, numbers, key order)",
        sections: GATE_SETTLE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::VersionGateDeadLetterStrategyNeedsSetting,
        id: "version-gate-dead-letter-strategy-needs-setting",
        family: "settle",
        rule: "the dead_letter strategy writes the raw record even when the dead-letter setting is off",
        habit: "checking the dead-letter setting before any DLQ write, whatever the strategy asked for",
        sections: GATE_SETTLE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::VersionGateOffAcks,
        id: "version-gate-off-acks",
        family: "settle",
        rule: "SQS and ASB leave an unwritten gated delivery to the broker (native), not acknowledged",
        habit: "copying the Pulsar / Artemis acknowledge-and-log onto SQS and ASB",
        sections: &["version_gate_sqs", "version_gate_asb"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionComparesReconciled,
        id: "exhaustion-compares-reconciled",
        family: "settle",
        rule: "the cap compares the counted attempts (reconciled + 1, this delivery included) with max_attempts",
        habit: "comparing the attempts read from the message with the cap, one delivery too late",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionRecordAttemptsUncounted,
        id: "exhaustion-record-attempts-uncounted",
        family: "settle",
        rule: "dead_letter.attempts of an exhausted delivery is the counted attempts (reconciled + 1)",
        habit: "writing the attempts read from the message into the record, without this delivery",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionPropertyIgnored,
        id: "exhaustion-bq-attempts-ignored",
        family: "settle",
        rule: "a valid bq-attempts property replaces the body's attempts before the cap is applied",
        habit: "reading the attempts from the decoded body only",
        sections: &["pulsar_exhaustion"],
    },
    // SURVIVES the real 1.8.0 suite (every bq_attempts there is valid): killed by the
    // proposal/manifest.json case `pulsar_exhaustion/reconciliation-invalid-bq-attempts-keeps-body`.
    MutantInfo {
        mutant: Mutant::ExhaustionInvalidPropertyReadsZero,
        id: "exhaustion-invalid-bq-attempts-reads-zero",
        family: "settle",
        rule: "an invalid bq-attempts property is ignored: the body's attempts stay the count",
        habit: "n, _ := strconv.Atoi(prop) (or a catch that yields 0), so garbage replaces the body's attempts with 0",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionPoisonRetried,
        id: "exhaustion-poison-retried",
        family: "settle",
        rule: "poison with dead-lettering on is dead-lettered at once, without a retry",
        habit: "sending poison through the handler-failure path, which retries it up to the cap",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionReleaseHonoured,
        id: "exhaustion-poison-release-honoured",
        family: "settle",
        rule: "release on poison with dead-lettering off takes the bounded fail path (retry, then drop)",
        habit: "releasing poison as the strategy says, so it comes back forever",
        sections: &["pulsar_exhaustion"],
    },
    MutantInfo {
        mutant: Mutant::ExhaustionDeadLetterStrategyNeedsSetting,
        id: "exhaustion-dead-letter-strategy-needs-setting",
        family: "settle",
        rule: "the dead_letter strategy dead-letters unknown URNs and poison whatever the dead-letter setting",
        habit: "checking the dead-letter setting before any DLQ write, whatever the strategy asked for",
        sections: &["pulsar_exhaustion"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "settle",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[(
            Mutant::ExhaustionInvalidPropertyReadsZero,
            "pulsar_exhaustion",
            "reconciliation-invalid-bq-attempts-keeps-body",
        )],
        separates: &[],
    };

    family_tests!(FAMILY);
}
