//! Runs a model's catalogue of mutants over a suite: which cases kill which mutant.

use serde_json::Value;

use super::outcome::{CaseOutcome, FixtureSource, Verdict};
use super::{Evaluator, MutantInfo};

/// A case that fails an SDK with the mutant's behaviour.
#[derive(Debug, Clone, PartialEq)]
pub struct Kill {
    pub section: String,
    pub id: String,
    /// Pointer of the case inside manifest.json.
    pub pointer: String,
    /// What the mutant derives instead of the expectation.
    pub verdict: Verdict,
}

/// A case of the suite, named by its section and id.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRef {
    pub section: String,
    pub id: String,
    /// Pointer of the case inside manifest.json.
    pub pointer: String,
}

/// One mutant and the cases that kill it.
#[derive(Debug, Clone, PartialEq)]
pub struct MutantRun {
    pub info: MutantInfo,
    pub kills: Vec<Kill>,
}

impl MutantRun {
    /// True when no case kills the mutant.
    pub fn survives(&self) -> bool {
        self.kills.is_empty()
    }

    /// True when a case of `section` kills the mutant.
    pub fn killed_in(&self, section: &str) -> bool {
        self.kills.iter().any(|k| k.section == section)
    }
}

/// The catalogue run over one suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Cases the reference model itself does not pass: they cannot tell a mutant apart, so
    /// they are left out of the kills (`bqsuite validate` reports them).
    pub not_passing: Vec<CaseOutcome>,
    /// The number of cases run.
    pub cases: usize,
    /// The cases the reference model passes, in the order they were run: the only ones that
    /// can kill a mutant.
    pub passing: Vec<CaseRef>,
    pub runs: Vec<MutantRun>,
}

impl Assessment {
    /// The mutants no case kills.
    pub fn survivors(&self) -> impl Iterator<Item = &MutantRun> {
        self.runs.iter().filter(|r| r.survives())
    }
}

/// Runs every mutant of `model`'s catalogue over every case of `manifest`. A case kills a
/// mutant when the model passes it and the model as that mutant does not.
pub fn assess(model: &dyn Evaluator, manifest: &Value, fixtures: &dyn FixtureSource) -> Assessment {
    let baseline = model.evaluate(manifest, fixtures, None);
    let not_passing: Vec<CaseOutcome> = baseline
        .iter()
        .filter(|o| !matches!(o.verdict, Verdict::Pass | Verdict::Skip { .. }))
        .cloned()
        .collect();
    let passing: Vec<CaseRef> = baseline
        .iter()
        .filter(|o| o.verdict == Verdict::Pass)
        .map(|o| CaseRef {
            section: o.section.clone(),
            id: o.id.clone(),
            pointer: o.pointer.clone(),
        })
        .collect();
    let runs = model
        .mutants()
        .into_iter()
        .enumerate()
        .map(|(at, info)| {
            let outcomes = model.evaluate(manifest, fixtures, Some(at));
            let kills = baseline
                .iter()
                .zip(outcomes)
                .filter(|(base, _)| base.verdict == Verdict::Pass)
                .filter(|(_, mutated)| mutated.verdict != Verdict::Pass)
                .map(|(_, mutated)| Kill {
                    section: mutated.section,
                    id: mutated.id,
                    pointer: mutated.pointer,
                    verdict: mutated.verdict,
                })
                .collect();
            MutantRun { info, kills }
        })
        .collect();
    Assessment {
        not_passing,
        cases: baseline.len(),
        passing,
        runs,
    }
}
