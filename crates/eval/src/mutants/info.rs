//! The catalogue's entry type: what one mutant is ([`MutantInfo`]).

use crate::switch::Mutant;

/// What a mutant is: its stable id, the rule it breaks, the habit it stands for, and the
/// sections whose cases must catch it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutantInfo {
    pub mutant: Mutant,
    /// Stable kebab-case id (`trim-java-string-trim`).
    pub id: &'static str,
    /// The rule family (`decode`, `trim`, `gate`...).
    pub family: &'static str,
    /// The rule of the contract the mutant breaks.
    pub rule: &'static str,
    /// One line: the real-world habit the mutant stands for.
    pub habit: &'static str,
    /// The manifest sections that pin the rule: each must have a case that kills the mutant.
    pub sections: &'static [&'static str],
}

impl MutantInfo {
    /// What `mutants` reports about this mutant.
    pub fn view(&self) -> bqsuite_core::evaluator::MutantInfo {
        bqsuite_core::evaluator::MutantInfo {
            id: self.id,
            family: self.family,
            rule: self.rule,
            habit: self.habit,
            sections: self.sections,
        }
    }
}
