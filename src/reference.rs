//! `bqsuite eval`: runs the reference evaluator over a suite directory and builds the reference
//! model's own results file.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::eval::outcome::{CaseOutcome, Verdict};
use crate::eval::{self, results};
use crate::suite::load;
use crate::timefmt;

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
    let manifest = suite.require_manifest()?;
    let outcomes = eval::evaluate(manifest, &suite);
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
    let document = results::results_document(version, &producer, &outcomes);
    Ok(Evaluation {
        document,
        outcomes,
        warnings,
    })
}
