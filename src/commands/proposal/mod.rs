//! `--proposal DIR` of `validate` and `mutants`: this project's proposal for the suite's next
//! release (cases that kill mutants the real suite lets through), kept as an overlay over
//! `suite/` (see [`bqsuite_suite::overlay`]) so that `suite/` stays the real release byte for byte
//! and no version number a real release uses ever means anything else.
//!
//! With a proposal, `validate` checks the merged suite (stamped `<next minor>-proposal`) and
//! that the proposal is additive: every change from the suite to the merged suite needs at most
//! a minor bump. `mutants` runs the catalogue over the merged suite, and says what each case the
//! proposal adds kills (`added.rs`). Every finding names the file its author wrote, the suite's or
//! the proposal's, as the user passed its directory (`place.rs`).

mod added;
mod codes;
mod findings;
mod place;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use bqsuite_core::diag::{Diagnostic, Report, plural};
use bqsuite_core::error::Result;
use bqsuite_core::index::CaseIndex;
use bqsuite_suite::classify::Code as ChangeCode;
use bqsuite_suite::classify::version::Bump;
use bqsuite_suite::classify::{self, Change};
use bqsuite_suite::load::{self, Suite};
use bqsuite_suite::overlay;

pub use codes::Code;
pub use place::{Merged, Sources};

/// Why a proposal could not be merged: the findings (each in the proposal's files), and the
/// version of the suite it was to be merged over.
pub struct Refused {
    pub problems: Vec<Diagnostic>,
    pub base_version: Option<String>,
}

/// The suite at `suite` with the proposal at `proposal` merged in, or the findings that say why
/// they cannot be merged: what the proposal would replace, and a case id it repeats. Fails (exit
/// 2) when either directory cannot be read.
pub fn merge(suite: &Path, proposal: &Path) -> Result<std::result::Result<Merged, Refused>> {
    let base = load::load_bytes(suite)?;
    let extra = load::load_bytes(proposal)?;
    let bytes = |s: &Suite| -> BTreeMap<String, Vec<u8>> {
        s.files
            .iter()
            .map(|(k, f)| (k.clone(), f.bytes.clone()))
            .collect()
    };
    let (base_files, extra_files) = (bytes(&base), bytes(&extra));
    let mut sources = Sources::new(suite, proposal, &base_files, &extra_files);
    let mut problems: Vec<Diagnostic> = extra
        .problems
        .iter()
        .cloned()
        .map(|mut d| {
            d.file = bqsuite_core::diag::joined(proposal, &d.file);
            d
        })
        .collect();
    let refused = |problems| Refused {
        problems,
        base_version: base.version_text().map(str::to_string),
    };
    match overlay::merge_tracked(&base_files, &extra_files) {
        Err(conflicts) => {
            problems.extend(conflicts.into_iter().map(|c| sources.conflict(c)));
            Ok(Err(refused(problems)))
        }
        Ok(_) if !problems.is_empty() => Ok(Err(refused(problems))),
        Ok(overlaid) => {
            sources.merged(overlaid.provenance);
            let merged = Suite::from_files(suite, overlaid.files);
            let repeated = sources.repeated_ids(&merged);
            if !repeated.is_empty() {
                return Ok(Err(refused(repeated)));
            }
            Ok(Ok(Merged {
                suite: merged,
                sources,
            }))
        }
    }
}

/// The report of a proposal that could not be merged: its findings, and a summary line that
/// says so (nothing was merged, so nothing was counted or evaluated).
fn refused_report(subject: String, refused: Refused) -> Report {
    let mut report = Report::new(subject);
    report.diagnostics = refused.problems;
    report.sort();
    let errors = report.errors();
    report.summary.push(format!(
        "proposal over {}: not merged ({errors} error{}), nothing evaluated; NOT additive",
        refused.base_version.as_deref().unwrap_or("the suite"),
        plural(errors)
    ));
    report
}

/// The arguments that name the suite and the proposal on a command line, quoted for a shell.
fn args(suite: &Path, proposal: &Path) -> String {
    use bqsuite_core::shell::{arg, quote};
    format!(
        "{} --proposal {}",
        quote(&arg(suite)),
        quote(&arg(proposal))
    )
}

