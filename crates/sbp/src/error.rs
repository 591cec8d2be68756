//! Why the model refuses a frame, a subject or a handshake: [`ProtocolError`], its typed
//! [`Reason`], and the one mapping from a reason to its wire code and fatality.
//!
//! Code and fatality follow from the reason (see `DECISIONS.md`):
//! - 1000 ProtocolViolation, fatal: a frame over the configured cap;
//! - 1001 UnsupportedVersion, fatal: a handshake naming another protocol or version;
//! - 1002 InvalidFrame, fatal when the bytes do not fit the frame layout (short buffer, reserved
//!   flag bits, unknown kind, bad length field, trailing bytes, Handshake without data) and for
//!   every other handshake defect; non-fatal when the layout holds and only a field's content is
//!   refused (subject, text that is not UTF-8, unknown control op, Error field over its limit);
//! - 1003 UnsupportedFeature, non-fatal: the reserved `stream` subject.
//!
//! Logic matches on [`Reason`] values, never on the text [`Reason`]'s `Display` gives.

use std::fmt;

use crate::frame::Op;

/// 1000: the peer broke the protocol (fatal).
pub const PROTOCOL_VIOLATION: u16 = 1000;
/// 1001: the handshake names a protocol or version this model does not speak (fatal).
pub const UNSUPPORTED_VERSION: u16 = 1001;
/// 1002: malformed or refused input.
pub const INVALID_FRAME: u16 = 1002;
/// 1003: a feature v1 does not support (the `stream` channel); non-fatal.
pub const UNSUPPORTED_FEATURE: u16 = 1003;

/// A refusal: the wire code an ErrorFrame would carry, whether the connection must close, and
/// the typed reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    /// 1000, 1001, 1002 or 1003.
    pub code: u16,
    /// The connection must close after the ErrorFrame.
    pub fatal: bool,
    pub what: Reason,
}

impl ProtocolError {
    /// The error the model raises for `what`.
    pub fn new(what: Reason) -> ProtocolError {
        ProtocolError {
            code: what.code(),
            fatal: what.fatal(),
            what,
        }
    }

    /// `what` raised with another code and fatality than the model's: how a mistaken codec
    /// reports it (see [`crate::mistakes`]).
    pub fn misreported(what: Reason, code: u16, fatal: bool) -> ProtocolError {
        ProtocolError { code, fatal, what }
    }
}

impl From<Reason> for ProtocolError {
    fn from(what: Reason) -> ProtocolError {
        ProtocolError::new(what)
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.what, self.code)
    }
}

/// Why a buffer, subject or handshake payload is refused. Lengths and offsets are in bytes;
/// offsets in a text field count from the field's first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The whole frame is longer than the configured cap.
    FrameTooLarge { len: usize, cap: usize },
    /// Fewer bytes than kind, flags and frameId.
    ShortBuffer { len: usize },
    /// A reserved flag bit (mask 0xFE) is set.
    ReservedFlags { flags: u8 },
    /// Flag bit 0 is set but the 8 timestamp bytes are not all there.
    TruncatedTimestamp { len: usize },
    /// A kind byte other than 0-3.
    UnknownKind { kind: u8 },
    /// A Control frame without its op byte.
    MissingOp,
    /// A Control op other than 0-3.
    UnknownOp { op: u8 },
    /// A Handshake (op 0) with no payload after the op.
    HandshakeWithoutData,
    /// Bytes after the op of a Ping or Pong.
    ControlTrailing { op: Op, extra: usize },
    /// A Message payload too short for its subject length field.
    MessageTooShort { payload: usize },
    /// A subject length larger than the bytes that follow it.
    SubjectOverrun { declared: u32, available: usize },
    /// The subject breaks the subject rules.
    Subject(SubjectDefect),
    /// An Ack payload of another length than 16.
    AckLength { payload: usize },
    /// An Error payload too short for its code and message length.
    ErrorTooShort { payload: usize },
    /// An Error message length larger than the bytes that follow it.
    ErrorMessageOverrun { declared: u32, available: usize },
    /// An Error message longer than the configured limit.
    ErrorMessageTooLong { len: usize, limit: usize },
    /// An Error message that is not UTF-8.
    ErrorMessageNotUtf8 { offset: usize },
    /// Error details longer than the configured limit.
    ErrorDetailsTooLong { len: usize, limit: usize },
    /// A Close reason that is not UTF-8: only a mistaken codec checks it
    /// ([`crate::mistakes::Mistake::CloseReasonUtf8`]); the model keeps the reason opaque.
    CloseReasonNotUtf8 { offset: usize },
    /// An Error code the codec does not know: only a mistaken codec refuses one
    /// ([`crate::mistakes::Mistake::UnknownErrorCodeRefused`]); the model accepts any code.
    UnknownErrorCode { code: u16 },
    /// The handshake payload is refused.
    Handshake(HandshakeDefect),
}

