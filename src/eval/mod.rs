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
#[cfg(test)]
pub(crate) mod realkit;
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
    let releases = releases(manifest, &index, fixtures);
    index
        .cases
        .iter()
        .zip(releases)
        .map(|(c, done)| {
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
}

/// For each case, the fixtures no later case can read, whose memoised work can go once it ran.
///
/// A case can read a fixture named by any string in the case, or by a string member of the
/// object that owns it or of its section (inherited fields such as `envelope_file`). Looking at
/// every such string overestimates the reads, which only keeps work longer; the memo never
/// changes a verdict, so a read missed here would cost time, not correctness.
fn releases<'m>(
    manifest: &'m Value,
    index: &CaseIndex<'m>,
    fixtures: &dyn FixtureSource,
) -> Vec<Vec<&'m str>> {
    let mut last = std::collections::HashMap::new();
    for (i, c) in index.cases.iter().enumerate() {
        let mut named = Vec::new();
        strings_in(c.case.case, &mut named);
        for owner in [c.case.parent, &manifest[c.section.as_str()]] {
            if let Some(members) = owner.as_object() {
                named.extend(members.values().filter_map(Value::as_str));
            }
        }
        for s in named {
            if fixtures.text(s).is_some() {
                last.insert(s, i);
            }
        }
    }
    let mut done = vec![Vec::new(); index.cases.len()];
    for (fixture, i) in last {
        done[i].push(fixture);
    }
    done
}

/// Every string in `value`, at any depth.
fn strings_in<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        Value::Object(members) => members.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
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
        let mut done = releases(&manifest, &index, &fixtures);
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
