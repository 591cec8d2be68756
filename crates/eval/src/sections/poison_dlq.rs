//! Section `poison_dlq`: dead-letter the raw body (`body`, or `body_base64` for bytes) as
//! poison with the section's `original_queue`, and check the record the model writes.
//!
//! - `expect.shape` must be the shape the model derives (`eval::bindings::poison::dlq`);
//! - the record must carry a top-level `dead_letter` with `reason: poison` and the queue;
//! - `splice` / `wrapper`: the record without `dead_letter` equals `expect.record` as parsed
//!   JSON (so `raw_encoding` must be absent when the expectation has none);
//! - `splice_or_wrapper`: `expect.record` is the wrapper the model derives, and the model's
//!   byte-level splice passes the structural checks: it contains every `splice_literals` entry
//!   verbatim, has no top-level `raw` / `raw_encoding`, and its distinct top-level names other
//!   than `dead_letter` are the set `splice_keys`. The literals must also pin every part of the
//!   body a re-encoding writer would lose (each lossy span lies inside an occurrence of one).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::bindings::poison::dlq::{self, Analysis, Shape};
use crate::bindings::poison::input::body_bytes;
use crate::bindings::poison::scan::{Doc, Kind, scan};
use crate::bindings::poison::value::{json_eq, to_value};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), section_block))
}

fn run_case(c: &Case<'_>, section_block: &Value) -> Step<()> {
    let bytes = body_bytes(c)?;
    let queue = match c.inherited("original_queue", section_block) {
        Some(Value::String(q)) => q.as_str(),
        Some(_) => return Err(c.malformed("original_queue", "`original_queue` must be a string")),
        None => return Err(c.malformed("original_queue", "missing `original_queue`")),
    };
    let expect = c.object("expect")?;
    let shape = match expect.get("shape") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(c.malformed("expect", "`expect.shape` must be a string")),
        None => return Err(c.malformed("expect", "missing `expect.shape`")),
    };
    let analysis = dlq::analyse(&bytes);
    let derived = analysis.shape.as_str();
    if shape != derived {
        let why = format!("\"{derived}\" ({})", analysis.why);
        return Err(at(c, "shape", format!("\"{shape}\""), why));
    }
    let Some(expected_record) = expect.get("record") else {
        return Err(c.malformed("expect", "missing `expect.record`"));
    };
    let text = dlq::write_record(&analysis, &dlq::dead_letter_block(queue));
    let Ok(record) = scan(&text) else {
        return Err(at(c, "record", "a JSON record", text));
    };
    check_dead_letter(c, &record, queue)?;
    match analysis.shape {
        Shape::Splice | Shape::Wrapper => {
            for field in ["splice_literals", "splice_keys"] {
                if let Some(v) = expect.get(field) {
                    return Err(at(
                        c,
                        field,
                        compact(v),
                        format!("no {field}: only a splice_or_wrapper case has them"),
                    ));
                }
            }
            let rest = to_value(&record).map(without_dead_letter);
            match rest {
                Some(rest) if json_eq(&rest, expected_record) => Ok(()),
                _ => Err(at(c, "record", compact(expected_record), text)),
            }
        }
        Shape::SpliceOrWrapper => {
            let wrapper = Value::Object(analysis.wrapper.clone());
            if !json_eq(&wrapper, expected_record) {
                let derived = compact(&wrapper);
                return Err(at(c, "record", compact(expected_record), derived));
            }
            check_splice(c, expect, &analysis, &record)
        }
    }
}

/// Check (1): one top-level `dead_letter` object with `reason: poison` and the queue.
fn check_dead_letter(c: &Case<'_>, record: &Doc<'_>, queue: &str) -> Step<()> {
    let blocks: Vec<usize> = record
        .members(0)
        .iter()
        .filter(|(n, _)| n.text == "dead_letter")
        .map(|(_, v)| *v)
        .collect();
    let member = |name: &str| {
        let at = *blocks.first()?;
        let (_, v) = record
            .members(at)
            .iter()
            .rev()
            .find(|(n, _)| n.text == name)?;
        match &record.nodes[*v].kind {
            Kind::String { value, .. } => Some(value.as_str()),
            _ => None,
        }
    };
    if blocks.len() == 1
        && member("reason") == Some("poison")
        && member("original_queue") == Some(queue)
    {
        Ok(())
    } else {
        let expected = format!("one dead_letter with reason poison and original_queue {queue}");
        Err(at(c, "record", expected, record.text.to_string()))
    }
}

fn without_dead_letter(record: Value) -> Value {
    match record {
        Value::Object(mut map) => {
            map.shift_remove("dead_letter");
            Value::Object(map)
        }
        other => other,
    }
}

/// The structural checks of a splice, and that the literals pin every lossy span.
fn check_splice(
    c: &Case<'_>,
    expect: &Map<String, Value>,
    analysis: &Analysis<'_>,
    record: &Doc<'_>,
) -> Step<()> {
    let literals = strings(c, expect, "splice_literals")?;
    let keys = strings(c, expect, "splice_keys")?;
    for (i, literal) in literals.iter().enumerate() {
        if !record.text.contains(literal) {
            let field = format!("splice_literals/{i}");
            let derived = format!("a splice record without it: {}", record.text);
            return Err(at(c, &field, format!("\"{literal}\""), derived));
        }
    }
    let body = analysis.text.unwrap_or("");
    let pinned: Vec<&str> = analysis
        .lossy
        .iter()
        .map(|&(s, e)| body.get(s..e).unwrap_or(""))
        .collect();
    let uncovered = analysis
        .lossy
        .iter()
        .any(|&(s, e)| !literals.iter().any(|l| covers(body, l, s, e)));
    if uncovered {
        let expected = compact(&Value::from(literals.clone()));
        let derived = format!("literals covering {}", compact(&Value::from(pinned)));
        return Err(at(c, "splice_literals", expected, derived));
    }
    let names: BTreeSet<&str> = record
        .members(0)
        .iter()
        .map(|(n, _)| n.text.as_str())
        .filter(|n| *n != "dead_letter")
        .collect();
    if names.contains("raw") || names.contains("raw_encoding") {
        let derived = "a splice with a top-level raw or raw_encoding member";
        return Err(at(c, "shape", "\"splice_or_wrapper\"", derived));
    }
    let expected: BTreeSet<&str> = keys.iter().map(String::as_str).collect();
    if names != expected {
        let names: Vec<&str> = names.into_iter().collect();
        let expected = compact(&Value::from(keys));
        return Err(at(c, "splice_keys", expected, compact(&Value::from(names))));
    }
    Ok(())
}

