//! Test-only: the checks the language-habit families (`php`, `javascript`, `python`) share.
//!
//! A family lists, for each section one of its mutants names, whether the real 1.8.0 suite
//! kills it there or a case of `proposal/manifest.json` does (`PROPOSAL_KILLS`); and, apart from
//! those, proposal cases that tell a mutant 1.8.0 already kills from an older catalogue entry
//! that behaves alike on 1.8.0 (`also`).

use super::adequacy_core::kills;
use std::collections::BTreeSet;

use super::{Mutant, MutantInfo, catalogue};
use crate::evaluate;
use crate::outcome::{CaseOutcome, Verdict};
use crate::realkit;

/// (mutant, section, case id): the case of that section that kills the mutant.
pub type Kill = (Mutant, &'static str, &'static str);

fn family(name: &str) -> Vec<&'static MutantInfo> {
    catalogue()
        .into_iter()
        .filter(|m| m.family == name)
        .collect()
}

/// Every mutant of `name` is killed by the real 1.8.0 in each section it names, except where
/// `proposal_kills` says the proposal does: there 1.8.0 kills it nowhere in that section.
pub fn real_suite_kills_all_but_the_proposal_sections(name: &str, proposal_kills: &[Kill]) {
    let (manifest, files) = realkit::release("1.8.0");
    let base = evaluate(&manifest, &files);
    let mine = family(name);
    assert!(!mine.is_empty(), "no mutant in family {name}");
    for info in mine {
        let killed = kills(&manifest, &files, &base, info.mutant);
        for section in info.sections {
            let by_proposal = proposal_kills
                .iter()
                .any(|(m, s, _)| *m == info.mutant && s == section);
            let in_section = killed.iter().any(|(s, _)| s == section);
            assert_eq!(
                in_section, !by_proposal,
                "{} in {section}: 1.8.0 kills {killed:?}",
                info.id
            );
        }
    }
}

/// With the proposal merged in, the model passes every case of the sections the family names,
/// each listed case kills its mutant, every mutant is killed in each section it names, and each
/// `also` case kills its mutant while the older mutant beside it passes.
pub fn proposal_kills_every_mutant_in_every_section(
    name: &str,
    proposal_kills: &[Kill],
    also: &[(Mutant, Mutant, &'static str, &'static str)],
) {
    let (manifest, files) = realkit::with_proposal();
    let base = evaluate(&manifest, &files);
    let mine = family(name);
    let sections: BTreeSet<&str> = mine
        .iter()
        .flat_map(|m| m.sections.iter().copied())
        .collect();
    let failing: Vec<&CaseOutcome> = base
        .iter()
        .filter(|o| sections.contains(o.section.as_str()) && o.verdict != Verdict::Pass)
        .collect();
    assert!(failing.is_empty(), "{failing:?}");
    for info in &mine {
        let killed = kills(&manifest, &files, &base, info.mutant);
        for section in info.sections {
            assert!(
                killed.iter().any(|(s, _)| s == section),
                "{} survives {section}",
                info.id
            );
        }
        for (_, section, case) in proposal_kills.iter().filter(|k| k.0 == info.mutant) {
            assert!(info.sections.contains(section), "{}", info.id);
            assert!(
                killed.contains(&(section.to_string(), case.to_string())),
                "{} is not killed by {section}/{case}: {killed:?}",
                info.id
            );
        }
    }
    for (mutant, older, section, case) in also {
        let pair = (section.to_string(), case.to_string());
        assert!(kills(&manifest, &files, &base, *mutant).contains(&pair));
        assert!(!kills(&manifest, &files, &base, *older).contains(&pair));
    }
}

/// Changing an expectation of any listed proposal case turns it into a mismatch of that case.
pub fn flipped_expectations_are_mismatches(cases: &[(&'static str, &'static str)]) {
    let (manifest, files) = realkit::with_proposal();
    let mut flips = 0;
    for (section, name) in cases {
        let cases = bqsuite_core::ids::section_cases(section, &manifest[*section]);
        let case = cases
            .iter()
            .find(|c| c.id == *name)
            .unwrap_or_else(|| panic!("proposal case {section}/{name}"));
        let fields: Vec<&String> = case
            .case
            .as_object()
            .expect("object")
            .keys()
            .filter(|k| realkit::is_expectation(k))
            .collect();
        for field in fields {
            let field_ptr = format!("{}/{field}", case.pointer);
            let (leaf, new) = realkit::flip(&manifest, section, field, &field_ptr).expect("leaf");
            let mut changed = manifest.clone();
            *changed.pointer_mut(&leaf).expect("leaf exists") = new;
            let block = &changed[*section];
            let cases = bqsuite_core::ids::section_cases(section, block);
            let flipped = cases.iter().find(|c| c.id == *name).expect("still there");
            let verdict = realkit::run_case(section, flipped, block, &files);
            assert!(
                matches!(&verdict, Verdict::Mismatch(m) if m.pointer.starts_with(&case.pointer)),
                "{leaf}: {verdict:?}"
            );
            flips += 1;
        }
    }
    assert!(flips >= cases.len());
}
