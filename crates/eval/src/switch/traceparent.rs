//! The variations of the traceparent mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::traceparent`].

use super::{Mutant, on};

/// True when a header with more than four fields is read by its first four.
pub fn trailing_fields_accepted() -> bool {
    on(Mutant::TraceparentTrailingFieldsAccepted)
}

/// The flags the extracted context carries, given the header's.
pub fn flags(header_flags: &str) -> &str {
    if on(Mutant::TraceparentFlagsForcedSampled) {
        "01"
    } else {
        header_flags
    }
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
