//! The handshake payload: the UTF-8 JSON object a peer sends in its first frame (Control op 0).
//!
//! Order of checks (the first failing one decides):
//! 1. more bytes than the configured limit (8 KiB by default): 1002;
//! 2. not UTF-8 (a leading BOM is U+FEFF, which is not JSON): 1002;
//! 3. not one JSON text: 1002;
//! 4. not an object: 1002;
//! 5. the types of `protocol`, `version`, `peerId`, in that order: absent or not a string, 1002;
//! 6. `protocol` is not `sideband`: 1001;
//! 7. `version` is not `1`: 1001.
//!
//! Every handshake refusal is fatal. Everything else is accepted as it is: `peerId` may be
//! empty; `caps`, `metadata` and unknown keys are not checked (a repeated key: the last wins).

use serde_json::{Map, Value};

use crate::Limits;
use crate::error::{Field, HandshakeDefect, ProtocolError, Reason};
use crate::mistakes::{Mistake, Mistakes};
use crate::text::{TextDefect, text_field};

/// The protocol name a handshake must carry.
pub const PROTOCOL: &str = "sideband";
/// The version a handshake must carry.
pub const VERSION: &str = "1";

/// An accepted handshake.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    pub peer_id: String,
    /// `caps` when it is an array of strings; any other value is ignored as a whole.
    pub caps: Option<Vec<String>>,
    /// `metadata` when it is an object; any other value is ignored.
    pub metadata: Option<Map<String, Value>>,
    /// The whole object, unknown keys included, in the payload's key order.
    pub object: Map<String, Value>,
}

/// Decodes a handshake payload (the data of a Control op 0 frame).
pub fn decode_handshake(bytes: &[u8], limits: &Limits) -> Result<Handshake, ProtocolError> {
    decode_handshake_with(bytes, limits, Mistakes::NONE)
}

/// [`decode_handshake`] as a codec with the mistakes `m` does it.
pub fn decode_handshake_with(
    bytes: &[u8],
    limits: &Limits,
    m: Mistakes,
) -> Result<Handshake, ProtocolError> {
    let refuse = |d: HandshakeDefect| ProtocolError::new(Reason::Handshake(d));
    let limit = match m.has(Mistake::HandshakeSizeIgnored) {
        true => usize::MAX,
        false => limits.max_handshake,
    };
    let text = text_field(bytes, limit, m).map_err(|d| {
        refuse(match d {
            TextDefect::TooLong { len } => HandshakeDefect::TooLarge { len, limit },
            TextDefect::NotUtf8 { offset } => HandshakeDefect::NotUtf8 { offset },
        })
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|_| refuse(HandshakeDefect::NotJson))?;
    let Value::Object(object) = value else {
        return Err(refuse(HandshakeDefect::NotObject));
    };
    let checks = match m.has(Mistake::HandshakeValuesBeforeTypes) {
        true => [check_values, check_types],
        false => [check_types, check_values],
    };
    for check in checks {
        check(&object).map_err(refuse)?;
    }
    Ok(accepted(object))
}

/// Step 5: each required field is present and a string.
fn check_types(object: &Map<String, Value>) -> Result<(), HandshakeDefect> {
    for field in Field::ALL {
        match object.get(field.key()) {
            None => return Err(HandshakeDefect::Missing(field)),
            Some(Value::String(_)) => {}
            Some(_) => return Err(HandshakeDefect::NotString(field)),
        }
    }
    Ok(())
}

/// Steps 6 and 7: protocol, then version (a field that is absent or not a string is not the
/// expected value: that matters only when this runs first, under a mistake).
fn check_values(object: &Map<String, Value>) -> Result<(), HandshakeDefect> {
    let is =
        |field: Field, want: &str| object.get(field.key()).and_then(Value::as_str) == Some(want);
    if !is(Field::Protocol, PROTOCOL) {
        return Err(HandshakeDefect::WrongProtocol);
    }
    if !is(Field::Version, VERSION) {
        return Err(HandshakeDefect::WrongVersion);
    }
    Ok(())
}

fn accepted(object: Map<String, Value>) -> Handshake {
    let peer_id = match object.get(Field::PeerId.key()) {
        Some(Value::String(id)) => id.clone(),
        _ => String::new(),
    };
    let caps = match object.get("caps") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>(),
        _ => None,
    };
    let metadata = match object.get("metadata") {
        Some(Value::Object(map)) => Some(map.clone()),
        _ => None,
    };
    Handshake {
        peer_id,
        caps,
        metadata,
        object,
    }
}
