//! Traceparent mutants: the header structure and the trace_id fallback.

use super::{Mutant, MutantInfo, on};

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::TraceparentFallbackCaseKept,
        id: "traceparent-fallback-case-kept",
        family: "traceparent",
        rule: "the fallback trace id is the envelope's trace_id without dashes, lower-cased",
        habit: "removing the dashes and keeping the letters as the producer wrote them",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentFallbackDashesKept,
        id: "traceparent-fallback-dashes-kept",
        family: "traceparent",
        rule: "the fallback trace id has the dashes of the UUID removed",
        habit: "using the envelope's trace_id string verbatim as the trace id",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentUpperHexAccepted,
        id: "traceparent-upper-hex-accepted",
        family: "traceparent",
        rule: "the header's hex digits are 0-9a-f only: an upper-case header falls back",
        habit: "a case-insensitive hex check ([0-9a-fA-F], int(x, 16))",
        sections: &["traceparent"],
    },
    MutantInfo {
        mutant: Mutant::TraceparentAnyVersion,
        id: "traceparent-any-version",
        family: "traceparent",
        rule: "a header whose version is not a valid W3C version (ff) falls back",
        habit: "skipping the version field altogether and reading the ids",
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
];

/// True when the version field is not checked.
pub fn any_version() -> bool {
    on(Mutant::TraceparentAnyVersion)
}

/// True when `A`-`F` count as hex digits.
pub fn upper_hex() -> bool {
    on(Mutant::TraceparentUpperHexAccepted)
}

/// The fallback trace id under the active mutant (`None`: the rule applies).
pub fn fallback(envelope_trace_id: &str) -> Option<String> {
    if on(Mutant::TraceparentFallbackCaseKept) {
        Some(envelope_trace_id.chars().filter(|c| *c != '-').collect())
    } else if on(Mutant::TraceparentFallbackDashesKept) {
        Some(envelope_trace_id.to_ascii_lowercase())
    } else if on(Mutant::TraceparentNoFallback) {
        Some(String::new())
    } else {
        None
    }
}
