//! The consumer-side schema-version gate (`schema_version_gate` in sqs, asb, pulsar, kafka,
//! artemis): decide from the native `bq-schema-version` property alone whether a message may go
//! on to the body decode or must be rejected unread.
//!
//! - absent, null, or a string that is empty or only ASCII whitespace -> decode;
//! - the string `"1"` exactly -> decode; every other string -> reject. Values are compared as
//!   they are, never trimmed, and the blank set is the six ASCII characters below only;
//! - ASB only (AMQP-typed properties): an integral number equal to 1, at any integer width,
//!   decodes; any other number, a floating-point value (even 1.0) and any other type reject.

use serde_json::{Number, Value};

use super::broker_table::GateSpec;
use crate::model::is_ascii_blank;
use crate::switch::gate as mutant;
use crate::switch::{javascript, php, python};

/// The value of the gate property as a manifest case describes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GateInput<'a> {
    /// The property is not on the message.
    Absent,
    /// The property is on the message with a null value.
    Null,
    /// A string value.
    Str(&'a str),
    /// A JSON number; `float_marker` is the case's `"value_type": "float"` (a real
    /// floating-point value even when the number is integral).
    Number {
        value: &'a Number,
        float_marker: bool,
    },
    /// A JSON boolean (on ASB: an AMQP boolean, which is not a number and rejects).
    Bool(bool),
    /// Any other JSON value (array, object).
    Other,
}

/// What the gate does with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateVerdict {
    /// Let the message through to the normal decode path.
    Decode,
    /// Reject / quarantine it without decoding the body.
    Reject,
}

impl GateVerdict {
    /// The manifest spelling (`decode` / `reject`).
    pub fn as_str(self) -> &'static str {
        match self {
            GateVerdict::Decode => "decode",
            GateVerdict::Reject => "reject",
        }
    }

    /// Parses the manifest spelling.
    pub fn parse(text: &str) -> Option<GateVerdict> {
        match text {
            "decode" => Some(GateVerdict::Decode),
            "reject" => Some(GateVerdict::Reject),
            _ => None,
        }
    }
}

/// The gate applied to a string property value.
pub fn gate_str(text: &str) -> GateVerdict {
    let decodes = mutant::string_decodes(text)
        .or_else(|| crate::switch::go::gate_decodes(text))
        .unwrap_or_else(|| text == "1" || is_ascii_blank(text));
    if decodes {
        GateVerdict::Decode
    } else {
        GateVerdict::Reject
    }
}

/// A native AMQP number as an ASB application property can carry it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AmqpNumber {
    Int32(i32),
    Int64(i64),
    UInt64(u64),
    Float32(f32),
    Float64(f64),
}

impl AmqpNumber {
    /// The AMQP type name, for messages.
    pub fn width(self) -> &'static str {
        match self {
            AmqpNumber::Int32(_) => "int32",
            AmqpNumber::Int64(_) => "int64",
            AmqpNumber::UInt64(_) => "uint64",
            AmqpNumber::Float32(_) => "float32",
            AmqpNumber::Float64(_) => "float64",
        }
    }
}

/// The gate applied to a native AMQP number: integral 1 at any width decodes, everything else
/// (other integers, any floating-point value) rejects.
pub fn gate_amqp_number(number: AmqpNumber) -> GateVerdict {
    if let Some(verdict) = language_habit_number(number) {
        return verdict;
    }
    match number {
        AmqpNumber::Int32(1) | AmqpNumber::Int64(1) | AmqpNumber::UInt64(1) => GateVerdict::Decode,
        AmqpNumber::Int64(i) if mutant::narrowed_int_decodes(i as i32) => GateVerdict::Decode,
        AmqpNumber::UInt64(u) if mutant::narrowed_int_decodes(u as i32) => GateVerdict::Decode,
        AmqpNumber::Float32(f) if mutant::float_one_decodes(Some(f64::from(f))) => {
            GateVerdict::Decode
        }
        AmqpNumber::Float64(f) if mutant::float_one_decodes(Some(f)) => GateVerdict::Decode,
        _ => GateVerdict::Reject,
    }
}

