//! Every mistake changes the outcome of at least one named input: the input a suite case can
//! use to kill it.

use super::*;
use crate::handshake::Handshake;
use crate::mistakes::{Mistake, Mistakes};
use crate::{Limits, ProtocolError, check_subject_with, decode_handshake_with, decode_with};

/// What a mistake is tried on.
enum Input {
    Frame(Vec<u8>, Limits),
    Handshake(Vec<u8>),
    Subject(&'static str),
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Frame(Result<Frame, ProtocolError>),
    Handshake(Result<Handshake, ProtocolError>),
    Subject(Result<(), ProtocolError>),
}

fn run(input: &Input, m: Mistakes) -> Outcome {
    match input {
        Input::Frame(wire, limits) => Outcome::Frame(decode_with(wire, limits, m)),
        Input::Handshake(payload) => {
            Outcome::Handshake(decode_handshake_with(payload, &Limits::DEFAULT, m))
        }
        Input::Subject(s) => Outcome::Subject(check_subject_with(s, m)),
    }
}

fn frame_input(hex: &str) -> Input {
    Input::Frame(bytes(hex), Limits::DEFAULT)
}

/// A Close frame of `len` bytes under a frame cap of `cap`.
fn close_under_cap(len: usize, cap: usize) -> Input {
    let limits = Limits {
        max_frame: cap,
        ..Limits::DEFAULT
    };
    Input::Frame(control_bytes(3, &vec![b'r'; len - 19]), limits)
}

/// (mistake, the input that kills it), in catalogue order.
fn killers() -> Vec<(Mistake, Input)> {
    let mut all = framing_killers();
    all.extend(other_killers());
    all
}

/// The killing inputs of the framing mistakes.
fn framing_killers() -> Vec<(Mistake, Input)> {
    let v03 = format!("0000 {FID_HEX} 01");
    vec![
        // V10: subjectLen 05000000 read big-endian overruns the frame.
        (
            Mistake::LengthsBigEndian,
            frame_input(&format!(
                "0101 {FID_HEX} 0068e5cf8b010000 05000000 6170702f78 00ff"
            )),
        ),
        // D22: msgLen 0xffffffff is -1 as an int32: an empty message, details "bad".
        (
            Mistake::LengthsSigned,
            Input::Frame(error_bytes_with_len(u32::MAX, b"bad"), Limits::DEFAULT),
        ),
        // V15: an empty message exactly fills the rest.
        (
            Mistake::LengthFitOffByOne,
            frame_input(&format!("0300 {FID_HEX} e803 00000000")),
        ),
        // D18: an Ack payload of 15 bytes.
        (
            Mistake::MinimumOneShort,
            frame_input(&format!("0200 {FID_HEX} f0f1f2f3f4f5f6f7f8f9fafbfcfdfe")),
        ),
        // D03: V03 with flags 0x02.
        (
            Mistake::ReservedFlagsIgnored,
            frame_input(&format!("0002 {FID_HEX} 01")),
        ),
        // V04: the timestamp read as the payload makes a Handshake of V04's Ping.
        (
            Mistake::TimestampFlagIgnored,
            frame_input(&format!("0001 {FID_HEX} 0068e5cf8b010000 01")),
        ),
        // V03: with an 8-byte id the op is byte 08.
        (Mistake::FrameId8Bytes, frame_input(&v03)),
        // V11: with a 32-byte id nothing is left for the Ack.
        (
            Mistake::FrameId32Bytes,
            frame_input(&format!("0200 {FID_HEX} f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")),
        ),
        // D11: V03 with one trailing byte.
        (
            Mistake::TrailingBytesAccepted,
            frame_input(&format!("{v03} 00")),
        ),
        // V18: code 65535.
        (
            Mistake::UnknownErrorCodeRefused,
            frame_input(&format!("0300 {FID_HEX} ffff 00000000")),
        ),
    ]
}

/// The killing inputs of the text, subject, handshake and limits mistakes.
fn other_killers() -> Vec<(Mistake, Input)> {
    let oversized = format!(
        r#"{{"protocol":"sideband","version":"1","peerId":"{}"}}"#,
        "p".repeat(8192)
    );
    vec![
        // U08: an Error message of one ff byte.
        (
            Mistake::Utf8Lenient,
            Input::Frame(error_bytes(1002, b"\xff", b""), Limits::DEFAULT),
        ),
        // U05: BOM + app/x.
        (
            Mistake::BomStripped,
            Input::Frame(message_bytes(b"\xef\xbb\xbfapp/x", b""), Limits::DEFAULT),
        ),
        // U10: a Close reason of one ff byte.
        (
            Mistake::CloseReasonUtf8,
            Input::Frame(control_bytes(3, b"\xff"), Limits::DEFAULT),
        ),
        (Mistake::SubjectCaseInsensitive, Input::Subject("App/x")),
        (Mistake::SubjectCode1000, Input::Subject("foo/bar")),
        // V08: rpc/getUser.
        (
            Mistake::SnapshotSubjectModel,
            frame_input("0100000102030405060708090a0b0c0d0e0f0b0000007270632f676574557365726869"),
        ),
        (Mistake::StreamPrefixReserved, Input::Subject("stream/x")),
        // H12: a wrong protocol and no peerId.
        (
            Mistake::HandshakeValuesBeforeTypes,
            Input::Handshake(br#"{"protocol":"other","version":"1"}"#.to_vec()),
        ),
        (
            Mistake::HandshakeSizeIgnored,
            Input::Handshake(oversized.into_bytes()),
        ),
        // L01: one byte over a 64-byte cap.
        (Mistake::FrameCapIgnored, close_under_cap(65, 64)),
        // L02: exactly at the cap.
        (Mistake::FrameCapExclusive, close_under_cap(64, 64)),
        // L03: a message one byte over an 8-byte limit.
        (
            Mistake::ErrorMessageUnbounded,
            Input::Frame(error_bytes(1002, b"123456789", b""), small_error_limits()),
        ),
        // L04: details one byte over a 16-byte limit.
        (
            Mistake::ErrorDetailsUnbounded,
            Input::Frame(error_bytes(1002, b"", &[7; 17]), small_error_limits()),
        ),
        // L06: 2^53 + 1 rounds to 2^53 in a double.
        (
            Mistake::TimestampThroughDouble,
            frame_input(&format!("0001 {FID_HEX} 0100000000002000 01")),
        ),
    ]
}

/// Limits of 8 bytes for an Error message and 16 for its details.
fn small_error_limits() -> Limits {
    Limits {
        max_error_message: 8,
        max_error_details: 16,
        ..Limits::DEFAULT
    }
}

/// An Error frame (code 1002) whose msgLen field holds `declared`, followed by `rest`.
fn error_bytes_with_len(declared: u32, rest: &[u8]) -> Vec<u8> {
    let mut out = bytes(&format!("0300 {FID_HEX} ea03"));
    out.extend(declared.to_le_bytes());
    out.extend_from_slice(rest);
    out
}

#[test]
fn each_mistake_changes_the_outcome_of_its_killing_input() {
    for (mistake, input) in killers() {
        let model = run(&input, Mistakes::NONE);
        let mistaken = run(&input, mistake.into());
        assert_ne!(model, mistaken, "{} survives its input", mistake.id());
    }
}

#[test]
fn every_mistake_has_a_killing_input() {
    let killed: Vec<Mistake> = killers().into_iter().map(|(m, _)| m).collect();
    assert_eq!(
        killed,
        Mistake::ALL,
        "one input per mistake, in catalogue order"
    );
}
