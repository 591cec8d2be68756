//! Reading a behavioural case: its transport settings and its initial `state`, seeded into the
//! model keyspace in the order the SDK runner writes it (ready, processing, the sorted sets,
//! `delayed_generate`, notify tokens).

use serde_json::{Map, Value};

use crate::bindings::harness::malformed_at;
use crate::bindings::redis_queue::keyspace::WrongType;
use crate::bindings::redis_queue::{Config, Keyspace, Layout, Tokens, Transport};
use crate::case::Step;
use bqsuite_core::ids::{CaseRef, escape_token};

/// The most members a `*_generate` block may expand to (bounded work).
pub const MAX_GENERATED: u64 = 100_000;

/// Pointer of `path` (already escaped tokens joined by `/`) inside `case`.
pub fn at(case: &CaseRef<'_>, path: &str) -> String {
    format!("{}/{path}", case.pointer)
}

/// The transport a case configures, with its initial state seeded.
pub fn transport(case: &CaseRef<'_>) -> Step<Transport> {
    let c = case.case;
    let layout = match c.get("layout").and_then(Value::as_str) {
        Some("zset") => Layout::Zset,
        Some("legacy") => Layout::Legacy,
        _ => {
            return Err(malformed_at(
                at(case, "layout"),
                "`layout` must be \"zset\" or \"legacy\"",
            ));
        }
    };
    let queue = match c.get("queue").and_then(Value::as_str) {
        Some(q) => q.to_owned(),
        None => return Err(malformed_at(at(case, "queue"), "`queue` must be a string")),
    };
    let retry_after = match c.get("retry_after") {
        None => Some(90),
        Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            malformed_at(
                at(case, "retry_after"),
                "`retry_after` must be a non-negative integer or null",
            )
        })?),
    };
    let batch = match c.get("migration_batch_size") {
        None => None,
        Some(v) => match v.as_i64() {
            Some(-1) => None,
            Some(n) if n >= 1 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            _ => {
                return Err(malformed_at(
                    at(case, "migration_batch_size"),
                    "`migration_batch_size` must be -1 or an integer >= 1",
                ));
            }
        },
    };
    let mut avoid = Vec::new();
    token_like(c, &mut avoid);
    let mut t = Transport {
        config: Config {
            layout,
            queue,
            prefix: "queues:".to_owned(),
            retry_after,
            batch,
        },
        keys: Keyspace::default(),
        tokens: Tokens::avoiding(avoid),
    };
    let state = match c.get("state") {
        Some(Value::Object(state)) => state,
        _ => return Err(malformed_at(at(case, "state"), "`state` must be an object")),
    };
    seed(case, &mut t, state)?;
    Ok(t)
}

/// Every 32-character lowercase hex prefix of a string in the case: tokens the model's own
/// reservations must not reuse.
fn token_like(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            if let Some(head) = s.get(..32)
                && head.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            {
                out.push(head.to_owned());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| token_like(v, out)),
        Value::Object(members) => members.values().for_each(|v| token_like(v, out)),
        _ => {}
    }
}

fn seed(case: &CaseRef<'_>, t: &mut Transport, state: &Map<String, Value>) -> Step<()> {
    let wrong =
        |name: &str, e: WrongType| malformed_at(at(case, &format!("state/{name}")), e.to_string());
    for (name, key) in [
        ("ready", t.runner_key("ready")),
        ("processing", t.runner_key("processing")),
    ] {
        for value in strings(case, state, name)? {
            t.keys.rpush(&key, value).map_err(|e| wrong(name, e))?;
        }
    }
    for name in ["delayed", "reserved", "deadlines"] {
        let key = t.runner_key(name);
        for (i, entry) in array(case, state, name)?.iter().enumerate() {
            let path = format!("state/{name}/{i}");
            let (member, score) = entry_of(case, &path, entry)?;
            t.keys
                .zadd(&key, &member, score)
                .map_err(|e| wrong(name, e))?;
        }
    }
    if let Some(spec) = state.get("delayed_generate") {
        let key = t.runner_key("delayed");
        let path = "state/delayed_generate";
        let members = generate(case, path, spec)?;
        let score = match spec.get("score") {
            Some(s) => score_of(s).ok_or_else(|| {
                malformed_at(
                    at(case, &format!("{path}/score")),
                    "a score is a number or \"+inf\"",
                )
            })?,
            None => return Err(malformed_at(at(case, path), "missing `score`")),
        };
        for m in members {
            t.keys
                .zadd(&key, &m, score)
                .map_err(|e| wrong("delayed_generate", e))?;
        }
    }
    if let Some(n) = state.get("notify") {
        let n = n
            .as_u64()
            .filter(|n| *n <= MAX_GENERATED)
            .ok_or_else(|| malformed_at(at(case, "state/notify"), "`notify` must be a count"))?;
        let key = t.runner_key("notify");
        for _ in 0..n {
            t.keys.rpush(&key, "1").map_err(|e| wrong("notify", e))?;
        }
    }
    Ok(())
}

