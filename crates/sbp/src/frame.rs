//! What a decoded frame is: its kind, its 16-byte frameId and its optional timestamp, and the
//! constants of the wire layout.
//!
//! Layout of every frame (integers little-endian): byte 0 the kind, byte 1 the flags, bytes
//! 2..18 the frameId, then 8 bytes of timestamp when flag bit 0 is set, then the kind's payload.
//! There is no length or magic: one transport message is one frame.

/// A frameId: 16 opaque bytes, compared byte by byte.
pub type FrameId = [u8; 16];

/// Width of a frameId on the wire.
pub const FRAME_ID_LEN: usize = 16;
/// Kind byte and flags byte.
pub const PREFIX_LEN: usize = 2;
/// Kind, flags and frameId: the shortest frame of any kind has at least this many bytes.
pub const HEADER_LEN: usize = PREFIX_LEN + FRAME_ID_LEN;
/// Width of the timestamp (signed int64, milliseconds since the Unix epoch).
pub const TIMESTAMP_LEN: usize = 8;
/// Flag bit 0: a timestamp follows the frameId.
pub const FLAG_TIMESTAMP: u8 = 0x01;
/// Flag bits 1-7: reserved, must be zero.
pub const RESERVED_FLAGS: u8 = 0xFE;
/// Width of the length fields in front of a subject and an Error message.
pub const LENGTH_FIELD_LEN: usize = 4;
/// Width of an Error frame's code.
pub const ERROR_CODE_LEN: usize = 2;

/// The kind bytes.
pub const KIND_CONTROL: u8 = 0;
pub const KIND_MESSAGE: u8 = 1;
pub const KIND_ACK: u8 = 2;
pub const KIND_ERROR: u8 = 3;

/// One decoded frame. Two frames are equal when their bytes on the wire are equal: an empty
/// Close reason is the same as none, an empty `details` the same as none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub frame_id: FrameId,
    /// Milliseconds since the Unix epoch, exactly as the int64 on the wire (negative values
    /// included); `None` when flag bit 0 is clear. `Some(0)` is a timestamp of 0 (flag set).
    pub timestamp: Option<i64>,
    pub kind: Kind,
}

/// The kind-specific part of a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Kind 0. `data`: the handshake payload (never empty) for [`Op::Handshake`], always empty
    /// for [`Op::Ping`] and [`Op::Pong`], the reason's bytes for [`Op::Close`] (opaque, may be
    /// empty).
    Control { op: Op, data: Vec<u8> },
    /// Kind 1. `subject` passed the subject rules ([`crate::subject`]); `data` is opaque and
    /// may be empty.
    Message { subject: String, data: Vec<u8> },
    /// Kind 2: receipt of the frame whose frameId is `ack_frame_id`.
    Ack { ack_frame_id: FrameId },
    /// Kind 3. Any `code` is accepted (unknown codes included); `message` is UTF-8 and may be
    /// empty; `details` is opaque and may be empty.
    Error {
        code: u16,
        message: String,
        details: Vec<u8>,
    },
}

impl Kind {
    /// The kind byte this kind is written with.
    pub fn byte(&self) -> u8 {
        match self {
            Kind::Control { .. } => KIND_CONTROL,
            Kind::Message { .. } => KIND_MESSAGE,
            Kind::Ack { .. } => KIND_ACK,
            Kind::Error { .. } => KIND_ERROR,
        }
    }
}

/// The Control operations of v1. Op bytes 4-255 are reserved (decoding refuses them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Handshake,
    Ping,
    Pong,
    Close,
}

impl Op {
    /// The op of byte `b`, if v1 defines one.
    pub fn from_byte(b: u8) -> Option<Op> {
        match b {
            0 => Some(Op::Handshake),
            1 => Some(Op::Ping),
            2 => Some(Op::Pong),
            3 => Some(Op::Close),
            _ => None,
        }
    }

    /// The byte this op is written with.
    pub fn byte(self) -> u8 {
        match self {
            Op::Handshake => 0,
            Op::Ping => 1,
            Op::Pong => 2,
            Op::Close => 3,
        }
    }

    /// Lowercase name (`handshake`, `ping`, `pong`, `close`).
    pub fn name(self) -> &'static str {
        match self {
            Op::Handshake => "handshake",
            Op::Ping => "ping",
            Op::Pong => "pong",
            Op::Close => "close",
        }
    }
}

/// The frameId of a buffer that holds at least a header, whether or not the rest decodes: the
/// id an ErrorFrame answering that buffer carries (the plan: ErrorFrame.id is the offending
/// frame's frameId). `None` for a buffer shorter than [`HEADER_LEN`].
pub fn frame_id_of(bytes: &[u8]) -> Option<FrameId> {
    bytes.get(PREFIX_LEN..HEADER_LEN)?.try_into().ok()
}
