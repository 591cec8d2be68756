//! The embedded reference evaluator: a pure model of the wire contract (no I/O, no printing)
//! that runs every manifest case the way an SDK's runner would and re-derives its verdict.
//!
//! - [`model`]: the envelope (decode, encode, make, dead-letter move);
//! - [`bindings`]: broker bindings, the version gate, idempotency, payload schemas, traceparent;
//! - [`sections`]: one runner per manifest section, mapping case fields onto the model;
//! - [`mutants`]: the catalogue of wrong-SDK behaviours the model can be switched to, one at a
//!   time, to check that the suite catches them (suite adequacy).

pub mod bindings;
pub mod case;
pub mod memo;
pub mod model;
pub mod mutants;
pub mod outcome;
pub mod results;
pub mod sections;

use serde_json::Value;

use crate::suite::index::CaseIndex;
use outcome::{CaseOutcome, FixtureSource, Verdict};

/// Evaluates every case of every section of `manifest` with `mutant` switched on (see
/// [`mutants`]): the verdicts a suite gives an SDK that has that one wrong behaviour.
pub fn evaluate_mutant(
    manifest: &Value,
    fixtures: &dyn FixtureSource,
    mutant: mutants::Mutant,
) -> Vec<CaseOutcome> {
    mutants::with_mutant(mutant, || evaluate(manifest, fixtures))
}

/// Evaluates every case of every section of `manifest`, reading fixtures through `fixtures`.
pub fn evaluate(manifest: &Value, fixtures: &dyn FixtureSource) -> Vec<CaseOutcome> {
    memo::scope(|| evaluate_cases(manifest, fixtures))
}

fn evaluate_cases(manifest: &Value, fixtures: &dyn FixtureSource) -> Vec<CaseOutcome> {
    let index = CaseIndex::new(manifest);
    index
        .cases
        .iter()
        .map(|c| {
            let block = &manifest[c.section.as_str()];
            let verdict = match sections::runner(&c.section) {
                Some(run) => run(&c.case, block, fixtures),
                None => Verdict::NoRule,
            };
            CaseOutcome {
                section: c.section.clone(),
                id: c.id.clone(),
                pointer: c.pointer.clone(),
                verdict,
            }
        })
        .collect()
}
