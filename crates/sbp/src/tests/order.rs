//! The order of checks: when one buffer has several defects, which one decides. The codes
//! mostly coincide (1002), so these tests pin the reasons.

use super::*;
use crate::error::{Reason, SubjectDefect};
use crate::{Limits, decode};

fn reason(wire: &[u8], limits: &Limits) -> Reason {
    decode(wire, limits).unwrap_err().what
}

const D: &Limits = &Limits::DEFAULT;

#[test]
fn the_cap_comes_before_every_other_check() {
    let small = Limits {
        max_frame: 10,
        ..Limits::DEFAULT
    };
    // 17 bytes with reserved flags and an unknown kind: over the cap first.
    let wire = bytes("ff fe 000102030405060708090a0b0c0d0e");
    assert_eq!(
        reason(&wire, &small),
        Reason::FrameTooLarge { len: 17, cap: 10 }
    );
    assert_eq!(reason(&wire, D), Reason::ShortBuffer { len: 17 });
}

#[test]
fn a_short_buffer_is_reported_before_reserved_flags() {
    let wire = bytes("04fe 0001020304050607");
    assert_eq!(reason(&wire, D), Reason::ShortBuffer { len: 10 });
}

#[test]
fn reserved_flags_are_reported_before_a_truncated_timestamp_and_the_kind() {
    let wire = bytes(&format!("04fe {FID_HEX} 01"));
    assert_eq!(reason(&wire, D), Reason::ReservedFlags { flags: 0xfe });
    let wire = bytes(&format!("0403 {FID_HEX}"));
    assert_eq!(reason(&wire, D), Reason::ReservedFlags { flags: 0x03 });
}

#[test]
fn a_truncated_timestamp_is_reported_before_an_unknown_kind() {
    let wire = bytes(&format!("0401 {FID_HEX}"));
    assert_eq!(reason(&wire, D), Reason::TruncatedTimestamp { len: 18 });
    let wire = bytes(&format!("0401 {FID_HEX} 0068e5cf8b010000"));
    assert_eq!(reason(&wire, D), Reason::UnknownKind { kind: 4 });
}

#[test]
fn subject_checks_run_length_utf8_empty_nul_then_channel() {
    let subject = |s: &[u8]| reason(&message_bytes(s, b""), D);
    let too_long = [&[0xff, 0x00][..], &[b'x'; 300]].concat();
    assert_eq!(
        subject(&too_long),
        Reason::Subject(SubjectDefect::TooLong { len: 302 })
    );
    assert_eq!(
        subject(b"\x00\xff"),
        Reason::Subject(SubjectDefect::NotUtf8 { offset: 1 })
    );
    assert_eq!(
        subject(b"\x00"),
        Reason::Subject(SubjectDefect::Nul { offset: 0 })
    );
    assert_eq!(
        subject(b"stream\x00"),
        Reason::Subject(SubjectDefect::Nul { offset: 6 })
    );
}

#[test]
fn a_message_length_overrun_is_reported_before_the_subject() {
    let wire = [bytes(&format!("0100 {FID_HEX} 05000000")), b"foo".to_vec()].concat();
    let what = Reason::SubjectOverrun {
        declared: 5,
        available: 3,
    };
    assert_eq!(reason(&wire, D), what);
}

#[test]
fn error_checks_run_length_field_message_limit_utf8_then_details() {
    let limits = Limits {
        max_error_message: 2,
        max_error_details: 0,
        ..Limits::DEFAULT
    };
    let wire = error_bytes(1, b"\xff\xff\xff", b"d");
    let what = Reason::ErrorMessageTooLong { len: 3, limit: 2 };
    assert_eq!(reason(&wire, &limits), what);
    let wire = error_bytes(1, b"\xff", b"d");
    assert_eq!(
        reason(&wire, &limits),
        Reason::ErrorMessageNotUtf8 { offset: 0 }
    );
    let wire = error_bytes(1, b"ok", b"d");
    let what = Reason::ErrorDetailsTooLong { len: 1, limit: 0 };
    assert_eq!(reason(&wire, &limits), what);
}

#[test]
fn an_unknown_op_is_reported_whatever_follows_it() {
    assert_eq!(
        reason(&control_bytes(9, b"\xff"), D),
        Reason::UnknownOp { op: 9 }
    );
}
