//! `bqsuite run SUITE -- ADAPTER [ARGS...]`: grades an implementation by the suite's own
//! expectations, through the adapter protocol (docs/reference/adapter-protocol.md).
//!
//! The plan comes first and touches no process: the suite is loaded, its model must define the
//! protocol's operations, every case must be sound under the model (a case the model itself
//! cannot pass would grade every implementation wrong), and the sections and cases asked for
//! must exist. Then the adapter starts, each selected case is judged by the runner the model
//! uses, with the adapter's answers in place of the model's, and the results document is built
//! for `results check`.
//!
//! - `codec`: the adapter as the runners' codec;
//! - `report`: the report, the counts per section, the results document;
//! - `findings`, `codes`: the findings.

mod codec;
mod codes;
mod findings;
mod report;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use bqsuite_adapter::{Adapter, Bounds, Implementation, StartInfo};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::evaluator::{CaseOutcome, Evaluator, Verdict};
use bqsuite_core::index::{CaseIndex, IndexedCase};
use bqsuite_core::{shell, show};
use bqsuite_sbp::suite::codec::operations;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::{self, MANIFEST, Suite};

pub use codes::Code;
pub use report::report;

use crate::commands::suites;

/// `run`'s options.
#[derive(Debug, Clone)]
pub struct Options {
    pub suite: PathBuf,
    /// The adapter command: the program, then its arguments.
    pub adapter: Vec<OsString>,
    /// Only these sections (all when empty).
    pub sections: Vec<String>,
    /// Only these cases, `section/name` (all when empty; with `sections`, either selects).
    pub cases: Vec<String>,
    /// The time bound of each request.
    pub timeout: Duration,
}

/// How one case went.
#[derive(Debug, Clone)]
pub struct Graded {
    pub outcome: CaseOutcome,
    /// The adapter gave no usable answer to one of the case's requests.
    pub errored: bool,
}

/// A finished run.
pub struct Run {
    pub suite: PathBuf,
    pub kind: Kind,
    pub version: String,
    /// The adapter command as given, quoted for a shell.
    pub command: String,
    pub implementation: Implementation,
    pub graded: Vec<Graded>,
    /// The adapter was started again after it stopped.
    pub restarted: bool,
    /// The time bound of each request.
    pub timeout: Duration,
    /// The loaded suite (for line:column of findings).
    pub loaded: Suite,
}

/// Plans and runs: exit-2 errors (`Err`) before the adapter starts, or the run.
pub fn run(options: &Options) -> Result<Run> {
    let suite = load::load(&options.suite)?;
    let served = suites::serve(&suite)?;
    let model = served.model;
    if !crate::commands::adapter::MODELS.contains(&served.kind.model.as_str()) {
        return Err(no_operations(&options.suite, &served.kind));
    }
    let manifest = suite.require_manifest()?;
    let index = CaseIndex::new(manifest);
    check_operations(&options.suite, &index)?;
    check_sound(&options.suite, model, manifest, &suite)?;
    let selected = select(&index, options)?;
    let version = suite.version_text().unwrap_or_default().to_string();
    let info = StartInfo {
        name: served.kind.name.clone(),
        title: served.kind.title.clone(),
        version: version.clone(),
    };
    let bounds = Bounds {
        timeout: options.timeout,
        ..Bounds::DEFAULT
    };
    let command = shown_command(&options.adapter);
    let (program, args) = options
        .adapter
        .split_first()
        .ok_or_else(|| Error::Usage("give the adapter command after `--`".into()))?;
    let adapter = Adapter::start(program, args, &info, &bounds)
        .map_err(|e| Error::Usage(format!("{e} (the adapter command: `{command}`)")))?;
    let implementation = adapter.implementation().clone();
    let mut codec = codec::AdapterCodec::new(adapter);
    let mut graded = Vec::with_capacity(selected.len());
    for c in selected {
        codec.begin(&format!("{}/{}", c.section, c.id), &c.pointer);
        let before = codec.faults;
        let outcome = bqsuite_sbp::suite::judge(manifest, c, &suite, &mut codec);
        graded.push(Graded {
            outcome,
            errored: codec.faults > before,
        });
    }
    let restarted = codec.adapter.restarted();
    codec.adapter.stop();
    Ok(Run {
        suite: options.suite.clone(),
        kind: served.kind,
        version,
        command,
        implementation,
        graded,
        restarted,
        timeout: options.timeout,
        loaded: suite,
    })
}

