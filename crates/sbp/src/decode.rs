//! Decoding one frame from the bytes of one transport message.
//!
//! Order of checks (the first failing one decides the reason):
//! 0. the frame is longer than the configured cap: 1000, fatal;
//! 1. fewer than 18 bytes: 1002;
//! 2. a reserved flag bit (mask 0xfe) is set: 1002;
//! 3. flag bit 0 is set and fewer than 26 bytes: 1002;
//! 4. the kind byte is not 0-3: 1002;
//! 5. the kind's own checks (`control`, `message`, `ack`, `error` below).
//!
//! Steps 1-4 are the reference decoder's order; the cap comes first because a receiver knows a
//! message's size before it reads any of it.

use std::ops::Range;

use crate::Limits;
use crate::error::{ProtocolError, Reason};
use crate::frame::{
    ERROR_CODE_LEN, FLAG_TIMESTAMP, FRAME_ID_LEN, Frame, FrameId, KIND_ACK, KIND_CONTROL,
    KIND_ERROR, KIND_MESSAGE, Kind, LENGTH_FIELD_LEN, Op, PREFIX_LEN, RESERVED_FLAGS,
    TIMESTAMP_LEN,
};
use crate::mistakes::{Mistake, Mistakes};
use crate::subject::subject_from_bytes;
use crate::text::{TextDefect, text_field};

/// The Error codes a codec with [`Mistake::UnknownErrorCodeRefused`] knows.
const KNOWN_CODES: [u16; 5] = [1000, 1001, 1002, 1003, 2000];

/// Decodes `bytes` as a codec with the mistakes `m` does ([`Mistakes::NONE`]: the model).
pub fn decode_with(bytes: &[u8], limits: &Limits, m: Mistakes) -> Result<Frame, ProtocolError> {
    check_cap(bytes.len(), limits.max_frame, m)?;
    let (frame_id, timestamp, payload) = header(bytes, m)?;
    let kind = match bytes[0] {
        KIND_CONTROL => control(payload, m)?,
        KIND_MESSAGE => message(payload, m)?,
        KIND_ACK => ack(payload, m)?,
        KIND_ERROR => error(payload, limits, m)?,
        kind => return Err(Reason::UnknownKind { kind }.into()),
    };
    Ok(Frame {
        frame_id,
        timestamp,
        kind,
    })
}

/// Step 0: the frame cap, inclusive (a frame of exactly `cap` bytes passes).
fn check_cap(len: usize, cap: usize, m: Mistakes) -> Result<(), ProtocolError> {
    let over = if m.has(Mistake::FrameCapIgnored) {
        false
    } else if m.has(Mistake::FrameCapExclusive) {
        len >= cap
    } else {
        len > cap
    };
    match over {
        true => Err(Reason::FrameTooLarge { len, cap }.into()),
        false => Ok(()),
    }
}

/// Steps 1-3: the frameId, the timestamp and the payload that follows them.
fn header(bytes: &[u8], m: Mistakes) -> Result<(FrameId, Option<i64>, &[u8]), ProtocolError> {
    let id_len = if m.has(Mistake::FrameId8Bytes) {
        8
    } else if m.has(Mistake::FrameId32Bytes) {
        32
    } else {
        FRAME_ID_LEN
    };
    let head = PREFIX_LEN + id_len;
    let len = bytes.len();
    if len < head {
        return Err(Reason::ShortBuffer { len }.into());
    }
    let flags = bytes[1];
    if flags & RESERVED_FLAGS != 0 && !m.has(Mistake::ReservedFlagsIgnored) {
        return Err(Reason::ReservedFlags { flags }.into());
    }
    let stamped = flags & FLAG_TIMESTAMP != 0 && !m.has(Mistake::TimestampFlagIgnored);
    let start = if stamped { head + TIMESTAMP_LEN } else { head };
    if len < start {
        return Err(Reason::TruncatedTimestamp { len }.into());
    }
    let frame_id = padded(&bytes[PREFIX_LEN..head]);
    let timestamp = stamped.then(|| {
        let raw: [u8; TIMESTAMP_LEN] = bytes[head..start].try_into().expect("8 bytes");
        let ts = i64::from_le_bytes(raw);
        match m.has(Mistake::TimestampThroughDouble) {
            true => through_double(ts),
            false => ts,
        }
    });
    Ok((frame_id, timestamp, &bytes[start..]))
}

/// `ts` held in a double and written back as an int64: rounded to the nearest double (exact
/// within 2^53), and 2^63 (where int64 max rounds to) wrapped to int64 min, as the reference
/// encoder wraps values outside int64.
fn through_double(ts: i64) -> i64 {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    let d = ts as f64;
    match d >= TWO_POW_63 {
        true => i64::MIN,
        false => d as i64,
    }
}

/// The first 16 bytes of `bytes`, zero-padded when it is shorter (only mistakes read an id of
/// another width).
fn padded(bytes: &[u8]) -> FrameId {
    let mut id = [0u8; FRAME_ID_LEN];
    let n = bytes.len().min(FRAME_ID_LEN);
    id[..n].copy_from_slice(&bytes[..n]);
    id
}

/// A minimum payload length `n`, or one byte less under [`Mistake::MinimumOneShort`].
fn minimum(n: usize, m: Mistakes) -> usize {
    match m.has(Mistake::MinimumOneShort) {
        true => n - 1,
        false => n,
    }
}

