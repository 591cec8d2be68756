//! The model's tests: the golden vectors, one test per decision, the check orders, the
//! mistakes' killing inputs, properties, and the fuzz seeds.

mod decisions;
mod generator;
mod golden;
mod handshake;
mod mistakes;
mod order;
mod props;
mod seeds;
mod suite;

use crate::frame::{Frame, FrameId, Kind, Op};
use crate::hex::parse_hex;

/// The fixed frameId of the golden vectors: bytes 00..0f.
pub(crate) const FID: FrameId = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
/// The fixed ackFrameId: bytes f0..ff.
pub(crate) const AID: FrameId = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];
/// The fixed timestamp, 2023-11-14T22:13:20Z.
pub(crate) const TS: i64 = 1_700_000_000_000;
/// FID in hex.
pub(crate) const FID_HEX: &str = "000102030405060708090a0b0c0d0e0f";

/// The bytes of lowercase `hex` (spaces allowed between groups, for reading).
pub(crate) fn bytes(hex: &str) -> Vec<u8> {
    parse_hex(&hex.replace(' ', "")).expect("test hex")
}

/// A frame with FID.
pub(crate) fn frame(timestamp: Option<i64>, kind: Kind) -> Frame {
    Frame {
        frame_id: FID,
        timestamp,
        kind,
    }
}

pub(crate) fn control(op: Op, data: &[u8]) -> Kind {
    Kind::Control {
        op,
        data: data.to_vec(),
    }
}

pub(crate) fn message(subject: &str, data: &[u8]) -> Kind {
    Kind::Message {
        subject: subject.to_owned(),
        data: data.to_vec(),
    }
}

pub(crate) fn error(code: u16, message: &str, details: &[u8]) -> Kind {
    Kind::Error {
        code,
        message: message.to_owned(),
        details: details.to_vec(),
    }
}

/// A Message frame (no timestamp, FID) with `subject` as raw bytes and `data`.
pub(crate) fn message_bytes(subject: &[u8], data: &[u8]) -> Vec<u8> {
    let mut out = bytes(&format!("0100 {FID_HEX}"));
    out.extend_from_slice(&(subject.len() as u32).to_le_bytes());
    out.extend_from_slice(subject);
    out.extend_from_slice(data);
    out
}

/// An Error frame (no timestamp, FID) with `message` as raw bytes and `details`.
pub(crate) fn error_bytes(code: u16, message: &[u8], details: &[u8]) -> Vec<u8> {
    let mut out = bytes(&format!("0300 {FID_HEX}"));
    out.extend_from_slice(&code.to_le_bytes());
    out.extend_from_slice(&(message.len() as u32).to_le_bytes());
    out.extend_from_slice(message);
    out.extend_from_slice(details);
    out
}

/// A Control frame (no timestamp, FID) with op byte `op` and `data`.
pub(crate) fn control_bytes(op: u8, data: &[u8]) -> Vec<u8> {
    let mut out = bytes(&format!("0000 {FID_HEX}"));
    out.push(op);
    out.extend_from_slice(data);
    out
}
