//! Test-only: the checks every family of adequacy round 3 (`go`, `jvm-dotnet`, `schema-engine`,
//! `copied`) runs over its mutants. Against the real 1.8.0, each mutant but the family's
//! survivors is killed in every section it names, and each survivor is killed nowhere; with
//! `proposal/` merged in, the model passes every case of those sections, and each survivor is
//! killed by the proposal case its family names (a case the real 1.8.0 does not have) and in
//! every section it names.

use super::adequacy_core::kills;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Mutant, MutantInfo};
use crate::evaluate;
use crate::outcome::{CaseOutcome, Verdict};
use crate::realkit;

/// A mutant no real 1.8.0 case kills, with the proposal case that does: (mutant, section,
/// case id).
pub type Survivor = (Mutant, &'static str, &'static str);

/// The sections `mutants` name, alone, out of `manifest`.
fn family_sections(manifest: &Value, mutants: &[MutantInfo]) -> Value {
    let mut only = Map::new();
    for m in mutants {
        for s in m.sections {
            only.insert((*s).to_owned(), manifest[*s].clone());
        }
    }
    Value::Object(only)
}

/// The model's outcomes over `manifest`, which must all pass.
fn passing(manifest: &Value, files: &BTreeMap<String, String>) -> Vec<CaseOutcome> {
    let base = evaluate(manifest, files);
    let failing: Vec<&CaseOutcome> = base.iter().filter(|o| o.verdict != Verdict::Pass).collect();
    assert!(failing.is_empty(), "the model fails {failing:?}");
    base
}

/// The real 1.8.0 kills each of `mutants` in every section it names, except the `survivors`,
/// which it kills nowhere.
pub fn check_real_1_8_0(mutants: &[MutantInfo], survivors: &[Survivor]) {
    let (manifest, files) = realkit::release("1.8.0");
    let manifest = family_sections(&manifest, mutants);
    let base = passing(&manifest, &files);
    for info in mutants {
        let killed = kills(&manifest, &files, &base, info.mutant);
        if survivors.iter().any(|(m, _, _)| *m == info.mutant) {
            assert!(killed.is_empty(), "{} is no survivor: {killed:?}", info.id);
            continue;
        }
        for section in info.sections {
            assert!(
                killed.iter().any(|(s, _)| s == section),
                "{} is not killed in {section}: {killed:?}",
                info.id
            );
        }
    }
}

/// With the proposal merged in, the model passes every case of the family's sections, each
/// survivor is killed by its proposal case, and every mutant is killed in every section it
/// names.
pub fn check_with_proposal(mutants: &[MutantInfo], survivors: &[Survivor]) {
    let (real, _) = realkit::release("1.8.0");
    let (manifest, files) = realkit::with_proposal();
    let manifest = family_sections(&manifest, mutants);
    let real_ids: BTreeSet<(String, String)> = evaluate(&family_sections(&real, mutants), &files)
        .into_iter()
        .map(|o| (o.section, o.id))
        .collect();
    let base = passing(&manifest, &files);
    for info in mutants {
        let killed = kills(&manifest, &files, &base, info.mutant);
        for section in info.sections {
            assert!(
                killed.iter().any(|(s, _)| s == section),
                "with the proposal, {} is not killed in {section}: {killed:?}",
                info.id
            );
        }
        for (_, section, case) in survivors.iter().filter(|(m, _, _)| *m == info.mutant) {
            let key = (section.to_string(), case.to_string());
            assert!(
                info.sections.contains(section),
                "{} names {section}",
                info.id
            );
            assert!(!real_ids.contains(&key), "{section}/{case} is a real case");
            assert!(
                killed.contains(&key),
                "{} is not killed by {section}/{case}: {killed:?}",
                info.id
            );
        }
    }
}

/// The ids of `mutants` are unique, belong to `family`, and every survivor is one of them.
pub fn check_entries(mutants: &[MutantInfo], family: &str, survivors: &[Survivor]) {
    for info in mutants {
        assert_eq!(info.family, family, "{}", info.id);
    }
    for (mutant, _, _) in survivors {
        assert!(mutants.iter().any(|m| m.mutant == *mutant), "{mutant:?}");
    }
}
