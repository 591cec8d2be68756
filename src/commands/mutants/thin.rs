//! Where a suite is thin, section by section, as the catalogue run shows it: the cases that kill
//! no mutant (no catalogued mistake fails them, so they pin nothing the catalogue knows), and the
//! mutants that only cases of other sections kill (their own sections lean on those). Neither is
//! a finding: a case may pin a rule no mutant breaks, and a kill elsewhere is still a kill, so the
//! exit code stays what the survivors make it. The report gets a line per section with something
//! to say and `data.thin`.

use serde_json::{Map, Value, json};

use bqsuite_core::diag::plural;
use bqsuite_core::evaluator::assess::{Assessment, CaseRef, MutantRun};

/// At most this many cases, and this many mutants, are named per section in the human line.
const NAMED: usize = 3;

/// What one section has to say.
pub struct Thin<'a> {
    pub section: &'a str,
    /// The cases of the section the reference model passes and no mutant fails.
    pub idle: Vec<&'a CaseRef>,
    /// The mutants naming this section that are killed, but by no case of any section they name,
    /// each with the sections whose cases kill it (in the order the cases were run).
    pub elsewhere: Vec<(&'a MutantRun, Vec<&'a str>)>,
}

/// The sections with something to say: first those with cases, in the order their cases were
/// run, then the sections only mutants name, in the catalogue's order.
pub fn thin(assessment: &Assessment) -> Vec<Thin<'_>> {
    let mut out: Vec<Thin> = Vec::new();
    let killing: std::collections::HashSet<&str> = assessment
        .runs
        .iter()
        .flat_map(|run| run.kills.iter().map(|k| k.pointer.as_str()))
        .collect();
    for case in &assessment.passing {
        if !killing.contains(case.pointer.as_str()) {
            entry(&mut out, &case.section).idle.push(case);
        }
    }
    for run in assessment.runs.iter().filter(|run| !run.survives()) {
        let sections = run.info.sections;
        if run
            .kills
            .iter()
            .any(|k| sections.contains(&k.section.as_str()))
        {
            continue;
        }
        let mut killed_in: Vec<&str> = Vec::new();
        for kill in &run.kills {
            if !killed_in.contains(&kill.section.as_str()) {
                killed_in.push(&kill.section);
            }
        }
        for section in sections {
            entry(&mut out, section)
                .elsewhere
                .push((run, killed_in.clone()));
        }
    }
    // Sections with cases come first, in the order the cases were run.
    let order = |section: &str| {
        assessment
            .passing
            .iter()
            .position(|c| c.section == section)
            .unwrap_or(usize::MAX)
    };
    out.sort_by_cached_key(|t| order(t.section));
    out
}

fn entry<'a, 'b>(out: &'b mut Vec<Thin<'a>>, section: &'a str) -> &'b mut Thin<'a> {
    let at = match out.iter().position(|t| t.section == section) {
        Some(at) => at,
        None => {
            out.push(Thin {
                section,
                idle: Vec::new(),
                elsewhere: Vec::new(),
            });
            out.len() - 1
        }
    };
    &mut out[at]
}

/// `thin     kafka: 2 cases kill no mutant: a, b; 1 mutant killed only in other sections:
/// gate-x (in asb)`.
pub fn line(thin: &Thin) -> String {
    let mut parts = Vec::new();
    if !thin.idle.is_empty() {
        let n = thin.idle.len();
        let names = thin.idle.iter().map(|c| c.id.clone());
        parts.push(format!(
            "{n} case{} kill{} no mutant: {}",
            plural(n),
            if n == 1 { "s" } else { "" },
            first_few(names, n)
        ));
    }
    if !thin.elsewhere.is_empty() {
        let n = thin.elsewhere.len();
        let names = thin
            .elsewhere
            .iter()
            .map(|(run, sections)| format!("{} (in {})", run.info.id, sections.join(", ")));
        parts.push(format!(
            "{n} mutant{} killed only in other sections: {}",
            plural(n),
            first_few(names, n)
        ));
    }
    format!("thin     {}: {}", thin.section, parts.join("; "))
}

/// The first [`NAMED`] of `names` (`total` in all), then `(+N more)`.
fn first_few(names: impl Iterator<Item = String>, total: usize) -> String {
    let named: Vec<String> = names.take(NAMED).collect();
    let more = total.saturating_sub(NAMED);
    if more > 0 {
        format!("{} (+{more} more)", named.join(", "))
    } else {
        named.join(", ")
    }
}

/// `data.thin`: per section, every case that kills no mutant and every mutant killed only in
/// other sections (with those sections).
pub fn data(thin: &[Thin]) -> Value {
    let mut map = Map::new();
    for t in thin {
        map.insert(
            t.section.to_string(),
            json!({
                "cases_killing_nothing": t.idle.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                "mutants_killed_elsewhere": t.elsewhere.iter().map(|(run, sections)| json!({
                    "id": run.info.id,
                    "killed_in": sections,
                })).collect::<Vec<_>>(),
            }),
        );
    }
    Value::Object(map)
}
