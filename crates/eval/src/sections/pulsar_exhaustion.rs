//! The `pulsar_exhaustion` section (conformance 1.7.0, ADR-0036 decisions 1 and 2): the
//! max-attempts settle decision of a Pulsar consumer (see [`exhaustion`] for the rule).
//!
//! A case is `{name, kind, body_attempts?, bq_attempts?, redelivery_count, max_attempts?,
//! dead_letter: bool, on_unknown_urn?, expect: {outcome, reason?, dead_letter_attempts?,
//! outcome_no_writer?}}`; `body_attempts` is given for `failed` and `unknown_urn` and absent for
//! `poison`. Rows with an `on_unknown_urn` are skipped by an SDK without the strategy option;
//! the reference model has it and derives them all.

use serde_json::{Map, Value};

use crate::bindings::exhaustion::{self, DEFAULT_MAX_ATTEMPTS, Delivery, Kind, NotACase};
use crate::bindings::harness::{self, compare_members, optional_word, uint, word};
use crate::bindings::settle::Strategy;
use crate::case::{Case, Step, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        None => finish(exhaustion_case(case)),
        Some(_) => harness::unknown_sub_key(case, "pulsar_exhaustion"),
    }
}

fn exhaustion_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let kind = Kind::parse(word(&c, "kind", &Kind::WORDS)?).unwrap_or(Kind::Failed);
    let body_attempts = match (kind, c.get("body_attempts")) {
        (Kind::Poison, None) => None,
        (Kind::Poison, Some(_)) => {
            return Err(c.malformed(
                "body_attempts",
                "a poison delivery has no decodable body, so no `body_attempts`",
            ));
        }
        _ => Some(uint(&c, "body_attempts")?),
    };
    let bq_attempts = match c.get("bq_attempts") {
        None => None,
        Some(Value::String(text)) => Some(text.as_str()),
        Some(_) => return Err(c.malformed("bq_attempts", "`bq_attempts` must be a string")),
    };
    let redelivery_count = uint(&c, "redelivery_count")?;
    let max_attempts = match c.get("max_attempts") {
        None => DEFAULT_MAX_ATTEMPTS,
        Some(_) => match uint(&c, "max_attempts")? {
            0 => {
                return Err(c.malformed(
                    "max_attempts",
                    "a `max_attempts` below 1 is a configuration error, not a case",
                ));
            }
            n => n,
        },
    };
    let dead_letter = c.bool("dead_letter")?;
    let strategy = optional_word(&c, "on_unknown_urn", &Strategy::WORDS)?
        .and_then(Strategy::parse)
        .unwrap_or(Strategy::Fail);
    c.object("expect")?;
    let decision = exhaustion::decide(&Delivery {
        kind,
        body_attempts,
        bq_attempts,
        redelivery_count,
        max_attempts,
        dead_letter,
        strategy,
    })
    .map_err(|NotACase::UnknownUrnRelease| {
        c.malformed(
            "on_unknown_urn",
            "`unknown_urn` with `release` is not a case (released at once without counting)",
        )
    })?;
    let mut derived = Map::new();
    derived.insert("outcome".into(), decision.outcome.into());
    if let Some(reason) = decision.reason {
        derived.insert("reason".into(), reason.into());
    }
    if let Some(attempts) = decision.dead_letter_attempts {
        derived.insert("dead_letter_attempts".into(), attempts.into());
    }
    if let Some(no_writer) = decision.outcome_no_writer {
        derived.insert("outcome_no_writer".into(), no_writer.into());
    }
    compare_members(&c, "expect", &derived, "outcome")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{assert_mismatch_at, verdict_of};
    use crate::realkit;
    use serde_json::json;

    fn one(case: Value) -> Verdict {
        verdict_of("pulsar_exhaustion", &json!({ "cases": [case] }), "c", run)
    }

    #[test]
    fn unstated_and_extra_members_are_mismatches() {
        // The bounded dlq fixes the record's attempts: a case must state them.
        let v = one(json!({"name": "c", "kind": "failed", "body_attempts": 2,
            "redelivery_count": 0, "dead_letter": true,
            "expect": {"outcome": "dlq", "reason": "failed"}}));
        assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect");
        // Poison's record attempts are not compared: a case may not state them.
        let v = one(json!({"name": "c", "kind": "poison", "redelivery_count": 0,
            "dead_letter": true,
            "expect": {"outcome": "dlq", "reason": "poison", "dead_letter_attempts": 1}}));
        assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect/dead_letter_attempts");
        // A wrong verdict word is a mismatch at the outcome, not a malformed case.
        let v = one(json!({"name": "c", "kind": "failed", "body_attempts": 0,
            "redelivery_count": 0, "dead_letter": true,
            "expect": {"reason": "failed", "outcome": "retry-flipped"}}));
        assert_mismatch_at(&v, "/pulsar_exhaustion/cases/0/expect/outcome");
    }

    #[test]
    fn shapes_that_are_not_cases_are_malformed() {
        for (case, field) in [
            (
                json!({"name": "c", "kind": "poison", "body_attempts": 0, "redelivery_count": 0,
                "dead_letter": true, "expect": {"outcome": "dlq"}}),
                "body_attempts",
            ),
            (
                json!({"name": "c", "kind": "unknown_urn", "body_attempts": 0, "redelivery_count": 0,
                "dead_letter": true, "on_unknown_urn": "release", "expect": {"outcome": "retry"}}),
                "on_unknown_urn",
            ),
            (
                json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
                "max_attempts": 0, "dead_letter": true, "expect": {"outcome": "dlq"}}),
                "max_attempts",
            ),
            (
                json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
                "dead_letter": "on", "expect": {"outcome": "dlq"}}),
                "dead_letter",
            ),
            (
                json!({"name": "c", "kind": "failed", "body_attempts": 0, "redelivery_count": 0,
                "dead_letter": true, "bq_attempts": 2, "expect": {"outcome": "dlq"}}),
                "bq_attempts",
            ),
        ] {
            match one(case) {
                Verdict::Malformed { pointer, .. } => {
                    assert_eq!(pointer, format!("/pulsar_exhaustion/cases/0/{field}"))
                }
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn junk_never_panics() {
        let mut block = realkit::release("1.8.0").0["pulsar_exhaustion"].clone();
        if let Some(cases) = block.get_mut("cases").and_then(Value::as_array_mut) {
            cases.retain(|c| {
                [
                    "failed-reconciled-2-dlq-on-dead-letters",
                    "poison-dead-letter-strategy-dlq-off-dead-letters",
                ]
                .contains(&c["name"].as_str().unwrap_or(""))
            });
        }
        crate::bindings::testutil::assert_no_panic_on_junk("pulsar_exhaustion", &block, run);
    }
}
