//! `bqsuite validate`: is the canonical suite sound?
//!
//! Each check is a function over the loaded [`Suite`] that appends [`Diagnostic`]s; none stops at
//! the first problem. A final pass attaches line:column and section/case ids to every finding
//! that names a JSON pointer, so each check only has to say *what* is wrong and *where* in JSON
//! terms.

mod codes;
mod evaluator;
mod fields;
mod files;
mod findings;
pub mod fixtures;
mod manifest;
mod names;
mod pointers;
pub mod references;
pub mod schemas;

use std::borrow::Cow;
use std::path::Path;

use serde_json::{Value, json};

use crate::commands::suites::{self, Served};
use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::Result;
use bqsuite_core::index::CaseIndex;
use bqsuite_suite::Suite;
use bqsuite_suite::load::{self, MANIFEST};

pub use codes::Code;

/// Reads and validates the suite at `root`. `Err` only when the suite could not be read at all.
///
/// The fixtures are read one at a time as they are checked (see [`fixtures`]), so validating
/// holds the manifest, the schemas and a few fixtures, never the whole suite.
pub fn validate(root: &Path) -> Result<Report> {
    let threads = bqsuite_core::threads::threads()?;
    let suite = load::load_deferred(root)?;
    let served = suites::serve(&suite)?;
    let subject = root.display().to_string();
    let (report, fed) = validate_fed(&suite, &served, &subject, threads, |feeder| {
        read_fixtures(&suite, feeder)
    });
    fed?;
    Ok(report)
}

/// Sends every fixture of `suite` to `feeder`, reading those the loader deferred.
pub fn read_fixtures<'s>(suite: &'s Suite, feeder: &fixtures::Feeder<'_, 's>) -> Result<()> {
    for rel in suite.files_under("fixtures") {
        feeder.send(rel, load::read_file(suite, rel)?);
    }
    Ok(())
}

/// The manifest of a suite that has none.
static NO_MANIFEST: Value = Value::Null;

/// Validates a suite loaded whole (by [`load::load`], not [`load::load_deferred`]). `Err` when
/// its description is unusable.
pub fn validate_suite(suite: &Suite, subject: &str) -> Result<Report> {
    let served = suites::serve(suite)?;
    // The commands that validate a suite in memory read BQSUITE_THREADS as `validate` does; one
    // they cannot use is `validate`'s to refuse, not theirs.
    let threads =
        bqsuite_core::threads::threads().unwrap_or_else(|_| bqsuite_core::threads::cores());
    let (report, ()) = validate_fed(suite, &served, subject, threads, |feeder| {
        for rel in suite.files_under("fixtures") {
            let bytes = suite.file(rel).map_or(&[][..], |f| f.bytes.as_slice());
            feeder.send(rel, Cow::Borrowed(bytes));
        }
    });
    Ok(report)
}

/// Validates `suite`, whose fixtures' bytes `feed` sends (running on this thread while up to
/// `threads` others check them). Returns the report and what `feed` returned. A fixture `feed`
/// does not send is not checked: a caller whose feed fails must not take the report for a
/// complete validation.
pub fn validate_fed<'s, T>(
    suite: &'s Suite,
    served: &Served,
    subject: &str,
    threads: usize,
    feed: impl for<'p> FnOnce(&fixtures::Feeder<'p, 's>) -> T,
) -> (Report, T) {
    let mut out: Vec<Diagnostic> = suite.problems.clone();
    let compiled = schemas::compile(suite, &mut out);
    let manifest = suite.manifest();
    let index = manifest.map(CaseIndex::new).unwrap_or_default();
    let by_file = index.by_fixture();
    let plan = fixtures::Plan::new(
        suite,
        served.model,
        manifest.unwrap_or(&NO_MANIFEST),
        &index,
        &compiled,
        &by_file,
    );
    // The checks of the suite's structure run beside the fixtures' (which have no need of them).
    let (structure, (checked, result, _)) = std::thread::scope(|scope| {
        let structure = scope.spawn(|| {
            let mut out = Vec::new();
            let manifest = manifest.map(|m| (m, &index));
            check_structure(suite, &served.kind, manifest, &compiled, &mut out);
            // The cases naming no fixture, or a path that is not one, are checked without one.
            for (path, cases) in by_file
                .iter()
                .filter(|(p, _)| !p.is_some_and(|p| plan.covers(p)))
            {
                let value = path.and_then(|p| suite.value_of(p));
                pointers::check(cases, *path, value.as_deref(), &mut out);
                if let (Some(path), Some(value)) = (path, &value) {
                    schemas::check_fixture(&compiled, path, value, cases, &mut out);
                }
            }
            out
        });
        let fed = fixtures::run(&plan, threads, feed);
        (
            structure.join().expect("the structure checks panicked"),
            fed,
        )
    });
    out.extend(structure);
    out.extend(checked.findings);
    if manifest.is_none() {
        let mut report = finish(suite, subject, out);
        report.data = data(suite, None);
        return (report, result);
    };
    let outcomes = checked.outcomes.into_iter().map(|(_, o)| o).collect();
    let counts = evaluator::check(suite, &served.kind, outcomes, &mut out);
    let mut misspelled = Vec::new();
    fields::check(&index, &out, &mut misspelled);
    out.append(&mut misspelled);
    locate(suite, &index, &mut out);
    let mut report = finish(suite, subject, out);
    report.summary.push(format!(
        "{} cases in {} sections, {} fixtures; reference evaluator: {} pass, {} skip",
        index.len(),
        index.sections(),
        suite.files_under("fixtures").count(),
        counts.pass,
        counts.skip,
    ));
    report.data = data(suite, Some((&index, &counts)));
    (report, result)
}

/// The checks of everything but the fixtures' contents: the files, their names, the example
/// results file, and the manifest's cases and references (when it parsed).
fn check_structure(
    suite: &Suite,
    kind: &bqsuite_suite::kind::Kind,
    manifest: Option<(&Value, &CaseIndex)>,
    compiled: &schemas::Compiled,
    out: &mut Vec<Diagnostic>,
) {
    files::check(suite, kind, out);
    names::check(suite, kind, out);
    schemas::check_example(suite, compiled, out);
    if let Some((manifest, index)) = manifest {
        manifest::check(suite, kind, manifest, index, out);
        references::check(suite, manifest, out);
    }
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

fn finish(suite: &Suite, subject: &str, diagnostics: Vec<Diagnostic>) -> Report {
    let mut report = Report::new(subject);
    report.diagnostics = diagnostics;
    // The files are the suite's, named inside the directory the user passed.
    report.root = Some(suite.root.clone());
    report.sort();
    report
}

/// Attaches a line:column to every finding with a pointer into a JSON file in memory, and the
/// section/case id to every finding that points into a manifest case.
fn locate(suite: &Suite, index: &CaseIndex, out: &mut [Diagnostic]) {
    for d in out.iter_mut() {
        let Some(pointer) = d.pointer.clone() else {
            continue;
        };
        if d.line_col.is_none()
            && let Some(tree) = suite.tree(&d.file)
        {
            pointers::locate_one(tree, d);
        }
        if d.case.is_none()
            && d.file == MANIFEST
            && let Some(case) = index.case_at(&pointer)
        {
            d.case = Some((case.section.clone(), case.id.clone()));
        }
    }
}
