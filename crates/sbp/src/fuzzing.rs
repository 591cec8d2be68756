//! Negative fuzzing: a seeded generator of hostile buffers that any SDK can reproduce, and the
//! invariants the model keeps on any input (checked by the `sbp_decode` fuzz target and the
//! crate's property tests).
//!
//! # The generator
//!
//! [`SplitMix64`] (Steele, Lea and Flood's SplitMix64; all arithmetic modulo 2^64): the state
//! starts at the seed; each draw adds `0x9e3779b97f4a7c15` to the state, then mixes a copy `z`
//! of it: `z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9`, `z = (z ^ (z >> 27)) * 0x94d049bb133111eb`,
//! and returns `z ^ (z >> 31)`.
//!
//! [`buffers`]`(seed, count)` draws `count` buffers in turn from one generator. One buffer:
//! 1. its length `len` is the next draw modulo 80 (0 to 79 bytes);
//! 2. each of its `len` bytes, in order, is the low 8 bits of the next draw;
//! 3. then it is shaped, drawing nothing more, so that it reaches past the first checks:
//!    - if `len >= 1`: byte 0 (the kind) becomes `byte % 5` (kinds 0-3, or 4, unknown);
//!    - if `len >= 2`: byte 1 (the flags) becomes `byte & 0x01` unless it is below `0x20`
//!      (then it stays, reserved bits and all); `p` = 26 if its bit 0 is set, else 18;
//!    - kind 0, if `len > p`: byte `p` (the op) becomes `byte % 5` (ops 0-3, or 4, unknown);
//!    - kind 1 with `at = p`, or kind 3 with `at = p + 2`, if `len >= at + 4`: let
//!      `avail = len - at - 4`; the uint32 LE at `at` becomes `value % (avail + 2)` (so it fits,
//!      or overruns by one); then, if that length `n` is 1 to `avail` and the byte at `at + 4`
//!      is even, the `n` bytes from `at + 4` become `byte & 0x7f` (ASCII), and for kind 1 with
//!      `n >= 4` the first four of them become `app/`.
//!
//! The model's expectation on every generated buffer (limits at their defaults): it decodes to
//! a frame, or is refused with 1002, or (a Message whose subject is exactly `stream`) 1003;
//! never a panic. [`GENERATED_CODES`] is that set; 1000 joins it only with a frame cap below
//! 80 bytes.

use crate::error::{
    INVALID_FRAME, PROTOCOL_VIOLATION, ProtocolError, UNSUPPORTED_FEATURE, UNSUPPORTED_VERSION,
};
use crate::frame::{Kind, Op};
use crate::mistakes::Mistake;
use crate::{Limits, decode, decode_handshake, decode_handshake_with, decode_with, encode_with};

/// The codes the model may refuse a generated buffer with (default limits).
pub const GENERATED_CODES: [u16; 2] = [INVALID_FRAME, UNSUPPORTED_FEATURE];

/// Buffers are 0 to `GENERATED_LEN_BOUND - 1` bytes long.
pub const GENERATED_LEN_BOUND: u64 = 80;

/// Small limits for fuzzing, so that inputs of a few KiB reach every limit.
pub const FUZZ_LIMITS: Limits = Limits {
    max_frame: 4096,
    max_handshake: 1024,
    max_error_message: 64,
    max_error_details: 256,
};

/// The SplitMix64 generator (see the module's documentation).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next draw.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The `count` buffers of `seed`, in order.
pub fn buffers(seed: u64, count: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(move |_| next_buffer(&mut rng))
}

/// The next buffer `rng` gives.
pub fn next_buffer(rng: &mut SplitMix64) -> Vec<u8> {
    let len = (rng.next_u64() % GENERATED_LEN_BOUND) as usize;
    let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    shape(&mut bytes);
    bytes
}

fn shape(b: &mut [u8]) {
    let len = b.len();
    if len >= 1 {
        b[0] %= 5;
    }
    if len < 2 {
        return;
    }
    if b[1] >= 0x20 {
        b[1] &= 0x01;
    }
    let p = if b[1] & 0x01 == 1 { 26 } else { 18 };
    match b[0] {
        0 if len > p => b[p] %= 5,
        1 => shape_field(b, p, true),
        3 => shape_field(b, p + 2, false),
        _ => {}
    }
}

fn shape_field(b: &mut [u8], at: usize, subject: bool) {
    let start = at + 4;
    if b.len() < start {
        return;
    }
    let avail = b.len() - start;
    let raw = u32::from_le_bytes(b[at..start].try_into().expect("4 bytes"));
    let n = raw % (avail as u32 + 2);
    b[at..start].copy_from_slice(&n.to_le_bytes());
    let n = n as usize;
    if n == 0 || n > avail || b[start] % 2 == 1 {
        return;
    }
    for x in &mut b[start..start + n] {
        *x &= 0x7f;
    }
    if subject && n >= 4 {
        b[start..start + 4].copy_from_slice(b"app/");
    }
}

/// Checks the invariants the model keeps on any input `bytes`, returning the first one broken:
/// - decoding ends in a frame or an error whose code and fatality are the model's for its
///   reason, with code 1000 (over the cap), 1002 or 1003;
/// - a decoded frame encodes back to exactly `bytes` (decoding is one-to-one);
/// - a decoded Handshake's payload, and `bytes` taken as a handshake payload, decode to a
///   handshake or an error with code 1001 or 1002;
/// - every mistaken codec also ends (it may decide anything, but must not panic).
pub fn check(bytes: &[u8], limits: &Limits) -> Result<(), &'static str> {
    match decode(bytes, limits) {
        Ok(frame) => {
            if encode_with(&frame, limits).as_deref() != Ok(bytes) {
                return Err("an accepted buffer does not encode back to its own bytes");
            }
            if let Kind::Control {
                op: Op::Handshake,
                data,
            } = &frame.kind
            {
                check_handshake(data, limits)?;
            }
        }
        Err(e) => {
            if e != ProtocolError::new(e.what) {
                return Err("a decode error's code or fatality is not its reason's");
            }
            if ![PROTOCOL_VIOLATION, INVALID_FRAME, UNSUPPORTED_FEATURE].contains(&e.code) {
                return Err("a decode error with a code other than 1000, 1002 or 1003");
            }
        }
    }
    check_handshake(bytes, limits)?;
    for m in Mistake::ALL {
        let _ = decode_with(bytes, limits, m.into());
        let _ = decode_handshake_with(bytes, limits, m.into());
    }
    Ok(())
}

fn check_handshake(bytes: &[u8], limits: &Limits) -> Result<(), &'static str> {
    match decode_handshake(bytes, limits) {
        Ok(_) => Ok(()),
        Err(e) if e != ProtocolError::new(e.what) => {
            Err("a handshake error's code or fatality is not its reason's")
        }
        Err(e) if [UNSUPPORTED_VERSION, INVALID_FRAME].contains(&e.code) => Ok(()),
        Err(_) => Err("a handshake error with a code other than 1001 or 1002"),
    }
}
