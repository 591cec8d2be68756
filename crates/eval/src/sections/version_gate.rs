//! The `version_gate_pulsar`, `version_gate_artemis`, `version_gate_sqs` and `version_gate_asb`
//! sections (conformance 1.8.0, ADR-0037 decision 1): how a consumer settles a delivery whose
//! schema-version property gates. The section name gives the binding; its row of the binding
//! table gives what dead-lettering off means there (`ack` on Pulsar and Artemis, `native` on
//! SQS and ASB).
//!
//! A case is `{name, on_unknown_urn?, dead_letter: on|off, dlq_write?: ok|fails,
//! bq_attempts?, expect: {outcome, record?, outcome_no_writer?}}`. `record: incoming_body`
//! (on `dlq_raw` rows) holds when the record written for every body of the section's
//! `incoming_bodies` equals that body byte for byte. Rows with a strategy other than `fail` are
//! skipped by an SDK without the strategy option; the reference model has it and derives them
//! all.

use serde_json::{Map, Value};

use super::broker::section_of;
use crate::bindings::broker_table::{SettleRule, settle_binding};
use crate::bindings::harness::{self, compare_members, malformed_at, optional_word, word};
use crate::bindings::reconcile::parse_count;
use crate::bindings::settle::{GatedDelivery, Strategy, gated_record, settle_gated};
use crate::case::{Case, Step, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    let section = section_of(case);
    let Some((_, rule)) = settle_binding(&section) else {
        return malformed_at(
            case.pointer.clone(),
            format!("`{section}` names no binding with a version-gate settle rule"),
        );
    };
    match case.sub_key {
        None => finish(settle_case(case, section_block, &rule)),
        Some(_) => harness::unknown_sub_key(case, &section),
    }
}

/// The section's `incoming_bodies`: `(name, body)` pairs, at least one.
fn incoming_bodies<'a>(
    case: &CaseRef<'a>,
    section_block: &'a Value,
) -> Step<Vec<(&'a str, &'a str)>> {
    let (value, pointer) = harness::require_inherited(case, "incoming_bodies", section_block)?;
    let items = value
        .as_array()
        .filter(|items| !items.is_empty())
        .ok_or_else(|| {
            malformed_at(
                pointer.clone(),
                "`incoming_bodies` must be a non-empty array",
            )
        })?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let body = item.get("body").and_then(Value::as_str).ok_or_else(|| {
                malformed_at(
                    format!("{pointer}/{i}/body"),
                    "each incoming body needs a string `body`",
                )
            })?;
            Ok((item.get("name").and_then(Value::as_str).unwrap_or(""), body))
        })
        .collect()
}

fn settle_case(case: &CaseRef<'_>, section_block: &Value, rule: &SettleRule) -> Step<()> {
    let c = Case::new(case);
    let bodies = incoming_bodies(case, section_block)?;
    let strategy = optional_word(&c, "on_unknown_urn", &Strategy::WORDS)?
        .and_then(Strategy::parse)
        .unwrap_or(Strategy::Fail);
    let dead_letter = word(&c, "dead_letter", &["on", "off"])? == "on";
    let dlq_write_ok = optional_word(&c, "dlq_write", &["ok", "fails"])? != Some("fails");
    let bq_attempts = match c.get("bq_attempts") {
        None => None,
        Some(Value::String(text)) => parse_count(text),
        Some(_) => return Err(c.malformed("bq_attempts", "`bq_attempts` must be a string")),
    };
    c.object("expect")?;
    let settled = settle_gated(
        rule,
        &GatedDelivery {
            strategy,
            dead_letter,
            dlq_write_ok,
            bq_attempts,
        },
    );
    let mut derived = Map::new();
    derived.insert("outcome".into(), settled.outcome.into());
    if settled.outcome == "dlq_raw" {
        derived.insert("record".into(), record_word(&bodies).into());
    }
    if let Some(no_writer) = settled.outcome_no_writer {
        derived.insert("outcome_no_writer".into(), no_writer.into());
    }
    compare_members(&c, "expect", &derived, "outcome")
}

/// `incoming_body` when the record written for every incoming body is that body, else a
/// phrase naming the first body it differs for.
fn record_word(bodies: &[(&str, &str)]) -> String {
    match bodies.iter().find(|(_, body)| gated_record(body) != *body) {
        Some((name, _)) => format!("a rewritten copy of incoming body `{name}`"),
        None => "incoming_body".to_owned(),
    }
}

#[cfg(test)]
#[path = "version_gate_tests.rs"]
mod tests;
