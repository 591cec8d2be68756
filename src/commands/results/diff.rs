//! `results diff OLD NEW`: what changed between two runs of one SDK.
//!
//! | code | severity | what |
//! |---|---|---|
//! | `results-regression` | error | a case that passed in OLD fails, is skipped or is invalid in NEW |
//! | `results-fix` | note | a case that did not pass in OLD passes in NEW |
//! | `results-status-changed` | note | any other status change (fail ↔ skip) |
//! | `results-case-added` / `results-case-removed` | note | a case only in NEW / only in OLD |
//! | `results-section-added` / `results-section-removed` | note | a whole section only in NEW / OLD |
//! | `results-diff-suite-changed` | note | the two files pin different suite versions |
//!
//! The two files must name the same `sdk`; two different SDKs, or a file that is not JSON or has
//! no `sdk` / `sections`, cannot be compared (exit 2). No schema or manifest is consulted: the
//! diff compares what the files say.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::json;

use super::findings;
use super::read::{self, CaseEntry, Loaded, SectionEntry, Status};
use bqsuite_core::diag::{Diagnostic, Report, plural};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::json::{self, Node};

/// `results diff`.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    pub old: PathBuf,
    pub new: PathBuf,
}

struct Run {
    file: String,
    sdk: String,
    version: Option<String>,
    conformance_version: Option<String>,
    sections: Vec<SectionEntry>,
}

fn load(path: &Path) -> Result<Run> {
    let tree: Node = match read::load(path)? {
        Loaded::Parsed(p) => p.tree,
        Loaded::Unreadable(d) => {
            let place = d
                .line_col
                .map(|(l, c)| format!(" at {l}:{c}"))
                .unwrap_or_default();
            return Err(Error::bad_path(path, format!("{}{place}", d.message)));
        }
    };
    let sdk = read::top_string(&tree, "sdk")
        .ok_or_else(|| Error::bad_path(path, "has no `sdk` string; it is not a results file"))?;
    let (_, sections) = read::sections(&tree).ok_or_else(|| {
        Error::bad_path(path, "has no `sections` object; it is not a results file")
    })?;
    Ok(Run {
        file: read::shown(path),
        sdk,
        version: read::top_string(&tree, "version"),
        conformance_version: read::top_string(&tree, "conformance_version"),
        sections,
    })
}

fn label(run: &Run) -> String {
    match &run.version {
        Some(v) => format!("{} {v}", run.sdk),
        None => run.sdk.clone(),
    }
}

/// A finding placed at a section of a results file: its pointer and the position of its key.
fn at_section(d: Diagnostic, section: &SectionEntry) -> Diagnostic {
    d.at(json::join("/sections", &section.name))
        .line_col(section.key_pos.line, section.key_pos.column)
}

/// A finding placed at a case of a results file: its pointer, the position of its key, and the
/// case it names.
fn at_case(d: Diagnostic, section: &SectionEntry, case: &CaseEntry) -> Diagnostic {
    d.at(json::join(
        &json::join("/sections", &section.name),
        &case.id,
    ))
    .line_col(case.key_pos.line, case.key_pos.column)
    .case(&section.name, &case.id)
}

fn with_reason(status: Status, case: &CaseEntry) -> String {
    match case.reason.text() {
        Some(r) => format!("{} ({r})", status.as_str()),
        None => status.as_str().to_string(),
    }
}

/// What the diff counted, by kind of change.
#[derive(Default)]
struct Tally {
    regressions: usize,
    fixes: usize,
    added: usize,
    removed: usize,
    changed: usize,
}

