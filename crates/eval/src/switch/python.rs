//! The variations of the Python-habit (`python`) mutants: `re.match` with `$`, `str.strip()`,
//! `isinstance(value, int)` (in the poison classifier and in decode's `attempts`), `str(float)`
//! and `uuid4().hex`, as the model does them while one of them is switched on. Their catalogue
//! entries are in [`crate::mutants::python`].

use serde_json::Value;

use super::{Mutant, on};
use crate::model::blank::is_ascii_blank;

/// `str.isspace()` for one character: Unicode whitespace, and the separators U+001C..U+001F.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1C}'..='\u{1F}').contains(&c)
}

/// The gate decision (`Some(true)`: decode) under the active Python mutant for the property
/// `value` (`None`: absent). `None`: the rule applies.
pub fn gate_decodes(value: Option<&Value>) -> Option<bool> {
    let Some(Value::String(text)) = value else {
        return None;
    };
    if on(Mutant::PyGateRegexDollar) {
        // re.match(r"^1$", value): `$` also matches before a final newline
        Some(text == "1" || text == "1\n" || is_ascii_blank(text))
    } else if on(Mutant::PyStripDefault) {
        // not value.strip() means "no version"
        Some(text == "1" || text.chars().all(py_space))
    } else {
        None
    }
}

/// `value.strip()` under the active mutant (`None`: the rule applies).
pub fn strip(text: &str) -> Option<&str> {
    on(Mutant::PyStripDefault).then(|| text.trim_matches(py_space))
}

/// Whether `not value.strip()` holds under the active mutant (`None`: the rule applies).
pub fn blank(text: &str) -> Option<bool> {
    on(Mutant::PyStripDefault).then(|| text.chars().all(py_space))
}

/// True when the active mutant takes a JSON boolean for an integer (`isinstance(True, int)`).
pub fn bool_is_int() -> bool {
    on(Mutant::PyBoolIsInt)
}

/// An `attempts` value as the active mutant's integer check reads it (`None`: the rule
/// applies): `isinstance(True, int)` holds and `True == 1`, so `true` counts 1 and `false` 0.
pub fn bool_as_int(value: &Value) -> Option<u64> {
    match value {
        Value::Bool(b) if bool_is_int() => Some(u64::from(*b)),
        _ => None,
    }
}

/// The text of a millisecond header under the active mutant (`None`: the rule applies): the
/// delay went through seconds as a float, so `str()` writes `"20000.0"`.
pub fn ms_header(ms: u64) -> Option<String> {
    on(Mutant::PyFloatDelayHeader).then(|| format!("{ms}.0"))
}

/// The `meta.id` make writes for the generated `id` under the active mutant (`None`: the rule
/// applies): `uuid.uuid4().hex`, the 32 hex digits without their hyphens.
pub fn message_id(id: &str) -> Option<String> {
    on(Mutant::PyMessageIdUuidHex).then(|| id.replace('-', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_strip() {
        super::super::with_mutant(Mutant::PyStripDefault, || {
            assert_eq!(strip("\u{1F}\u{a0}urn:a\u{3000}"), Some("urn:a"));
            assert_eq!(strip("\u{0}urn:a"), Some("\u{0}urn:a"));
        });
    }

    #[test]
    fn python_bool_is_int() {
        let values = [Value::Bool(true), Value::Bool(false), Value::from(1)];
        let read = || values.iter().map(bool_as_int).collect::<Vec<_>>();
        assert_eq!(read(), [None, None, None]);
        super::super::with_mutant(Mutant::PyBoolIsInt, || {
            assert_eq!(read(), [Some(1), Some(0), None]);
        });
    }
}
