//! Section `version_gate`: not taught to the reference evaluator yet.

use serde_json::Value;

use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(_case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    Verdict::NoRule
}
