//! A step's expectations against the model after the step ran, compared the way the SDK's
//! runner compares them against Redis:
//!
//! - `outcome` (`delivered` / `empty` / `poison`), `handler_body`, `reported_attempts` (the
//!   `attempts` of the zset ack handle: the `:reserved` member) describe the step's delivery;
//! - `ready`, `processing`: whole lists, byte for byte, head first; `ready_generate` expands;
//! - `ready_count` (LLEN `<queue>`), `dlq_count` (LLEN `<queue>.dlq`), `notify` (LLEN of the
//!   notify list): counts;
//! - `delayed`, `reserved`, `deadlines`: sorted sets as multisets of entries, each matched by
//!   `score` (a number or `"+inf"`) and one of `member` (bytes), `token` + `raw` (`"<any>"`
//!   matching 32 lowercase hex characters), `member_json` / `body_json` (parsed, JSON types
//!   compared strictly); no entry may be left over;
//! - `tokens_distinct`: whether the deadline members' tokens are pairwise distinct. The model's
//!   tokens are deterministic, so a stated `false` is compared as well, like any expectation.
//!
//! A key absent from `expect` is not asserted; keys the DSL does not define are ignored.

use serde_json::{Map, Value};

use super::state::{at, generate, token};
use crate::bindings::harness::malformed_at;
use crate::bindings::redis_queue::json_text::{Dialect, JVal, parse};
use crate::bindings::redis_queue::keyspace::WrongType;
use crate::bindings::redis_queue::{Delivery, Handle, Transport};
use crate::case::{Step, compact};
use crate::outcome::{Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

/// What a step observed, for its expectations.
pub struct Observed {
    /// The reserve step's delivery (`None` for other steps or an empty queue).
    pub delivery: Option<Delivery>,
}

/// Checks every expectation of `want` (at `path`, `steps/<i>/expect`) in the runner's order.
pub fn check(
    case: &CaseRef<'_>,
    path: &str,
    want: &Map<String, Value>,
    seen: &Observed,
    t: &Transport,
) -> Step<()> {
    let miss = Miss { case, path };
    check_delivery(&miss, want, seen.delivery.as_ref())?;
    check_lists(&miss, want, t)?;
    for name in ["delayed", "reserved", "deadlines"] {
        if let Some(w) = want.get(name) {
            let got = t
                .keys
                .zrange(&t.runner_key(name))
                .map_err(|e| miss.wrong_type(e))?;
            if let Some(problem) = zset_violation(&got, w) {
                return Err(miss.at(name, compact(w), problem));
            }
        }
    }
    if let Some(w) = want.get("tokens_distinct") {
        check_tokens_distinct(&miss, w, t)?;
    }
    Ok(())
}

/// Where a step's expectations are, for the mismatches they report.
struct Miss<'a> {
    case: &'a CaseRef<'a>,
    path: &'a str,
}

impl Miss<'_> {
    /// The expectation `name` holds `expected`, and the model derived `derived`.
    fn at(&self, name: &str, expected: String, derived: String) -> Verdict {
        Verdict::Mismatch(Mismatch {
            pointer: at(self.case, &format!("{}/{}", self.path, token(name))),
            expected,
            derived,
        })
    }

    /// A key the step reads holds another type of value than the command needs.
    fn wrong_type(&self, e: WrongType) -> Verdict {
        self.at("expect", String::new(), e.to_string())
    }
}

/// `outcome`, `handler_body` and `reported_attempts`: what the step delivered.
fn check_delivery(
    miss: &Miss<'_>,
    want: &Map<String, Value>,
    delivery: Option<&Delivery>,
) -> Step<()> {
    if let Some(w) = want.get("outcome") {
        let got = match delivery {
            None => "empty",
            Some(d) if d.poison => "poison",
            Some(_) => "delivered",
        };
        if w.as_str() != Some(got) {
            return Err(miss.at("outcome", compact(w), format!("\"{got}\"")));
        }
    }
    if let Some(w) = want.get("handler_body") {
        match delivery {
            Some(d) if w.as_str() == Some(d.body.as_str()) => {}
            Some(d) => {
                let got = compact(&d.body.clone().into());
                return Err(miss.at("handler_body", compact(w), got));
            }
            None => {
                let got = "nothing was reserved".into();
                return Err(miss.at("handler_body", compact(w), got));
            }
        }
    }
    if let Some(w) = want.get("reported_attempts") {
        let got = match delivery.map(|d| &d.handle) {
            None => None,
            Some(Handle::Legacy { .. }) => None,
            Some(Handle::Member(m)) => {
                parse(m, Dialect::Python).and_then(|v| v.member("attempts").cloned())
            }
        };
        match got {
            Some(got) if eq(&got, w, false) => {}
            Some(got) => return Err(miss.at("reported_attempts", compact(w), describe(&got))),
            None => {
                return Err(miss.at(
                    "reported_attempts",
                    compact(w),
                    "no attempts: no zset reservation whose handle holds a JSON `attempts`".into(),
                ));
            }
        }
    }
    Ok(())
}

