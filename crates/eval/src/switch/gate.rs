//! The variations of the version-gate (`gate`) mutants: what the model does instead of the rule
//! while one of them is switched on. Their catalogue entries are in [`crate::mutants::gate`].

use super::{Mutant, on};
use crate::model::blank::{ascii_trim, is_ascii_blank};

/// The decode/reject decision for a string property under the active mutant, as `Some(true)`
/// for decode (`None`: the rule applies).
pub fn string_decodes(text: &str) -> Option<bool> {
    if on(Mutant::GateTrimsValue) {
        let trimmed = ascii_trim(text);
        Some(trimmed == "1" || trimmed.is_empty())
    } else if on(Mutant::GateUnicodeBlank) {
        Some(text == "1" || text.chars().all(char::is_whitespace))
    } else if on(Mutant::GateParsesInteger) {
        Some(text.parse::<i64>() == Ok(1) || is_ascii_blank(text))
    } else {
        None
    }
}

/// True when the active mutant reads a float 1.0 as integral 1.
pub fn float_one_decodes(value: Option<f64>) -> bool {
    on(Mutant::GateFloatOneAccepted) && value == Some(1.0)
}

/// True when the active mutant reads an integer narrowed to 32 bits, `narrowed`, as 1.
pub fn narrowed_int_decodes(narrowed: i32) -> bool {
    on(Mutant::GateAsbNarrowsToInt32) && narrowed == 1
}

/// True when the active mutant lets the boolean `value` through as if it were 1.
pub fn bool_decodes(value: bool) -> bool {
    on(Mutant::GateAsbBooleanTrueIsOne) && value
}

/// True when the active mutant turns a null property into the text "null".
pub fn null_is_text() -> bool {
    on(Mutant::GateNullStringified)
}
