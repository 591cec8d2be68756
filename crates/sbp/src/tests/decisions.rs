//! One test per decision of `DECISIONS.md` on frames and subjects (the handshake's are in
//! `handshake.rs`), each through `decode` and, where it applies, `encode`.

use super::*;
use crate::error::{
    INVALID_FRAME, PROTOCOL_VIOLATION, ProtocolError, Reason, SubjectDefect, UNSUPPORTED_FEATURE,
};
use crate::frame::frame_id_of;
use crate::{Limits, check_subject, decode, encode, encode_with};

const D: &Limits = &Limits::DEFAULT;

/// Decoding `wire` under the default limits fails with `what`, and with its code and fatality.
fn refused(wire: &[u8], what: Reason, code: u16, fatal: bool) {
    let err = decode(wire, D).unwrap_err();
    assert_eq!(err.what, what, "{}", crate::hex::to_hex(wire));
    assert_eq!((err.code, err.fatal), (code, fatal), "{what:?}");
}

/// `wire` decodes to `want` and `want` encodes back to `wire`.
fn round_trips(wire: &[u8], want: &Frame) {
    assert_eq!(decode(wire, D).as_ref(), Ok(want));
    assert_eq!(encode(want).as_deref(), Ok(wire));
}

#[test]
fn subject_model_accepts_the_exact_channels_and_app_prefix_only() {
    for ok in [
        "rpc",
        "event",
        "app/",
        "app/x",
        "app/com.example/x",
        "app/🎉",
        "app/a b\n..//",
    ] {
        assert_eq!(check_subject(ok), Ok(()), "{ok:?}");
        round_trips(
            &message_bytes(ok.as_bytes(), b"d"),
            &frame(None, message(ok, b"d")),
        );
    }
    let unknown = [
        "rpc/getUser",
        "event/x",
        "rpc/",
        "stream/x",
        "stream/",
        "foo/bar",
        "app",
        "RPC",
        "Event",
        "App/x",
        "STREAM",
        " rpc",
        "rpc ",
        "apps/x",
    ];
    for bad in unknown {
        let what = Reason::Subject(SubjectDefect::Unknown);
        assert_eq!(check_subject(bad), Err(ProtocolError::new(what)), "{bad:?}");
        refused(
            &message_bytes(bad.as_bytes(), b""),
            what,
            INVALID_FRAME,
            false,
        );
        let err = encode(&frame(None, message(bad, b""))).unwrap_err();
        assert_eq!(err.what, what, "the encoder refuses {bad:?} too");
    }
    let reserved = Reason::Subject(SubjectDefect::Reserved);
    refused(
        &message_bytes(b"stream", b""),
        reserved,
        UNSUPPORTED_FEATURE,
        false,
    );
    assert_eq!(
        check_subject("stream").unwrap_err().code,
        UNSUPPORTED_FEATURE
    );
}

#[test]
fn subject_length_is_1_to_256_bytes_of_the_wire_form() {
    let fits = format!("app/{}", "x".repeat(252));
    assert_eq!(check_subject(&fits), Ok(()));
    let over = format!("app/{}", "x".repeat(253));
    let too_long = |len| Reason::Subject(SubjectDefect::TooLong { len });
    refused(
        &message_bytes(over.as_bytes(), b""),
        too_long(257),
        INVALID_FRAME,
        false,
    );
    // Bytes, not characters: 63 four-byte emoji fill 252 bytes, 64 make 260.
    assert_eq!(check_subject(&format!("app/{}", "🎉".repeat(63))), Ok(()));
    let emoji = format!("app/{}", "🎉".repeat(64));
    assert_eq!(check_subject(&emoji).unwrap_err().what, too_long(260));
    // Measured on the wire bytes, whatever they hold.
    let mut raw = b"app/".to_vec();
    raw.extend([0xff; 253]);
    refused(
        &message_bytes(&raw, b""),
        too_long(257),
        INVALID_FRAME,
        false,
    );
    let empty = Reason::Subject(SubjectDefect::Empty);
    refused(&message_bytes(b"", b"data"), empty, INVALID_FRAME, false);
}

