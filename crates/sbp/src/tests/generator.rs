//! The seeded generator: it is the documented algorithm (the pinned values come from a separate
//! implementation written from the module's documentation alone), and the model's expectation
//! holds on what it generates.

use std::collections::BTreeSet;

use crate::fuzzing::{GENERATED_CODES, SplitMix64, buffers, check};
use crate::hex::to_hex;
use crate::{Kind, Limits, decode};

#[test]
fn splitmix64_gives_the_published_sequence() {
    let mut rng = SplitMix64::new(0);
    let draws = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
    assert_eq!(
        draws,
        [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f]
    );
}

#[test]
fn the_buffers_of_a_seed_are_the_documented_ones() {
    let first: Vec<String> = buffers(1, 3).map(|b| to_hex(&b)).collect();
    assert_eq!(
        first,
        [
            "03000bb980a575a89661fec08aa83b63f1ee084616000000f735ab278a84ba6d1c170cf5c1183c860763b281385e96737a74e5f8908fafafcc5252147fbc5b62ac",
            "0201bb618775730e4353be559d39e1d7f209b1796e5c40a83ec24baef88190f25101535b92250b6fd66c7b5a265ea217122fc4",
            "0200de9f7070d39d4485f8ed96704095d6d2",
        ]
    );
    // FNV-1a (64-bit) over each buffer's length (u64 LE) and bytes, 10,000 buffers of seed 2026.
    let mut hash: u64 = 0xcbf29ce484222325;
    for b in buffers(2026, 10_000) {
        for x in (b.len() as u64).to_le_bytes().into_iter().chain(b) {
            hash = (hash ^ u64::from(x)).wrapping_mul(0x100000001b3);
        }
    }
    assert_eq!(hash, 0x7e7691af1296655c);
}

#[test]
fn generated_buffers_decode_or_are_refused_with_the_stated_codes() {
    let mut kinds = BTreeSet::new();
    let mut reasons = BTreeSet::new();
    for b in buffers(2026, 10_000) {
        assert_eq!(check(&b, &Limits::DEFAULT), Ok(()), "{}", to_hex(&b));
        match decode(&b, &Limits::DEFAULT) {
            Ok(frame) => {
                kinds.insert(match frame.kind {
                    Kind::Control { op, .. } => op.name(),
                    Kind::Message { .. } => "message",
                    Kind::Ack { .. } => "ack",
                    Kind::Error { .. } => "error",
                });
            }
            Err(e) => {
                assert!(GENERATED_CODES.contains(&e.code), "{}: {e}", to_hex(&b));
                reasons.insert(format!("{:?}", std::mem::discriminant(&e.what)));
            }
        }
    }
    // The shaping reaches past the first checks: every kind and op is accepted somewhere, and
    // the refusals are spread over many reasons.
    let all = [
        "ack",
        "close",
        "error",
        "handshake",
        "message",
        "ping",
        "pong",
    ];
    assert_eq!(kinds, all.into_iter().collect());
    assert!(reasons.len() >= 14, "{} reasons", reasons.len());
}
