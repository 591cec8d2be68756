//! `bqsuite eval`: runs the reference evaluator over a suite directory and builds the reference
//! model's own results file.

use std::path::Path;

use serde_json::Value;

use crate::error::Result;
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
    let version = manifest
        .get("conformance_version")
        .and_then(Value::as_str)
        .unwrap_or("0.0.0");
    let producer = results::Producer {
        sdk: REFERENCE_SDK,
        version: env!("CARGO_PKG_VERSION"),
        generated_at: timefmt::rfc3339_utc(timefmt::now_epoch()),
    };
    let document = results::results_document(version, &producer, &outcomes);
    Ok(Evaluation { document, outcomes })
}