#[test]
fn a_nul_anywhere_in_a_subject_is_refused_with_its_offset() {
    let what = Reason::Subject(SubjectDefect::Nul { offset: 5 });
    refused(&message_bytes(b"app/a\0b", b""), what, INVALID_FRAME, false);
    assert_eq!(check_subject("app/a\0b").unwrap_err().what, what);
    let at_end = Reason::Subject(SubjectDefect::Nul { offset: 4 });
    refused(&message_bytes(b"app/\0", b""), at_end, INVALID_FRAME, false);
}

#[test]
fn text_that_is_not_utf8_is_refused_in_subjects_and_error_messages() {
    // A lone continuation byte, an overlong encoding, an encoded surrogate, a truncated
    // sequence: each refused at the offset of its first byte.
    for bad in [&b"\xff"[..], b"\xc0\xaf", b"\xed\xa0\x80", b"\xf0\x9f\x8e"] {
        let subject = [b"app/", bad].concat();
        let what = Reason::Subject(SubjectDefect::NotUtf8 { offset: 4 });
        refused(&message_bytes(&subject, b""), what, INVALID_FRAME, false);
        let message = [b"ok ", bad].concat();
        let what = Reason::ErrorMessageNotUtf8 { offset: 3 };
        refused(
            &error_bytes(1002, &message, b""),
            what,
            INVALID_FRAME,
            false,
        );
    }
}

#[test]
fn a_leading_bom_is_kept_as_u_feff_never_dropped() {
    // In a subject it is a character like any other: in front of app/ the subject is unknown,
    // after app/ it is part of the remainder.
    let what = Reason::Subject(SubjectDefect::Unknown);
    refused(
        &message_bytes(b"\xef\xbb\xbfapp/x", b""),
        what,
        INVALID_FRAME,
        false,
    );
    let inside = "app/\u{feff}x";
    round_trips(
        &message_bytes(inside.as_bytes(), b""),
        &frame(None, message(inside, b"")),
    );
    // In an Error message it stays, so the frame round-trips byte for byte.
    let text = "\u{feff}bad";
    round_trips(
        &error_bytes(1002, text.as_bytes(), b""),
        &frame(None, error(1002, text, b"")),
    );
}

#[test]
fn the_close_reason_is_opaque_bytes() {
    let close = |reason: &[u8]| frame(None, control(Op::Close, reason));
    round_trips(&control_bytes(3, b"\xff"), &close(b"\xff"));
    round_trips(
        &control_bytes(3, b"\xef\xbb\xbf\x00bye"),
        &close(b"\xef\xbb\xbf\x00bye"),
    );
}

#[test]
fn an_empty_close_reason_or_error_details_is_the_same_as_none() {
    let v06 = bytes(&format!("0000 {FID_HEX} 03"));
    round_trips(&v06, &frame(None, control(Op::Close, b"")));
    let v15 = bytes(&format!("0300 {FID_HEX} e803 00000000"));
    round_trips(&v15, &frame(None, error(1000, "", b"")));
}

#[test]
fn the_frame_cap_is_inclusive_and_over_it_is_a_fatal_protocol_violation() {
    let limits = Limits {
        max_frame: 64,
        ..Limits::DEFAULT
    };
    let at_cap = control_bytes(3, &[b'r'; 64 - 19]);
    assert_eq!(at_cap.len(), 64);
    let want = frame(None, control(Op::Close, &at_cap[19..]));
    assert_eq!(decode(&at_cap, &limits).as_ref(), Ok(&want));
    assert_eq!(encode_with(&want, &limits).as_ref(), Ok(&at_cap));
    let over = control_bytes(3, &[b'r'; 64 - 18]);
    let err = decode(&over, &limits).unwrap_err();
    assert_eq!(err.what, Reason::FrameTooLarge { len: 65, cap: 64 });
    assert_eq!((err.code, err.fatal), (PROTOCOL_VIOLATION, true));
    let long = frame(None, control(Op::Close, &over[19..]));
    assert_eq!(encode_with(&long, &limits), Err(err));
}

