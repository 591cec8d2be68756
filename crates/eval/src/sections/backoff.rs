//! The `backoff` section (scope kafka): Kafka retry tiers (broker-bindings §6.4–6.5).
//!
//! - direct `cases` (§6.4, the requested-delay rule): `retry_tiers_ms`, `work_topic` and
//!   `delay_ms` give the record of a delayed publish, or `expect: "reject"`;
//! - `retry_republish` (entry point `attempts`) and `retry_attempt_tier` (`attempts_before`,
//!   optional `key`): the §6.5 retry rule. A `retry_republish` case that names
//!   `release_delay_ms` is the 1.5.0 shape, whose tier came from that delay;
//! - `retry_worker_delay`: a `retry_attempt_tier` case whose retry is handed the worker's
//!   computed delay (`worker_delay_ms`), which the §6.5 rule does not use;
//! - `topic_names`: `work_topic` + tier index `n` give `expect_topic`;
//! - `default_tiers`: the constant `DEFAULT_RETRY_TIERS_MS` equals `expect`.
//!
//! A record expectation (`expect` object) asserts each key it lists: `n`, `topic`, `tier_ms`,
//! `body_attempts`, `key`, and `headers` as a subset (headers it does not list are not
//! pinned). The cases' `source` fields cite the contract and are not read.

use serde_json::{Map, Value};

use crate::bindings::backoff::{self, BackoffError, TierRecord};
use crate::bindings::harness::{self, uint};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::{CaseRef, escape_token};

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    let c = Case::new(case);
    let step = match case.sub_key {
        None => delayed_publish_case(&c),
        Some("retry_republish") if c.get("release_delay_ms").is_some() => release_v1_5_case(&c),
        Some("retry_republish") => retry_case(&c, "attempts", false),
        Some("retry_attempt_tier") => retry_case(&c, "attempts_before", false),
        Some("retry_worker_delay") => retry_case(&c, "attempts_before", true),
        Some("topic_names") => topic_name_case(&c),
        Some("default_tiers") => default_tiers_case(&c),
        Some(_) => return harness::unknown_sub_key(case, "backoff"),
    };
    finish(step)
}

/// The expectation keys a record can be checked on.
const PUBLISH_KEYS: &[&str] = &["n", "topic", "tier_ms", "headers"];
const RETRY_KEYS: &[&str] = &["n", "topic", "tier_ms", "body_attempts", "headers", "key"];

/// `retry_tiers_ms`: non-negative integers in strictly ascending order.
fn tiers(c: &Case<'_>) -> Step<Vec<u64>> {
    let message = "`retry_tiers_ms` must be an array of non-negative integers, strictly ascending";
    let items = c
        .require("retry_tiers_ms")?
        .as_array()
        .ok_or_else(|| c.malformed("retry_tiers_ms", message))?;
    let tiers = items
        .iter()
        .map(Value::as_u64)
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(|| c.malformed("retry_tiers_ms", message))?;
    if tiers.windows(2).any(|pair| pair[0] >= pair[1]) {
        return Err(c.malformed("retry_tiers_ms", message));
    }
    Ok(tiers)
}

fn delayed_publish_case(c: &Case<'_>) -> Step<()> {
    let tiers = tiers(c)?;
    let topic = c.str("work_topic")?;
    let delay_ms = uint(c, "delay_ms")?;
    check_record(
        c,
        backoff::delayed_publish(&tiers, topic, delay_ms),
        PUBLISH_KEYS,
    )
}

/// A retry case; with `worker_delay`, the case names the delay the worker hands the retry
/// (`worker_delay_ms`), else the worker hands it none.
fn retry_case(c: &Case<'_>, attempts_field: &str, worker_delay: bool) -> Step<()> {
    let tiers = tiers(c)?;
    let topic = c.str("work_topic")?;
    let attempts = uint(c, attempts_field)?;
    let key = match c.get("key") {
        None => None,
        Some(_) => Some(c.str("key")?),
    };
    let worker_delay_ms = if worker_delay {
        uint(c, "worker_delay_ms")?
    } else {
        0
    };
    let record = backoff::retry(&tiers, topic, attempts, key, worker_delay_ms);
    check_record(c, record, RETRY_KEYS)
}

