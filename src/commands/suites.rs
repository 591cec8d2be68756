//! The one place that names the reference models and the suites this bqsuite serves: a suite's
//! description (`bqsuite_suite::kind`) to the model that judges it, and the descriptions a command
//! needs before any suite is on disk (a first `fetch`). A new suite is a description, a model
//! crate implementing [`Evaluator`], one entry in `MODELS` and one in [`known`].

use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_core::evaluator::Evaluator;
use bqsuite_suite::Suite;
use bqsuite_suite::kind::{DESCRIPTION, Kind};

/// Every model this bqsuite has.
const MODELS: [&dyn Evaluator; 2] = [&bqsuite_eval::BabelQueue, &bqsuite_sbp::suite::Sbp];

/// The SBP suite's description, as `sbp-suite/suite.json` gives it when this bqsuite was built.
const SBP_DESCRIPTION: &str = include_str!("../../sbp-suite/suite.json");

/// The name of the suite a command serves when nothing names one: BabelQueue's.
pub const DEFAULT_SUITE: &str = "babelqueue";

/// The descriptions of the suites this bqsuite serves, by name: BabelQueue's (which its releases
/// never carry) and SBP's (built in from `sbp-suite/suite.json`). The first is the default.
pub fn known() -> Vec<Kind> {
    let sbp = Kind::parse(SBP_DESCRIPTION.as_bytes())
        .unwrap_or_else(|e| unreachable!("sbp-suite/suite.json {e}"));
    vec![Kind::babelqueue(), sbp]
}

/// The description of the known suite named `name`.
pub fn known_kind(name: &str) -> Option<Kind> {
    known().into_iter().find(|k| k.name == name)
}

/// The names of the known suites, for messages and help.
pub fn known_names() -> Vec<String> {
    known().into_iter().map(|k| k.name).collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_suite_has_a_model_and_its_own_asset() {
        let known = known();
        assert_eq!(known[0].name, DEFAULT_SUITE);
        for kind in &known {
            assert!(model(&kind.model).is_some(), "{}", kind.name);
        }
        let sbp = known_kind("sbp").unwrap();
        assert_eq!(sbp.asset_name("0.1.0"), "sbp-conformance-0.1.0.tar.gz");
        assert_ne!(sbp.asset, Kind::babelqueue().asset);
    }
}
