//! Idempotency mutants: the dedup key and the seen-set decisions (ADR-0022).

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::IdempotencyMarksBeforeHandler,
        id: "idempotency-marks-before-handler",
        family: "idempotency",
        rule: "only a successful run remembers the id; a throw leaves it unmarked",
        habit: "SETNX-style marking before the handler runs (an in-flight lock, not post-success dedupe)",
        sections: &["idempotency"],
    },
    MutantInfo {
        mutant: Mutant::IdempotencyKeyedOnTraceId,
        id: "idempotency-keyed-on-trace-id",
        family: "idempotency",
        rule: "the dedup key is meta.id verbatim, never trace_id",
        habit: "keying on the correlation id, which every message of one causal chain shares",
        sections: &["idempotency"],
    },
    MutantInfo {
        mutant: Mutant::IdempotencyEmptyIdDeduped,
        id: "idempotency-empty-id-deduped",
        family: "idempotency",
        rule: "a delivery with an empty or absent meta.id always runs (fail open)",
        habit: "using the empty string as a key like any other, so the second id-less message is dropped",
        sections: &["idempotency"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};

    const FAMILY: Family = Family {
        name: "idempotency",
        mutants: MUTANTS,
        proposal_kills: &[],
        separates: &[],
    };

    family_tests!(FAMILY);
}
