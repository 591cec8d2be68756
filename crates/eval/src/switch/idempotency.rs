//! The variations of the idempotency mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::idempotency`].

use super::{Mutant, on};

/// The pointer of the dedup key in the envelope.
pub fn key_pointer() -> &'static str {
    if on(Mutant::IdempotencyKeyedOnTraceId) {
        "/trace_id"
    } else {
        "/meta/id"
    }
}

/// True when an empty or absent id is used as the key "".
pub fn empty_id_is_a_key() -> bool {
    on(Mutant::IdempotencyEmptyIdDeduped)
}

/// True when every run remembers the id, whatever its outcome.
pub fn marks_before_handler() -> bool {
    on(Mutant::IdempotencyMarksBeforeHandler)
}
