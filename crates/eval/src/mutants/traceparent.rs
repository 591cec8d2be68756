//! Traceparent mutants: the header structure, its flags and the trace_id fallback. (Version
//! `ff` and upper-case hex are not mutated: the section leaves them to the W3C parsers.)

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    // Survives the real 1.8.0 suite (every envelope trace_id there is lowercase): see
    // proposal/manifest.json, traceparent `uppercase-trace-id-falls-back-lowercase`.
    MutantInfo {
        mutant: Mutant::TraceparentFallbackCaseKept,
        id: "traceparent-fallback-case-kept",
        family: "traceparent",
        rule: "the fallback trace id is the UUID's 128 bits as lowercase hex, whatever the case of the envelope's trace_id",
        habit: "removing the dashes and keeping the letters as the producer wrote them",
        sections: &["traceparent"],
    },
    // This and traceparent-no-fallback fail exactly the same cases (every fallback): only a
    // trace_id without hyphens could tell them apart, the open decision "the traceparent
    // fallback from a trace_id that is not a hyphenated UUID" in
    // docs/suites/babelqueue-proposal.md.
    MutantInfo {
        mutant: Mutant::TraceparentFallbackDashesKept,
        id: "traceparent-fallback-dashes-kept",
        family: "traceparent",
        rule: "the fallback trace id has the dashes of the UUID removed",
        habit: "using the envelope's trace_id string verbatim as the trace id",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentNoFallback,
        id: "traceparent-no-fallback",
        family: "traceparent",
        rule: "a malformed or absent header falls back to the envelope's trace_id",
        habit: "returning an empty (invalid) span context when the header does not parse",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentTrailingFieldsAccepted,
        id: "traceparent-trailing-fields-accepted",
        family: "traceparent",
        rule: "a version-00 header has exactly four fields: a fifth makes it malformed",
        habit: "split('-', 4) or an unanchored regex that reads the first four fields and ignores the rest",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentFlagsForcedSampled,
        id: "traceparent-flags-forced-sampled",
        family: "traceparent",
        rule: "the extracted flags are the header's own (00 stays not sampled)",
        habit: "building the remote parent with TraceFlags.SAMPLED instead of the header's flags",
        sections: &["traceparent"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "traceparent",
        mutants: MUTANTS,
        proposal_kills: &[(
            Mutant::TraceparentFallbackCaseKept,
            "traceparent",
            "uppercase-trace-id-falls-back-lowercase",
        )],
        separates: &[],
    };

    family_tests!(FAMILY);
}