/// What is wrong with a subject, in the order the model checks (see [`crate::subject`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubjectDefect {
    /// More than 256 bytes.
    TooLong { len: usize },
    /// Not UTF-8: the first bad byte is at `offset`.
    NotUtf8 { offset: usize },
    /// Zero bytes.
    Empty,
    /// U+0000 at byte `offset`.
    Nul { offset: usize },
    /// Neither `rpc`, `event`, nor `app/...`.
    Unknown,
    /// The reserved channel `stream` (1003).
    Reserved,
}

/// What is wrong with a handshake payload, in the order the model checks (see
/// [`crate::handshake`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandshakeDefect {
    /// More bytes than the configured limit.
    TooLarge { len: usize, limit: usize },
    /// Not UTF-8: the first bad byte is at `offset`.
    NotUtf8 { offset: usize },
    /// Not one JSON text.
    NotJson,
    /// JSON, but not an object.
    NotObject,
    /// A required field is absent.
    Missing(Field),
    /// A required field is not a string.
    NotString(Field),
    /// `protocol` is a string other than `sideband` (1001).
    WrongProtocol,
    /// `version` is a string other than `1` (1001).
    WrongVersion,
}

/// The required handshake fields, in the order their types are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Protocol,
    Version,
    PeerId,
}

impl Field {
    /// Every required field, in checking order.
    pub const ALL: [Field; 3] = [Field::Protocol, Field::Version, Field::PeerId];

    /// The field's JSON key.
    pub fn key(self) -> &'static str {
        match self {
            Field::Protocol => "protocol",
            Field::Version => "version",
            Field::PeerId => "peerId",
        }
    }
}

impl Reason {
    /// The wire code the model gives this reason.
    pub fn code(self) -> u16 {
        match self {
            Reason::FrameTooLarge { .. } => PROTOCOL_VIOLATION,
            Reason::Subject(SubjectDefect::Reserved) => UNSUPPORTED_FEATURE,
            Reason::Handshake(HandshakeDefect::WrongProtocol | HandshakeDefect::WrongVersion) => {
                UNSUPPORTED_VERSION
            }
            _ => INVALID_FRAME,
        }
    }

