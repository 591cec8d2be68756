//! Test-only: the checks a family of mutants runs over its catalogue entries, the same for
//! every family of the catalogue: each lists its proposal cases in a [`Family`], and
//! [`family_tests!`] writes its tests.
//!
//! A family says, for each section one of its mutants names, whether the real 1.8.0 kills it
//! there or a case of `proposal/manifest.json` does (`proposal_kills`); a mutant the proposal
//! kills in every section it names is a survivor of 1.8.0, which 1.8.0 kills nowhere. Apart from
//! those, `separates` lists cases that tell one of its mutants from another entry of the
//! catalogue which the suite would otherwise kill with the same cases.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Mutant, MutantInfo, catalogue};
use crate::outcome::{CaseOutcome, Verdict};
use crate::realkit;
use crate::{evaluate, evaluate_mutant};

/// (mutant, section, case id): a case of the proposal, not of 1.8.0, that kills the mutant in
/// a section where 1.8.0 kills it nowhere.
pub type ProposalKill = (Mutant, &'static str, &'static str);

/// (mutant, other, section, case id): with the proposal merged in, the case kills the mutant
/// and the other catalogue entry passes it.
pub type Separation = (Mutant, Mutant, &'static str, &'static str);

/// A family's catalogue entries and the cases its tests name.
pub struct Family {
    /// The `family` of every entry.
    pub name: &'static str,
    /// The family's `MUTANTS`.
    pub mutants: &'static [MutantInfo],
    pub proposal_kills: &'static [ProposalKill],
    pub separates: &'static [Separation],
}

/// Writes a family file's tests: `family_tests!(FAMILY)`, where `FAMILY` is its [`Family`].
macro_rules! family_tests {
    ($family:expr) => {
        #[test]
        fn the_entries_are_the_catalogued_ones_of_this_family() {
            $family.check_entries();
        }

        #[test]
        fn the_real_1_8_0_kills_each_mutant_except_where_the_proposal_does() {
            $family.check_real_1_8_0();
        }

        #[test]
        fn suite_and_proposal_kill_each_mutant_in_every_section_it_names() {
            $family.check_with_proposal();
        }

        #[test]
        fn a_flipped_expectation_of_a_named_case_is_a_mismatch() {
            $family.check_flipped_expectations();
        }
    };
}
pub(crate) use family_tests;

/// `(section, case id)` of every case that passes on the model and fails under `mutant`.
pub(super) fn kills(
    manifest: &Value,
    files: &BTreeMap<String, String>,
    base: &[CaseOutcome],
    mutant: Mutant,
) -> BTreeSet<(String, String)> {
    base.iter()
        .zip(evaluate_mutant(manifest, files, mutant))
        .filter(|(b, m)| b.verdict == Verdict::Pass && m.verdict != Verdict::Pass)
        .map(|(_, m)| (m.section, m.id))
        .collect()
}

/// The model's outcomes over `manifest`, which must all pass.
fn passing(manifest: &Value, files: &BTreeMap<String, String>) -> Vec<CaseOutcome> {
    let base = evaluate(manifest, files);
    let failing: Vec<&CaseOutcome> = base.iter().filter(|o| o.verdict != Verdict::Pass).collect();
    assert!(failing.is_empty(), "the model fails {failing:?}");
    base
}

fn key(section: &str, case: &str) -> (String, String) {
    (section.to_string(), case.to_string())
}

impl Family {
    fn by_proposal(&self, mutant: Mutant, section: &str) -> bool {
        self.proposal_kills
            .iter()
            .any(|(m, s, _)| *m == mutant && *s == section)
    }

