//! The handshake payload: the plan's invalid cases, the reference's answers where the plan is
//! silent, the size limit, and the order of checks.

use serde_json::json;

use crate::error::{
    Field, HandshakeDefect, INVALID_FRAME, ProtocolError, Reason, UNSUPPORTED_VERSION,
};
use crate::{Limits, decode_handshake};

const D: &Limits = &Limits::DEFAULT;
const MINIMAL: &str = r#"{"protocol":"sideband","version":"1","peerId":"peer-a"}"#;

fn defect(payload: &[u8]) -> HandshakeDefect {
    let err = decode_handshake(payload, D).unwrap_err();
    let Reason::Handshake(d) = err.what else {
        panic!("{err:?}")
    };
    assert_eq!(err, ProtocolError::new(err.what));
    assert!(err.fatal, "every handshake refusal is fatal");
    d
}

fn code(payload: &[u8]) -> u16 {
    decode_handshake(payload, D).unwrap_err().code
}

#[test]
fn valid_handshakes_are_accepted_with_their_fields() {
    let hs = decode_handshake(MINIMAL.as_bytes(), D).unwrap();
    assert_eq!(hs.peer_id, "peer-a");
    assert_eq!((hs.caps, hs.metadata), (None, None));
    let full = json!({
        "protocol": "sideband", "version": "1", "peerId": "p",
        "caps": ["rpc", "compression:gzip", "x-unknown"],
        "metadata": {"tracing:id": "abc", "vendor:n": 1},
        "future": {"anything": [1, 2]}
    });
    let hs = decode_handshake(full.to_string().as_bytes(), D).unwrap();
    assert_eq!(
        hs.caps.as_deref(),
        Some(&["rpc", "compression:gzip", "x-unknown"].map(String::from)[..])
    );
    assert_eq!(hs.metadata.unwrap()["tracing:id"], "abc");
    assert_eq!(hs.object["future"], json!({"anything": [1, 2]}));
}

#[test]
fn wrong_protocol_or_version_is_unsupported_version() {
    for (key, value) in [
        ("protocol", "other"),
        ("protocol", "Sideband"),
        ("protocol", "sideband/1"),
        ("version", "2"),
        ("version", "1.0"),
    ] {
        let mut v: serde_json::Value = serde_json::from_str(MINIMAL).unwrap();
        v[key] = json!(value);
        let payload = v.to_string();
        assert_eq!(code(payload.as_bytes()), UNSUPPORTED_VERSION, "{payload}");
    }
    let both = r#"{"protocol":"x","version":"2","peerId":"p"}"#;
    assert_eq!(
        defect(both.as_bytes()),
        HandshakeDefect::WrongProtocol,
        "protocol first"
    );
}

#[test]
fn missing_or_mistyped_required_fields_are_invalid_frames() {
    let cases = [
        (
            r#"{"version":"1","peerId":"p"}"#,
            HandshakeDefect::Missing(Field::Protocol),
        ),
        (
            r#"{"protocol":"sideband","peerId":"p"}"#,
            HandshakeDefect::Missing(Field::Version),
        ),
        (
            r#"{"protocol":"sideband","version":"1"}"#,
            HandshakeDefect::Missing(Field::PeerId),
        ),
        (
            r#"{"protocol":"sideband","version":1,"peerId":"p"}"#,
            HandshakeDefect::NotString(Field::Version),
        ),
        (
            r#"{"protocol":"sideband","version":"1","peerId":7}"#,
            HandshakeDefect::NotString(Field::PeerId),
        ),
        (
            r#"{"protocol":null,"version":"1","peerId":"p"}"#,
            HandshakeDefect::NotString(Field::Protocol),
        ),
    ];
    for (payload, want) in cases {
        assert_eq!(defect(payload.as_bytes()), want, "{payload}");
        assert_eq!(code(payload.as_bytes()), INVALID_FRAME);
    }
}

#[test]
fn every_type_check_runs_before_the_protocol_and_version_values() {
    let wrong_protocol_no_peer = r#"{"protocol":"other","version":"1"}"#;
    assert_eq!(
        defect(wrong_protocol_no_peer.as_bytes()),
        HandshakeDefect::Missing(Field::PeerId)
    );
    let wrong_protocol_numeric_version = r#"{"protocol":"other","version":1,"peerId":"p"}"#;
    let want = HandshakeDefect::NotString(Field::Version);
    assert_eq!(defect(wrong_protocol_numeric_version.as_bytes()), want);
}

