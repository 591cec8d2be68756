//! The two schemas compile under their own drafts, the example results file conforms, and the
//! fixtures that must (or must not) satisfy the producer envelope schema do (or do not).

use serde_json::Value;

use super::codes::Code;
use super::findings;
use crate::commands::schema::{self, DRAFT_07, DRAFT_2020_12, Unusable, Validator};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::index::IndexedCase;
use bqsuite_suite::Suite;
use bqsuite_suite::load::{ENVELOPE_SCHEMA, RESULTS_EXAMPLE, RESULTS_SCHEMA};

/// The suite's compiled schemas (`None` where missing or broken; that is reported once).
pub struct Compiled {
    pub envelope: Option<Validator>,
    pub results: Option<Validator>,
}

fn compile_one(
    suite: &Suite,
    rel: &str,
    draft: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Validator> {
    let doc = suite.json(rel)?;
    match schema::compile_for_draft(doc, draft, false) {
        Ok(v) => Some(v),
        Err(why) => {
            let code = match why {
                Unusable::Draft(_) => Code::SchemaDraft,
                Unusable::Compile(_) => Code::SchemaCompile,
            };
            out.push(findings::schema_unusable(code, rel, why.message(), draft).at(""));
            None
        }
    }
}

pub fn compile(suite: &Suite, out: &mut Vec<Diagnostic>) -> Compiled {
    Compiled {
        envelope: compile_one(suite, ENVELOPE_SCHEMA, DRAFT_07, out),
        results: compile_one(suite, RESULTS_SCHEMA, DRAFT_2020_12, out),
    }
}

/// Each schema violation of `instance` as `(instance pointer, message)`.
fn violations(validator: &Validator, instance: &Value) -> Vec<(String, String)> {
    schema::violations(validator, instance, usize::MAX)
}

pub fn check_example(suite: &Suite, compiled: &Compiled, out: &mut Vec<Diagnostic>) {
    let (Some(validator), Some(example)) = (&compiled.results, suite.json(RESULTS_EXAMPLE)) else {
        return;
    };
    for (pointer, message) in violations(validator, example) {
        out.push(findings::results_example_invalid(&message).at(pointer));
    }
}

/// What a case's fixture must do against the producer envelope schema.
#[derive(Debug, PartialEq)]
enum Expectation {
    Pass,
    Fail,
}

fn expectation(section: &str, case: &Value, fixture: &Value) -> Option<Expectation> {
    if case.get("producer_schema_valid") == Some(&Value::Bool(false)) {
        return Some(Expectation::Fail);
    }
    match section {
        "roundtrip" | "forbidden_keys" => Some(Expectation::Pass),
        // Produced envelopes; a fixture that carries `urn` and no `job` is the documented
        // consumer tolerance (the alias), which the producer schema rejects by design.
        "cases" if case.get("valid") == Some(&Value::Bool(true)) => {
            let alias = fixture.get("job").is_none() && fixture.get("urn").is_some();
            (!alias).then_some(Expectation::Pass)
        }
        // A data shape the consumer rejects is one the producer schema forbids too.
        "data_shape" if case.get("valid") == Some(&Value::Bool(false)) => Some(Expectation::Fail),
        _ => None,
    }
}

/// Checks the fixture `path` (its value `fixture`) against the producer envelope schema, as each
/// of `cases` (the cases that name it) expects.
pub fn check_fixture(
    compiled: &Compiled,
    path: &str,
    fixture: &Value,
    cases: &[&IndexedCase],
    out: &mut Vec<Diagnostic>,
) {
    let Some(validator) = &compiled.envelope else {
        return;
    };
    // Many cases may name one fixture: it is checked against the schema once, if any asks.
    let mut checked = None;
    for c in cases {
        let Some(expect) = expectation(&c.section, c.case.case, fixture) else {
            continue;
        };
        let problems: &Vec<(String, String)> =
            checked.get_or_insert_with(|| violations(validator, fixture));
        match expect {
            Expectation::Pass => {
                for (pointer, message) in problems.iter().cloned() {
                    out.push(
                        findings::fixture_schema_invalid(path, &message)
                            .at(pointer)
                            .case(c.section.clone(), c.id.clone()),
                    );
                }
            }
            Expectation::Fail if problems.is_empty() => {
                let marked = c.case.case.get("producer_schema_valid").is_some();
                out.push(
                    findings::fixture_schema_unexpected_pass(path, marked).at(c.pointer.clone()),
                );
            }
            Expectation::Fail => {}
        }
    }
}
