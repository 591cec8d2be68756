//! The embedded reference evaluator: a pure model of the wire contract (no I/O, no printing)
//! that runs every manifest case the way an SDK's runner would and re-derives its verdict.
//!
//! - [`model`]: the envelope (decode, encode, make, dead-letter move);
//! - [`bindings`]: broker bindings, the version gate, idempotency, payload schemas, traceparent;
//! - [`sections`]: one runner per manifest section, mapping case fields onto the model;
//! - [`schema`]: compiling a JSON Schema (every validator of the program is built there);
//! - [`mutants`]: the catalogue of wrong-SDK behaviours the model can be switched to, one at a
//!   time, to check that the suite catches them (suite adequacy);
//! - [`switch`]: which of them is switched on, and the variations of the rules they switch to.

pub mod bindings;
pub mod case;
pub mod memo;
pub mod model;
pub mod mutants;
pub mod outcome;
#[cfg(test)]
pub(crate) mod realkit;
pub mod schema;
pub mod sections;
pub mod switch;

use serde_json::Value;

pub use bqsuite_core::evaluator::fixtures_named;
use bqsuite_core::evaluator::{Evaluator, MutantInfo};
use bqsuite_core::index::CaseIndex;
use outcome::{CaseOutcome, FixtureSource, Verdict};

/// The BabelQueue wire contract's model, as the [`Evaluator`] the commands run.
pub struct BabelQueue;

/// The name a suite's description gives this model.
pub const MODEL: &str = "babelqueue";

impl Evaluator for BabelQueue {
    fn model(&self) -> &'static str {
        MODEL
    }

    fn evaluate_some(
        &self,
        manifest: &Value,
        index: &CaseIndex<'_>,
        which: &[usize],
        fixtures: &dyn FixtureSource,
        parsed: Option<(&str, Value)>,
        mutant: Option<usize>,
    ) -> Vec<CaseOutcome> {
        let run = || evaluate_some(manifest, index, which, fixtures, parsed);
        match mutant.and_then(|at| mutants::catalogue().get(at).copied()) {
            Some(info) => switch::with_mutant(info.mutant, run),
            None => run(),
        }
    }

    fn mutants(&self) -> Vec<MutantInfo> {
        mutants::catalogue().into_iter().map(|m| m.view()).collect()
    }
}

/// Evaluates every case of every section of `manifest` with `mutant` switched on (see
/// [`mutants`]): the verdicts a suite gives an SDK that has that one wrong behaviour.
pub fn evaluate_mutant(
    manifest: &Value,
    fixtures: &dyn FixtureSource,
    mutant: switch::Mutant,
) -> Vec<CaseOutcome> {
    switch::with_mutant(mutant, || evaluate(manifest, fixtures))
}

/// Evaluates every case of every section of `manifest`, reading fixtures through `fixtures`.
pub fn evaluate(manifest: &Value, fixtures: &dyn FixtureSource) -> Vec<CaseOutcome> {
    let index = CaseIndex::new(manifest);
    let all: Vec<usize> = (0..index.cases.len()).collect();
    evaluate_some(manifest, &index, &all, fixtures, None)
}

/// Evaluates the cases of `index` at positions `which` (in that order, in one memo scope),
/// reading fixtures through `fixtures`: each outcome is the one [`evaluate`] gives that case, as
/// long as `fixtures` holds every fixture [`fixtures_named`] lists for it. `parsed` is a
/// fixture's value the caller already parsed (with [`bqsuite_core::json::parse_value`]), used instead of
/// parsing it again.
pub fn evaluate_some(
    manifest: &Value,
    index: &CaseIndex<'_>,
    which: &[usize],
    fixtures: &dyn FixtureSource,
    parsed: Option<(&str, Value)>,
) -> Vec<CaseOutcome> {
    memo::scope(|| {
        if let Some((fixture, value)) = parsed {
            memo::offer(fixture, model::expect::PARSED, value);
        }
        let releases = releases(manifest, index, which, fixtures);
        which
            .iter()
            .zip(releases)
            .map(|(&i, done)| {
                let c = &index.cases[i];
                let block = &manifest[c.section.as_str()];
                let verdict = match sections::runner(&c.section) {
                    Some(run) => run(&c.case, block, fixtures),
                    None => Verdict::NoRule,
                };
                for fixture in done {
                    memo::release(fixture);
                }
                CaseOutcome {
                    section: c.section.clone(),
                    id: c.id.clone(),
                    pointer: c.pointer.clone(),
                    verdict,
                }
            })
            .collect()
    })
}

/// For each case of `which`, the fixtures no later case of `which` can read, whose memoised work
/// can go once it ran (so a suite of many large fixtures holds the work of one at a time, of more
/// only where their cases interleave).
fn releases<'m>(
    manifest: &'m Value,
    index: &CaseIndex<'m>,
    which: &[usize],
    fixtures: &dyn FixtureSource,
) -> Vec<Vec<&'m str>> {
    let mut last = std::collections::HashMap::new();
    for (at, &i) in which.iter().enumerate() {
        for s in fixtures_named(manifest, &index.cases[i], |s| fixtures.text(s).is_some()) {
            last.insert(s, at);
        }
    }
    let mut done = vec![Vec::new(); which.len()];
    for (fixture, at) in last {
        done[at].push(fixture);
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn each_fixture_is_released_after_the_last_case_that_can_read_it() {
        let manifest = json!({
            "roundtrip": {"cases": [
                {"name": "a1", "file": "fixtures/a.json"},
                {"name": "b", "file": "fixtures/b.json"},
                {"name": "a2", "file": "fixtures/a.json", "note": "not a fixture"}
            ]},
            "redis": {"envelope_file": "fixtures/e.json", "cases": [
                {"name": "r1", "nested": {"deep": ["fixtures/c.json"]}},
                {"name": "r2"}
            ]}
        });
        let fixtures: BTreeMap<String, String> = ["a", "b", "c", "e"]
            .iter()
            .map(|n| (format!("fixtures/{n}.json"), "{}".to_string()))
            .collect();
        let index = CaseIndex::new(&manifest);
        let all: Vec<usize> = (0..index.cases.len()).collect();
        let mut done = releases(&manifest, &index, &all, &fixtures);
        done.iter_mut().for_each(|d| d.sort_unstable());
        assert_eq!(
            done,
            [
                vec![],
                vec!["fixtures/b.json"],
                vec!["fixtures/a.json"],
                vec!["fixtures/c.json"],
                // A section-level field is readable by every case of the section.
                vec!["fixtures/e.json"],
            ]
        );
    }
}
