//! `bqsuite validate`: is the canonical suite sound?
//!
//! Each check is a function over the loaded [`Suite`] that appends [`Diagnostic`]s; none stops at
//! the first problem. A final pass attaches line:column and section/case ids to every finding
//! that names a JSON pointer, so each check only has to say *what* is wrong and *where* in JSON
//! terms.

mod evaluator;
mod files;
mod manifest;
mod names;
mod pointers;
pub mod references;
pub mod schemas;

use std::path::Path;

use serde_json::{Value, json};

use crate::diag::{Diagnostic, Report};
use crate::error::Result;
use crate::suite::Suite;
use crate::suite::index::CaseIndex;
use crate::suite::load::{self, MANIFEST};

/// Reads and validates the suite at `root`. `Err` only when the suite could not be read at all.
pub fn validate(root: &Path) -> Result<Report> {
    let suite = load::load(root)?;
    Ok(validate_suite(&suite, &root.display().to_string()))
}

/// Validates an already loaded suite.
pub fn validate_suite(suite: &Suite, subject: &str) -> Report {
    let mut out: Vec<Diagnostic> = suite.problems.clone();
    files::check(suite, &mut out);
    names::check(suite, &mut out);
    if let Some(manifest) = suite.manifest() {
        let index = CaseIndex::new(manifest);
        manifest::check(suite, manifest, &index, &mut out);
        references::check(suite, manifest, &mut out);
        let compiled = schemas::compile(suite, &mut out);
        // One fixture's value at a time, shared by both checks and dropped before the next is
        // parsed (and before the evaluator decodes its own copies).
        for (path, cases) in index.by_fixture() {
            let fixture = path.and_then(|p| suite.value_of(p));
            pointers::check(&cases, path, fixture.as_deref(), &mut out);
            if let (Some(path), Some(fixture)) = (path, &fixture) {
                schemas::check_fixture(&compiled, path, fixture, &cases, &mut out);
            }
        }
        schemas::check_example(suite, &compiled, &mut out);
        let counts = evaluator::check(suite, manifest, &mut out);
        locate(suite, &index, &mut out);
        let mut report = finish(subject, out);
        report.summary.push(format!(
            "{} cases in {} sections, {} fixtures; reference evaluator: {} pass, {} skip",
            index.len(),
            index.sections(),
            suite.files_under("fixtures").count(),
            counts.pass,
            counts.skip,
        ));
        report.data = data(suite, Some((&index, &counts)));
        return report;
    }
    let compiled = schemas::compile(suite, &mut out);
    schemas::check_example(suite, &compiled, &mut out);
    let mut report = finish(subject, out);
    report.data = data(suite, None);
    report
}

/// The `data` of `validate --format json`: the suite's version (CONFORMANCE_VERSION, else the
/// manifest's `conformance_version`), what it holds, and the reference evaluator's counts (`null`
/// when there is no manifest to evaluate). `proposal` and `since` are filled by those options.
pub fn data(suite: &Suite, evaluated: Option<(&CaseIndex, &evaluator::Counts)>) -> Value {
    let version = suite.version_text().filter(|v| !v.is_empty()).or_else(|| {
        suite
            .manifest()
            .and_then(|m| m.get("conformance_version"))
            .and_then(Value::as_str)
    });
    json!({
        "version": version,
        "cases": evaluated.map_or(0, |(index, _)| index.len()),
        "sections": evaluated.map_or(0, |(index, _)| index.sections()),
        "fixtures": suite.files_under("fixtures").count(),
        "schemas": suite
            .files_under("schema")
            .filter(|f| f.ends_with(".schema.json"))
            .count(),
        "evaluator": evaluated.map(|(_, counts)| counts.json()),
        "proposal": Value::Null,
        "since": Value::Null,
    })
}

fn finish(subject: &str, diagnostics: Vec<Diagnostic>) -> Report {
    let mut report = Report::new(subject);
    report.diagnostics = diagnostics;
    report.sort();
    report
}

/// Attaches a line:column to every finding with a pointer into a parsed JSON file, and the
/// section/case id to every finding that points into a manifest case.
fn locate(suite: &Suite, index: &CaseIndex, out: &mut [Diagnostic]) {
    for d in out.iter_mut() {
        let Some(pointer) = d.pointer.clone() else {
            continue;
        };
        // A pointer to something missing (a required field) is placed at its nearest ancestor.
        if d.line_col.is_none()
            && let Some(tree) = suite.tree(&d.file)
        {
            let mut at = pointer.as_str();
            loop {
                if let Some(node) = tree.at(at) {
                    d.line_col = Some((node.pos.line, node.pos.column));
                    break;
                }
                match at.rfind('/') {
                    Some(i) => at = &at[..i],
                    None => break,
                }
            }
        }
        if d.case.is_none()
            && d.file == MANIFEST
            && let Some(case) = index.case_at(&pointer)
        {
            d.case = Some((case.section.clone(), case.id.clone()));
        }
    }
}