/// Largest magnitude (exclusive) an f64 may have to be converted to i64 without saturating.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// The native encodings a runner must hand an ASB SDK for a JSON number case:
/// - with the float marker: float32 and float64;
/// - an integer: int32 (when it fits) and int64 (when it fits), else uint64;
/// - a non-integral number: float64;
/// - an unmarked number written with a fraction or exponent but integral in value (`1.0`,
///   `1e0`): treated as the integer it equals, since JSON does not distinguish them and the
///   suite marks real floats explicitly.
///
/// Never empty.
pub fn asb_number_encodings(value: &Number, float_marker: bool) -> Vec<AmqpNumber> {
    let as_float = value.as_f64().unwrap_or(f64::NAN);
    if float_marker {
        // The narrowing to f32 may round; any floating-point value rejects, so it cannot
        // change a verdict.
        return vec![
            AmqpNumber::Float32(as_float as f32),
            AmqpNumber::Float64(as_float),
        ];
    }
    let integer = match (value.as_i64(), value.as_u64()) {
        (Some(i), _) => Some(i),
        (None, Some(u)) => return vec![AmqpNumber::UInt64(u)],
        (None, None) => {
            if as_float.is_finite()
                && as_float.fract() == 0.0
                && (-TWO_POW_63..TWO_POW_63).contains(&as_float)
            {
                Some(as_float as i64)
            } else {
                None
            }
        }
    };
    match integer {
        Some(i) => {
            let mut out = Vec::with_capacity(2);
            if let Ok(narrow) = i32::try_from(i) {
                out.push(AmqpNumber::Int32(narrow));
            }
            out.push(AmqpNumber::Int64(i));
            out
        }
        None => vec![AmqpNumber::Float64(as_float)],
    }
}

/// The gate verdict of a binding with gate `spec` for `input`. For an ASB number every width of
/// [`asb_number_encodings`] is evaluated; the verdict is `Decode` only if all of them decode.
/// Bindings whose properties are strings treat a number or other non-string as a reject.
pub fn gate(spec: &GateSpec, input: GateInput<'_>) -> GateVerdict {
    if let Some(verdict) = language_habit(spec, input) {
        return verdict;
    }
    match input {
        GateInput::Null if mutant::null_is_text() => gate_str("null"),
        GateInput::Absent | GateInput::Null => GateVerdict::Decode,
        GateInput::Str(text) => gate_str(text),
        GateInput::Number {
            value,
            float_marker,
        } if spec.number_value => {
            let all_decode = asb_number_encodings(value, float_marker)
                .into_iter()
                .all(|n| gate_amqp_number(n) == GateVerdict::Decode);
            if all_decode {
                GateVerdict::Decode
            } else {
                GateVerdict::Reject
            }
        }
        GateInput::Bool(b) if spec.number_value && mutant::bool_decodes(b) => GateVerdict::Decode,
        GateInput::Number { .. } | GateInput::Bool(_) | GateInput::Other => GateVerdict::Reject,
    }
}

/// The decision of an active mutant of the `php`, `javascript` or `python` family, which read
/// the property as their language hands it over (`None`: no such mutant is on).
fn language_habit(spec: &GateSpec, input: GateInput<'_>) -> Option<GateVerdict> {
    crate::switch::active()?;
    let value = match input {
        GateInput::Absent => None,
        GateInput::Null => Some(Value::Null),
        GateInput::Str(text) => Some(Value::from(text)),
        GateInput::Number { value, .. } => Some(Value::Number(value.clone())),
        GateInput::Bool(b) => Some(Value::Bool(b)),
        GateInput::Other => return None,
    };
    habit_verdict(value.as_ref(), spec.number_value)
}

/// [`language_habit`] for a native AMQP number (an ASB property).
fn language_habit_number(number: AmqpNumber) -> Option<GateVerdict> {
    crate::switch::active()?;
    let value = match number {
        AmqpNumber::Int32(i) => Value::from(i),
        AmqpNumber::Int64(i) => Value::from(i),
        AmqpNumber::UInt64(u) => Value::from(u),
        AmqpNumber::Float32(f) => Value::from(f64::from(f)),
        AmqpNumber::Float64(f) => Value::from(f),
    };
    habit_verdict(Some(&value), true)
}