fn release_v1_5_case(c: &Case<'_>) -> Step<()> {
    let tiers = tiers(c)?;
    let topic = c.str("work_topic")?;
    let attempts = uint(c, "attempts")?;
    let delay_ms = uint(c, "release_delay_ms")?;
    let record = backoff::release_by_delay(&tiers, topic, attempts, delay_ms);
    check_record(c, record, &RETRY_KEYS[..5])
}

fn topic_name_case(c: &Case<'_>) -> Step<()> {
    let topic = c.str("work_topic")?;
    let n = uint(c, "n")?;
    if n == 0 {
        return Err(c.malformed("n", "`n` is a 1-based tier index"));
    }
    let expected = c.require("expect_topic")?;
    c.str("expect_topic")?;
    c.expect_eq(
        "expect_topic",
        expected,
        &Value::String(backoff::retry_topic(topic, n)),
    )
}

fn default_tiers_case(c: &Case<'_>) -> Step<()> {
    if c.str("constant")? != "DEFAULT_RETRY_TIERS_MS" {
        return Err(c.malformed(
            "constant",
            "the only constant pinned is `DEFAULT_RETRY_TIERS_MS`",
        ));
    }
    let expected = c.require("expect")?;
    if !expected.is_array() {
        return Err(c.malformed("expect", "`expect` must be an array of integers"));
    }
    c.expect_eq("expect", expected, &Value::from(backoff::default_tiers()))
}

/// A mismatch at `/expect/<path>` of the case.
fn mismatch_in_expect(c: &Case<'_>, path: &[&str], expected: &Value, derived: &Value) -> Verdict {
    let tail: String = path
        .iter()
        .map(|t| format!("/{}", escape_token(t)))
        .collect();
    Verdict::Mismatch(Mismatch {
        pointer: format!("{}{tail}", c.ptr("expect")),
        expected: compact(expected),
        derived: compact(derived),
    })
}

fn refusal(error: BackoffError) -> &'static str {
    match error {
        BackoffError::NoTiers => "\"reject\" (no retry tiers configured)",
        BackoffError::AboveLargestTier => "\"reject\" (the delay is above the largest tier)",
    }
}

/// Compares `expect` (`"reject"` or a record object) with the derived outcome.
fn check_record(
    c: &Case<'_>,
    derived: Result<TierRecord, BackoffError>,
    keys: &[&str],
) -> Step<()> {
    match (c.require("expect")?, derived) {
        (Value::String(word), Err(_)) if word == "reject" => Ok(()),
        (Value::String(word), Err(error)) => {
            Err(c.mismatch("expect", compact(&word.as_str().into()), refusal(error)))
        }
        (Value::String(word), Ok(record)) => Err(c.mismatch(
            "expect",
            compact(&word.as_str().into()),
            format!("a record on {} (tier_ms {})", record.topic, record.tier_ms),
        )),
        (Value::Object(_), Err(error)) => {
            Err(c.mismatch("expect", "a retry-tier record", refusal(error)))
        }
        (Value::Object(fields), Ok(record)) => compare_fields(c, fields, &record, keys),
        _ => Err(c.malformed("expect", "`expect` must be \"reject\" or an object")),
    }
}

