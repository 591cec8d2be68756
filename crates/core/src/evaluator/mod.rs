//! The contract every reference model implements, so that a command serves any suite without
//! naming its model: [`Evaluator`] re-derives a suite's cases ([`outcome`]) and runs its
//! catalogue of mistaken implementations ([`assess`]).
//!
//! Core sees no model: each model crate implements the trait, and the package's one registry
//! maps a suite's description to its model.

pub mod assess;
pub mod outcome;
pub mod results;

use serde_json::Value;

use crate::index::{CaseIndex, IndexedCase};
pub use outcome::{CaseOutcome, FixtureSource, Mismatch, Verdict};

/// One mistaken implementation of a model's catalogue: what `mutants` reports about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutantInfo {
    /// Stable kebab-case id (`trim-java-string-trim`).
    pub id: &'static str,
    /// The rule family (`decode`, `framing`...).
    pub family: &'static str,
    /// The rule of the contract the mutant breaks.
    pub rule: &'static str,
    /// One line: the real-world habit the mutant stands for.
    pub habit: &'static str,
    /// The manifest sections that pin the rule: each should have a case that kills the mutant.
    pub sections: &'static [&'static str],
}

/// A reference model: re-derives the verdict of a suite's cases, as itself or as one of its
/// mutants. Pure: everything it reads comes through the manifest and a [`FixtureSource`].
pub trait Evaluator: Sync {
    /// The model's name, as a suite's description names it.
    fn model(&self) -> &'static str;

    /// Evaluates the cases of `index` at positions `which`, in that order, reading fixtures
    /// through `fixtures`; with `mutant` (a position in [`Evaluator::mutants`]), as that mutant.
    /// `parsed` is a fixture's value the caller already parsed, which a model may use instead of
    /// parsing it again. Each outcome is the one [`Evaluator::evaluate`] gives the case, as long
    /// as `fixtures` holds every fixture [`fixtures_named`] lists for it.
    fn evaluate_some(
        &self,
        manifest: &Value,
        index: &CaseIndex<'_>,
        which: &[usize],
        fixtures: &dyn FixtureSource,
        parsed: Option<(&str, Value)>,
        mutant: Option<usize>,
    ) -> Vec<CaseOutcome>;

    /// The catalogue of mistaken implementations, in a stable order.
    fn mutants(&self) -> Vec<MutantInfo>;

    /// Evaluates every case of `manifest` (as `mutant`, when given).
    fn evaluate(
        &self,
        manifest: &Value,
        fixtures: &dyn FixtureSource,
        mutant: Option<usize>,
    ) -> Vec<CaseOutcome> {
        let index = CaseIndex::new(manifest);
        let all: Vec<usize> = (0..index.cases.len()).collect();
        self.evaluate_some(manifest, &index, &all, fixtures, None, mutant)
    }
}

/// The fixtures a case can read, as far as `exists` knows them: those named by any string in the
/// case, or by a string member of the object that owns it or of its section (inherited fields
/// such as `envelope_file`). A model reads its fixtures through such names, so this
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

/// Every string in `value`, at any depth.
fn strings_in<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        Value::Object(members) => members.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}
