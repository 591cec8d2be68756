//! Test-only: the mutants of the envelope families (decode, trim, encode, traceparent,
//! idempotency, payload) against the real 1.8.0 suite. Every mutant is killed in each section it
//! names, except the survivors listed here, each of which the cases of `proposal/manifest.json` (at the
//! crate root, with their fixtures under `proposal/fixtures/`) kill once appended to 1.8.0.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Mutant, MutantInfo, catalogue};
use crate::outcome::{CaseOutcome, Verdict};
use crate::realkit;
use crate::{evaluate, evaluate_mutant};

/// The families this test covers.
const FAMILIES: [&str; 6] = [
    "decode",
    "trim",
    "encode",
    "traceparent",
    "idempotency",
    "payload",
];

/// Mutants no real 1.8.0 case kills, with the proposal case that does: (mutant, section, case).
const SURVIVORS: [(Mutant, &str, &str); 6] = [
    (
        Mutant::DecodeJobArrayCoerced,
        "job_type",
        "array-job-other-urn-falls-back",
    ),
    (
        Mutant::DecodeUrnNonStringFatal,
        "job_type",
        "string-job-number-urn-decodes",
    ),
    (
        Mutant::DecodeBlankJavaTrim,
        "trim",
        "decode-control-char-job-is-not-blank",
    ),
    (
        Mutant::AcceptsTraceIdBlankUnicode,
        "trim",
        "accepts-unicode-space-trace-id-is-true",
    ),
    (
        Mutant::TrimJavaTrim,
        "trim",
        "make-keeps-control-char-padding",
    ),
    (
        Mutant::TraceparentFallbackCaseKept,
        "traceparent",
        "uppercase-trace-id-falls-back-lowercase",
    ),
];

fn mine() -> Vec<&'static MutantInfo> {
    catalogue()
        .into_iter()
        .filter(|m| FAMILIES.contains(&m.family))
        .collect()
}

/// `(section, case id)` of every case that passes on the model and fails under `mutant` (the
/// other families' test kits count kills with it too).
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

/// The real 1.8.0 with the proposal merged in.
fn with_proposal() -> (Value, BTreeMap<String, String>) {
    realkit::with_proposal()
}

#[test]
fn every_mutant_but_the_survivors_is_killed_by_real_1_8_0_in_each_section_it_names() {
    let (manifest, files) = realkit::release("1.8.0");
    let base = evaluate(&manifest, &files);
    let survivors: Vec<Mutant> = SURVIVORS.iter().map(|(m, _, _)| *m).collect();
    for info in mine() {
        let killed = kills(&manifest, &files, &base, info.mutant);
        if survivors.contains(&info.mutant) {
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

#[test]
fn the_proposal_cases_pass_and_kill_each_survivor() {
    let (manifest, files) = with_proposal();
    let base = evaluate(&manifest, &files);
    for section in ["trim", "job_type", "traceparent"] {
        let failing: Vec<&CaseOutcome> = base
            .iter()
            .filter(|o| o.section == section && o.verdict != Verdict::Pass)
            .collect();
        assert!(failing.is_empty(), "{failing:?}");
    }
    for (mutant, section, case) in SURVIVORS {
        let info = mine()
            .into_iter()
            .find(|m| m.mutant == mutant)
            .expect("mine");
        assert!(info.sections.contains(&section), "{}", info.id);
        let killed = kills(&manifest, &files, &base, mutant);
        assert!(
            killed.contains(&(section.to_string(), case.to_string())),
            "{} is not killed by {section}/{case}: {killed:?}",
            info.id
        );
    }
}

#[test]
fn a_flipped_expectation_of_a_proposal_case_is_a_mismatch() {
    let (manifest, files) = with_proposal();
    let mut flips = 0;
    for (_, section, name) in SURVIVORS {
        let cases = bqsuite_core::ids::section_cases(section, &manifest[section]);
        let case = cases.iter().find(|c| c.id == name).expect("proposal case");
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
            let block = &changed[section];
            let cases = bqsuite_core::ids::section_cases(section, block);
            let flipped = cases.iter().find(|c| c.id == name).expect("still there");
            let verdict = realkit::run_case(section, flipped, block, &files);
            assert!(
                matches!(&verdict, Verdict::Mismatch(m) if m.pointer.starts_with(&case.pointer)),
                "{leaf}: {verdict:?}"
            );
            flips += 1;
        }
    }
    assert!(flips >= SURVIVORS.len());
}
