//! The `delay` section (scope sqs): SQS delays (broker-bindings §3.4–3.5).
//!
//! - direct `cases`: a publish delayed by `delay_seconds` on a `queue_type` queue gives
//!   `expect: {"delay_seconds_attribute": N}` (the SendMessage `DelaySeconds`) or
//!   `expect: "reject"`;
//! - `release_visibility`: a release after `delay_seconds` gives
//!   `expect: {"visibility_timeout": N}`.
//!
//! A publish delay below 1 s and a release above 43200 s are not pinned by the contract; a
//! case that states one is malformed. The shape is the same from 1.5.0 on.

use serde_json::{Map, Value};

use crate::bindings::delay::{self, MAX_VISIBILITY_TIMEOUT, QueueType, SendOutcome};
use crate::bindings::harness::{self, malformed_at, uint, word};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    let c = Case::new(case);
    match case.sub_key {
        None => finish(send_case(&c)),
        Some("release_visibility") => finish(release_case(&c)),
        Some(_) => harness::unknown_sub_key(case, "delay"),
    }
}

fn send_case(c: &Case<'_>) -> Step<()> {
    let queue_type = QueueType::parse(word(c, "queue_type", &["standard", "fifo"])?)
        .ok_or_else(|| c.malformed("queue_type", "`queue_type` must be standard or fifo"))?;
    let delay_seconds = uint(c, "delay_seconds")?;
    if delay_seconds == 0 {
        return Err(c.malformed(
            "delay_seconds",
            "a publish delay of 0 is not pinned by the contract",
        ));
    }
    match (c.require("expect")?, delay::send(queue_type, delay_seconds)) {
        (Value::String(w), SendOutcome::Reject) if w == "reject" => Ok(()),
        (Value::String(w), SendOutcome::Reject) => {
            Err(c.mismatch("expect", compact(&w.as_str().into()), "\"reject\""))
        }
        (Value::String(w), SendOutcome::Send { delay_seconds }) => Err(c.mismatch(
            "expect",
            compact(&w.as_str().into()),
            format!("a SendMessage with DelaySeconds {delay_seconds}"),
        )),
        (Value::Object(_), SendOutcome::Reject) => {
            Err(c.mismatch("expect", "a SendMessage", "\"reject\""))
        }
        (Value::Object(fields), SendOutcome::Send { delay_seconds }) => {
            expect_one(c, fields, "delay_seconds_attribute", delay_seconds)
        }
        _ => Err(c.malformed("expect", "`expect` must be \"reject\" or an object")),
    }
}

fn release_case(c: &Case<'_>) -> Step<()> {
    let delay_seconds = uint(c, "delay_seconds")?;
    if delay_seconds > MAX_VISIBILITY_TIMEOUT {
        return Err(c.malformed(
            "delay_seconds",
            "a release above 43200 s (the SQS maximum) is not pinned by the contract",
        ));
    }
    let fields = c.object("expect")?;
    let timeout = delay::release_visibility_timeout(delay_seconds);
    expect_one(c, fields, "visibility_timeout", timeout)
}

/// Checks that `fields` (the case's `expect` object) holds exactly `name`, equal to `derived`.
fn expect_one(c: &Case<'_>, fields: &Map<String, Value>, name: &str, derived: u64) -> Step<()> {
    let pointer = |key: &str| {
        format!(
            "{}/{}",
            c.ptr("expect"),
            bqsuite_core::ids::escape_token(key)
        )
    };
    if let Some(other) = fields.keys().find(|k| *k != name) {
        return Err(malformed_at(
            pointer(other),
            "this section has no such expectation",
        ));
    }
    let want = fields
        .get(name)
        .ok_or_else(|| malformed_at(c.ptr("expect"), format!("`expect` must list `{name}`")))?;
    if !want.is_number() {
        return Err(malformed_at(
            pointer(name),
            format!("`{name}` must be a number"),
        ));
    }
    let derived = Value::from(derived);
    if want == &derived {
        Ok(())
    } else {
        Err(Verdict::Mismatch(Mismatch {
            pointer: pointer(name),
            expected: compact(want),
            derived: compact(&derived),
        }))
    }
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
        json!({
            "description": "d",
            "cases": [
                {"name": "cap", "queue_type": "standard", "delay_seconds": 900,
                 "expect": {"delay_seconds_attribute": 900}},
                {"name": "over", "queue_type": "standard", "delay_seconds": 901, "expect": "reject"},
                {"name": "fifo", "queue_type": "fifo", "delay_seconds": 1, "expect": "reject"}
            ],
            "release_visibility": {"cases": [
                {"name": "max", "delay_seconds": 43200, "expect": {"visibility_timeout": 43200}}
            ]}
        })
    }

    #[test]
    fn cap_fifo_and_release_pass() {
        assert_all_pass("delay", &block(), run);
    }

    #[test]
    fn wrong_expectations_are_mismatches() {
        let mut b = block();
        b["cases"][0]["expect"]["delay_seconds_attribute"] = json!(899);
        assert_mismatch_at(
            &verdict_of("delay", &b, "cap", run),
            "/delay/cases/0/expect/delay_seconds_attribute",
        );
        b["cases"][1]["expect"] = json!({"delay_seconds_attribute": 900});
        assert_mismatch_at(
            &verdict_of("delay", &b, "over", run),
            "/delay/cases/1/expect",
        );
        b["cases"][2]["expect"] = json!("reject-flipped");
        assert_mismatch_at(
            &verdict_of("delay", &b, "fifo", run),
            "/delay/cases/2/expect",
        );
        b["release_visibility"]["cases"][0]["expect"]["visibility_timeout"] = json!(900);
        assert_mismatch_at(
            &verdict_of("delay", &b, "release_visibility/max", run),
            "/delay/release_visibility/cases/0/expect/visibility_timeout",
        );
    }

    #[test]
    fn unpinned_inputs_and_wrong_types_are_malformed() {
        let mut b = block();
        b["cases"][0]["delay_seconds"] = json!(0);
        b["cases"][1]["queue_type"] = json!("FIFO");
        b["cases"][2]["expect"] = json!({"delay_seconds": 1});
        b["release_visibility"]["cases"][0]["delay_seconds"] = json!(43201);
        let at = |id: &str, ptr: &str| assert_malformed_at(&verdict_of("delay", &b, id, run), ptr);
        at("cap", "/delay/cases/0/delay_seconds");
        at("over", "/delay/cases/1/queue_type");
        at(
            "release_visibility/max",
            "/delay/release_visibility/cases/0/delay_seconds",
        );
        // FIFO rejects whatever the record would say: the verdict comes first.
        assert_mismatch_at(
            &verdict_of("delay", &b, "fifo", run),
            "/delay/cases/2/expect",
        );
    }

    #[test]
    fn junk_never_panics() {
        assert_no_panic_on_junk("delay", &block(), run);
    }
}