/// `ready`, `ready_generate` and `processing` (whole lists), and the counts `ready_count`,
/// `dlq_count` and `notify`.
fn check_lists(miss: &Miss<'_>, want: &Map<String, Value>, t: &Transport) -> Step<()> {
    let list = |key: &str| -> Step<Value> {
        let items = t.keys.lrange(key).map_err(|e| miss.wrong_type(e))?;
        Ok(Value::Array(items.into_iter().map(Value::String).collect()))
    };
    if let Some(w) = want.get("ready") {
        let got = list(&t.runner_key("ready"))?;
        if *w != got {
            return Err(miss.at("ready", compact(w), compact(&got)));
        }
    }
    if let Some(spec) = want.get("ready_generate") {
        let wanted = generate(miss.case, &format!("{}/ready_generate", miss.path), spec)?;
        let got = list(&t.runner_key("ready"))?;
        let wanted = Value::Array(wanted.into_iter().map(Value::String).collect());
        if wanted != got {
            return Err(miss.at("ready_generate", summary(&wanted), summary(&got)));
        }
    }
    let dlq = format!("{}.dlq", t.config.queue);
    for (name, key) in [
        ("ready_count", t.config.queue.clone()),
        ("dlq_count", dlq),
        ("notify", t.runner_key("notify")),
    ] {
        if let Some(w) = want.get(name) {
            let n = t.keys.llen(&key).map_err(|e| miss.wrong_type(e))?;
            if !eq(&count(n), w, false) {
                return Err(miss.at(name, compact(w), n.to_string()));
            }
        }
    }
    if let Some(w) = want.get("processing") {
        let got = list(&t.runner_key("processing"))?;
        if *w != got {
            return Err(miss.at("processing", compact(w), compact(&got)));
        }
    }
    Ok(())
}

/// `tokens_distinct`: whether the deadline members' tokens are pairwise distinct.
fn check_tokens_distinct(miss: &Miss<'_>, want: &Value, t: &Transport) -> Step<()> {
    let Some(want) = want.as_bool() else {
        return Err(malformed_at(
            at(miss.case, &format!("{}/tokens_distinct", miss.path)),
            "`tokens_distinct` must be a boolean",
        ));
    };
    let got = t
        .keys
        .zrange(&t.runner_key("deadlines"))
        .map_err(|e| miss.wrong_type(e))?;
    let tokens: Vec<&str> = got
        .iter()
        .map(|(m, _)| m.split_once(':').map_or(m.as_str(), |(tok, _)| tok))
        .collect();
    let distinct = tokens
        .iter()
        .enumerate()
        .all(|(i, a)| !tokens[i + 1..].contains(a));
    if distinct != want {
        return Err(miss.at(
            "tokens_distinct",
            want.to_string(),
            format!("{distinct} (tokens {})", tokens.join(", ")),
        ));
    }
    Ok(())
}

fn count(n: usize) -> JVal {
    JVal::Num(crate::bindings::redis_queue::json_text::Num {
        value: n as f64,
        integer: Some(n as i128),
        int_literal: true,
    })
}

fn summary(list: &Value) -> String {
    match list {
        Value::Array(items) if items.len() > 4 => format!(
            "{} members [{}, ..., {}]",
            items.len(),
            compact(&items[0]),
            compact(&items[items.len() - 1])
        ),
        other => compact(other),
    }
}

/// Why the sorted set `got` does not match the expected entries, or `None` when it does. Each
/// expected entry takes the first remaining member it matches, in order.
fn zset_violation(got: &[(String, f64)], want: &Value) -> Option<String> {
    let Value::Array(want) = want else {
        return Some("expected entries must be a list".into());
    };
    let mut remaining: Vec<&(String, f64)> = got.iter().collect();
    for entry in want {
        match remaining
            .iter()
            .position(|(m, s)| entry_matches(m, *s, entry))
        {
            Some(i) => {
                remaining.remove(i);
            }
            None => {
                return Some(format!(
                    "no entry matches {}: {}",
                    compact(entry),
                    show(got)
                ));
            }
        }
    }
    if remaining.is_empty() {
        None
    } else {
        let extra: Vec<(String, f64)> = remaining.into_iter().cloned().collect();
        Some(format!("unexpected entries {}", show(&extra)))
    }
}

