//! `bqsuite eval`: runs the reference evaluator over a suite directory and builds the reference
//! model's own results file.

use std::path::Path;

use serde_json::{Value, json};

use crate::commands::validate;
use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::{Error, Result, shown_path};
use bqsuite_core::evaluator::results;
use bqsuite_core::evaluator::{CaseOutcome, Verdict};
use bqsuite_core::timefmt;
use bqsuite_suite::load;

bqsuite_core::finding_codes! {
    /// The findings of `eval` of its own (the evaluator's others are `validate`'s).
    pub enum Code {
        CaseNotPassing = "case-not-passing",
        VersionFromConformanceVersion = "version-from-conformance-version",
    }
}

/// The name the reference model reports as its SDK.
pub const REFERENCE_SDK: &str = "bqsuite-reference";

/// The reference model's results for one suite.
pub struct Evaluation {
    pub document: Value,
    pub outcomes: Vec<CaseOutcome>,
    /// Things worth telling the user that do not make the run fail.
    pub warnings: Vec<String>,
}

impl Evaluation {
    /// Cases that did not pass or skip.
    pub fn failures(&self) -> impl Iterator<Item = &CaseOutcome> {
        self.outcomes
            .iter()
            .filter(|o| !matches!(o.verdict, Verdict::Pass | Verdict::Skip { .. }))
    }
}

/// Evaluates the suite at `root`. Fails (exit 2) when the suite or its manifest cannot be read.
pub fn evaluate_dir(root: &Path) -> Result<Evaluation> {
    let suite = load::load(root)?;
    let served = crate::commands::suites::serve(&suite)?;
    let manifest = suite.require_manifest()?;
    let outcomes = served.model.evaluate(manifest, &suite, None);
    // The results must say which suite they are for: the manifest's conformance_version, else
    // the suite's CONFORMANCE_VERSION (suites before 1.5.0 have no conformance_version); never a
    // made-up version.
    let mut warnings = Vec::new();
    let version = match manifest.get("conformance_version").and_then(Value::as_str) {
        Some(v) => v,
        None => match suite.version_text().filter(|v| !v.is_empty()) {
            Some(v) => {
                warnings.push(format!(
                    "{} has no conformance_version; the results name the suite's {} instead ({v})",
                    root.join(load::MANIFEST).display(),
                    load::VERSION_FILE
                ));
                v
            }
            None => {
                return Err(Error::bad_path(
                    root,
                    "the suite's version is unknown: manifest.json has no conformance_version and \
                     there is no CONFORMANCE_VERSION, so the results could not say which suite \
                     they are for; add \"conformance_version\" to manifest.json",
                ));
            }
        },
    };
    let producer = results::Producer {
        sdk: REFERENCE_SDK,
        version: env!("CARGO_PKG_VERSION"),
        generated_at: timefmt::rfc3339_utc(timefmt::now_epoch()),
    };
    let bindings: Vec<&str> = served.kind.bindings().collect();
    let document = results::results_document(version, &producer, &outcomes, &bindings);
    Ok(Evaluation {
        document,
        outcomes,
        warnings,
    })
}

/// The report of `bqsuite eval` on `suite`: a warning per version fallback, every case that does
/// not pass as a finding, the counts, and in `data` the counts with the results document (unless
/// it was written to `file`).
pub fn report(suite: &Path, file: Option<&Path>, evaluation: &Evaluation) -> Report {
    let mut report = Report::new(suite.display().to_string());
    report.root = Some(suite.to_path_buf());
    for warning in &evaluation.warnings {
        report.push(version_from_conformance_version(warning));
    }
    let failures: Vec<&CaseOutcome> = evaluation.failures().collect();
    for f in &failures {
        report.push(verdict_finding(f));
    }
    report.summary.push(format!(
        "{} cases, {} not passing",
        evaluation.outcomes.len(),
        failures.len()
    ));
    if let Some(path) = file {
        report.summary.push(format!("wrote {}", shown_path(path)));
    }
    let count = |pass: bool| {
        evaluation
            .outcomes
            .iter()
            .filter(|o| match o.verdict {
                Verdict::Pass => pass,
                Verdict::Skip { .. } => !pass,
                _ => false,
            })
            .count()
    };
    report.data = json!({
        "version": evaluation.document.get("conformance_version"),
        "cases": evaluation.outcomes.len(),
        "pass": count(true),
        "skip": count(false),
        "not_passing": failures.len(),
        "out": file.map(|p| p.display().to_string()),
        "results": if file.is_none() { evaluation.document.clone() } else { Value::Null },
    });
    report
}

/// A case the reference model does not pass, as a finding in words.
fn verdict_finding(outcome: &CaseOutcome) -> Diagnostic {
    let (section, id) = (&outcome.section, &outcome.id);
    let d = match &outcome.verdict {
        Verdict::Mismatch(m) => case_mismatch(section, id, m).at(m.pointer.clone()),
        Verdict::Malformed { pointer, message } => {
            case_malformed(section, id, message).at(pointer.clone())
        }
        Verdict::NoRule => case_without_rule(section, id).at(outcome.pointer.clone()),
        other => case_not_passing(section, id, other).at(outcome.pointer.clone()),
    };
    d.case(outcome.section.clone(), outcome.id.clone())
}

// Findings: one constructor per finding of `eval`, owning its words (the verdict findings carry
// `validate`'s codes where `validate` reports the same fault).

/// `warning`: what the evaluation noticed (its words).
fn version_from_conformance_version(warning: &str) -> Diagnostic {
    Diagnostic::warning(Code::VersionFromConformanceVersion, load::MANIFEST, warning)
}

fn case_mismatch(section: &str, id: &str, mismatch: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        validate::Code::ExpectationMismatch,
        load::MANIFEST,
        format!("case {section}/{id} did not pass: it {mismatch}"),
    )
    .help(
        "correct the expectation (or, if the model is wrong, the reference evaluator) so that \
         both agree with the spec",
    )
}

/// `message`: what the evaluator found malformed in the case.
fn case_malformed(section: &str, id: &str, message: &str) -> Diagnostic {
    Diagnostic::error(
        validate::Code::CaseShape,
        load::MANIFEST,
        format!("case {section}/{id} could not be evaluated: {message}"),
    )
    .help("give the case the fields its section's runner reads")
}

fn case_without_rule(section: &str, id: &str) -> Diagnostic {
    Diagnostic::error(
        validate::Code::NoReferenceRule,
        load::MANIFEST,
        format!("case {section}/{id}: the reference evaluator has no rule for its section"),
    )
    .help("use a bqsuite that knows the section, or add the rule to the reference evaluator")
}

/// `verdict`: the case's verdict, in its words.
fn case_not_passing(section: &str, id: &str, verdict: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        Code::CaseNotPassing,
        load::MANIFEST,
        format!("case {section}/{id} did not pass: {verdict}"),
    )
}
