//! What a run says: a finding per case that did not pass, the counts per section, the
//! implementation, and the results document `results check` reads.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::shown_path;
use bqsuite_core::evaluator::{Verdict, results};
use bqsuite_core::timefmt;
use bqsuite_suite::load::MANIFEST;

use super::{Graded, Run, findings};

/// How the cases of one section (or of the run) went.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub pass: usize,
    pub fail: usize,
    pub errored: usize,
    pub skip: usize,
}

impl Counts {
    fn add(&mut self, g: &Graded) {
        match &g.outcome.verdict {
            Verdict::Pass => self.pass += 1,
            Verdict::Skip { .. } => self.skip += 1,
            _ if g.errored => self.errored += 1,
            _ => self.fail += 1,
        }
    }

    fn json(&self) -> Value {
        json!({"pass": self.pass, "fail": self.fail, "errored": self.errored, "skip": self.skip})
    }

    fn words(&self) -> String {
        let mut out = format!(
            "{} pass, {} fail, {} skip",
            self.pass,
            self.fail + self.errored,
            self.skip
        );
        if self.errored > 0 {
            out.push_str(&format!(" ({} errored)", self.errored));
        }
        out
    }
}

impl Run {
    /// The counts of the whole run, and of each section in manifest order.
    pub fn counts(&self) -> (Counts, Vec<(String, Counts)>) {
        let mut total = Counts::default();
        let mut sections: Vec<(String, Counts)> = Vec::new();
        for g in &self.graded {
            total.add(g);
            let section = &g.outcome.section;
            match sections.iter_mut().find(|(s, _)| s == section) {
                Some((_, c)) => c.add(g),
                None => {
                    let mut c = Counts::default();
                    c.add(g);
                    sections.push((section.clone(), c));
                }
            }
        }
        (total, sections)
    }

    /// True when the run found a problem: a case failed or errored, or nothing was checked.
    pub fn found(&self) -> bool {
        let (total, _) = self.counts();
        total.fail + total.errored > 0 || total.pass == 0
    }

    /// The results document of the run, as an implementation's results.json.
    pub fn document(&self) -> Value {
        let outcomes: Vec<_> = self
            .graded
            .iter()
            .map(|g| {
                let mut o = g.outcome.clone();
                if let Verdict::Mismatch(m) = &o.verdict {
                    o.verdict = Verdict::Failed {
                        pointer: m.pointer.clone(),
                        message: format!(
                            "expected {} but the adapter answered {}",
                            m.expected, m.derived
                        ),
                    };
                }
                o
            })
            .collect();
        let version = self
            .loaded
            .require_manifest()
            .ok()
            .and_then(|m| m.get("conformance_version"))
            .and_then(Value::as_str)
            .unwrap_or(&self.version)
            .to_string();
        let producer = results::Producer {
            sdk: &self.implementation.name,
            version: &self.implementation.version,
            generated_at: timefmt::rfc3339_utc(timefmt::now_epoch()),
        };
        let bindings: Vec<&str> = self.kind.bindings().collect();
        results::results_document(&version, &producer, &outcomes, &bindings)
    }
}

/// The report of `run`: a finding per case that did not pass, the counts per section and in
/// all, and in `data` the counts, the implementation and where the results went.
pub fn report(run: &Run, written: Option<&Path>) -> Report {
    let mut report = Report::new(run.suite.display().to_string());
    report.root = Some(run.suite.clone());
    if run.restarted {
        report.push(findings::adapter_restarted(&run.command));
    }
    for g in &run.graded {
        if let Some(d) = finding(run, g) {
            report.push(d);
        }
    }
    let (total, sections) = run.counts();
    if total.pass == 0 && total.fail + total.errored == 0 {
        report.push(findings::nothing_checked(run.graded.len()));
    }
    let imp = &run.implementation;
    report.summary.push(format!(
        "{} {} ({}) against {} {}",
        imp.name, imp.version, imp.language, run.kind.title, run.version
    ));
    for (section, counts) in &sections {
        report
            .summary
            .push(format!("{section}: {}", counts.words()));
    }
    report
        .summary
        .push(format!("{} cases: {}", run.graded.len(), total.words()));
    if let Some(path) = written {
        report.summary.push(format!("wrote {}", shown_path(path)));
    }
    let by_section: BTreeMap<&str, Value> = sections
        .iter()
        .map(|(s, c)| (s.as_str(), c.json()))
        .collect();
    let mut data = json!({
        "suite": {"name": run.kind.name, "title": run.kind.title, "version": run.version},
        "implementation": {"name": imp.name, "version": imp.version, "language": imp.language},
        "adapter": run.command,
        "cases": run.graded.len(),
        "sections": by_section,
        "restarted": run.restarted,
        "out": written.map(|p| p.display().to_string()),
    });
    if let (Some(map), Value::Object(counts)) = (data.as_object_mut(), total.json()) {
        map.extend(counts);
    }
    report.data = data;
    report
}

/// The finding for one graded case, if it did not pass.
fn finding(run: &Run, g: &Graded) -> Option<Diagnostic> {
    let o = &g.outcome;
    let case = format!("{}/{}", o.section, o.id);
    let rerun = || run.rerun(&case);
    let (d, pointer) = match &o.verdict {
        Verdict::Pass => return None,
        Verdict::Skip { reason } => (findings::case_skipped(&case, reason), &o.pointer),
        Verdict::Mismatch(m) => (findings::case_failed(&case, m, &rerun()), &m.pointer),
        Verdict::Failed { pointer, message } if g.errored => {
            (findings::case_errored(&case, message, &rerun()), pointer)
        }
        other => (
            findings::case_errored(&case, &other.to_string(), &rerun()),
            &o.pointer,
        ),
    };
    let mut d = d.at(pointer.clone()).case(o.section.clone(), o.id.clone());
    d.line_col = run
        .loaded
        .files
        .get(MANIFEST)
        .and_then(|f| f.tree())
        .and_then(|tree| bqsuite_core::json::nearest_position(tree, pointer))
        .map(|p| (p.line, p.column));
    Some(d)
}