fn compare_fields(
    c: &Case<'_>,
    fields: &Map<String, Value>,
    record: &TierRecord,
    keys: &[&str],
) -> Step<()> {
    if fields.is_empty() {
        return Err(c.malformed("expect", "`expect` lists nothing to check"));
    }
    for (name, want) in fields {
        let malformed = |message: &str| {
            harness::malformed_at(
                format!("{}/{}", c.ptr("expect"), escape_token(name)),
                message,
            )
        };
        if !keys.contains(&name.as_str()) {
            return Err(malformed("this record has no such expectation"));
        }
        let derived = match name.as_str() {
            "n" => Value::from(record.n),
            "tier_ms" => Value::from(record.tier_ms),
            "body_attempts" => record.body_attempts.map_or(Value::Null, Value::from),
            "topic" => Value::String(record.topic.clone()),
            "key" => record.key.clone().map_or(Value::Null, Value::String),
            _ => {
                let listed = want
                    .as_object()
                    .ok_or_else(|| malformed("`headers` must be an object"))?;
                for (header, value) in listed {
                    let got = record.headers.get(header).cloned().unwrap_or(Value::Null);
                    if &got != value {
                        return Err(mismatch_in_expect(c, &["headers", header], value, &got));
                    }
                }
                continue;
            }
        };
        let well_typed = match name.as_str() {
            "topic" | "key" => want.is_string(),
            _ => want.is_number(),
        };
        if !well_typed {
            return Err(malformed("wrong JSON type for this expectation"));
        }
        if want != &derived {
            return Err(mismatch_in_expect(c, &[name], want, &derived));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, assert_no_panic_on_junk,
        verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        let tiers = json!([5000, 30000, 300000, 1800000]);
        json!({
            "description": "b",
            "cases": [
                {"name": "between", "work_topic": "orders", "retry_tiers_ms": tiers, "delay_ms": 5001,
                 "expect": {"n": 2, "topic": "orders.retry.2", "tier_ms": 30000,
                            "headers": {"bq-delay": "5001", "bq-original-topic": "orders"}}},
                {"name": "above", "work_topic": "orders", "retry_tiers_ms": tiers, "delay_ms": 1800001,
                 "expect": "reject"}
            ],
            "retry_republish": {"cases": [
                {"name": "v15", "work_topic": "orders", "retry_tiers_ms": tiers, "attempts": 2,
                 "release_delay_ms": 30000,
                 "expect": {"tier_ms": 30000, "body_attempts": 3,
                            "headers": {"bq-delay": "30000", "bq-attempts": "3"}}},
                {"name": "v16", "work_topic": "orders", "retry_tiers_ms": tiers, "attempts": 2,
                 "expect": {"n": 3, "tier_ms": 300000, "body_attempts": 3,
                            "headers": {"bq-delay": "300000", "bq-attempts": "3"}}}
            ]},
            "retry_attempt_tier": {"cases": [
                {"name": "key", "work_topic": "orders", "retry_tiers_ms": tiers, "attempts_before": 9,
                 "key": "k-1", "expect": {"n": 4, "key": "k-1"}},
                {"name": "none", "work_topic": "orders", "retry_tiers_ms": [], "attempts_before": 0,
                 "expect": "reject"}
            ]},
            "retry_worker_delay": {"cases": [
                {"name": "w", "work_topic": "orders", "retry_tiers_ms": tiers, "attempts_before": 1,
                 "worker_delay_ms": 3600000,
                 "expect": {"n": 2, "tier_ms": 30000, "body_attempts": 2,
                            "headers": {"bq-delay": "30000", "bq-attempts": "2"}}}
            ]},
            "topic_names": {"cases": [
                {"name": "t", "work_topic": "a.b", "n": 7, "expect_topic": "a.b.retry.7"}
            ]},
            "default_tiers": {"cases": [
                {"name": "d", "constant": "DEFAULT_RETRY_TIERS_MS", "expect": [5000, 30000, 300000, 1800000]}
            ]}
        })
    }

    #[test]
    fn both_readings_of_retry_republish_and_the_other_blocks_pass() {
        assert_all_pass("backoff", &block(), run);
    }

    #[test]
    fn wrong_expectations_are_mismatches_at_the_leaf() {
        let mut b = block();
        b["cases"][0]["expect"]["headers"]["bq-delay"] = json!("30000");
        let v = verdict_of("backoff", &b, "between", run);
        assert_mismatch_at(&v, "/backoff/cases/0/expect/headers/bq-delay");
        b["cases"][1]["expect"] = json!({"tier_ms": 1800000});
        let v = verdict_of("backoff", &b, "above", run);
        assert_mismatch_at(&v, "/backoff/cases/1/expect");
        b["retry_republish"]["cases"][1]["expect"]["n"] = json!(2);
        let v = verdict_of("backoff", &b, "retry_republish/v16", run);
        assert_mismatch_at(&v, "/backoff/retry_republish/cases/1/expect/n");
        b["retry_attempt_tier"]["cases"][0]["expect"]["key"] = json!("k-2");
        let v = verdict_of("backoff", &b, "retry_attempt_tier/key", run);
        assert_mismatch_at(&v, "/backoff/retry_attempt_tier/cases/0/expect/key");
        b["retry_attempt_tier"]["cases"][1]["expect"] = json!("republish");
        let v = verdict_of("backoff", &b, "retry_attempt_tier/none", run);
        assert_mismatch_at(&v, "/backoff/retry_attempt_tier/cases/1/expect");
        b["retry_worker_delay"]["cases"][0]["expect"]["headers"]["bq-delay"] = json!("3600000");
        let v = verdict_of("backoff", &b, "retry_worker_delay/w", run);
        assert_mismatch_at(
            &v,
            "/backoff/retry_worker_delay/cases/0/expect/headers/bq-delay",
        );
        b["topic_names"]["cases"][0]["expect_topic"] = json!("a.b.retry.6");
        let v = verdict_of("backoff", &b, "topic_names/t", run);
        assert_mismatch_at(&v, "/backoff/topic_names/cases/0/expect_topic");
        b["default_tiers"]["cases"][0]["expect"] = json!([5, 30, 300, 1800]);
        let v = verdict_of("backoff", &b, "default_tiers/d", run);
        assert_mismatch_at(&v, "/backoff/default_tiers/cases/0/expect");
    }

    #[test]
    fn the_1_5_release_shape_is_told_apart_by_its_delay() {
        // The same attempts give tier 2 by the 1.5.0 delay reading and tier 3 by §6.5.
        let mut b = block();
        b["retry_republish"]["cases"][0]["expect"]["tier_ms"] = json!(300000);
        let v = verdict_of("backoff", &b, "retry_republish/v15", run);
        assert_mismatch_at(&v, "/backoff/retry_republish/cases/0/expect/tier_ms");
    }

    #[test]
    fn malformed_inputs_name_the_field() {
        let mut b = block();
        b["cases"][0]["retry_tiers_ms"] = json!([30000, 5000]);
        b["cases"][1]["delay_ms"] = json!(-1);
        b["retry_attempt_tier"]["cases"][0]["key"] = json!(42);
        b["retry_attempt_tier"]["cases"][1]["expect"] = json!(["reject"]);
        b["topic_names"]["cases"][0]["n"] = json!(0);
        b["default_tiers"]["cases"][0]["constant"] = json!("TIERS");
        b["retry_republish"]["cases"][1]["expect"]["tier"] = json!(1);
        b["retry_worker_delay"]["cases"][0]["worker_delay_ms"] = json!(1.5);
        let at =
            |id: &str, ptr: &str| assert_malformed_at(&verdict_of("backoff", &b, id, run), ptr);
        at("between", "/backoff/cases/0/retry_tiers_ms");
        at("above", "/backoff/cases/1/delay_ms");
        at(
            "retry_attempt_tier/key",
            "/backoff/retry_attempt_tier/cases/0/key",
        );
        at(
            "retry_attempt_tier/none",
            "/backoff/retry_attempt_tier/cases/1/expect",
        );
        at("topic_names/t", "/backoff/topic_names/cases/0/n");
        at("default_tiers/d", "/backoff/default_tiers/cases/0/constant");
        at(
            "retry_republish/v16",
            "/backoff/retry_republish/cases/1/expect/tier",
        );
        at(
            "retry_worker_delay/w",
            "/backoff/retry_worker_delay/cases/0/worker_delay_ms",
        );
        let mut b = block();
        b["retry_worker_delay"]["cases"][0]
            .as_object_mut()
            .expect("a case")
            .remove("worker_delay_ms");
        assert_malformed_at(
            &verdict_of("backoff", &b, "retry_worker_delay/w", run),
            "/backoff/retry_worker_delay/cases/0/worker_delay_ms",
        );
    }

    #[test]
    fn junk_never_panics() {
        assert_no_panic_on_junk("backoff", &block(), run);
    }
}
