//! The `backoff` section (scope kafka): Kafka retry backoff (broker-bindings §6.3–6.5).
//! The section-level `tiers` (non-negative integers) and `topic` are shared by every case.
//!
//! - `tier_selection`: `requested_delay` goes to the smallest tier >= it (`expect_tier`, and
//!   `expect_headers`, asserted when present) or is rejected above the largest tier;
//! - `retry_republish`: attempts reconciled the Kafka way (header when present, else body),
//!   plus one, in the `bq-attempts` header (string) and the body (`expect_body_attempts`).
//!
//! In both sub-blocks `expect_headers` is a subset: the retry record carries every listed header
//! with that value, and headers it does not list (the other sub-block's, the projection's `bq-`
//! set) are not asserted. Both sub-blocks check the same record, the retry republish.

use serde_json::Value;

use crate::eval::bindings::backoff;
use crate::eval::bindings::harness::{
    self, inherited_str, malformed_at, require_inherited, uint, uint_or_null, word,
};
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    let step = match case.sub_key {
        Some("tier_selection") => tier_case(case, section_block, fixtures),
        Some("retry_republish") => republish_case(case, section_block, fixtures),
        _ => return harness::unknown_sub_key(case, "backoff"),
    };
    finish(step)
}

/// The shared parameters: the tiers, the topic, and (when named) a loadable envelope.
fn parameters<'a>(
    case: &CaseRef<'a>,
    section_block: &'a Value,
    fixtures: &dyn FixtureSource,
) -> Step<(Vec<u64>, &'a str)> {
    let (tiers, tiers_ptr) = require_inherited(case, "tiers", section_block)?;
    let tiers = tiers
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .map(Value::as_u64)
                .collect::<Option<Vec<u64>>>()
        })
        .ok_or_else(|| {
            malformed_at(
                tiers_ptr,
                "`tiers` must be an array of non-negative integers",
            )
        })?;
    let (topic, _) = inherited_str(case, "topic", section_block)?;
    if harness::inherited_ptr(case, "envelope_file", section_block).is_some() {
        harness::load_envelope(case, section_block, fixtures)?;
    }
    Ok((tiers, topic))
}