/// `validate SUITE --proposal DIR`.
pub fn validate(suite: &Path, proposal: &Path) -> Result<Report> {
    let subject = format!("{} + {}", suite.display(), proposal.display());
    let merged = match merge(suite, proposal)? {
        Ok(merged) => merged,
        Err(refused) => {
            let base_version = refused.base_version.clone();
            let mut report = refused_report(subject, refused);
            let mut data =
                crate::commands::validate::data(&Suite::from_files(suite, BTreeMap::new()), None);
            data["proposal"] = json!({
                "merged": false,
                "base_version": base_version,
                "cases_added": 0,
                "sections_added_to": 0,
                "fixtures_added": 0,
                "additive": false,
            });
            report.data = data;
            return Ok(report);
        }
    };
    let mut report = crate::commands::validate::validate_suite(&merged.suite, &subject)?;
    let base = load::load(suite)?;
    let changes = classify::compare(&base, &merged.suite).unwrap_or_default();
    for change in changes.iter().filter(|c| c.bump > Bump::Minor) {
        report.push(not_additive(change));
    }
    // Each finding names the file its author wrote, as the user passed its directory.
    for d in &mut report.diagnostics {
        merged.sources.place(d);
    }
    report.root = None;
    let added = Additions::of(&changes);
    report
        .summary
        .push(added.line(&base, &merged.suite, &changes));
    report.data["proposal"] = json!({
        "merged": true,
        "base_version": base.version_text(),
        "cases_added": added.cases,
        "sections_added_to": added.sections,
        "fixtures_added": added.fixtures,
        "additive": classify::needed_bump(&changes) < Bump::Major,
    });
    report.sort();
    Ok(report)
}

fn not_additive(change: &Change) -> Diagnostic {
    let mut d = match change.code {
        ChangeCode::CaseLacksMember => findings::lacks_member(change.file.clone(), &change.message),
        _ => findings::not_additive(change.file.clone(), &change.message),
    };
    d.pointer = change.pointer.clone();
    if let (Some(s), Some(c)) = (&change.section, &change.case) {
        d = d.case(s, c);
    }
    d
}

/// What the proposal adds: cases, the sections they go to, fixtures.
pub(crate) struct Additions {
    pub cases: usize,
    pub sections: usize,
    pub fixtures: usize,
}

impl Additions {
    pub(crate) fn of(changes: &[Change]) -> Self {
        let cases = changes
            .iter()
            .filter(|c| c.code == ChangeCode::CaseAdded)
            .count();
        let mut sections: Vec<&str> = changes
            .iter()
            .filter(|c| c.code == ChangeCode::CaseAdded)
            .filter_map(|c| c.section.as_deref())
            .collect();
        sections.sort_unstable();
        sections.dedup();
        let fixtures = changes
            .iter()
            .filter(|c| c.code == ChangeCode::FixtureAdded)
            .count();
        Additions {
            cases,
            sections: sections.len(),
            fixtures,
        }
    }

    /// `proposal over 1.8.0: 23 cases added in 9 sections, 4 fixtures; additive (minor)`.
    fn line(&self, base: &Suite, merged: &Suite, changes: &[Change]) -> String {
        let Additions {
            cases,
            sections,
            fixtures,
        } = *self;
        let total = merged.manifest().map_or(0, |m| CaseIndex::new(m).len());
        let needed = classify::needed_bump(changes);
        if cases == 0 && fixtures == 0 && needed < Bump::Minor {
            return format!(
                "proposal over {}: no cases proposed, {total} cases in all",
                base.version_text().unwrap_or("the suite"),
            );
        }
        format!(
            "proposal over {}: {cases} case{} added in {sections} section{}, {fixtures} fixture{}, {total} cases in all; {}",
            base.version_text().unwrap_or("the suite"),
            plural(cases),
            plural(sections),
            plural(fixtures),
            match needed {
                Bump::Major => "NOT additive",
                _ => "additive (a minor release)",
            }
        )
    }
}

/// `mutants SUITE --proposal DIR`: the catalogue over the merged suite, and what each case the
/// proposal adds kills (`added.rs`).
pub fn mutants(suite: &Path, proposal: &Path) -> Result<Report> {
    let subject = format!("{} + {}", suite.display(), proposal.display());
    match merge(suite, proposal)? {
        Err(refused) => {
            let mut report = refused_report(subject, refused);
            // Nothing was merged, so no mutant ran.
            report.data =
                crate::commands::mutants::data(&bqsuite_core::evaluator::assess::Assessment {
                    not_passing: Vec::new(),
                    cases: 0,
                    passing: Vec::new(),
                    runs: Vec::new(),
                });
            report.data["added"] = json!([]);
            Ok(report)
        }
        Ok(merged) => {
            let manifest = merged.suite.require_manifest()?;
            let served = crate::commands::suites::serve(&merged.suite)?;
            let assessment =
                bqsuite_core::evaluator::assess::assess(served.model, manifest, &merged.suite);
            let args = args(suite, proposal);
            let mut report =
                crate::commands::mutants::report(&subject, &args, &merged.suite, &assessment);
            for d in &mut report.diagnostics {
                merged.sources.place(d);
            }
            added::report(&mut report, &merged, manifest, &assessment);
            Ok(report)
        }
    }
}
