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
        None => crate::switch::copied::default_max_attempts(DEFAULT_MAX_ATTEMPTS),
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
#[path = "pulsar_exhaustion_tests.rs"]
mod tests;
