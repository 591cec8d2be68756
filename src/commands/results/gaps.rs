//! `results check --known-gaps FILE`: the SDK's list of cases it knows it fails, with the
//! semantics of the real `conformance-known-gaps.json` that SDK gates read
//! (`{"gaps": [{"section", "case", "reason"}]}`):
//!
//! - a `fail` is accepted only when the file lists its section and case (`results-known-gap`,
//!   a note);
//! - a listed case that passes is a stale gap (`known-gap-stale`): the entry must go;
//! - a listed case that is skipped (`known-gap-skipped`) or absent (`known-gap-absent`) fails:
//!   a known gap is run and reported as it behaves, never skipped or left out;
//! - an entry naming a section or case the manifest lacks (`known-gap-unknown`), a core-scope
//!   case of a suite whose contract requires every core case (`known-gap-core`: BabelQueue's
//!   core envelope is never a documented gap; a described suite's cases may all be gaps), a
//!   repeated entry (`known-gap-duplicate`) or a malformed one (`known-gaps-invalid`) fails.

use std::collections::HashMap;
use std::path::Path;

use super::check::{FileCheck, SuiteRules};
use super::codes::Code;
use super::findings;
use super::read::{self, Loaded, Status};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::Result;
use bqsuite_core::json::{self, Kind, Node, Pos};
use bqsuite_suite::kind::CORE_SCOPE;

/// One accepted entry of the gaps file.
#[derive(Debug, Clone)]
pub struct Gap {
    pub section: String,
    pub case: String,
    pub reason: String,
    /// Pointer of the entry inside the gaps file (`/gaps/3`).
    pub pointer: String,
    pub pos: Pos,
}

/// The gaps file, read and checked against the suite.
#[derive(Debug, Clone, Default)]
pub struct KnownGaps {
    /// The path as given.
    pub file: String,
    pub gaps: Vec<Gap>,
    /// What is wrong with the file itself (each one an error).
    pub findings: Vec<Diagnostic>,
}

impl KnownGaps {
    fn find(&self, section: &str, case: &str) -> Option<&Gap> {
        self.gaps
            .iter()
            .find(|g| g.section == section && g.case == case)
    }
}

/// Reads the gaps file at `path` (bounded like a results file) and checks each entry against
/// `rules`. Fails (exit 2) only when the file cannot be read at all.
pub fn load(path: &Path, rules: &SuiteRules) -> Result<KnownGaps> {
    let file = read::shown(path);
    let mut out = KnownGaps {
        file: file.clone(),
        ..KnownGaps::default()
    };
    match read::load(path)? {
        Loaded::Unreadable(mut d) => {
            d.help = Some("the known-gaps file is one JSON object: {\"gaps\": [...]}".into());
            out.findings.push(d);
        }
        Loaded::Parsed(parsed) => entries(&parsed.tree, rules, &mut out),
    }
    Ok(out)
}

fn entries(tree: &Node, rules: &SuiteRules, out: &mut KnownGaps) {
    let file = out.file.clone();
    let invalid =
        |d: Diagnostic, pointer: &str, pos: Pos| d.at(pointer).line_col(pos.line, pos.column);
    let Some(Kind::Array(items)) = tree.member("gaps").map(|m| &m.value.kind) else {
        out.findings
            .push(invalid(findings::gaps_not_a_list(&file), "", tree.pos));
        return;
    };
    let mut seen: HashMap<(String, String), String> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("/gaps/{i}");
        let text = |key: &str| match item.member(key).map(|m| &m.value.kind) {
            Some(Kind::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            _ => None,
        };
        let (Some(section), Some(case), Some(reason)) =
            (text("section"), text("case"), text("reason"))
        else {
            out.findings.push(invalid(
                findings::gap_incomplete(&file, i),
                &pointer,
                item.pos,
            ));
            continue;
        };
        let at = |d: Diagnostic| {
            d.at(&pointer)
                .line_col(item.pos.line, item.pos.column)
                .case(&section, &case)
        };
        if let Some(first) = seen.insert((section.clone(), case.clone()), pointer.clone()) {
            out.findings
                .push(at(findings::gap_duplicate(&file, &section, &case, &first)));
            continue;
        }
        match rules.section(&section) {
            None => out.findings.push(at(findings::gap_section_unknown(
                &file,
                &rules.version,
                &section,
            ))),
            Some(rule) if !rule.has(&case) => out.findings.push(at(findings::gap_case_unknown(
                &file,
                &section,
                &rules.version,
                &case,
            ))),
            Some(rule) if rule.scope == CORE_SCOPE && rules.kind.format.core_never_gap => {
                out.findings.push(at(findings::gap_core(&file, &section)));
            }
            Some(_) => out.gaps.push(Gap {
                section,
                case,
                reason,
                pointer,
                pos: item.pos,
            }),
        }
    }
}

/// Applies `gaps` to one checked results file: a listed `fail` becomes a note, and a listed
/// case that passes, is skipped or is absent becomes an error.
pub fn apply(gaps: &KnownGaps, check: &mut FileCheck) {
    if !check.readable {
        return;
    }
    for finding in &mut check.findings {
        let Some((section, case)) = finding.case.clone() else {
            continue;
        };
        if finding.code != Code::ResultsCaseFailed {
            continue;
        }
        if let Some(gap) = gaps.find(&section, &case) {
            *finding =
                findings::known_gap(finding.clone(), &case, &section, &gaps.file, &gap.reason);
            check.reasons -= 1;
        }
    }
    let file = check.file.clone();
    for gap in &gaps.gaps {
        let entry = check
            .section(&gap.section)
            .and_then(|s| Some((s, s.cases.as_ref()?.iter().find(|c| c.id == gap.case)?)));
        let pointer = json::join(&json::join("/sections", &gap.section), &gap.case);
        let (case, section, listed_in, at) = (&gap.case, &gap.section, &gaps.file, &gap.pointer);
        let problem = match entry {
            None => Some((
                findings::gap_absent(&file, case, section, listed_in, at),
                check.section(&gap.section).map(|s| s.value_pos),
            )),
            Some((_, c)) if c.status == Status::Pass => Some((
                findings::gap_stale(&file, case, section, listed_in, at),
                Some(c.key_pos),
            )),
            Some((_, c)) if c.status == Status::Skip => Some((
                findings::gap_skipped(&file, case, section, listed_in, at),
                Some(c.key_pos),
            )),
            Some(_) => None,
        };
        if let Some((d, pos)) = problem {
            let mut d = d.at(&pointer).case(&gap.section, &gap.case);
            if let Some(pos) = pos {
                d = d.line_col(pos.line, pos.column);
            }
            check.findings.push(d);
            check.reasons += 1;
        }
    }
}