/// The `attempts` of the section's envelope (0 when absent or when no envelope is named).
fn envelope_attempts(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<u64> {
    if harness::inherited_ptr(case, "envelope_file", section_block).is_none() {
        return Ok(0);
    }
    let (envelope, pointer) = harness::load_envelope(case, section_block, fixtures)?;
    match envelope.get("attempts") {
        None => Ok(0),
        Some(value) => value
            .as_u64()
            .ok_or_else(|| malformed_at(pointer, "the envelope's attempts is not an integer >= 0")),
    }
}

fn tier_case(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Step<()> {
    let c = Case::new(case);
    let (tiers, topic) = parameters(case, section_block, fixtures)?;
    let requested = uint(&c, "requested_delay")?;
    let expect = word(&c, "expect", &["republish", "reject"])?;
    match (expect, backoff::select_tier(&tiers, requested)) {
        ("republish", Some(tier)) => {
            if let Some(want) = c.get("expect_tier") {
                uint(&c, "expect_tier")?;
                c.expect_eq("expect_tier", want, &Value::from(tier))?;
            }
            if c.get("expect_headers").is_some() {
                // The retry of the section's envelope as it arrived: the body's attempts, no
                // bq-attempts header. Its other headers are not listed, hence a subset check.
                let body = envelope_attempts(case, section_block, fixtures)?;
                let record = backoff::retry_republish(&tiers, topic, body, None, requested)
                    .map_err(|_| c.malformed("requested_delay", "no tier holds the delay"))?;
                harness::compare_subset(&c, "expect_headers", &record.headers)?;
            }
            Ok(())
        }
        ("reject", None) => Ok(()),
        (_, Some(tier)) => Err(c.mismatch(
            "expect",
            "\"reject\"",
            format!("\"republish\" to tier {tier}"),
        )),
        (_, None) => Err(c.mismatch(
            "expect",
            "\"republish\"",
            "\"reject\" (above the largest tier)",
        )),
    }
}

fn republish_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let (tiers, topic) = parameters(case, section_block, fixtures)?;
    let body = uint(&c, "body_attempts")?;
    let header = uint_or_null(&c, "header_attempts")?;
    let requested = uint(&c, "requested_delay")?;
    c.object("expect_headers")?;
    let expected_body = c.require("expect_body_attempts")?;
    uint(&c, "expect_body_attempts")?;
    let republish =
        backoff::retry_republish(&tiers, topic, body, header, requested).map_err(|_| {
            c.mismatch(
                "requested_delay",
                "a delay some tier can hold",
                "reject (above the largest tier)",
            )
        })?;
    harness::compare_subset(&c, "expect_headers", &republish.headers)?;
    c.expect_eq(
        "expect_body_attempts",
        expected_body,
        &Value::from(republish.body_attempts),
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
            "description": "backoff",
            "tiers": [5, 30, 300, 1800],
            "topic": "orders",
            "envelope_file": "fixtures/order-created.json",
            "tier_selection": {
                "description": "t",
                "cases": [
                    { "name": "below-smallest-tier", "requested_delay": 1, "expect": "republish", "expect_tier": 5,
                      "expect_headers": { "bq-delay": "1", "bq-original-topic": "orders" } },
                    { "name": "exact-tier", "requested_delay": 30, "expect": "republish", "expect_tier": 30,
                      "expect_headers": { "bq-delay": "30", "bq-original-topic": "orders" } },
                    { "name": "between-tiers", "requested_delay": 31, "expect": "republish", "expect_tier": 300,
                      "expect_headers": { "bq-delay": "31", "bq-original-topic": "orders" } },
                    { "name": "largest-tier", "requested_delay": 1800, "expect": "republish", "expect_tier": 1800,
                      "expect_headers": { "bq-delay": "1800", "bq-original-topic": "orders" } },
                    { "name": "above-largest-tier", "requested_delay": 1801, "expect": "reject" }
                ]
            },
            "retry_republish": {
                "description": "r",
                "cases": [
                    { "name": "header-and-body-agree", "body_attempts": 2, "header_attempts": 2, "requested_delay": 30,
                      "expect_headers": { "bq-attempts": "3", "bq-delay": "30", "bq-original-topic": "orders" },
                      "expect_body_attempts": 3 },
                    { "name": "header-absent-uses-body", "body_attempts": 1, "header_attempts": null, "requested_delay": 5,
                      "expect_headers": { "bq-attempts": "2", "bq-delay": "5", "bq-original-topic": "orders" },
                      "expect_body_attempts": 2 },
                    { "name": "header-authoritative", "body_attempts": 1, "header_attempts": 4, "requested_delay": 300,
                      "expect_headers": { "bq-attempts": "5", "bq-delay": "300", "bq-original-topic": "orders" },
                      "expect_body_attempts": 5 }
                ]
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("backoff", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("backoff", &block(), run);
    }

    #[test]
    fn flipped_tiers() {
        let mut b = block();
        b["tier_selection"]["cases"][2]["expect_tier"] = json!(30);
        let v = verdict_of("backoff", &b, "tier_selection/between-tiers", run);
        assert_mismatch_at(&v, "/backoff/tier_selection/cases/2/expect_tier");
        b["tier_selection"]["cases"][4]["expect"] = json!("republish");
        let v = verdict_of("backoff", &b, "tier_selection/above-largest-tier", run);
        assert_mismatch_at(&v, "/backoff/tier_selection/cases/4/expect");
        b["tier_selection"]["cases"][1]["expect_headers"]["bq-delay"] = json!(30);
        let v = verdict_of("backoff", &b, "tier_selection/exact-tier", run);
        assert_mismatch_at(&v, "/backoff/tier_selection/cases/1/expect_headers");
    }

    #[test]
    fn flipped_republish() {
        let mut b = block();
        b["retry_republish"]["cases"][2]["expect_headers"]["bq-attempts"] = json!("2");
        let v = verdict_of("backoff", &b, "retry_republish/header-authoritative", run);
        assert_mismatch_at(&v, "/backoff/retry_republish/cases/2/expect_headers");
        b["retry_republish"]["cases"][1]["expect_body_attempts"] = json!(1);
        let v = verdict_of(
            "backoff",
            &b,
            "retry_republish/header-absent-uses-body",
            run,
        );
        assert_mismatch_at(&v, "/backoff/retry_republish/cases/1/expect_body_attempts");
    }

    #[test]
    fn malformed_parameters() {
        let mut b = block();
        b["tiers"] = json!([5, "30"]);
        let v = verdict_of("backoff", &b, "tier_selection/exact-tier", run);
        assert_malformed_at(&v, "/backoff/tiers");
        let mut b = block();
        b.as_object_mut().map(|o| o.remove("topic"));
        let v = verdict_of("backoff", &b, "tier_selection/exact-tier", run);
        assert_malformed_at(&v, "/backoff/tier_selection/cases/1/topic");
    }
}