/// A mismatch at `expect/<sub>` (`sub` is already a pointer tail).
fn at(c: &Case<'_>, sub: &str, expected: impl Into<String>, derived: impl Into<String>) -> Verdict {
    Verdict::Mismatch(Mismatch {
        pointer: format!("{}/{sub}", c.ptr("expect")),
        expected: expected.into(),
        derived: derived.into(),
    })
}

/// True when an occurrence of `literal` in `body` spans the bytes `start..end`.
fn covers(body: &str, literal: &str, start: usize, end: usize) -> bool {
    if literal.len() < end - start {
        return false;
    }
    let first = end.saturating_sub(literal.len());
    (first..=start).any(|p| body.get(p..).is_some_and(|rest| rest.starts_with(literal)))
}

/// `expect.<field>` as a list of strings.
fn strings(c: &Case<'_>, expect: &Map<String, Value>, field: &str) -> Step<Vec<String>> {
    let bad = || {
        c.malformed(
            "expect",
            format!("`expect.{field}` must be an array of strings"),
        )
    };
    let Some(Value::Array(items)) = expect.get(field) else {
        return Err(bad());
    };
    items
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use crate::outcome::Verdict;
    use bqsuite_core::ids::section_cases;

    /// The verdict on one case, in a section with `original_queue` `orders`.
    fn verdict(case: Value) -> Verdict {
        let block = json!({"original_queue": "orders", "cases": [case]});
        let cases = section_cases("poison_dlq", &block);
        super::run(&cases[0], &block, &BTreeMap::<String, String>::new())
    }

    fn mismatch_at(case: Value) -> String {
        match verdict(case) {
            Verdict::Mismatch(m) => m.pointer,
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    fn overflow(literals: Value, keys: Value) -> Value {
        let body = r#"{"job":"urn:x","job":5,"data":{"n":1e400}}"#;
        json!({"name": "c", "body": body, "expect": {
            "shape": "splice_or_wrapper",
            "record": {"raw": body},
            "splice_literals": literals,
            "splice_keys": keys,
        }})
    }

    #[test]
    fn splice_literals_must_be_in_the_splice_and_pin_every_lossy_part() {
        let all = json!([r#""job":"urn:x""#, r#""job":5"#, "1e400"]);
        assert_eq!(
            verdict(overflow(all, json!(["data", "job"]))),
            Verdict::Pass
        );
        let partial = json!([r#""job":"urn:x""#, "1e400"]);
        let at = mismatch_at(overflow(partial, json!(["job", "data"])));
        assert_eq!(at, "/poison_dlq/cases/0/expect/splice_literals");
        let foreign = json!(["1e400", r#""job":"urn:x""#, r#""job":5"#, "2e400"]);
        let at = mismatch_at(overflow(foreign, json!(["job", "data"])));
        assert_eq!(at, "/poison_dlq/cases/0/expect/splice_literals/3");
        let all = json!([r#""job":"urn:x""#, r#""job":5"#, "1e400"]);
        let at = mismatch_at(overflow(all, json!(["job"])));
        assert_eq!(at, "/poison_dlq/cases/0/expect/splice_keys");
    }

    #[test]
    fn records_compare_as_parsed_json_and_raw_encoding_must_match() {
        let ok = json!({"name": "c", "body": "{\"b\":1.0,\"a\":[2]}",
            "expect": {"shape": "splice", "record": {"a": [2.0], "b": 1}}});
        assert_eq!(verdict(ok), Verdict::Pass);
        let utf8 = json!({"name": "c", "body": "x",
            "expect": {"shape": "wrapper", "record": {"raw": "x", "raw_encoding": "utf8"}}});
        assert_eq!(mismatch_at(utf8), "/poison_dlq/cases/0/expect/record");
        let listed = json!({"name": "c", "body": "{}",
            "expect": {"shape": "splice", "record": {}, "splice_keys": []}});
        assert_eq!(
            mismatch_at(listed),
            "/poison_dlq/cases/0/expect/splice_keys"
        );
    }

    #[test]
    fn odd_cases_are_malformed() {
        for case in [
            json!({"name": "c", "expect": {"shape": "wrapper", "record": {"raw": ""}}}),
            json!({"name": "c", "body": "", "body_base64": "", "expect": {"shape": "wrapper"}}),
            json!({"name": "c", "body_base64": "/w", "expect": {"shape": "wrapper"}}),
            json!({"name": "c", "body": "x", "expect": "wrapper"}),
            json!({"name": "c", "body": "x", "expect": {"shape": 1}}),
            json!({"name": "c", "body": "x", "expect": {"shape": "wrapper"}}),
        ] {
            assert!(
                matches!(verdict(case.clone()), Verdict::Malformed { .. }),
                "{case}"
            );
        }
    }
}
