//! Encoding a frame: the inverse of decoding, for valid frames only.
//!
//! The encoder writes the layout (flags 0x01 exactly when a timestamp is present, 0x00
//! otherwise) and then decodes what it wrote with the same limits: a frame the decoder would
//! refuse is refused here with the decoder's error, so `encode` succeeds exactly when its bytes
//! decode back to the same frame.

use crate::Limits;
use crate::decode::decode_with;
use crate::error::{ProtocolError, Reason, SubjectDefect};
use crate::frame::{FLAG_TIMESTAMP, Frame, Kind};
use crate::mistakes::Mistakes;

/// The bytes of `frame`, or why the model would refuse them.
pub fn encode_with(frame: &Frame, limits: &Limits) -> Result<Vec<u8>, ProtocolError> {
    let bytes = write(frame, limits)?;
    let back = decode_with(&bytes, limits, Mistakes::NONE)?;
    debug_assert_eq!(
        &back, frame,
        "decoding the encoder's bytes gives the frame back"
    );
    Ok(bytes)
}

fn write(frame: &Frame, limits: &Limits) -> Result<Vec<u8>, ProtocolError> {
    let mut out = Vec::new();
    out.push(frame.kind.byte());
    out.push(match frame.timestamp {
        Some(_) => FLAG_TIMESTAMP,
        None => 0,
    });
    out.extend_from_slice(&frame.frame_id);
    if let Some(ts) = frame.timestamp {
        out.extend_from_slice(&ts.to_le_bytes());
    }
    match &frame.kind {
        Kind::Control { op, data } => {
            out.push(op.byte());
            out.extend_from_slice(data);
        }
        Kind::Message { subject, data } => {
            let len = subject.len();
            let field =
                u32::try_from(len).map_err(|_| Reason::Subject(SubjectDefect::TooLong { len }))?;
            out.extend_from_slice(&field.to_le_bytes());
            out.extend_from_slice(subject.as_bytes());
            out.extend_from_slice(data);
        }
        Kind::Ack { ack_frame_id } => out.extend_from_slice(ack_frame_id),
        Kind::Error {
            code,
            message,
            details,
        } => {
            let (len, limit) = (message.len(), limits.max_error_message);
            let field =
                u32::try_from(len).map_err(|_| Reason::ErrorMessageTooLong { len, limit })?;
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&field.to_le_bytes());
            out.extend_from_slice(message.as_bytes());
            out.extend_from_slice(details);
        }
    }
    Ok(out)
}