/// Runs `results diff`.
pub fn run(options: &DiffOptions) -> Result<Report> {
    let old = load(&options.old)?;
    let new = load(&options.new)?;
    if old.sdk != new.sdk {
        return Err(Error::Usage(format!(
            "{} is a run of `{}` but {} is a run of `{}`; results diff compares two runs of one \
             SDK (use `results matrix` to compare SDKs)",
            old.file, old.sdk, new.file, new.sdk
        )));
    }
    let mut report = Report::new(format!("{} → {}", old.file, new.file));
    report
        .summary
        .push(format!("{}: {} → {}", old.sdk, label(&old), label(&new)));
    if old.conformance_version != new.conformance_version {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
        report.push(
            findings::diff_suite_changed(
                &new.file,
                &show(&old.conformance_version),
                &show(&new.conformance_version),
            )
            .at("/conformance_version"),
        );
    }
    let tally = compare_runs(&old, &new, &mut report);
    let Tally {
        regressions,
        fixes,
        added,
        removed,
        changed,
    } = tally;
    report.summary.push(format!(
        "{regressions} regression{}, {fixes} fix{}, {added} added, {removed} removed, {changed} \
         other change{}",
        plural(regressions),
        if fixes == 1 { "" } else { "es" },
        plural(changed)
    ));
    let side = |run: &Run| {
        json!({
            "file": run.file,
            "version": run.version,
            "conformance_version": run.conformance_version,
        })
    };
    report.data = json!({
        "sdk": old.sdk,
        "old": side(&old),
        "new": side(&new),
        "suite_changed": old.conformance_version != new.conformance_version,
        "regressions": regressions,
        "fixes": fixes,
        "added": added,
        "removed": removed,
        "changed": changed,
    });
    report.sort();
    Ok(report)
}

/// Every section of NEW against its namesake in OLD, then the sections only OLD has.
fn compare_runs(old: &Run, new: &Run, report: &mut Report) -> Tally {
    let mut tally = Tally::default();
    let old_sections: HashMap<&str, &SectionEntry> =
        old.sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let new_names: HashSet<&str> = new.sections.iter().map(|s| s.name.as_str()).collect();
    for section in &new.sections {
        match old_sections.get(section.name.as_str()) {
            Some(before) => compare_section(old, new, before, section, report, &mut tally),
            None => {
                let n = cases_of(section).len();
                tally.added += n;
                report.push(at_section(
                    findings::section_added(&new.file, &section.name, n),
                    section,
                ));
            }
        }
    }
    for section in &old.sections {
        if new_names.contains(section.name.as_str()) {
            continue;
        }
        let n = cases_of(section).len();
        tally.removed += n;
        report.push(at_section(
            findings::section_removed(&old.file, &section.name, n),
            section,
        ));
    }
    tally
}

/// One section present in both runs: each case of NEW against OLD, then the cases only OLD has.
fn compare_section(
    old: &Run,
    new: &Run,
    before: &SectionEntry,
    section: &SectionEntry,
    report: &mut Report,
    tally: &mut Tally,
) {
    let old_cases: HashMap<&str, &CaseEntry> = cases_of(before)
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    for case in cases_of(section) {
        let (file, id, name) = (&new.file, &case.id, &section.name);
        let finding = match old_cases.get(case.id.as_str()).map(|was| was.status) {
            None => {
                tally.added += 1;
                findings::case_added(file, id, name, &with_reason(case.status, case))
            }
            Some(was) if was == case.status => continue,
            Some(Status::Pass) => {
                tally.regressions += 1;
                findings::regression(file, id, name, &with_reason(case.status, case))
            }
            Some(was) if case.status == Status::Pass => {
                tally.fixes += 1;
                findings::fix(file, id, name, was.as_str())
            }
            Some(was) => {
                tally.changed += 1;
                let now = with_reason(case.status, case);
                findings::status_changed(file, id, name, was.as_str(), &now)
            }
        };
        report.push(at_case(finding, section, case));
    }
    let now: HashSet<&str> = cases_of(section).iter().map(|c| c.id.as_str()).collect();
    for case in cases_of(before) {
        if !now.contains(case.id.as_str()) {
            tally.removed += 1;
            let finding =
                findings::case_removed(&old.file, &case.id, &section.name, case.status.as_str());
            report.push(at_case(finding, section, case));
        }
    }
}

/// A section's cases; none when the file gives the section no case list.
fn cases_of(section: &SectionEntry) -> &[CaseEntry] {
    section.cases.as_deref().unwrap_or(&[])
}