    fn info(&self, mutant: Mutant) -> &'static MutantInfo {
        self.mutants
            .iter()
            .find(|m| m.mutant == mutant)
            .unwrap_or_else(|| panic!("{mutant:?} is not a mutant of family {}", self.name))
    }

    /// The family's entries are the catalogue's entries of that family, and every mutant a case
    /// is listed for is one of them, named by it in that case's section.
    pub fn check_entries(&self) {
        assert!(
            !self.mutants.is_empty(),
            "no mutant in family {}",
            self.name
        );
        let catalogued: Vec<&str> = catalogue()
            .into_iter()
            .filter(|m| m.family == self.name)
            .map(|m| m.id)
            .collect();
        let mine: Vec<&str> = self.mutants.iter().map(|m| m.id).collect();
        assert_eq!(mine, catalogued, "family {}", self.name);
        for (mutant, section, case) in self.proposal_kills {
            let info = self.info(*mutant);
            assert!(
                info.sections.contains(section),
                "{} for {section}/{case}",
                info.id
            );
        }
        for (mutant, _, section, case) in self.separates {
            let info = self.info(*mutant);
            assert!(
                info.sections.contains(section),
                "{} for {section}/{case}",
                info.id
            );
        }
    }

    /// The real 1.8.0 kills each mutant in every section it names except those where the
    /// proposal does, where it kills it nowhere; and a mutant the proposal kills in every
    /// section it names is killed by no case of 1.8.0.
    pub fn check_real_1_8_0(&self) {
        let (manifest, files) = realkit::release("1.8.0");
        let base = passing(&manifest, &files);
        for info in self.mutants {
            let killed = kills(&manifest, &files, &base, info.mutant);
            for section in info.sections {
                let in_section = killed.iter().any(|(s, _)| s == section);
                assert_eq!(
                    in_section,
                    !self.by_proposal(info.mutant, section),
                    "{} in {section}: 1.8.0 kills it by {killed:?}",
                    info.id
                );
            }
            if info
                .sections
                .iter()
                .all(|s| self.by_proposal(info.mutant, s))
            {
                assert!(killed.is_empty(), "{} is no survivor: {killed:?}", info.id);
            }
        }
    }

    /// With the proposal merged in, the model passes every case, each mutant is killed in every
    /// section it names, each listed proposal case kills its mutant and is not a case of 1.8.0,
    /// and each separating case kills its mutant while the other entry passes it.
    pub fn check_with_proposal(&self) {
        let (real, _) = realkit::release("1.8.0");
        let real_ids: BTreeSet<(String, String)> = bqsuite_core::index::CaseIndex::new(&real)
            .cases
            .iter()
            .map(|c| key(&c.section, &c.id))
            .collect();
        let (manifest, files) = realkit::with_proposal();
        let base = passing(&manifest, &files);
        for info in self.mutants {
            let killed = kills(&manifest, &files, &base, info.mutant);
            for section in info.sections {
                assert!(
                    killed.iter().any(|(s, _)| s == section),
                    "with the proposal, {} is not killed in {section}: {killed:?}",
                    info.id
                );
            }
            for (_, section, case) in self.proposal_kills.iter().filter(|k| k.0 == info.mutant) {
                assert!(
                    !real_ids.contains(&key(section, case)),
                    "{section}/{case} is a real case"
                );
                assert!(
                    killed.contains(&key(section, case)),
                    "{} is not killed by {section}/{case}: {killed:?}",
                    info.id
                );
            }
        }
        for (mutant, other, section, case) in self.separates {
            let pair = key(section, case);
            let id = self.info(*mutant).id;
            assert!(
                kills(&manifest, &files, &base, *mutant).contains(&pair),
                "{id} is not killed by {section}/{case}"
            );
            assert!(
                !kills(&manifest, &files, &base, *other).contains(&pair),
                "{section}/{case} kills {other:?} as well as {id}"
            );
        }
    }

    /// Changing an expectation of any case the family names turns it into a mismatch of that
    /// case.
    pub fn check_flipped_expectations(&self) {
        let named: BTreeSet<(&str, &str)> = self
            .proposal_kills
            .iter()
            .map(|(_, s, c)| (*s, *c))
            .chain(self.separates.iter().map(|(_, _, s, c)| (*s, *c)))
            .collect();
        let named: Vec<(&str, &str)> = named.into_iter().collect();
        flipped_expectations_are_mismatches(&named);
    }
}

/// Changing an expectation of any listed case (section, case id) of suite + proposal turns it
/// into a mismatch of that case.
pub(super) fn flipped_expectations_are_mismatches(cases: &[(&str, &str)]) {
    let (manifest, files) = realkit::with_proposal();
    let mut flips = 0;
    for (section, name) in cases {
        let cases = bqsuite_core::ids::section_cases(section, &manifest[*section]);
        let case = cases
            .iter()
            .find(|c| c.id == *name)
            .unwrap_or_else(|| panic!("no case {section}/{name}"));
        for (field, field_ptr) in expectations(section, case.case, &case.pointer) {
            let (leaf, new) = realkit::flip(&manifest, section, &field, &field_ptr).expect("leaf");
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

/// `(field, pointer)` of every expectation of the case at `pointer` in `section`: its own
/// expectation fields and those of each of its `steps`.
fn expectations(section: &str, case: &Value, pointer: &str) -> Vec<(String, String)> {
    let own = |object: &Value, at: String| -> Vec<(String, String)> {
        object
            .as_object()
            .expect("object")
            .keys()
            .filter(|k| realkit::is_expectation_in(section, k))
            .map(|k| (k.clone(), format!("{at}/{k}")))
            .collect()
    };
    let mut all = own(case, pointer.to_string());
    let steps = case.get("steps").and_then(Value::as_array);
    for (i, step) in steps.into_iter().flatten().enumerate() {
        all.extend(own(step, format!("{pointer}/steps/{i}")));
    }
    all
}
