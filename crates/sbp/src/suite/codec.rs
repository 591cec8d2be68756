//! What a case's runner asks of the codec it judges: decode a transport message, encode a frame,
//! read a handshake payload. The model answers (with the mistakes it is run under) when
//! `validate`, `eval` and `mutants` re-derive the suite; an implementation's adapter answers when
//! `bqsuite run` grades it. Either way the runner compares the answers with the case's `expect`
//! by the same rules, so a case means one thing to every implementation.
//!
//! Answers are in the suite's own vocabulary: `{"frame": FRAME}`, `{"hex": "..."}`,
//! `{"handshake": {...}}`, or `{"error": {"code": N}}`. An `Err` ends the case with that verdict:
//! a skip, or a codec that gave no usable answer.

use serde_json::{Value, json};

use bqsuite_core::evaluator::Verdict;

use super::frame_json::{frame_from_json, frame_to_json, handshake_to_json};
use crate::hex::to_hex;
use crate::{Limits, Mistakes, ProtocolError, decode_handshake_with, decode_with, encode_with};

/// The three operations the suite's cases are made of.
pub trait Codec {
    /// Decodes one transport message: `{"frame": FRAME}` or `{"error": {"code": N}}`.
    fn decode(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict>;
    /// Encodes `frame` (a FRAME as the suite writes it): `{"hex": "..."}` or a refusal.
    fn encode(&mut self, frame: &Value, limits: &Limits) -> Result<Value, Verdict>;
    /// Reads a handshake payload: `{"handshake": {...}}` or a refusal.
    fn handshake(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict>;

    /// Decodes each of `messages`, in order: what [`Codec::decode`] answers for each, or the
    /// first verdict that ends the case. A codec behind a process answers these in one go.
    fn decode_all(&mut self, messages: &[Vec<u8>], limits: &Limits) -> Result<Vec<Value>, Verdict> {
        messages.iter().map(|m| self.decode(m, limits)).collect()
    }
}

/// The operations a case op is made of, by the names the adapter protocol gives them; `None`
/// for an op the suite's format does not have.
pub fn operations(case_op: &str) -> Option<&'static [&'static str]> {
    Some(match case_op {
        "decode" | "sequence" | "fuzz" => &["decode"],
        "encode" => &["encode"],
        "vector" | "roundtrip" => &["decode", "encode"],
        "handshake" => &["handshake"],
        _ => return None,
    })
}

/// `limits` with every key written out, as a request to an implementation carries them (so it
/// never needs to know the defaults).
pub fn limits_json(limits: &Limits) -> Value {
    json!({
        "max_frame": limits.max_frame,
        "max_handshake": limits.max_handshake,
        "max_error_message": limits.max_error_message,
        "max_error_details": limits.max_error_details,
    })
}

/// `{"error": {"code": N}}`.
fn refusal(e: &ProtocolError) -> Value {
    json!({ "error": { "code": e.code } })
}

/// The model, run under the mistakes it holds (none: the reference).
pub struct Model(pub Mistakes);

impl Codec for Model {
    fn decode(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict> {
        Ok(match decode_with(bytes, limits, self.0) {
            Ok(frame) => json!({ "frame": frame_to_json(&frame) }),
            Err(e) => refusal(&e),
        })
    }

    /// Encoding is always the model's: no mistake of the catalogue is an encoder's.
    fn encode(&mut self, frame: &Value, limits: &Limits) -> Result<Value, Verdict> {
        let frame = frame_from_json(frame, "")?;
        Ok(match encode_with(&frame, limits) {
            Ok(bytes) => json!({ "hex": to_hex(&bytes) }),
            Err(e) => refusal(&e),
        })
    }

    fn handshake(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict> {
        Ok(match decode_handshake_with(bytes, limits, self.0) {
            Ok(h) => json!({ "handshake": handshake_to_json(&h) }),
            Err(e) => refusal(&e),
        })
    }
}

/// The protocol's operations, each with the member of the runner's answer its value fills
/// (`decode` answers `{"frame": VALUE}`).
pub const OPERATIONS: [(&str, &str); 3] = [
    ("decode", "frame"),
    ("encode", "hex"),
    ("handshake", "handshake"),
];

/// The member of the runner's answer that operation `op`'s value fills.
pub fn answer_member(op: &str) -> Option<&'static str> {
    OPERATIONS
        .iter()
        .find(|(name, _)| *name == op)
        .map(|(_, member)| *member)
}

/// Answers one request of the adapter protocol with `codec`: the operation `op` on `input`
/// (`{"hex", "limits"}` or `{"frame", "limits"}`), as the runner's answer (`{"frame": ...}`,
/// `{"error": {"code": N}}`, ...). `Err` says, in words, why the request cannot be answered.
pub fn answer(codec: &mut dyn Codec, op: &str, input: &Value) -> Result<Value, String> {
    let mut limits = Limits::DEFAULT;
    if let Some(value) = input.get("limits") {
        super::case::apply_limits(value, "/input/limits", &mut limits).map_err(words)?;
    }
    let bytes = || -> Result<Vec<u8>, String> {
        let text = input
            .get("hex")
            .and_then(Value::as_str)
            .ok_or("`input.hex` must be a string of lowercase hex")?;
        crate::hex::parse_hex(text).map_err(|e| format!("`input.hex` is not lowercase hex: {e}"))
    };
    let answer = match op {
        "decode" => codec.decode(&bytes()?, &limits),
        "handshake" => codec.handshake(&bytes()?, &limits),
        "encode" => match input.get("frame") {
            Some(frame) => codec.encode(frame, &limits),
            None => return Err("`input.frame` is missing".into()),
        },
        _ => return Err(format!("no operation `{}`", bqsuite_core::show::text(op))),
    };
    answer.map_err(words)
}

/// A verdict that ended a request, in words.
fn words(verdict: Verdict) -> String {
    verdict.to_string()
}