    /// Whether the model closes the connection after reporting this reason.
    pub fn fatal(self) -> bool {
        !matches!(
            self,
            Reason::Subject(_)
                | Reason::UnknownOp { .. }
                | Reason::ErrorMessageTooLong { .. }
                | Reason::ErrorMessageNotUtf8 { .. }
                | Reason::ErrorDetailsTooLong { .. }
                | Reason::CloseReasonNotUtf8 { .. }
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::FrameTooLarge { len, cap } => {
                write!(f, "frame of {len} bytes is over the {cap}-byte cap")
            }
            Reason::ShortBuffer { len } => {
                write!(
                    f,
                    "{len} bytes: a frame has at least 18 (kind, flags, frameId)"
                )
            }
            Reason::ReservedFlags { flags } => {
                write!(f, "flags 0x{flags:02x} set a reserved bit (mask 0xfe)")
            }
            Reason::TruncatedTimestamp { len } => {
                write!(
                    f,
                    "{len} bytes: the timestamp flag needs 26 (8 timestamp bytes)"
                )
            }
            Reason::UnknownKind { kind } => write!(f, "unknown frame kind {kind}"),
            Reason::MissingOp => write!(f, "Control frame without its op byte"),
            Reason::UnknownOp { op } => write!(f, "unknown Control op {op}"),
            Reason::HandshakeWithoutData => write!(f, "Handshake without a payload"),
            Reason::ControlTrailing { op, extra } => {
                write!(
                    f,
                    "{extra} bytes after the {} op, which carries none",
                    op.name()
                )
            }
            Reason::MessageTooShort { payload } => {
                write!(
                    f,
                    "Message payload of {payload} bytes has no 4-byte subject length"
                )
            }
            Reason::SubjectOverrun {
                declared,
                available,
            } => write!(f, "subject length {declared} but {available} bytes follow"),
            Reason::Subject(d) => d.fmt(f),
            Reason::AckLength { payload } => {
                write!(f, "Ack payload of {payload} bytes; it is exactly 16")
            }
            Reason::ErrorTooShort { payload } => write!(
                f,
                "Error payload of {payload} bytes has no code and message length (6 bytes)"
            ),
            Reason::ErrorMessageOverrun {
                declared,
                available,
            } => write!(
                f,
                "Error message length {declared} but {available} bytes follow"
            ),
            Reason::ErrorMessageTooLong { len, limit } => {
                write!(
                    f,
                    "Error message of {len} bytes is over the {limit}-byte limit"
                )
            }
            Reason::ErrorMessageNotUtf8 { offset } => {
                write!(f, "Error message is not UTF-8 (byte {offset})")
            }
            Reason::ErrorDetailsTooLong { len, limit } => {
                write!(
                    f,
                    "Error details of {len} bytes are over the {limit}-byte limit"
                )
            }
            Reason::CloseReasonNotUtf8 { offset } => {
                write!(f, "Close reason is not UTF-8 (byte {offset})")
            }
            Reason::UnknownErrorCode { code } => write!(f, "unknown Error code {code}"),
            Reason::Handshake(d) => d.fmt(f),
        }
    }
}

impl fmt::Display for SubjectDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SubjectDefect::TooLong { len } => {
                write!(f, "subject of {len} bytes is over 256 bytes")
            }
            SubjectDefect::NotUtf8 { offset } => {
                write!(f, "subject is not UTF-8 (byte {offset})")
            }
            SubjectDefect::Empty => write!(f, "empty subject"),
            SubjectDefect::Nul { offset } => write!(f, "subject holds U+0000 at byte {offset}"),
            SubjectDefect::Unknown => {
                write!(f, "subject is not `rpc`, `event` or `app/...`")
            }
            SubjectDefect::Reserved => write!(f, "the `stream` channel is not supported in v1"),
        }
    }
}

impl fmt::Display for HandshakeDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HandshakeDefect::TooLarge { len, limit } => {
                write!(f, "handshake payload of {len} bytes is over {limit} bytes")
            }
            HandshakeDefect::NotUtf8 { offset } => {
                write!(f, "handshake payload is not UTF-8 (byte {offset})")
            }
            HandshakeDefect::NotJson => write!(f, "handshake payload is not JSON"),
            HandshakeDefect::NotObject => write!(f, "handshake payload is not a JSON object"),
            HandshakeDefect::Missing(field) => {
                write!(f, "handshake has no `{}`", field.key())
            }
            HandshakeDefect::NotString(field) => {
                write!(f, "handshake `{}` is not a string", field.key())
            }
            HandshakeDefect::WrongProtocol => write!(f, "handshake protocol is not `sideband`"),
            HandshakeDefect::WrongVersion => write!(f, "handshake version is not `1`"),
        }
    }
}