#[test]
fn the_default_frame_cap_is_one_mebibyte() {
    let data = vec![7u8; (1 << 20) - 18 - 4 - 5];
    let at_cap = message_bytes(b"app/x", &data);
    assert_eq!(at_cap.len(), 1 << 20);
    assert!(decode(&at_cap, D).is_ok());
    let over = message_bytes(b"app/x", &[&data[..], b"+"].concat());
    let what = Reason::FrameTooLarge {
        len: (1 << 20) + 1,
        cap: 1 << 20,
    };
    refused(&over, what, PROTOCOL_VIOLATION, true);
}

#[test]
fn error_message_and_details_are_bounded_by_inclusive_limits() {
    let limits = Limits {
        max_error_message: 8,
        max_error_details: 4,
        ..Limits::DEFAULT
    };
    let ok = error_bytes(2000, b"12345678", b"1234");
    assert!(decode(&ok, &limits).is_ok());
    let long_message = decode(&error_bytes(2000, b"123456789", b""), &limits).unwrap_err();
    let what = Reason::ErrorMessageTooLong { len: 9, limit: 8 };
    assert_eq!(long_message, ProtocolError::new(what));
    assert_eq!(
        (long_message.code, long_message.fatal),
        (INVALID_FRAME, false)
    );
    let long_details = decode(&error_bytes(2000, b"", b"12345"), &limits).unwrap_err();
    let what = Reason::ErrorDetailsTooLong { len: 5, limit: 4 };
    assert_eq!(long_details, ProtocolError::new(what));
    assert_eq!(
        (long_details.code, long_details.fatal),
        (INVALID_FRAME, false)
    );
    assert_eq!(Limits::DEFAULT.max_error_message, 4096);
    assert_eq!(Limits::DEFAULT.max_error_details, 16384);
}

#[test]
fn timestamps_are_exact_int64_values() {
    let ping = |ts: i64| {
        let mut wire = bytes(&format!("0001 {FID_HEX}"));
        wire.extend(ts.to_le_bytes());
        wire.push(1);
        (wire, frame(Some(ts), control(Op::Ping, b"")))
    };
    for ts in [i64::MAX, i64::MIN, (1 << 53) + 1, -(1 << 53) - 1, -1, 0, TS] {
        let (wire, want) = ping(ts);
        round_trips(&wire, &want);
    }
}

#[test]
fn any_error_code_is_accepted() {
    for code in [0, 999, 1003, 1099, 1103, 4464, 65535] {
        let wire = error_bytes(code, b"m", b"");
        round_trips(&wire, &frame(None, error(code, "m", b"")));
    }
}

#[test]
fn unknown_control_ops_are_refused_but_not_fatal() {
    for op in [4u8, 5, 127, 255] {
        refused(
            &control_bytes(op, b""),
            Reason::UnknownOp { op },
            INVALID_FRAME,
            false,
        );
    }
    refused(
        &bytes(&format!("0000 {FID_HEX}")),
        Reason::MissingOp,
        INVALID_FRAME,
        true,
    );
}

#[test]
fn trailing_bytes_after_ping_pong_and_ack_are_refused() {
    for op in [Op::Ping, Op::Pong] {
        let what = Reason::ControlTrailing { op, extra: 1 };
        refused(
            &control_bytes(op.byte(), b"\x00"),
            what,
            INVALID_FRAME,
            true,
        );
        let with_data = frame(None, control(op, b"\x00"));
        assert_eq!(encode(&with_data).unwrap_err().what, what);
    }
    let ack = |n: usize| [bytes(&format!("0200 {FID_HEX}")), vec![0xaa; n]].concat();
    for n in [0, 15, 17, 32] {
        refused(
            &ack(n),
            Reason::AckLength { payload: n },
            INVALID_FRAME,
            true,
        );
    }
}