fn habit_verdict(value: Option<&Value>, number_value: bool) -> Option<GateVerdict> {
    let decodes = php::gate_decodes(value, number_value)
        .or_else(|| javascript::gate_decodes(value, number_value))
        .or_else(|| python::gate_decodes(value))?;
    Some(if decodes {
        GateVerdict::Decode
    } else {
        GateVerdict::Reject
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::bindings::broker_table::{BINDINGS, binding};

    fn all() -> Vec<GateSpec> {
        BINDINGS.iter().filter_map(|b| b.gate).collect()
    }

    fn spec(section: &str) -> GateSpec {
        binding(section).and_then(|b| b.gate).expect("gate")
    }

    #[test]
    fn string_table() {
        use GateVerdict::{Decode, Reject};
        let table: &[(&str, GateVerdict)] = &[
            ("1", Decode),
            ("", Decode),
            (" ", Decode),
            ("\t\n", Decode),
            ("\u{0B}\u{0C}\r", Decode),
            ("  \t \r\n\u{0B}", Decode),
            ("2", Reject),
            ("01", Reject),
            ("x", Reject),
            (" 1", Reject),
            ("1 ", Reject),
            ("\t1\n", Reject),
            ("\u{A0}", Reject),
            ("\u{85}", Reject),
            ("\u{3000}", Reject),
            ("\u{FEFF}", Reject),
            ("\u{FEFF}1", Reject),
            ("1\u{FEFF}", Reject),
            ("\u{2003}", Reject),
            ("\u{1C}", Reject),
            ("1.0", Reject),
            ("+1", Reject),
            ("\0", Reject),
        ];
        for binding in all() {
            for (text, want) in table {
                assert_eq!(
                    gate(&binding, GateInput::Str(text)),
                    *want,
                    "{binding:?} {text:?}"
                );
            }
        }
    }

    #[test]
    fn vertical_tab_is_blank_unlike_std() {
        assert!(!'\u{0B}'.is_ascii_whitespace());
        assert!(is_ascii_blank("\u{0B}"));
        assert!(is_ascii_blank(""));
        assert!(!is_ascii_blank("\u{A0}"));
    }

    #[test]
    fn absent_and_null_decode_everywhere() {
        for binding in all() {
            assert_eq!(gate(&binding, GateInput::Absent), GateVerdict::Decode);
            assert_eq!(gate(&binding, GateInput::Null), GateVerdict::Decode);
        }
    }

    fn num(value: &serde_json::Value) -> &Number {
        match value {
            serde_json::Value::Number(n) => n,
            _ => panic!("test value is not a number"),
        }
    }

    #[test]
    fn asb_number_table() {
        use GateVerdict::{Decode, Reject};
        let table = [
            (json!(1), false, Decode),
            (json!(2), false, Reject),
            (json!(0), false, Reject),
            (json!(-1), false, Reject),
            (json!(1.5), false, Reject),
            (json!(1.0), true, Reject),
            (json!(4294967297_i64), false, Reject),
            (json!(u64::MAX), false, Reject),
            (json!(1e300), false, Reject),
            (json!(1.0), false, Decode),
        ];
        for (value, marker, want) in table {
            let input = GateInput::Number {
                value: num(&value),
                float_marker: marker,
            };
            assert_eq!(gate(&spec("asb"), input), want, "{value} marker={marker}");
        }
        assert_eq!(gate(&spec("asb"), GateInput::Other), Reject);
        assert_eq!(gate(&spec("asb"), GateInput::Bool(true)), Reject);
    }

    #[test]
    fn widths_cover_int32_and_int64() {
        let one = json!(1);
        assert_eq!(
            asb_number_encodings(num(&one), false),
            vec![AmqpNumber::Int32(1), AmqpNumber::Int64(1)]
        );
        let big = json!(4294967297_i64);
        assert_eq!(
            asb_number_encodings(num(&big), false),
            vec![AmqpNumber::Int64(4294967297)]
        );
        let float = json!(1.0);
        let encodings = asb_number_encodings(num(&float), true);
        assert_eq!(
            encodings,
            vec![AmqpNumber::Float32(1.0), AmqpNumber::Float64(1.0)]
        );
        assert!(
            encodings
                .iter()
                .all(|n| gate_amqp_number(*n) == GateVerdict::Reject)
        );
    }

    #[test]
    fn string_bindings_reject_numbers() {
        let one = json!(1);
        for binding in ["sqs", "pulsar", "kafka", "artemis"].map(spec) {
            let input = GateInput::Number {
                value: num(&one),
                float_marker: false,
            };
            assert_eq!(gate(&binding, input), GateVerdict::Reject);
            assert_eq!(gate(&binding, GateInput::Other), GateVerdict::Reject);
        }
    }

    #[test]
    fn verdict_spelling_round_trips() {
        for v in [GateVerdict::Decode, GateVerdict::Reject] {
            assert_eq!(GateVerdict::parse(v.as_str()), Some(v));
        }
        assert_eq!(GateVerdict::parse("Decode"), None);
    }
}
