//! The variations of the trim mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::trim`].

use super::{Mutant, on};
use crate::model::blank::ascii_trim;

fn php_default(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\0' | '\u{0B}')
}

fn whatwg_ascii(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// The trim make applies to the URN, as the active mutant does it.
pub fn make_trim_urn(s: &str) -> &str {
    if on(Mutant::TrimUnicode) {
        s.trim()
    } else if on(Mutant::TrimJavaTrim) {
        s.trim_matches(|c: char| c <= ' ')
    } else if on(Mutant::TrimPhpDefault) {
        s.trim_matches(php_default)
    } else if on(Mutant::TrimWithoutVerticalTab) {
        s.trim_matches(whatwg_ascii)
    } else {
        ascii_trim(s)
    }
}

/// The trim make applies to a supplied trace_id.
pub fn make_trim_trace_id(s: &str) -> &str {
    if on(Mutant::TrimUrnOnly) {
        s
    } else {
        make_trim_urn(s)
    }
}

/// Whether make's blank check looks at the untrimmed argument.
pub fn blank_check_before_trim() -> bool {
    on(Mutant::MakeBlankCheckBeforeTrim)
}

/// The job / trace_id encode writes: trimmed under [`Mutant::TrimOnReencode`].
pub fn reencode_value(s: &str) -> &str {
    if on(Mutant::TrimOnReencode) {
        ascii_trim(s)
    } else {
        s
    }
}