fn show(entries: &[(String, f64)]) -> String {
    let shown: Vec<String> = entries
        .iter()
        .map(|(m, s)| {
            format!(
                "{{member: {}, score: {s}}}",
                compact(&Value::String(m.clone()))
            )
        })
        .collect();
    format!("[{}]", shown.join(", "))
}

/// The score an expectation states: a number, `"+inf"` (or another string a float reader
/// accepts), `true` / `false` as 1 / 0.
fn expected_score(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
}

fn entry_matches(member: &str, score: f64, entry: &Value) -> bool {
    if entry.get("score").and_then(expected_score) != Some(score) {
        return false;
    }
    if let Some(m) = entry.get("member") {
        return m.as_str() == Some(member);
    }
    if let Some(tok) = entry.get("token") {
        let Some(raw) = entry.get("raw").and_then(Value::as_str) else {
            return false;
        };
        return match tok.as_str() {
            Some("<any>") => {
                let b = member.as_bytes();
                b.len() == 33 + raw.len()
                    && b[..32]
                        .iter()
                        .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
                    && b[32] == b':'
                    && &member[33..] == raw
            }
            Some(tok) => member == format!("{tok}:{raw}"),
            None => false,
        };
    }
    let Some(want) = entry.get("member_json").or_else(|| entry.get("body_json")) else {
        return false;
    };
    parse(member, Dialect::Python).is_some_and(|parsed| eq(&parsed, want, true))
}

fn describe(v: &JVal) -> String {
    match v {
        JVal::Num(n) => match n.integer {
            Some(i) if n.int_literal => i.to_string(),
            _ => n.value.to_string(),
        },
        JVal::Str(s) => compact(&Value::String(s.clone())),
        other => format!("{other:?}"),
    }
}

/// A number as a reader keeps it: an exact integer or a double.
#[derive(Clone, Copy)]
enum Number {
    Int(i128),
    Float(f64),
}

fn num_of_value(v: &Value, strict: bool) -> Option<Number> {
    match v {
        Value::Number(n) => Some(match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Number::Int(i128::from(i)),
            (_, Some(u)) => Number::Int(i128::from(u)),
            _ => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        }),
        Value::Bool(b) if !strict => Some(Number::Int(i128::from(*b))),
        _ => None,
    }
}

fn num_of_jval(v: &JVal, strict: bool) -> Option<Number> {
    match v {
        JVal::Num(n) => Some(match n.integer {
            Some(i) if n.int_literal => Number::Int(i),
            _ => Number::Float(n.value),
        }),
        JVal::Bool(b) if !strict => Some(Number::Int(i128::from(*b))),
        _ => None,
    }
}

fn num_eq(a: Number, b: Number) -> bool {
    match (a, b) {
        (Number::Int(x), Number::Int(y)) => x == y,
        (Number::Float(x), Number::Float(y)) => x == y,
        (Number::Int(i), Number::Float(f)) | (Number::Float(f), Number::Int(i)) => {
            f.fract() == 0.0 && f.abs() < 1.7e38 && f as i128 == i
        }
    }
}

/// Equality of a parsed value and an expectation. `strict`: JSON types compared too (a
/// boolean never equals a number); otherwise `true == 1` as in the runner's plain comparison.
/// Numbers compare by value (`1 == 1.0`); an object keeps the last of duplicated members.
fn eq(a: &JVal, b: &Value, strict: bool) -> bool {
    if let (Some(x), Some(y)) = (num_of_jval(a, strict), num_of_value(b, strict)) {
        return num_eq(x, y);
    }
    match (a, b) {
        (JVal::Null, Value::Null) => true,
        (JVal::Bool(x), Value::Bool(y)) => x == y,
        (JVal::Str(x), Value::String(y)) => x == y,
        (JVal::Arr(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| eq(p, q, strict))
        }
        (JVal::Obj(members), Value::Object(y)) => {
            let mut keys: Vec<&str> = Vec::new();
            for (k, _) in members {
                if !keys.contains(&k.as_str()) {
                    keys.push(k);
                }
            }
            keys.len() == y.len()
                && keys.iter().all(|k| match (a.member(k), y.get(*k)) {
                    (Some(p), Some(q)) => eq(p, q, strict),
                    _ => false,
                })
        }
        _ => false,
    }
}