#[test]
fn payloads_that_are_not_a_json_object_are_invalid_frames() {
    for payload in [&b""[..], b"{", b"not json", b"{} {}", b"{\"a\":1,}"] {
        assert_eq!(defect(payload), HandshakeDefect::NotJson, "{payload:?}");
    }
    for payload in [&b"null"[..], b"[]", b"\"sideband\"", b"1"] {
        assert_eq!(defect(payload), HandshakeDefect::NotObject, "{payload:?}");
    }
}

#[test]
fn what_the_reference_leaves_unchecked_stays_accepted() {
    let accepted = [
        r#"{"protocol":"sideband","version":"1","peerId":""}"#,
        r#"{"protocol":"sideband","version":"1","peerId":"p","caps":"rpc"}"#,
        r#"{"protocol":"sideband","version":"1","peerId":"p","caps":["rpc",1]}"#,
        r#"{"protocol":"sideband","version":"1","peerId":"p","metadata":{"plain":"no namespace"}}"#,
        r#"{"protocol":"sideband","version":"1","peerId":"p","metadata":[1]}"#,
        r#"{"protocol":"other","protocol":"sideband","version":"1","peerId":"p"}"#,
    ];
    for payload in accepted {
        let hs = decode_handshake(payload.as_bytes(), D);
        assert!(hs.is_ok(), "{payload}: {hs:?}");
    }
    let ill_typed_caps = decode_handshake(accepted[2].as_bytes(), D).unwrap();
    assert_eq!(
        ill_typed_caps.caps, None,
        "caps that are not all strings are ignored"
    );
}

#[test]
fn the_payload_limit_is_8_kib_inclusive() {
    let padded = |total: usize| {
        let pad = total - MINIMAL.len() - r#","metadata":{"vendor:pad":""}"#.len();
        let tail = format!(r#","metadata":{{"vendor:pad":"{}"}}}}"#, "x".repeat(pad));
        format!("{}{tail}", &MINIMAL[..MINIMAL.len() - 1])
    };
    assert_eq!(padded(8192).len(), 8192);
    assert!(decode_handshake(padded(8192).as_bytes(), D).is_ok());
    let want = HandshakeDefect::TooLarge {
        len: 8193,
        limit: 8192,
    };
    assert_eq!(defect(padded(8193).as_bytes()), want);
    assert_eq!(code(padded(8193).as_bytes()), INVALID_FRAME);
}

#[test]
fn the_payload_is_strict_utf8_and_a_leading_bom_is_not_json() {
    let bad_string = MINIMAL.replace("peer-a", "peer-\u{1}").into_bytes();
    let at = bad_string.iter().position(|&b| b == 1).unwrap();
    let mut bad = bad_string.clone();
    bad[at] = 0xff;
    assert_eq!(defect(&bad), HandshakeDefect::NotUtf8 { offset: at });
    let bom = [&b"\xef\xbb\xbf"[..], MINIMAL.as_bytes()].concat();
    assert_eq!(defect(&bom), HandshakeDefect::NotJson);
}

#[test]
fn json_the_model_cannot_hold_is_not_json() {
    // An escaped lone surrogate is no Unicode text; a number past the double range and nesting
    // deeper than 128 are past the model's JSON reader. The suite carries no case on these.
    let lone = MINIMAL.replace("peer-a", "\\ud800");
    assert_eq!(defect(lone.as_bytes()), HandshakeDefect::NotJson);
    let huge = MINIMAL.replace('}', r#","metadata":{"vendor:n":1e400}}"#);
    assert_eq!(defect(huge.as_bytes()), HandshakeDefect::NotJson);
    let deep = MINIMAL.replace(
        '}',
        &format!(r#","x":{}{}}}"#, "[".repeat(200), "]".repeat(200)),
    );
    assert_eq!(defect(deep.as_bytes()), HandshakeDefect::NotJson);
    let fine = MINIMAL.replace(
        '}',
        &format!(r#","x":{}{}}}"#, "[".repeat(100), "]".repeat(100)),
    );
    assert!(decode_handshake(fine.as_bytes(), D).is_ok());
}