fn array<'v>(case: &CaseRef<'_>, state: &'v Map<String, Value>, name: &str) -> Step<&'v [Value]> {
    match state.get(name) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(malformed_at(
            at(case, &format!("state/{name}")),
            format!("`{name}` must be an array"),
        )),
    }
}

fn strings<'v>(
    case: &CaseRef<'_>,
    state: &'v Map<String, Value>,
    name: &str,
) -> Step<Vec<&'v str>> {
    array(case, state, name)?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str().ok_or_else(|| {
                malformed_at(
                    at(case, &format!("state/{name}/{i}")),
                    format!("`{name}` holds strings"),
                )
            })
        })
        .collect()
}

/// A state entry `{member, score}` or `{token, raw, score}`: the member and its score.
fn entry_of(case: &CaseRef<'_>, path: &str, entry: &Value) -> Step<(String, f64)> {
    let bad = |field: &str, msg: &str| malformed_at(at(case, &format!("{path}/{field}")), msg);
    let score = score_of(entry.get("score").unwrap_or(&Value::Null))
        .ok_or_else(|| bad("score", "a score is a number or \"+inf\""))?;
    if let Some(member) = entry.get("member") {
        let member = member
            .as_str()
            .ok_or_else(|| bad("member", "`member` must be a string"))?;
        return Ok((member.to_owned(), score));
    }
    let token = entry.get("token").and_then(Value::as_str);
    let raw = entry.get("raw").and_then(Value::as_str);
    match (token, raw) {
        (Some(token), Some(raw)) => Ok((format!("{token}:{raw}"), score)),
        _ => Err(bad(
            "member",
            "an entry has a string `member`, or string `token` and `raw`",
        )),
    }
}

/// A state score: a JSON number, or the string `"+inf"`.
pub fn score_of(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if s == "+inf" => Some(f64::INFINITY),
        _ => None,
    }
}

/// The members of a `{count, member: "item-%03d"}` block, in order.
pub fn generate(case: &CaseRef<'_>, path: &str, spec: &Value) -> Step<Vec<String>> {
    let count = spec
        .get("count")
        .and_then(Value::as_u64)
        .filter(|n| *n <= MAX_GENERATED)
        .ok_or_else(|| {
            malformed_at(
                at(case, &format!("{path}/count")),
                format!("`count` must be an integer from 0 to {MAX_GENERATED}"),
            )
        })?;
    let pattern = spec.get("member").and_then(Value::as_str).ok_or_else(|| {
        malformed_at(
            at(case, &format!("{path}/member")),
            "`member` must be a string",
        )
    })?;
    (0..count)
        .map(|i| {
            printf_int(pattern, i).ok_or_else(|| {
                malformed_at(
                    at(case, &format!("{path}/member")),
                    "`member` takes one %d conversion (flags 0 and a width allowed)",
                )
            })
        })
        .collect()
}

/// `pattern % n` for a pattern with exactly one `%d` (optionally `%0Nd` / `%Nd`) and `%%`.
pub fn printf_int(pattern: &str, n: u64) -> Option<String> {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut used = false;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let zero = chars.peek() == Some(&'0');
        if zero {
            chars.next();
        }
        let mut width = 0usize;
        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            width = width.checked_mul(10)?.checked_add(d as usize)?;
            chars.next();
        }
        if chars.next() != Some('d') || used || width > 64 {
            return None;
        }
        used = true;
        if zero {
            out.push_str(&format!("{n:0width$}"));
        } else {
            out.push_str(&format!("{n:width$}"));
        }
    }
    used.then_some(out)
}

/// The escaped pointer token of a field name.
pub fn token(field: &str) -> String {
    escape_token(field)
}