/// Control: op byte 0-3; a Handshake carries data, a Ping or Pong none, a Close any reason.
fn control(p: &[u8], m: Mistakes) -> Result<Kind, ProtocolError> {
    let (&byte, data) = p.split_first().ok_or(Reason::MissingOp)?;
    let op = Op::from_byte(byte).ok_or(Reason::UnknownOp { op: byte })?;
    let data = match op {
        Op::Handshake if data.is_empty() => return Err(Reason::HandshakeWithoutData.into()),
        Op::Ping | Op::Pong if !data.is_empty() => match m.has(Mistake::TrailingBytesAccepted) {
            true => &[][..],
            false => {
                let extra = data.len();
                return Err(Reason::ControlTrailing { op, extra }.into());
            }
        },
        Op::Close if m.has(Mistake::CloseReasonUtf8) => match std::str::from_utf8(data) {
            Ok(_) => data,
            Err(e) => {
                let offset = e.valid_up_to();
                return Err(Reason::CloseReasonNotUtf8 { offset }.into());
            }
        },
        _ => data,
    };
    Ok(Kind::Control {
        op,
        data: data.to_vec(),
    })
}

/// Message: subjectLen (uint32 LE), the subject (subject rules), the rest is data.
fn message(p: &[u8], m: Mistakes) -> Result<Kind, ProtocolError> {
    if p.len() < minimum(LENGTH_FIELD_LEN, m) {
        return Err(Reason::MessageTooShort { payload: p.len() }.into());
    }
    let span = prefixed(p, 0, m).map_err(|(declared, available)| Reason::SubjectOverrun {
        declared,
        available,
    })?;
    let subject = subject_from_bytes(&p[span.clone()], m)?;
    Ok(Kind::Message {
        subject,
        data: p[span.end..].to_vec(),
    })
}

/// Ack: exactly 16 bytes, the acknowledged frameId.
fn ack(p: &[u8], m: Mistakes) -> Result<Kind, ProtocolError> {
    let short = p.len() < minimum(FRAME_ID_LEN, m);
    let long = p.len() > FRAME_ID_LEN && !m.has(Mistake::TrailingBytesAccepted);
    if short || long {
        return Err(Reason::AckLength { payload: p.len() }.into());
    }
    Ok(Kind::Ack {
        ack_frame_id: padded(p),
    })
}

/// Error: code (uint16 LE, any value), msgLen (uint32 LE), the message (UTF-8, within the
/// limit), the rest is details (within the limit).
fn error(p: &[u8], limits: &Limits, m: Mistakes) -> Result<Kind, ProtocolError> {
    if p.len() < minimum(ERROR_CODE_LEN + LENGTH_FIELD_LEN, m) {
        return Err(Reason::ErrorTooShort { payload: p.len() }.into());
    }
    let code = u16::from_le_bytes([p[0], p[1]]);
    if m.has(Mistake::UnknownErrorCodeRefused) && !KNOWN_CODES.contains(&code) {
        return Err(Reason::UnknownErrorCode { code }.into());
    }
    let span = prefixed(p, ERROR_CODE_LEN, m).map_err(|(declared, available)| {
        Reason::ErrorMessageOverrun {
            declared,
            available,
        }
    })?;
    let limit = match m.has(Mistake::ErrorMessageUnbounded) {
        true => usize::MAX,
        false => limits.max_error_message,
    };
    let message = text_field(&p[span.clone()], limit, m).map_err(|d| match d {
        TextDefect::TooLong { len } => Reason::ErrorMessageTooLong { len, limit },
        TextDefect::NotUtf8 { offset } => Reason::ErrorMessageNotUtf8 { offset },
    })?;
    let details = &p[span.end..];
    if details.len() > limits.max_error_details && !m.has(Mistake::ErrorDetailsUnbounded) {
        let (len, limit) = (details.len(), limits.max_error_details);
        return Err(Reason::ErrorDetailsTooLong { len, limit }.into());
    }
    Ok(Kind::Error {
        code,
        message,
        details: details.to_vec(),
    })
}

/// Where the field whose uint32 length sits at `at` lies in `p`, or the declared length and
/// the bytes available when it does not fit. Bytes of the length field past the end of `p`
/// (only under [`Mistake::MinimumOneShort`]) read as zero.
fn prefixed(p: &[u8], at: usize, m: Mistakes) -> Result<Range<usize>, (u32, usize)> {
    let start = (at + LENGTH_FIELD_LEN).min(p.len());
    let available = p.len() - start;
    let mut raw = [0u8; LENGTH_FIELD_LEN];
    let present = &p[at.min(p.len())..start];
    raw[..present.len()].copy_from_slice(present);
    let declared = match m.has(Mistake::LengthsBigEndian) {
        true => u32::from_be_bytes(raw),
        false => u32::from_le_bytes(raw),
    };
    // Read as an int32, a length of 2^31 or more is negative: it passes a `len > available`
    // check and the field comes out empty.
    if m.has(Mistake::LengthsSigned) && (declared as i32) < 0 {
        return Ok(start..start);
    }
    let len = usize::try_from(declared).unwrap_or(usize::MAX);
    let fits = match m.has(Mistake::LengthFitOffByOne) {
        true => len < available,
        false => len <= available,
    };
    match fits {
        true => Ok(start..start + len),
        false => Err((declared, available)),
    }
}
