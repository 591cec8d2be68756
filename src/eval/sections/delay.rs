//! The `delay` section (scope sqs): SQS delivery delay (broker-bindings §3.4–3.5).
//!
//! - `send`: `queue_type` + `delay_seconds` give send (with `expect_delay_seconds` as the
//!   `DelaySeconds` parameter, null = not set; asserted when the case carries it) or reject;
//! - `release`: the `ChangeMessageVisibility` timeout of a release equals the delay.

use serde_json::Value;

use crate::eval::bindings::delay::{self, QueueType, SendOutcome};
use crate::eval::bindings::harness::{self, uint, word};
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("send") => finish(send_case(case)),
        Some("release") => finish(release_case(case)),
        _ => harness::unknown_sub_key(case, "delay"),
    }
}

fn send_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let queue_type = QueueType::parse(word(&c, "queue_type", &["standard", "fifo"])?)
        .ok_or_else(|| c.malformed("queue_type", "`queue_type` must be standard or fifo"))?;
    let delay_seconds = uint(&c, "delay_seconds")?;
    let expect = word(&c, "expect", &["send", "reject"])?;
    let expected_delay = match c.get("expect_delay_seconds") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(value) => match value.as_u64() {
            Some(d) => Some(Some(d)),
            None => {
                return Err(c.malformed(
                    "expect_delay_seconds",
                    "`expect_delay_seconds` must be a non-negative integer or null",
                ));
            }
        },
    };
    match (expect, delay::send(queue_type, delay_seconds)) {
        ("send", SendOutcome::Send { delay_seconds: got }) => match expected_delay {
            Some(want) => c.expect_eq(
                "expect_delay_seconds",
                &want.map_or(Value::Null, Value::from),
                &got.map_or(Value::Null, Value::from),
            ),
            None => Ok(()),
        },
        ("reject", SendOutcome::Reject) => Ok(()),
        (_, SendOutcome::Send { delay_seconds: got }) => Err(c.mismatch(
            "expect",
            "\"reject\"",
            match got {
                Some(d) => format!("\"send\" with DelaySeconds {d}"),
                None => "\"send\" without DelaySeconds".to_owned(),
            },
        )),
        (_, SendOutcome::Reject) => Err(c.mismatch("expect", "\"send\"", "\"reject\"")),
    }
}

fn release_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let delay_seconds = uint(&c, "release_delay_seconds")?;
    let expected = c.require("expect_visibility_timeout")?;
    uint(&c, "expect_visibility_timeout")?;
    c.expect_eq(
        "expect_visibility_timeout",
        expected,
        &Value::from(delay::release_visibility_timeout(delay_seconds)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "delay",
            "send": {
                "description": "s",
                "cases": [
                    { "name": "standard-within-cap", "queue_type": "standard", "delay_seconds": 30, "expect": "send", "expect_delay_seconds": 30 },
                    { "name": "standard-at-cap", "queue_type": "standard", "delay_seconds": 900, "expect": "send", "expect_delay_seconds": 900 },
                    { "name": "standard-above-cap", "queue_type": "standard", "delay_seconds": 901, "expect": "reject" },
                    { "name": "fifo-with-delay", "queue_type": "fifo", "delay_seconds": 5, "expect": "reject" },
                    { "name": "fifo-without-delay", "queue_type": "fifo", "delay_seconds": 0, "expect": "send", "expect_delay_seconds": null }
                ]
            },
            "release": {
                "description": "r",
                "cases": [
                    { "name": "release-immediate", "release_delay_seconds": 0, "expect_visibility_timeout": 0 },
                    { "name": "release-after-30", "release_delay_seconds": 30, "expect_visibility_timeout": 30 },
                    { "name": "release-after-900", "release_delay_seconds": 900, "expect_visibility_timeout": 900 }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("delay", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("delay", &block(), run);
    }

    #[test]
    fn flipped_expectations() {
        let mut b = block();
        b["send"]["cases"][2]["expect"] = json!("send");
        let v = verdict_of("delay", &b, "send/standard-above-cap", run);
        assert_mismatch_at(&v, "/delay/send/cases/2/expect");
        b["send"]["cases"][4]["expect_delay_seconds"] = json!(0);
        let v = verdict_of("delay", &b, "send/fifo-without-delay", run);
        assert_mismatch_at(&v, "/delay/send/cases/4/expect_delay_seconds");
        b["send"]["cases"][3]["expect"] = json!("send");
        let v = verdict_of("delay", &b, "send/fifo-with-delay", run);
        assert_mismatch_at(&v, "/delay/send/cases/3/expect");
        b["release"]["cases"][1]["expect_visibility_timeout"] = json!(0);
        let v = verdict_of("delay", &b, "release/release-after-30", run);
        assert_mismatch_at(&v, "/delay/release/cases/1/expect_visibility_timeout");
    }

    #[test]
    fn malformed_fields() {
        let mut b = block();
        b["send"]["cases"][0]["queue_type"] = json!("FIFO");
        b["send"]["cases"][1]["delay_seconds"] = json!(-1);
        let v = verdict_of("delay", &b, "send/standard-within-cap", run);
        assert_malformed_at(&v, "/delay/send/cases/0/queue_type");
        let v = verdict_of("delay", &b, "send/standard-at-cap", run);
        assert_malformed_at(&v, "/delay/send/cases/1/delay_seconds");
    }
}
