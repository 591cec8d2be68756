//! Implementation mutants: a catalogue of plausible wrong SDK behaviours, each a small, named
//! variation of one rule of the reference model, standing for a habit real SDKs have (a Java
//! `String.trim()`, a JavaScript `String(value)`, a PHP `json_encode([])`...).
//!
//! The suite is adequate when every mutant fails at least one case: a mutant that passes every
//! case is a wrong SDK the suite would call conformant. `bqsuite mutants` (crate::mutants) runs
//! the catalogue; this module only defines it.
//!
//! How a mutant changes the model: the rule points of `eval::model` and `eval::bindings` ask
//! [`on`] whether their variation is switched on, and call the variation kept in the family's
//! file of [`crate::switch`] when it is. Nothing is switched on unless [`with_mutant`] is
//! running, so the reference model itself behaves exactly as before. The switch is a per-thread
//! value that `with_mutant` sets for one closure and restores afterwards (also on a panic), so
//! model signatures stay as they are and parallel tests cannot see each other's mutant. It holds
//! no I/O and keeps the evaluator a pure function of its inputs and the active mutant.
//!
//! Families (one file each: the catalogue entries, and the tests that the suite kills them):
//! [`decode`], [`trim`], [`encode`], [`projection`], [`reconcile`], [`gate`], [`settle`],
//! [`idempotency`], [`payload`], [`delay`], [`backoff`], [`retry`], [`traceparent`], [`redis`],
//! [`poison`]; and the habits of the SDKs' languages and authors: [`php`], [`javascript`],
//! [`python`], [`go`], [`jvm_dotnet`], [`schema_engine`], [`copied`].

pub mod backoff;
pub mod copied;
pub mod decode;
pub mod delay;
pub mod encode;
pub mod gate;
pub mod go;
pub mod idempotency;
pub mod info;
pub mod javascript;
pub mod jvm_dotnet;
#[cfg(test)]
mod kit;
pub mod payload;
pub mod php;
pub mod poison;
pub mod projection;
pub mod python;
pub mod reconcile;
pub mod redis;
pub mod retry;
pub mod schema_engine;
pub mod settle;
pub mod traceparent;
pub mod trim;

pub use crate::switch::{Mutant, active, on, with_mutant};
pub use info::MutantInfo;

/// The catalogue run over a suite (the shared runner of every model, run with this one).
pub mod assess {
    use bqsuite_core::evaluator::FixtureSource;
    pub use bqsuite_core::evaluator::assess::{Assessment, Kill, MutantRun};
    use serde_json::Value;

    /// Runs every mutant of the catalogue over every case of `manifest`.
    pub fn assess(manifest: &Value, fixtures: &dyn FixtureSource) -> Assessment {
        bqsuite_core::evaluator::assess::assess(&crate::BabelQueue, manifest, fixtures)
    }
}

/// The whole catalogue, family by family, in a stable order.
pub fn catalogue() -> Vec<&'static MutantInfo> {
    [
        decode::MUTANTS,
        trim::MUTANTS,
        encode::MUTANTS,
        projection::MUTANTS,
        reconcile::MUTANTS,
        gate::MUTANTS,
        settle::MUTANTS,
        idempotency::MUTANTS,
        payload::MUTANTS,
        delay::MUTANTS,
        backoff::MUTANTS,
        retry::MUTANTS,
        traceparent::MUTANTS,
        redis::MUTANTS,
        poison::MUTANTS,
        php::MUTANTS,
        javascript::MUTANTS,
        python::MUTANTS,
        go::MUTANTS,
        jvm_dotnet::MUTANTS,
        schema_engine::MUTANTS,
        copied::MUTANTS,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The catalogue entry with id `id`.
pub fn find(id: &str) -> Option<&'static MutantInfo> {
    catalogue().into_iter().find(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Pairs of mutants that suite + proposal kill with exactly the same cases, each because the
    /// contract does not yet say what the one case that would tell them apart expects: the
    /// heading of that open decision in `docs/suites/babelqueue-proposal.md` beside each pair.
    const ALIKE_UNTIL_DECIDED: &[(&str, &str, &str)] = &[
        (
            "traceparent-fallback-dashes-kept",
            "traceparent-no-fallback",
            "Open decision: the traceparent fallback from a trace_id that is not a hyphenated UUID",
        ),
        (
            "retry-backoff-equal-jitter",
            "retry-backoff-jitter-ignored",
            "Open decision: what a full-jitter case asserts about the draws",
        ),
    ];

    #[test]
    fn ids_are_unique_kebab_case_and_every_variant_is_catalogued() {
        let all = catalogue();
        let ids: BTreeSet<&str> = all.iter().map(|m| m.id).collect();
        assert_eq!(ids.len(), all.len(), "duplicate id");
        let variants: BTreeSet<Mutant> = all.iter().map(|m| m.mutant).collect();
        assert_eq!(variants.len(), all.len(), "a variant catalogued twice");
        assert!(all.len() >= 30);
        for m in &all {
            assert!(
                m.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                m.id
            );
            assert!(!m.rule.is_empty() && !m.habit.is_empty() && !m.sections.is_empty());
            assert!(!m.habit.contains('\n') && !m.rule.contains('\n'));
            for s in m.sections {
                assert!(crate::sections::runner(s).is_some(), "{} names {s}", m.id);
            }
        }
    }

    /// Every pair of mutants that suite + proposal kill with exactly the same cases, as
    /// `(id, id, the cases)`.
    fn alike_pairs() -> Vec<(&'static str, &'static str, String)> {
        let (manifest, files) = crate::realkit::with_proposal();
        let assessment = assess::assess(&manifest, &files);
        let mut by_kills: BTreeMap<BTreeSet<String>, Vec<&'static str>> = BTreeMap::new();
        for run in &assessment.runs {
            let kills = run
                .kills
                .iter()
                .map(|k| format!("{}/{}", k.section, k.id))
                .collect();
            by_kills.entry(kills).or_default().push(run.info.id);
        }
        let mut pairs = Vec::new();
        for (kills, ids) in &by_kills {
            let cases = kills.iter().cloned().collect::<Vec<_>>().join(", ");
            for (i, a) in ids.iter().enumerate() {
                for b in &ids[i + 1..] {
                    pairs.push((*a, *b, cases.clone()));
                }
            }
        }
        pairs
    }

    #[test]
    fn no_two_mutants_share_a_kill_set_on_suite_and_proposal() {
        let listed = |a: &str, b: &str| {
            ALIKE_UNTIL_DECIDED
                .iter()
                .any(|(x, y, _)| (*x, *y) == (a, b) || (*x, *y) == (b, a))
        };
        let pairs = alike_pairs();
        for (a, b, cases) in &pairs {
            assert!(
                listed(a, b),
                "{a} and {b} are killed by exactly the same cases ({cases}): add a proposal case \
                 that only one of them fails, or write the open decision that keeps them alike"
            );
        }
        let decisions = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/suites/babelqueue-proposal.md"
        ))
        .expect("the proposal's open decisions");
        for (a, b, heading) in ALIKE_UNTIL_DECIDED {
            assert!(
                pairs
                    .iter()
                    .any(|(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a)),
                "{a} and {b} no longer share a kill set: drop them from ALIKE_UNTIL_DECIDED"
            );
            assert!(
                decisions.lines().any(|l| l == format!("## {heading}")),
                "{a} / {b}: no heading `## {heading}` in docs/suites/babelqueue-proposal.md"
            );
        }
    }
}
