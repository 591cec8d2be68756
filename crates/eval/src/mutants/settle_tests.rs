//! Tests that the real suite 1.8.0 kills the mutants of the broker families (projection,
//! reconcile, gate, settle) in each section they name, and that the proposal's cases kill the
//! ones it lets through.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::mutants::{Mutant, MutantInfo, catalogue};
use crate::outcome::Verdict;
use crate::realkit;
use crate::{evaluate, evaluate_mutant};

/// The families whose mutants hook the broker binding, gate and settle models.
const FAMILIES: [&str; 4] = ["projection", "reconcile", "gate", "settle"];

/// The sections each mutant of `infos` is killed in, over `manifest` cut down to the
/// sections those mutants name (the rest cannot tell them apart and only cost time).
pub(crate) fn killed_in(
    manifest: &Value,
    files: &std::collections::BTreeMap<String, String>,
    infos: &[&MutantInfo],
) -> Vec<BTreeSet<String>> {
    let named: BTreeSet<&str> = infos
        .iter()
        .flat_map(|m| m.sections.iter().copied())
        .collect();
    let cut: serde_json::Map<String, Value> = manifest
        .as_object()
        .expect("manifest object")
        .iter()
        .filter(|(k, _)| named.contains(k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let cut = Value::Object(cut);
    let base = evaluate(&cut, files);
    infos
        .iter()
        .map(|info| {
            evaluate_mutant(&cut, files, info.mutant)
                .into_iter()
                .zip(&base)
                .filter(|(m, b)| b.verdict == Verdict::Pass && m.verdict != Verdict::Pass)
                .map(|(m, _)| m.section)
                .collect()
        })
        .collect()
}

/// The mutants of these families no real 1.8.0 case kills; proposal/manifest.json has the cases
/// that would.
const REAL_SURVIVORS: [Mutant; 4] = [
    Mutant::GateAsbNarrowsToInt32,
    Mutant::GateAsbBooleanTrueIsOne,
    Mutant::KafkaZeroHeaderIgnored,
    Mutant::ExhaustionInvalidPropertyReadsZero,
];

#[test]
fn the_proposal_cases_pass_the_model_and_kill_every_survivor() {
    let (merged, files) = realkit::with_proposal();
    for section in ["asb", "kafka", "pulsar_exhaustion"] {
        let block = &merged[section];
        for c in bqsuite_core::ids::section_cases(section, block) {
            assert_eq!(
                realkit::run_case(section, &c, block, &files),
                Verdict::Pass,
                "{}",
                c.id
            );
        }
    }
    let infos: Vec<&MutantInfo> = catalogue()
        .into_iter()
        .filter(|m| REAL_SURVIVORS.contains(&m.mutant))
        .collect();
    assert_eq!(infos.len(), REAL_SURVIVORS.len());
    for (info, sections) in infos.iter().zip(killed_in(&merged, &files, &infos)) {
        for s in info.sections {
            assert!(sections.contains(*s), "{} not killed in {s}", info.id);
        }
    }
}

#[test]
fn every_broker_mutant_is_killed_in_each_section_it_names_on_the_real_suite() {
    let (manifest, files) = realkit::release("1.8.0");
    let infos: Vec<&MutantInfo> = catalogue()
        .into_iter()
        .filter(|m| FAMILIES.contains(&m.family))
        .collect();
    let kills = killed_in(&manifest, &files, &infos);
    let mut survivors = Vec::new();
    for (info, sections) in infos.iter().zip(&kills) {
        if REAL_SURVIVORS.contains(&info.mutant) {
            assert!(
                sections.is_empty(),
                "{} is killed after all: {sections:?}",
                info.id
            );
            continue;
        }
        for s in info.sections {
            if !sections.contains(*s) {
                survivors.push(format!("{} in {s}", info.id));
            }
        }
    }
    assert!(survivors.is_empty(), "not killed: {survivors:#?}");
}
