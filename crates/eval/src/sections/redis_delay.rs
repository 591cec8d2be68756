//! The `redis_delay` section (scope redis, from 1.6.0): the Redis delayed score
//! `floor(now) + ceil(delay)` (broker-bindings §1.6). Each case gives `now` (fractional epoch
//! seconds) and `delay` (seconds) and expects `expect_score`, an integer. The cases' `source`
//! fields cite the contract and are not read.

use serde_json::Value;

use crate::bindings::redis_delay;
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(check(&Case::new(case)))
}

fn check(c: &Case<'_>) -> Step<()> {
    let now = c.require("now")?;
    if !redis_delay::valid_now(now) {
        return Err(c.malformed("now", "`now` must be a number (epoch seconds)"));
    }
    let delay = c.require("delay")?;
    if !redis_delay::valid_delay(delay) {
        return Err(c.malformed(
            "delay",
            "`delay` must be a non-negative number (a negative delay is not pinned)",
        ));
    }
    let expected = c.require("expect_score")?;
    if !expected.is_number() {
        return Err(c.malformed("expect_score", "`expect_score` must be a number"));
    }
    let derived = redis_delay::score(now, delay)
        .ok_or_else(|| c.malformed("now", "the score is out of range"))?;
    if redis_delay::stated_score(expected) == Some(derived) {
        Ok(())
    } else {
        Err(c.mismatch("expect_score", compact(expected), derived.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, assert_no_panic_on_junk,
        verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        json!({"description": "r", "cases": [
            {"name": "edge", "now": 1750000000.999, "delay": 0.001, "expect_score": 1750000001},
            {"name": "float-score", "now": 1000.5, "delay": 3.0, "expect_score": 1003.0},
            {"name": "tiny", "now": 1000, "delay": 0.0004, "expect_score": 1001}
        ]})
    }

    #[test]
    fn cases_pass() {
        assert_all_pass("redis_delay", &block(), run);
    }

    #[test]
    fn wrong_scores_are_mismatches() {
        let mut b = block();
        b["cases"][0]["expect_score"] = json!(1750000002);
        assert_mismatch_at(
            &verdict_of("redis_delay", &b, "edge", run),
            "/redis_delay/cases/0/expect_score",
        );
        b["cases"][1]["expect_score"] = json!(1003.5);
        assert_mismatch_at(
            &verdict_of("redis_delay", &b, "float-score", run),
            "/redis_delay/cases/1/expect_score",
        );
    }

    #[test]
    fn bad_inputs_are_malformed() {
        let mut b = block();
        b["cases"][0]["delay"] = json!(-1);
        b["cases"][1]["now"] = json!("1000");
        b["cases"][2]["expect_score"] = json!("1001");
        let at =
            |id: &str, ptr: &str| assert_malformed_at(&verdict_of("redis_delay", &b, id, run), ptr);
        at("edge", "/redis_delay/cases/0/delay");
        at("float-score", "/redis_delay/cases/1/now");
        at("tiny", "/redis_delay/cases/2/expect_score");
    }

    #[test]
    fn junk_never_panics() {
        assert_no_panic_on_junk("redis_delay", &block(), run);
    }
}
