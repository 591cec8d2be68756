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

use std::collections::HashMap;
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

fn case_pointer(section: &str, id: &str) -> String {
    json::join(&json::join("/sections", section), id)
}

fn with_reason(status: Status, case: &CaseEntry) -> String {
    match case.reason.text() {
        Some(r) => format!("{} ({r})", status.as_str()),
        None => status.as_str().to_string(),
    }
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
    let old_sections: HashMap<&str, &SectionEntry> =
        old.sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let new_names: HashMap<&str, &SectionEntry> =
        new.sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let (mut regressions, mut fixes, mut added, mut removed, mut changed) = (0, 0, 0, 0, 0);
    let empty = Vec::new();
    for section in &new.sections {
        let new_cases = section.cases.as_ref().unwrap_or(&empty);
        let Some(before) = old_sections.get(section.name.as_str()) else {
            added += new_cases.len();
            report.push(
                findings::section_added(&new.file, &section.name, new_cases.len())
                    .at(json::join("/sections", &section.name))
                    .line_col(section.key_pos.line, section.key_pos.column),
            );
            continue;
        };
        let old_cases: HashMap<&str, &CaseEntry> = before
            .cases
            .as_ref()
            .unwrap_or(&empty)
            .iter()
            .map(|c| (c.id.as_str(), c))
            .collect();
        for case in new_cases {
            let pointer = case_pointer(&section.name, &case.id);
            let at = |d: Diagnostic| {
                d.at(&pointer)
                    .line_col(case.key_pos.line, case.key_pos.column)
                    .case(&section.name, &case.id)
            };
            let Some(was) = old_cases.get(case.id.as_str()) else {
                added += 1;
                report.push(at(findings::case_added(
                    &new.file,
                    &case.id,
                    &section.name,
                    &with_reason(case.status, case),
                )));
                continue;
            };
            match (was.status, case.status) {
                (a, b) if a == b => {}
                (Status::Pass, now) => {
                    regressions += 1;
                    report.push(at(findings::regression(
                        &new.file,
                        &case.id,
                        &section.name,
                        &with_reason(now, case),
                    )));
                }
                (before, Status::Pass) => {
                    fixes += 1;
                    report.push(at(findings::fix(
                        &new.file,
                        &case.id,
                        &section.name,
                        before.as_str(),
                    )));
                }
                (before, now) => {
                    changed += 1;
                    report.push(at(findings::status_changed(
                        &new.file,
                        &case.id,
                        &section.name,
                        before.as_str(),
                        &with_reason(now, case),
                    )));
                }
            }
        }
        let now: HashMap<&str, ()> = new_cases.iter().map(|c| (c.id.as_str(), ())).collect();
        for case in before.cases.as_ref().unwrap_or(&empty) {
            if !now.contains_key(case.id.as_str()) {
                removed += 1;
                report.push(
                    findings::case_removed(
                        &old.file,
                        &case.id,
                        &section.name,
                        case.status.as_str(),
                    )
                    .at(case_pointer(&section.name, &case.id))
                    .line_col(case.key_pos.line, case.key_pos.column)
                    .case(&section.name, &case.id),
                );
            }
        }
    }
    for section in &old.sections {
        if new_names.contains_key(section.name.as_str()) {
            continue;
        }
        let n = section.cases.as_ref().map_or(0, Vec::len);
        removed += n;
        report.push(
            findings::section_removed(&old.file, &section.name, n)
                .at(json::join("/sections", &section.name))
                .line_col(section.key_pos.line, section.key_pos.column),
        );
    }
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
