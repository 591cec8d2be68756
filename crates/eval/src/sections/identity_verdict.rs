//! Section `identity_verdict`: the core decoder's verdict outside Kafka. The body is
//! classified exactly as in `kafka_poison`; a body without a valid identity is `poison` here,
//! so `expect` is `ok` or `poison`.

use serde_json::Value;

use super::kafka_poison::check_verdict;
use crate::case::{Case, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(check_verdict(&Case::new(case), true))
}