#[test]
fn unknown_kinds_and_reserved_flag_bits_are_fatal() {
    for kind in [4u8, 5, 0x80, 0xff] {
        let mut wire = control_bytes(1, b"");
        wire[0] = kind;
        refused(&wire, Reason::UnknownKind { kind }, INVALID_FRAME, true);
    }
    for bit in 1..8 {
        for ts in [0u8, 1] {
            let flags = (1u8 << bit) | ts;
            let mut wire = bytes(&format!("00{flags:02x} {FID_HEX} 0068e5cf8b010000 01"));
            wire.truncate(if ts == 1 { 27 } else { 19 });
            refused(&wire, Reason::ReservedFlags { flags }, INVALID_FRAME, true);
        }
    }
}

#[test]
fn structural_defects_are_fatal_invalid_frames() {
    let head = |kind: &str| bytes(&format!("{kind}00 {FID_HEX}"));
    let cases: Vec<(Vec<u8>, Reason)> = vec![
        (vec![], Reason::ShortBuffer { len: 0 }),
        (vec![0; 17], Reason::ShortBuffer { len: 17 }),
        (
            bytes(&format!("0001 {FID_HEX} 0068e5cf8b0100")),
            Reason::TruncatedTimestamp { len: 25 },
        ),
        (control_bytes(0, b""), Reason::HandshakeWithoutData),
        (
            [head("01"), bytes("0b0000")].concat(),
            Reason::MessageTooShort { payload: 3 },
        ),
        (
            [head("01"), bytes("0a000000 617070")].concat(),
            Reason::SubjectOverrun {
                declared: 10,
                available: 3,
            },
        ),
        (
            [head("01"), bytes("ffffffff 617070")].concat(),
            Reason::SubjectOverrun {
                declared: u32::MAX,
                available: 3,
            },
        ),
        (
            [head("03"), bytes("ea0303000000")[..5].to_vec()].concat(),
            Reason::ErrorTooShort { payload: 5 },
        ),
        (
            [head("03"), bytes("ea03 14000000 626164")].concat(),
            Reason::ErrorMessageOverrun {
                declared: 20,
                available: 3,
            },
        ),
        (
            [head("03"), bytes("ea03 ffffffff 626164")].concat(),
            Reason::ErrorMessageOverrun {
                declared: u32::MAX,
                available: 3,
            },
        ),
    ];
    for (wire, what) in cases {
        refused(&wire, what, INVALID_FRAME, true);
    }
}

#[test]
fn handshake_frames_need_data_but_their_json_is_not_read_at_decode() {
    for data in [&b"{}"[..], b"\xff", b"not json"] {
        round_trips(
            &control_bytes(0, data),
            &frame(None, control(Op::Handshake, data)),
        );
    }
    let empty = frame(None, control(Op::Handshake, b""));
    assert_eq!(
        encode(&empty).unwrap_err().what,
        Reason::HandshakeWithoutData
    );
}

#[test]
fn the_encoder_sets_the_timestamp_flag_exactly_when_a_timestamp_is_present() {
    let stamped = encode(&frame(Some(0), control(Op::Pong, b""))).unwrap();
    assert_eq!(stamped[1], 0x01);
    assert_eq!(stamped.len(), 27);
    let plain = encode(&frame(None, control(Op::Pong, b""))).unwrap();
    assert_eq!(plain[1], 0x00);
    assert_eq!(plain.len(), 19);
}

#[test]
fn an_error_frame_answering_a_buffer_can_carry_its_frame_id() {
    let wire = message_bytes(b"foo/bar", b"");
    assert!(decode(&wire, D).is_err());
    assert_eq!(frame_id_of(&wire), Some(FID));
    assert_eq!(frame_id_of(&wire[..17]), None);
}
