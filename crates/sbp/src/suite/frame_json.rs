//! The suite's JSON form of a frame (FRAME) and of an accepted handshake, both ways.
//!
//! FRAME: `{"kind", "frameId", "timestamp"?}` and, per kind, control `op`, `data`; message
//! `subject`, `body`; ack `ackId`; error `code`, `message`, `details`. Bytes are lowercase hex,
//! the timestamp a decimal int64 in a string (JSON readers that hold numbers in doubles cannot
//! keep an int64 exactly), absent when the frame has none.

use serde_json::{Map, Value, json};

use bqsuite_core::evaluator::Verdict;
use bqsuite_core::json::pointer::join;
use bqsuite_core::show;

use super::case::{Step, hex_at, malformed};
use crate::frame::{Frame, FrameId, Kind, Op};
use crate::handshake::Handshake;
use crate::hex::{parse_frame_id, to_hex};

/// The kind names, in kind-byte order.
const KINDS: [&str; 4] = ["control", "message", "ack", "error"];

/// The FRAME of `frame`, its members in the documented order.
pub(crate) fn frame_to_json(frame: &Frame) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), json!(KINDS[usize::from(frame.kind.byte())]));
    out.insert("frameId".into(), json!(to_hex(&frame.frame_id)));
    if let Some(ts) = frame.timestamp {
        out.insert("timestamp".into(), json!(ts.to_string()));
    }
    match &frame.kind {
        Kind::Control { op, data } => {
            out.insert("op".into(), json!(op.name()));
            out.insert("data".into(), json!(to_hex(data)));
        }
        Kind::Message { subject, data } => {
            out.insert("subject".into(), json!(subject));
            out.insert("body".into(), json!(to_hex(data)));
        }
        Kind::Ack { ack_frame_id } => {
            out.insert("ackId".into(), json!(to_hex(ack_frame_id)));
        }
        Kind::Error {
            code,
            message,
            details,
        } => {
            out.insert("code".into(), json!(code));
            out.insert("message".into(), json!(message));
            out.insert("details".into(), json!(to_hex(details)));
        }
    }
    Value::Object(out)
}

/// The JSON of an accepted handshake: `protocol`, `version`, `peerId`, then `caps` when the
/// payload's `caps` is an array of strings and `metadata` when its `metadata` is an object.
pub(crate) fn handshake_to_json(h: &Handshake) -> Value {
    let mut out = Map::new();
    for key in ["protocol", "version"] {
        let value = h.object.get(key).cloned().unwrap_or(Value::Null);
        out.insert(key.into(), value);
    }
    out.insert("peerId".into(), json!(h.peer_id));
    if let Some(caps) = &h.caps {
        out.insert("caps".into(), json!(caps));
    }
    if let Some(metadata) = &h.metadata {
        out.insert("metadata".into(), Value::Object(metadata.clone()));
    }
    Value::Object(out)
}

/// The frame the FRAME `value` (at `pointer`) describes.
pub(crate) fn frame_from_json(value: &Value, pointer: &str) -> Step<Frame> {
    let fields = value.as_object().ok_or_else(|| {
        malformed(
            pointer,
            "a frame is an object: {\"kind\", \"frameId\", \"timestamp\"?, ...}",
        )
    })?;
    let f = Fields { fields, pointer };
    let kind_name = f.str("kind")?;
    let (members, kind): (&[&str], Kind) = match kind_name {
        "control" => (&["op", "data"], control(&f)?),
        "message" => (&["subject", "body"], message(&f)?),
        "ack" => (&["ackId"], ack(&f)?),
        "error" => (&["code", "message", "details"], error(&f)?),
        other => {
            return Err(malformed(
                f.at("kind"),
                format!(
                    "unknown kind `{}`: control, message, ack or error",
                    show::text(other)
                ),
            ));
        }
    };
    f.only(members)?;
    Ok(Frame {
        frame_id: f.frame_id("frameId")?,
        timestamp: f.timestamp()?,
        kind,
    })
}

fn control(f: &Fields<'_>) -> Step<Kind> {
    let op = match f.str("op")? {
        "handshake" => Op::Handshake,
        "ping" => Op::Ping,
        "pong" => Op::Pong,
        "close" => Op::Close,
        other => {
            return Err(malformed(
                f.at("op"),
                format!(
                    "unknown op `{}`: handshake, ping, pong or close",
                    show::text(other)
                ),
            ));
        }
    };
    Ok(Kind::Control {
        op,
        data: f.hex("data")?,
    })
}

fn message(f: &Fields<'_>) -> Step<Kind> {
    Ok(Kind::Message {
        subject: f.str("subject")?.to_owned(),
        data: f.hex("body")?,
    })
}

fn ack(f: &Fields<'_>) -> Step<Kind> {
    Ok(Kind::Ack {
        ack_frame_id: f.frame_id("ackId")?,
    })
}

fn error(f: &Fields<'_>) -> Step<Kind> {
    let code = f
        .get("code")?
        .as_u64()
        .and_then(|n| u16::try_from(n).ok())
        .ok_or_else(|| malformed(f.at("code"), "`code` must be an integer from 0 to 65535"))?;
    Ok(Kind::Error {
        code,
        message: f.str("message")?.to_owned(),
        details: f.hex("details")?,
    })
}

/// A FRAME's members, read with pointers.
struct Fields<'a> {
    fields: &'a Map<String, Value>,
    pointer: &'a str,
}

impl<'a> Fields<'a> {
    fn at(&self, key: &str) -> String {
        join(self.pointer, key)
    }

    fn get(&self, key: &str) -> Step<&'a Value> {
        self.fields
            .get(key)
            .ok_or_else(|| malformed(self.at(key), format!("the frame has no `{key}`")))
    }

    fn str(&self, key: &str) -> Step<&'a str> {
        self.get(key)?
            .as_str()
            .ok_or_else(|| malformed(self.at(key), format!("`{key}` must be a string")))
    }

    fn hex(&self, key: &str) -> Step<Vec<u8>> {
        hex_at(self.str(key)?, &self.at(key))
    }

    fn frame_id(&self, key: &str) -> Step<FrameId> {
        parse_frame_id(self.str(key)?).map_err(|e| {
            malformed(
                self.at(key),
                format!("`{key}` is 32 lowercase hex digits: {e}"),
            )
        })
    }

    /// The optional timestamp: a decimal int64 in a string, without a sign on 0, a `+` or
    /// leading zeros (one spelling per value).
    fn timestamp(&self) -> Step<Option<i64>> {
        let Some(value) = self.fields.get("timestamp") else {
            return Ok(None);
        };
        let refuse = || {
            malformed(
                self.at("timestamp"),
                "`timestamp` is a decimal int64 in a string (\"-1\", \"1700000000000\")",
            )
        };
        let text = value.as_str().ok_or_else(refuse)?;
        let ts: i64 = text.parse().map_err(|_| refuse())?;
        match ts.to_string() == text {
            true => Ok(Some(ts)),
            false => Err(refuse()),
        }
    }

    /// Refuses members other than the common ones and `kind_members`.
    fn only(&self, kind_members: &[&str]) -> Step<()> {
        let common = ["kind", "frameId", "timestamp"];
        let extra = self
            .fields
            .keys()
            .find(|k| !common.contains(&k.as_str()) && !kind_members.contains(&k.as_str()));
        match extra {
            None => Ok(()),
            Some(k) => Err(Verdict::Malformed {
                pointer: self.at(k),
                message: format!("unknown member `{}` for this kind of frame", show::text(k)),
            }),
        }
    }
}
