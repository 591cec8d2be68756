//! `mutants --proposal`: what each case the proposal adds is worth. A case is proposed to kill a
//! mutant the real suite lets through; the report says, for every added case, which mutants it
//! kills, and says plainly (a note, not an error: a case may pin a rule no mutant of the
//! catalogue breaks) when it kills none.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::findings;
use super::place::Merged;
use bqsuite_core::diag::{Diagnostic, Report, plural};
use bqsuite_core::evaluator::assess::Assessment;
use bqsuite_core::index::CaseIndex;
use bqsuite_suite::overlay::Origin;

/// One case the proposal adds, and the mutants it kills.
struct Added<'a> {
    section: &'a str,
    id: &'a str,
    /// The pointer of the case in the proposal's manifest.
    pointer: String,
    line_col: Option<(u32, u32)>,
    /// Whether the reference model passes it (a case it does not pass kills nothing, and is
    /// already a `case-not-passing` warning).
    passes: bool,
    kills: Vec<&'static str>,
}

/// Adds to `report` (of the catalogue run over the merged suite) a summary line per added case
/// with the mutants it kills, a note for each added case that kills none, and `data.added`.
pub fn report(report: &mut Report, merged: &Merged, manifest: &Value, assessment: &Assessment) {
    let index = CaseIndex::new(manifest);
    let not_passing: BTreeSet<&str> = assessment
        .not_passing
        .iter()
        .map(|o| o.pointer.as_str())
        .collect();
    let shown = &merged.sources.proposal_manifest;
    let added: Vec<Added> = index
        .cases
        .iter()
        .filter_map(|case| {
            let Origin::Overlay(pointer) = merged.sources.origin(&case.pointer) else {
                return None;
            };
            let kills = assessment
                .runs
                .iter()
                .filter(|run| run.kills.iter().any(|k| k.pointer == case.pointer))
                .map(|run| run.info.id)
                .collect();
            Some(Added {
                section: &case.section,
                id: &case.id,
                line_col: shown.position(&pointer),
                pointer,
                passes: !not_passing.contains(case.pointer.as_str()),
                kills,
            })
        })
        .collect();

    // The lines go before the last one, the count of mutants killed and surviving.
    let count = report.summary.pop();
    for case in &added {
        report.summary.push(line(case));
    }
    let idle = added.iter().filter(|c| c.kills.is_empty()).count();
    if added.is_empty() {
        report
            .summary
            .push("no cases proposed: the proposal adds no case".into());
    } else {
        report.summary.push(format!(
            "the proposal adds {} case{}: {} kill{} a mutant, {idle} kill{} none",
            added.len(),
            plural(added.len()),
            added.len() - idle,
            if added.len() - idle == 1 { "s" } else { "" },
            if idle == 1 { "s" } else { "" },
        ));
    }
    report.summary.extend(count);

    for case in added.iter().filter(|c| c.kills.is_empty() && c.passes) {
        report.push(kills_none(&shown.shown, case));
    }
    report.data["added"] = added
        .iter()
        .map(|c| {
            json!({
                "section": c.section,
                "case": c.id,
                "file": shown.shown,
                "line": c.line_col.map(|(l, _)| l),
                "column": c.line_col.map(|(_, c)| c),
                "pointer": c.pointer,
                "kills": c.kills,
            })
        })
        .collect();
}

/// `added job_type/array-job-other-urn-falls-back kills decode-job-array-coerced`.
fn line(case: &Added) -> String {
    let what = if case.kills.is_empty() {
        "kills no mutant".to_string()
    } else {
        format!("kills {}", case.kills.join(", "))
    };
    format!("added    {}/{} {what}", case.section, case.id)
}

fn kills_none(file: &str, case: &Added) -> Diagnostic {
    let mut d = findings::added_case_kills_no_mutant(file, case.section, case.id)
        .at(case.pointer.clone())
        .case(case.section, case.id);
    d.line_col = case.line_col;
    d
}
