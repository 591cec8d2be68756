//! One runner per case `op`. Each reads its inputs, asks the codec it judges (the model, or an
//! implementation's adapter: see [`super::codec`]) and compares the answers with the case's
//! `expect`.

use serde_json::{Value, json};

use bqsuite_core::evaluator::Verdict;
use bqsuite_core::json::pointer::join;

use super::case::{Case, Step, hex_at, malformed};
use super::codec::Codec;
use super::compare::{compact, mismatch, verdict};
use super::frame_json::frame_from_json;
use crate::fuzzing::{GENERATED_LEN_BOUND, SplitMix64, next_buffer};
use crate::hex::to_hex;

/// A runner: the verdict on one case, with `codec`'s answers.
pub(crate) type Runner = fn(&Case<'_>, &mut dyn Codec) -> Step<Verdict>;

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

/// How many generated buffers a `fuzz` case hands its codec at once (bounded memory).
const FUZZ_BATCH: u64 = 1024;

/// The inputs of the ops that read bytes.
const BYTES_INPUTS: [&str; 3] = ["hex", "file", "limits"];

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

fn decode(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["frame", "error"])?;
    Ok(judge(c, expect, &codec.decode(&bytes, &limits)?))
}

fn encode(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
    c.only_keys(&["frame", "limits"])?;
    let frame = c.require("frame")?;
    frame_from_json(frame, &c.at("frame"))?;
    let limits = c.limits()?;
    let expect = c.expect(&["hex", "error"])?;
    Ok(judge(c, expect, &codec.encode(frame, &limits)?))
}

/// A golden vector: the bytes decode to the expected frame, and that frame encodes to the bytes.
fn vector(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["frame"])?;
    let decoding = judge(c, expect, &codec.decode(&bytes, &limits)?);
    if decoding != Verdict::Pass {
        return Ok(decoding);
    }
    frame_from_json(expect.1, &join(&c.at("expect"), "frame"))?;
    let field = match c.fields.contains_key("file") {
        true => "file",
        false => "hex",
    };
    let encoded = codec.encode(expect.1, &limits)?;
    Ok(match encoded.get("hex").and_then(Value::as_str) {
        Some(out) if out == to_hex(&bytes) => Verdict::Pass,
        Some(out) => mismatch(&c.at(field), to_hex(&bytes), out.to_string()),
        None => mismatch(&c.at(field), to_hex(&bytes), compact(&encoded)),
    })
}

fn roundtrip(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["same_bytes"])?;
    let decoded = codec.decode(&bytes, &limits)?;
    let derived = match decoded.get("frame") {
        Some(frame) => {
            let encoded = codec.encode(frame, &limits)?;
            match encoded.get("hex").and_then(Value::as_str) {
                Some(out) => json!({ "same_bytes": out == to_hex(&bytes) }),
                None => encoded,
            }
        }
        None => decoded,
    };
    Ok(judge(c, expect, &derived))
}

fn sequence(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
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
        let outcome = codec.decode(&hex_at(text, &at)?, &limits)?;
        frames.push(match outcome.get("frame") {
            Some(frame) => frame.clone(),
            None => outcome,
        });
    }
    let expect = c.expect(&["frames"])?;
    Ok(judge(c, expect, &json!({ "frames": frames })))
}

fn handshake(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
    c.only_keys(&BYTES_INPUTS)?;
    let (bytes, limits) = (c.bytes()?, c.limits()?);
    let expect = c.expect(&["handshake", "error"])?;
    Ok(judge(c, expect, &codec.handshake(&bytes, &limits)?))
}

/// Negative fuzzing: every buffer of the seeded generator decodes to a frame or is refused with
/// one of the expected codes.
fn fuzz(c: &Case<'_>, codec: &mut dyn Codec) -> Step<Verdict> {
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
    let mut left = count;
    while left > 0 {
        // The buffers go to the codec a bounded batch at a time.
        let batch: Vec<Vec<u8>> = (0..left.min(FUZZ_BATCH))
            .map(|_| next_buffer(&mut rng))
            .collect();
        left -= batch.len() as u64;
        for answer in codec.decode_all(&batch, &limits)? {
            if answer.get("frame").is_none() {
                seen.insert(
                    answer
                        .pointer("/error/code")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| fuzz_answer(&pointer, &answer))?,
                );
            }
        }
    }
    Ok(match seen.iter().all(|code| allowed.contains(code)) {
        true => Verdict::Pass,
        false => mismatch(&pointer, compact(expected), compact(&json!(seen))),
    })
}

/// A fuzz buffer's answer is neither a frame nor a refusal with a code.
fn fuzz_answer(pointer: &str, answer: &Value) -> Verdict {
    mismatch(pointer, "a frame or an error code".into(), compact(answer))
}
