//! `bqsuite mutants`: suite adequacy. Runs the catalogue of wrong-SDK behaviours
//! (`eval::mutants`) over every case of a suite; a mutant no case kills is a finding
//! (`surviving-mutant`): an SDK with that bug would pass the whole suite. Beside the survivors,
//! the report says where the suite is thin, per section (`thin.rs`).

mod thin;

use std::path::Path;

use serde_json::{Value, json};

use crate::commands::eval;
use bqsuite_core::diag::{Diagnostic, Report, plural};
use bqsuite_core::error::Result;
use bqsuite_core::evaluator::Verdict;
use bqsuite_core::evaluator::assess::{Assessment, Kill, MutantRun, assess};
use bqsuite_suite::load::{self, MANIFEST, Suite};

bqsuite_core::finding_codes! {
    /// The findings of `mutants`.
    pub enum Code {
        SurvivingMutant = "surviving-mutant",
    }
}

/// At most this many killing cases are named per mutant in the human summary.
const NAMED_KILLS: usize = 3;

/// Runs every mutant over the suite at `root`. Exit 2 (an `Err`) when the suite or its manifest
/// cannot be read; otherwise a report whose errors are the surviving mutants.
pub fn mutants(root: &Path) -> Result<Report> {
    let suite = load::load(root)?;
    let served = crate::commands::suites::serve(&suite)?;
    let manifest = suite.require_manifest()?;
    let assessment = assess(served.model, manifest, &suite);
    let args = bqsuite_core::shell::quote(&bqsuite_core::shell::arg(root));
    let mut report = report(&root.display().to_string(), &args, &suite, &assessment);
    report.root = Some(root.to_path_buf());
    Ok(report)
}

/// Builds the report of `assessment` (findings, summary lines, and the JSON `data`). `args` are
/// the arguments that name the suite on a command line (`suite`, `suite --proposal proposal`),
/// quoted for a shell: the commands the findings suggest take them.
pub fn report(subject: &str, args: &str, suite: &Suite, assessment: &Assessment) -> Report {
    let mut report = Report::new(subject);
    for outcome in &assessment.not_passing {
        // The finding points at the field the verdict names; the message says what is wrong
        // there.
        let (pointer, what) = match &outcome.verdict {
            Verdict::Mismatch(m) => (&m.pointer, m.to_string()),
            Verdict::Malformed { pointer, message } => (pointer, message.clone()),
            other => (&outcome.pointer, other.to_string()),
        };
        let mut d = case_not_passing(&what, args)
            .at(pointer.clone())
            .case(outcome.section.clone(), outcome.id.clone());
        d.line_col = position(suite, pointer);
        report.push(d);
    }
    for run in assessment.survivors() {
        report.push(survivor(args, suite, run));
    }
    for run in &assessment.runs {
        report.summary.push(summary_line(run));
    }
    for section in thin::thin(assessment) {
        report.summary.push(thin::line(&section));
    }
    let survivors = assessment.survivors().count();
    let total = assessment.runs.len();
    report.summary.push(format!(
        "{total} mutant{} over {} case{}: {} killed, {survivors} surviving",
        plural(total),
        assessment.cases,
        plural(assessment.cases),
        total - survivors,
    ));
    report.data = data(assessment);
    report
}

/// The `data` of `mutants --format json`: the counts, the surviving mutants' ids, each mutant
/// with the cases that kill it, and where each section is thin (`thin.rs`); `added` (what each case of a proposal kills) is `null`
/// without `--proposal`.
pub fn data(assessment: &Assessment) -> Value {
    let survivors: Vec<&str> = assessment.survivors().map(|run| run.info.id).collect();
    let total = assessment.runs.len();
    json!({
        "cases": assessment.cases,
        "mutants": total,
        "killed": total - survivors.len(),
        "surviving": survivors.len(),
        "survivors": survivors,
        "results": assessment.runs.iter().map(run_json).collect::<Vec<_>>(),
        "thin": thin::data(&thin::thin(assessment)),
        "added": Value::Null,
    })
}

fn position(suite: &Suite, pointer: &str) -> Option<(u32, u32)> {
    let pos = bqsuite_core::json::nearest_position(suite.files.get(MANIFEST)?.tree()?, pointer)?;
    Some((pos.line, pos.column))
}

fn survivor(args: &str, suite: &Suite, run: &MutantRun) -> Diagnostic {
    let info = run.info;
    let section = info.sections[0];
    let pointer = format!("/{section}");
    let mut d =
        surviving_mutant(info.id, info.rule, info.habit, info.sections, args).at(pointer.clone());
    d.line_col = position(suite, &pointer);
    d
}

fn kill_name(kill: &Kill) -> String {
    format!("{}/{}", kill.section, kill.id)
}

fn summary_line(run: &MutantRun) -> String {
    let info = run.info;
    if run.survives() {
        return format!("SURVIVES {} [{}]: no case kills it", info.id, info.family);
    }
    let named: Vec<String> = run.kills.iter().take(NAMED_KILLS).map(kill_name).collect();
    let more = run.kills.len().saturating_sub(NAMED_KILLS);
    let rest = if more > 0 {
        format!(" (+{more} more)")
    } else {
        String::new()
    };
    format!(
        "killed   {} [{}] by {}{rest}",
        info.id,
        info.family,
        named.join(", ")
    )
}

/// What the mutant derives, worded for a mutant (the verdict's own text speaks of the reference
/// model).
fn kill_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Mismatch(m) => format!(
            "{}: expected {} but the mutant derives {}",
            m.pointer, m.expected, m.derived
        ),
        other => other.to_string(),
    }
}

fn run_json(run: &MutantRun) -> Value {
    let info = run.info;
    json!({
        "id": info.id,
        "family": info.family,
        "rule": info.rule,
        "habit": info.habit,
        "sections": info.sections,
        "survives": run.survives(),
        "killed_by": run.kills.iter().map(|k| json!({
            "section": k.section,
            "case": k.id,
            "pointer": k.pointer,
            "verdict": kill_text(&k.verdict),
        })).collect::<Vec<_>>(),
    })
}

// Findings

/// The reference model does not pass a case (`what` says how), so the case kills no mutant;
/// `args` name the suite on a command line.
fn case_not_passing(what: &str, args: &str) -> Diagnostic {
    Diagnostic::warning(
        eval::Code::CaseNotPassing,
        MANIFEST,
        format!("the reference model does not pass this case ({what}), so it kills no mutant"),
    )
    .help(format!(
        "fix the case first: `bqsuite validate {args}` explains the disagreement"
    ))
}

/// No case kills the mutant `id` (breaking `rule` by `habit`); a case belongs in one of
/// `sections`; `args` name the suite on a command line.
fn surviving_mutant(
    id: &str,
    rule: &str,
    habit: &str,
    sections: &[&str],
    args: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::SurvivingMutant,
        MANIFEST,
        format!(
            "mutant `{id}` survives: an SDK that breaks the rule \"{rule}\" ({habit}) passes every case"
        ),
    )
    .help(format!(
        "add to section `{}` a case that an SDK with this habit fails (its expectation agreed by the reference model), then check with `bqsuite mutants {args}`",
        sections.join("` or `")
    ))
}
