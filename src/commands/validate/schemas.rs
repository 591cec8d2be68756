//! The two schemas compile under their own drafts, the example results file conforms, and the
//! fixtures that must (or must not) satisfy the producer envelope schema do (or do not).

use bqsuite_eval::schema::{self as json_schema, Draft, Validator};
use serde_json::Value;

use super::codes::Code;
use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::index::IndexedCase;
use bqsuite_suite::Suite;
use bqsuite_suite::load::{ENVELOPE_SCHEMA, RESULTS_EXAMPLE, RESULTS_SCHEMA};

pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The suite's compiled schemas (`None` where missing or broken; that is reported once).
pub struct Compiled {
    pub envelope: Option<Validator>,
    pub results: Option<Validator>,
}

/// Compiles `schema` under the draft its `$schema` must name; or says why not, with the code
/// of the finding (`schema-draft`, `schema-compile`) and the words that follow "the schema".
pub fn compile_for_draft(schema: &Value, draft_uri: &str) -> Result<Validator, (Code, String)> {
    match schema.get("$schema").and_then(Value::as_str) {
        Some(uri) if uri.trim_end_matches('#') == draft_uri.trim_end_matches('#') => {}
        Some(uri) => {
            return Err((
                Code::SchemaDraft,
                format!("declares `$schema: {uri}` but must be `{draft_uri}`"),
            ));
        }
        None => {
            return Err((
                Code::SchemaDraft,
                format!("has no `$schema`; it must declare `{draft_uri}`"),
            ));
        }
    }
    let draft = if draft_uri == DRAFT_07 {
        Draft::Draft7
    } else {
        Draft::Draft202012
    };
    json_schema::compile(schema, draft, false)
        .map_err(|e| (Code::SchemaCompile, format!("does not compile: {e}")))
}

fn compile_one(
    suite: &Suite,
    rel: &str,
    draft: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Validator> {
    let doc = suite.json(rel)?;
    match compile_for_draft(doc, draft) {
        Ok(v) => Some(v),
        Err((code, message)) => {
            out.push(findings::schema_unusable(code, rel, &message, draft).at(""));
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
pub fn violations(validator: &Validator, instance: &Value) -> Vec<(String, String)> {
    validator
        .iter_errors(instance)
        .map(|e| (e.instance_path().as_str().to_string(), e.to_string()))
        .collect()
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
