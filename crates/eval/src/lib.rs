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
pub mod results;
pub mod schema;
pub mod sections;
pub mod switch;

use serde_json::Value;

use bqsuite_core::index::{CaseIndex, IndexedCase};
use outcome::{CaseOutcome, FixtureSource, Verdict};

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

/// The fixtures a case can read, as far as `exists` knows them: those named by any string in the
/// case, or by a string member of the object that owns it or of its section (inherited fields
/// such as `envelope_file`). Every section runner reads its fixtures through such names, so this
/// overestimates the reads and never misses one: evaluating a case needs these fixtures and no
/// other.
pub fn fixtures_named<'m>(
    manifest: &'m Value,
    c: &IndexedCase<'m>,
    exists: impl Fn(&str) -> bool,
) -> Vec<&'m str> {
    let mut named = Vec::new();
    strings_in(c.case.case, &mut named);
    for owner in [c.case.parent, &manifest[c.section.as_str()]] {
        if let Some(members) = owner.as_object() {
            named.extend(members.values().filter_map(Value::as_str));
        }
    }
    named.retain(|s| exists(s));
    named.sort_unstable();
    named.dedup();
    named
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
