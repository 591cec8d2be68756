//! One runner per case `op`. Each reads its inputs, derives the outcome with the model (decoding
//! and handshakes with the mistakes `m`; encoding is always the model's), and compares it with
//! the case's `expect`.

use serde_json::{Value, json};

use bqsuite_core::evaluator::Verdict;
use bqsuite_core::json::pointer::join;

use super::case::{Case, Step, hex_at, malformed};
use super::compare::{compact, mismatch, verdict};
use super::frame_json::{frame_from_json, frame_to_json, handshake_to_json};
use crate::fuzzing::{GENERATED_LEN_BOUND, SplitMix64, next_buffer};
use crate::hex::to_hex;
use crate::{Limits, Mistakes, ProtocolError, decode_handshake_with, decode_with, encode_with};

/// A runner: the verdict on one case under the mistakes `m`.
pub(crate) type Runner = fn(&Case<'_>, Mistakes) -> Step<Verdict>;

/// The ops, each with its runner.
pub(crate) const OPS: [(&str, Runner); 7] = [
    ("decode", decode),
    ("encode", encode),
    ("vector", vector),
    ("roundtrip", roundtrip),
    ("sequence", sequence),
    ("handshake", handshake),
    ("fuzz", fuzz),
];

/// The most buffers one `fuzz` case may ask for (bounded time).
pub(crate) const MAX_FUZZ_COUNT: u64 = 1_000_000;

/// The inputs of the ops that read bytes.
const BYTES_INPUTS: [&str; 3] = ["hex", "file", "limits"];

/// `{"error": {"code": N}}`.
fn refusal(e: &ProtocolError) -> Value {
    json!({ "error": { "code": e.code } })
}

/// What decoding `bytes` gives: `{"frame": FRAME}` or a refusal.
fn decoded(bytes: &[u8], limits: &Limits, m: Mistakes) -> Value {
    match decode_with(bytes, limits, m) {
        Ok(frame) => json!({ "frame": frame_to_json(&frame) }),
        Err(e) => refusal(&e),
    }
}

/// Compares the expectation `(shape, expected)` with `derived`, a one-member object: the same
/// member compared field by field, another member reported whole at the expectation's member.
fn judge(c: &Case<'_>, (shape, expected): (&str, &Value), derived: &Value) -> Verdict {
    let pointer = join(&c.at("expect"), shape);
    match derived.get(shape) {
        Some(value) => verdict(expected, value, &pointer),
        None => mismatch(
            &pointer,
            compact(&json!({ shape: expected })),
            compact(derived),
        ),
    }
}

fn decode(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["frame", "error"])?;
    Ok(judge(c, expect, &decoded(&bytes, &limits, m)))
}

fn encode(c: &Case<'_>, _: Mistakes) -> Step<Verdict> {
    c.only_keys(&["frame", "limits"])?;
    let frame = frame_from_json(c.require("frame")?, &c.at("frame"))?;
    let limits = c.limits()?;
    let expect = c.expect(&["hex", "error"])?;
    let derived = match encode_with(&frame, &limits) {
        Ok(bytes) => json!({ "hex": to_hex(&bytes) }),
        Err(e) => refusal(&e),
    };
    Ok(judge(c, expect, &derived))
}

/// A golden vector: the bytes decode to the expected frame, and that frame encodes to the bytes.
fn vector(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["frame"])?;
    let decoding = judge(c, expect, &decoded(&bytes, &limits, m));
    if decoding != Verdict::Pass {
        return Ok(decoding);
    }
    let frame = frame_from_json(expect.1, &join(&c.at("expect"), "frame"))?;
    let field = match c.fields.contains_key("file") {
        true => "file",
        false => "hex",
    };
    Ok(match encode_with(&frame, &limits) {
        Ok(out) if out == bytes => Verdict::Pass,
        Ok(out) => mismatch(&c.at(field), to_hex(&bytes), to_hex(&out)),
        Err(e) => mismatch(&c.at(field), to_hex(&bytes), compact(&refusal(&e))),
    })
}

fn roundtrip(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["same_bytes"])?;
    let derived = match decode_with(&bytes, &limits, m).and_then(|f| encode_with(&f, &limits)) {
        Ok(out) => json!({ "same_bytes": out == bytes }),
        Err(e) => refusal(&e),
    };
    Ok(judge(c, expect, &derived))
}

fn sequence(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&["frames", "limits"])?;
    let items = c
        .require("frames")?
        .as_array()
        .ok_or_else(|| malformed(c.at("frames"), "`frames` must be an array of hex strings"))?;
    let limits = c.limits()?;
    let mut frames = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = join(&c.at("frames"), &i.to_string());
        let text = item
            .as_str()
            .ok_or_else(|| malformed(&at, "each frame is a hex string"))?;
        let outcome = decoded(&hex_at(text, &at)?, &limits, m);
        frames.push(match outcome.get("frame") {
            Some(frame) => frame.clone(),
            None => outcome,
        });
    }
    let expect = c.expect(&["frames"])?;
    Ok(judge(c, expect, &json!({ "frames": frames })))
}

fn handshake(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["handshake", "error"])?;
    let derived = match decode_handshake_with(&bytes, &limits, m) {
        Ok(h) => json!({ "handshake": handshake_to_json(&h) }),
        Err(e) => refusal(&e),
    };
    Ok(judge(c, expect, &derived))
}

/// Negative fuzzing: every buffer of the seeded generator decodes to a frame or is refused with
/// one of the expected codes.
fn fuzz(c: &Case<'_>, m: Mistakes) -> Step<Verdict> {
    c.only_keys(&["seed", "count", "length_bound", "limits"])?;
    let seed = c.count("seed", u64::MAX)?;
    let count = c.count("count", MAX_FUZZ_COUNT)?;
    if c.count("length_bound", u64::MAX)? != GENERATED_LEN_BOUND {
        return Err(malformed(
            c.at("length_bound"),
            format!(
                "the generator draws lengths below {GENERATED_LEN_BOUND}: `length_bound` is {GENERATED_LEN_BOUND}"
            ),
        ));
    }
    let limits = c.limits()?;
    let (_, expected) = c.expect(&["codes"])?;
    let pointer = join(&c.at("expect"), "codes");
    let allowed: Vec<u64> = expected
        .as_array()
        .and_then(|codes| codes.iter().map(Value::as_u64).collect())
        .ok_or_else(|| malformed(&pointer, "`codes` must be an array of error codes"))?;
    let mut seen = std::collections::BTreeSet::new();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..count {
        if let Err(e) = decode_with(&next_buffer(&mut rng), &limits, m) {
            seen.insert(u64::from(e.code));
        }
    }
    Ok(match seen.iter().all(|code| allowed.contains(code)) {
        true => Verdict::Pass,
        false => mismatch(&pointer, compact(expected), compact(&json!(seen))),
    })
}
