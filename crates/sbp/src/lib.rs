//! The reference model of Sideband's SBP v1 (`sideband/1`) binary framing: decoding and
//! encoding frames, the subject rules, the handshake payload. Pure: no I/O, no printing.
//!
//! Where the conformance plan, the wire spec and the reference code disagree, the model follows
//! the suite's decisions, listed in the crate's `DECISIONS.md` with the behaviour of the
//! reference code beside each.
//!
//! - [`decode()`] / [`encode()`]: one frame from or to the bytes of one transport message
//!   ([`frame`] holds the types, [`error`] the refusals and their codes);
//! - [`check_subject`]: the subject rules ([`subject`]);
//! - [`decode_handshake`]: the handshake payload ([`handshake`]);
//! - [`hex`]: strict lowercase hex for frameIds;
//! - [`fuzzing`]: the seeded generator of hostile buffers and the model's invariants;
//! - [`mistakes`]: mistaken codecs for mutation testing (`decode_with` and the other `_with`
//!   functions run the model with some of them switched on);
//! - [`suite`]: the conformance suite's runners, [`suite::Sbp`] (the model as an `Evaluator`).

pub mod decode;
pub mod encode;
pub mod error;
pub mod frame;
pub mod fuzzing;
pub mod handshake;
pub mod hex;
pub mod mistakes;
pub mod subject;
pub mod suite;
mod text;

#[cfg(test)]
mod tests;

pub use decode::decode_with;
pub use encode::encode_with;
pub use error::{HandshakeDefect, ProtocolError, Reason, SubjectDefect};
pub use frame::{Frame, FrameId, Kind, Op};
pub use handshake::{Handshake, decode_handshake, decode_handshake_with};
pub use mistakes::{Mistake, Mistakes};
pub use subject::{check_subject, check_subject_with};

/// The receiver's limits: every one is inclusive (a value of exactly the limit passes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest frame, in bytes (1 MiB by default, the wire spec's recommendation). A larger
    /// frame is refused with 1000 ProtocolViolation, fatal.
    pub max_frame: usize,
    /// The largest handshake payload, in bytes (8 KiB by default, the wire spec's SHOULD). A
    /// larger one is refused with 1002, fatal.
    pub max_handshake: usize,
    /// The longest Error message, in bytes (4 KiB by default). A longer one is refused with
    /// 1002, non-fatal.
    pub max_error_message: usize,
    /// The longest Error details, in bytes (16 KiB by default, the wire spec's example). Longer
    /// details are refused with 1002, non-fatal.
    pub max_error_details: usize,
}

impl Limits {
    /// The defaults.
    pub const DEFAULT: Limits = Limits {
        max_frame: 1 << 20,
        max_handshake: 8 << 10,
        max_error_message: 4 << 10,
        max_error_details: 16 << 10,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Decodes one frame (the bytes of one transport message) under `limits`.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<Frame, ProtocolError> {
    decode_with(bytes, limits, Mistakes::NONE)
}

/// The bytes of `frame` under the default limits, or why the model would refuse them: encoding
/// succeeds exactly when the bytes decode back to `frame` ([`encode_with`] for other limits).
pub fn encode(frame: &Frame) -> Result<Vec<u8>, ProtocolError> {
    encode_with(frame, &Limits::DEFAULT)
}
