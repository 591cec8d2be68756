//! `accepts(envelope)`: the consumer's yes/no gate, stricter than decode. Decode tolerates an
//! older producer's message that has no usable `trace_id`; `accepts` does not: it is true only
//! when decode accepts the envelope AND `trace_id` is a string that is not blank under the
//! ASCII set (absent, non-string, empty or only space, `\t`, `\n`, `\v`, `\f`, `\r` make it
//! false). A Unicode space such as U+00A0 is part of the value, so it is not blank.

use super::blank::is_ascii_blank;
use super::decode::{Decoded, Rejection};
use crate::switch::decode as mutant;

/// Why `accepts` is false for an envelope that decode accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Decode itself rejected the envelope.
    Rejected,
    /// `trace_id` is absent or not a string.
    NoTraceId,
    /// `trace_id` is blank under the ASCII set.
    BlankTraceId,
}

impl Refusal {
    /// A short phrase for verdict messages.
    pub fn label(self) -> &'static str {
        match self {
            Refusal::Rejected => "decode rejects it",
            Refusal::NoTraceId => "no string trace_id",
            Refusal::BlankTraceId => "the trace_id is blank",
        }
    }
}

/// `Ok(())` when `accepts` is true for the envelope that decoded to `result`, else why not.
pub fn accepts(result: &Result<Decoded, Rejection>) -> Result<(), Refusal> {
    let message = result.as_ref().map_err(|_| Refusal::Rejected)?;
    match message.trace_id.as_deref() {
        None => Err(Refusal::NoTraceId),
        Some(t) if is_blank_trace_id(t) => Err(Refusal::BlankTraceId),
        Some(_) => Ok(()),
    }
}

fn is_blank_trace_id(t: &str) -> bool {
    mutant::trace_id_blank_override(t)
        .or_else(|| crate::switch::php::blank(t))
        .or_else(|| crate::switch::python::blank(t))
        .unwrap_or_else(|| is_ascii_blank(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::decode::decode;
    use crate::model::testkit::order_created_with;
    use serde_json::{Value, json};

    #[test]
    fn trace_id_rules() {
        let table: Vec<(Value, Result<(), Refusal>)> = vec![
            (json!("7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"), Ok(())),
            (json!(" x "), Ok(())),
            (json!("\u{00A0}"), Ok(())),
            (json!("\u{2003}"), Ok(())),
            (json!(""), Err(Refusal::BlankTraceId)),
            (json!(" "), Err(Refusal::BlankTraceId)),
            (json!("\t\n\r"), Err(Refusal::BlankTraceId)),
            (json!("\u{0B}\u{0C}"), Err(Refusal::BlankTraceId)),
            (json!(5), Err(Refusal::NoTraceId)),
            (Value::Null, Err(Refusal::NoTraceId)),
        ];
        for (trace_id, want) in table {
            let text = order_created_with(&[("trace_id", trace_id.clone())]);
            let result = decode(&text);
            assert!(result.is_ok(), "decode tolerates {trace_id}");
            assert_eq!(accepts(&result), want, "{trace_id}");
        }
        let absent = decode(&order_created_with(&[("-trace_id", Value::Null)]));
        assert_eq!(accepts(&absent), Err(Refusal::NoTraceId));
        let rejected = decode(&order_created_with(&[("data", json!([]))]));
        assert_eq!(accepts(&rejected), Err(Refusal::Rejected));
    }
}
