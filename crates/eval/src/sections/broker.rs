//! The broker binding sections `sqs`, `asb`, `pulsar`, `kafka`, `artemis` and `rabbitmq`
//! (broker-bindings §2-§7), all served by this one runner from the binding table
//! ([`broker_table`]); the section a case sits in names its row.
//!
//! - the projection sub-block (`attribute_projection` on SQS, `property_projection`
//!   elsewhere): each listed field (a map, or a string on Artemis) equals what the binding
//!   projects from `envelope_file`;
//! - the envelopes sub-block (the projection key with `_envelopes`, from the proposal): each case
//!   names its own `envelope_file` and states the same fields, plus the binding's native time
//!   (Kafka `record_timestamp`, Artemis `creation_time`) where it has one;
//! - `attempts_reconciliation`: `expected_attempts` is the body's `body_attempts` reconciled
//!   with the native counter by the binding's counter rule;
//! - `schema_version_gate` (from 1.2.0): see [`super::broker_gate`].

use serde_json::Value;

use super::broker_gate;
use crate::bindings::broker_table::{
    self, BrokerBinding, CounterRule, CounterTyping, GATE_KEY, RECONCILIATION_KEY, Shape,
};
use crate::bindings::harness::{self, uint, uint_or_null};
use crate::bindings::projection::ProjectionSource;
use crate::bindings::reconcile;
use crate::case::{Case, Step, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// The manifest section a case sits in: the first token of its pointer, unescaped.
pub fn section_of(case: &CaseRef<'_>) -> String {
    let rest = case.pointer.strip_prefix('/').unwrap_or(&case.pointer);
    let token = rest.split('/').next().unwrap_or_default();
    token.replace("~1", "/").replace("~0", "~")
}

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    let section = section_of(case);
    let Some(binding) = broker_table::binding(&section) else {
        return harness::malformed_at(
            case.pointer.clone(),
            format!("`{section}` is not a broker binding section"),
        );
    };
    match case.sub_key {
        Some(key) if key == binding.projection_key => {
            finish(projection_case(binding, case, section_block, fixtures))
        }
        Some(key) if key == binding.envelopes_key => {
            finish(envelope_case(binding, case, section_block, fixtures))
        }
        Some(RECONCILIATION_KEY) => match binding.reconciliation {
            Some(rule) => finish(reconciliation_case(binding.section, &rule, case)),
            None => harness::unknown_sub_key(case, binding.section),
        },
        Some(GATE_KEY) => match binding.gate {
            Some(spec) => broker_gate::run(case, section_block, fixtures, binding.section, &spec),
            None => harness::unknown_sub_key(case, binding.section),
        },
        _ => harness::unknown_sub_key(case, binding.section),
    }
}

fn projection_case(
    binding: &BrokerBinding,
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let source = harness::projection_source(case, section_block, fixtures)?;
    compare_projection(binding, &Case::new(case), &source)
}

/// A case of the envelopes sub-block: the projection of the envelope the case itself names, and
/// the native time the binding sets from `meta.created_at`.
fn envelope_case(
    binding: &BrokerBinding,
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    c.str("envelope_file")?;
    let source = harness::projection_source(case, section_block, fixtures)?;
    compare_projection(binding, &c, &source)?;
    let Some(time) = binding.native_time else {
        return Ok(());
    };
    if !time.required && c.get(time.field).is_none() {
        return Ok(());
    }
    let expected = c.require(time.field)?;
    uint(&c, time.field)?;
    c.expect_eq(time.field, expected, &(time.derive)(&source))
}

fn compare_projection(
    binding: &BrokerBinding,
    c: &Case<'_>,
    source: &ProjectionSource,
) -> Step<()> {
    for projected in binding.projection {
        let derived = (projected.derive)(source);
        match (projected.shape, &derived) {
            (Shape::Map, Value::Object(map)) => harness::compare_map(c, projected.field, map)?,
            _ => {
                c.str(projected.field)?;
                c.expect_eq(projected.field, c.require(projected.field)?, &derived)?;
            }
        }
    }
    Ok(())
}

/// The native counter of a reconciliation case as the rule's typing gives it.
fn counter(c: &Case<'_>, rule: &CounterRule) -> Step<Option<u64>> {
    match rule.typing {
        CounterTyping::Count => uint(c, rule.field).map(Some),
        CounterTyping::CountOrNull => uint_or_null(c, rule.field),
        CounterTyping::TextOrNull => match c.require(rule.field)? {
            Value::Null => Ok(None),
            Value::String(text) => Ok(reconcile::parse_count(text)),
            _ => Err(c.malformed(
                rule.field,
                format!(
                    "`{}` is a broker attribute: a string, or null when absent",
                    rule.field
                ),
            )),
        },
    }
}

fn reconciliation_case(section: &str, rule: &CounterRule, case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let body = uint(&c, "body_attempts")?;
    let native = counter(&c, rule)?;
    let expected = c.require("expected_attempts")?;
    uint(&c, "expected_attempts")?;
    let derived = reconcile::reconcile(section, rule, body, native);
    c.expect_eq("expected_attempts", expected, &Value::from(derived))
}

#[cfg(test)]
#[path = "broker_tests.rs"]
mod tests;
