//! The one place that names the reference models: a suite's description (`bqsuite_suite::kind`)
//! to the model that judges it. A new suite is a description, a model crate implementing
//! [`Evaluator`], and one entry in `MODELS`.

use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_core::evaluator::Evaluator;
use bqsuite_suite::Suite;
use bqsuite_suite::kind::{DESCRIPTION, Kind};

/// Every model this bqsuite has.
const MODELS: [&dyn Evaluator; 2] = [&bqsuite_eval::BabelQueue, &bqsuite_sbp::suite::Sbp];

/// A suite's description with the model that judges it.
pub struct Served {
    pub kind: Kind,
    pub model: &'static dyn Evaluator,
}

/// The model named `name`.
pub fn model(name: &str) -> Option<&'static dyn Evaluator> {
    MODELS.into_iter().find(|m| m.model() == name)
}

/// The names of every model, for messages.
pub fn model_names() -> Vec<&'static str> {
    MODELS.iter().map(|m| m.model()).collect()
}

/// The description of `suite` (its `suite.json`, else BabelQueue's) and its model. A description
/// that is malformed or names no model this bqsuite has is an `Err` (exit 2) naming the file.
pub fn serve(suite: &Suite) -> Result<Served> {
    let kind = describe(suite)?;
    let model = model(&kind.model)
        .ok_or_else(|| unknown_model(&suite.root.join(DESCRIPTION), &kind.model))?;
    Ok(Served { kind, model })
}

/// The description of `suite` (its `suite.json`, else BabelQueue's), for the commands that read
/// a suite without judging it (`diff`, `results`). A malformed description is an `Err` (exit 2)
/// naming the file.
pub fn describe(suite: &Suite) -> Result<Kind> {
    Kind::of(suite).map_err(|e| Error::bad_path(suite.root.join(DESCRIPTION), e.to_string()))
}

/// BabelQueue's description and model: for the commands that serve no other suite yet.
pub fn babelqueue() -> Served {
    Served {
        kind: Kind::babelqueue(),
        model: &bqsuite_eval::BabelQueue,
    }
}

fn unknown_model(file: &Path, name: &str) -> Error {
    Error::bad_path(
        file,
        format!(
            "names the model `{}`, which this bqsuite does not have; write one of: {}",
            bqsuite_core::shell::escape(name),
            model_names().join(", ")
        ),
    )
}