impl Run {
    /// The command that runs case `case` (`section/name`) alone, with this run's suite, time
    /// bound and adapter, its results written beside the run's as `case.json`.
    pub fn rerun(&self, case: &str) -> String {
        format!(
            "bqsuite run {} --case {} --timeout {} --out case.json -- {}",
            shell::quote(&self.suite.display().to_string()),
            shell::quote(case),
            self.timeout.as_secs_f64(),
            self.command
        )
    }
}

/// The adapter command as given, quoted for a shell and escaped for display.
fn shown_command(adapter: &[OsString]) -> String {
    let words: Vec<String> = adapter
        .iter()
        .map(|w| shell::quote(&w.to_string_lossy()))
        .collect();
    show::text(&words.join(" "))
}

/// Every case's op must be made of operations the protocol has words for.
fn check_operations(suite: &Path, index: &CaseIndex<'_>) -> Result<()> {
    for c in &index.cases {
        let op = c.case.case.get("op").and_then(Value::as_str).unwrap_or("");
        if operations(op).is_none() {
            return Err(Error::bad_path(
                suite.join(MANIFEST),
                format!(
                    "case `{}/{}` needs the op `{}`, which the adapter protocol has no words \
                     for, so no adapter could answer it; `bqsuite validate {}` says what is wrong",
                    c.section,
                    c.id,
                    show::text(op),
                    shell::quote(&suite.display().to_string())
                ),
            ));
        }
    }
    Ok(())
}

/// Every case must pass (or skip) under the model: a case the model fails would grade every
/// implementation by a wrong expectation.
fn check_sound(
    suite_dir: &Path,
    model: &dyn Evaluator,
    manifest: &Value,
    suite: &Suite,
) -> Result<()> {
    let outcomes = model.evaluate(manifest, suite, None);
    match outcomes
        .iter()
        .find(|o| !matches!(o.verdict, Verdict::Pass | Verdict::Skip { .. }))
    {
        None => Ok(()),
        Some(o) => Err(Error::bad_path(
            suite_dir.join(MANIFEST),
            format!(
                "case `{}/{}` is not sound ({}), so it cannot grade an implementation; fix the \
                 suite first: `bqsuite validate {}`",
                o.section,
                o.id,
                o.verdict,
                shell::quote(&suite_dir.display().to_string())
            ),
        )),
    }
}

/// The cases `options` select, in manifest order; a section or case it names that the suite
/// lacks is an error.
fn select<'a>(index: &'a CaseIndex<'a>, options: &Options) -> Result<Vec<&'a IndexedCase<'a>>> {
    for section in &options.sections {
        if !index.section_names.iter().any(|s| s == section) {
            return Err(Error::Usage(format!(
                "--section `{}`: the suite has no such section; its sections: {}",
                show::text(section),
                index.section_names.join(", ")
            )));
        }
    }
    let name = |c: &IndexedCase<'_>| format!("{}/{}", c.section, c.id);
    for case in &options.cases {
        if !index.cases.iter().any(|c| name(c) == *case) {
            return Err(Error::Usage(format!(
                "--case `{}`: the suite has no such case; name it `section/name`, as results \
                 files and findings do",
                show::text(case)
            )));
        }
    }
    let all = options.sections.is_empty() && options.cases.is_empty();
    Ok(index
        .cases
        .iter()
        .filter(|c| {
            all || options.sections.contains(&c.section) || options.cases.contains(&name(c))
        })
        .collect())
}

fn no_operations(suite: &Path, kind: &Kind) -> Error {
    Error::bad_path(
        suite,
        format!(
            "is {}'s suite, judged by the model `{}`, which defines no adapter operations; \
             `run` grades suites whose model does ({})",
            show::text(&kind.title),
            show::text(&kind.model),
            crate::commands::adapter::MODELS.join(", ")
        ),
    )
}
