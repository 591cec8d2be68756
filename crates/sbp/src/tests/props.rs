//! Properties over generated input: any bytes keep the model's invariants, and every valid
//! frame survives encode then decode.

use proptest::prelude::*;

use crate::frame::{Frame, Kind, Op};
use crate::fuzzing::{FUZZ_LIMITS, check};
use crate::{Limits, decode, encode};

fn text(max_chars: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..max_chars).prop_map(|cs| cs.into_iter().collect())
}

fn subject() -> impl Strategy<Value = String> {
    let app = text(24).prop_map(|t| format!("app/{}", t.replace('\0', "")));
    prop_oneof![Just("rpc".to_owned()), Just("event".to_owned()), app]
}

fn data() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..48)
}

fn kind() -> impl Strategy<Value = Kind> {
    let control = |op: Op, data: Vec<u8>| Kind::Control { op, data };
    prop_oneof![
        prop::collection::vec(any::<u8>(), 1..48).prop_map(move |d| control(Op::Handshake, d)),
        prop_oneof![Just(Op::Ping), Just(Op::Pong)].prop_map(move |op| control(op, vec![])),
        data().prop_map(move |d| control(Op::Close, d)),
        (subject(), data()).prop_map(|(subject, data)| Kind::Message { subject, data }),
        any::<[u8; 16]>().prop_map(|ack_frame_id| Kind::Ack { ack_frame_id }),
        (any::<u16>(), text(24), data()).prop_map(|(code, message, details)| Kind::Error {
            code,
            message,
            details
        }),
    ]
}

fn valid_frame() -> impl Strategy<Value = Frame> {
    (any::<[u8; 16]>(), prop::option::of(any::<i64>()), kind()).prop_map(
        |(frame_id, timestamp, kind)| Frame {
            frame_id,
            timestamp,
            kind,
        },
    )
}

proptest! {
    #[test]
    fn valid_frames_round_trip(f in valid_frame()) {
        let wire = encode(&f).expect("a valid frame encodes");
        prop_assert_eq!(decode(&wire, &Limits::DEFAULT), Ok(f));
    }

    #[test]
    fn any_bytes_keep_the_invariants(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        prop_assert_eq!(check(&bytes, &Limits::DEFAULT), Ok(()));
        prop_assert_eq!(check(&bytes, &FUZZ_LIMITS), Ok(()));
    }

    #[test]
    fn damaged_valid_frames_keep_the_invariants(
        f in valid_frame(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        tail in data(),
    ) {
        let mut wire = encode(&f).expect("a valid frame encodes");
        let i = at.index(wire.len());
        wire[i] = byte;
        let keep = cut.index(wire.len() + 1);
        let short = wire[..keep].to_vec();
        wire.extend(tail);
        for bytes in [&wire, &short] {
            prop_assert_eq!(check(bytes, &Limits::DEFAULT), Ok(()));
            prop_assert_eq!(check(bytes, &FUZZ_LIMITS), Ok(()));
        }
    }
}
