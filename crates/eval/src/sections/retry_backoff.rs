//! The `retry_backoff` section (scope core, from 1.6.0): the worker retry backoff formula
//! (ADR-0034 §9), checked on the SDK's helper without a broker.
//!
//! Each case gives `retry_backoff`, `retry_backoff_multiplier`, `retry_backoff_max` (seconds,
//! non-negative; max 0 = no cap), `retry_jitter` (`none` / `full`) and the attempt `n` (from 1),
//! and expects either `expect_delay_seconds` (the exact delay, without jitter) or
//! `expect_delay_range_seconds` `{min, max}` (the deterministic bounds of a jittered draw:
//! `[0, d(n)]` with full jitter, `[d(n), d(n)]` without). Values compare exactly in decimal.
//! The cases' `source` fields cite the contract and are not read.

use serde_json::Value;

use crate::bindings::decimal::Dec;
use crate::bindings::harness::{uint, word};
use crate::bindings::retry::{self, Amount, Backoff, Jitter};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(check(&Case::new(case)))
}

/// A required non-negative number, exactly.
fn seconds(c: &Case<'_>, field: &str) -> Step<Dec> {
    Dec::from_json(c.require(field)?)
        .ok_or_else(|| c.malformed(field, format!("`{field}` must be a non-negative number")))
}

/// Whether the stated number equals the derived amount.
fn same(expected: &Value, derived: Amount) -> bool {
    match derived {
        Amount::Exact(d) => Dec::from_json(expected) == Some(d),
        Amount::Approx(x) => expected.as_f64() == Some(x),
    }
}

fn check(c: &Case<'_>) -> Step<()> {
    let backoff = Backoff {
        base: seconds(c, "retry_backoff")?,
        multiplier: seconds(c, "retry_backoff_multiplier")?,
        max: seconds(c, "retry_backoff_max")?,
    };
    let jitter = match word(c, "retry_jitter", &["none", "full"])? {
        "full" => Jitter::Full,
        _ => Jitter::None,
    };
    let n = uint(c, "n")?;
    if n == 0 {
        return Err(c.malformed("n", "`n` is the 1-based attempt number"));
    }
    let exact = c.get("expect_delay_seconds");
    let range = c.get("expect_delay_range_seconds");
    if exact.is_none() && range.is_none() {
        return Err(c.malformed(
            "expect_delay_seconds",
            "a case expects `expect_delay_seconds` or `expect_delay_range_seconds`",
        ));
    }
    let (low, high) = retry::delay_range(&backoff, n, jitter);
    if let Some(want) = exact {
        if !want.is_number() {
            return Err(c.malformed(
                "expect_delay_seconds",
                "`expect_delay_seconds` must be a number",
            ));
        }
        if low != high {
            return Err(c.mismatch(
                "expect_delay_seconds",
                compact(want),
                format!("a delay drawn from [{low}, {high}]"),
            ));
        }
        if !same(want, high) {
            return Err(c.mismatch("expect_delay_seconds", compact(want), high.to_string()));
        }
    }
    if range.is_some() {
        let bounds = c.object("expect_delay_range_seconds")?;
        for (bound, derived) in [("min", low), ("max", high)] {
            let pointer = format!("{}/{bound}", c.ptr("expect_delay_range_seconds"));
            let want = bounds.get(bound).filter(|v| v.is_number()).ok_or_else(|| {
                c.malformed(
                    "expect_delay_range_seconds",
                    format!("`expect_delay_range_seconds.{bound}` must be a number"),
                )
            })?;
            if !same(want, derived) {
                return Err(Verdict::Mismatch(Mismatch {
                    pointer,
                    expected: compact(want),
                    derived: derived.to_string(),
                }));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, assert_no_panic_on_junk,
        verdict_of,
    };
    use serde_json::json;

    fn case(base: f64, multiplier: f64, max: f64, jitter: &str, n: u64) -> Value {
        json!({"retry_backoff": base, "retry_backoff_multiplier": multiplier,
               "retry_backoff_max": max, "retry_jitter": jitter, "n": n})
    }

    fn block() -> Value {
        let mut a = case(0.1, 3.0, 0.0, "none", 3);
        a["name"] = json!("decimal");
        a["expect_delay_seconds"] = json!(0.9);
        let mut b = case(1.0, 2.0, 10.0, "full", 6);
        b["name"] = json!("range");
        b["expect_delay_range_seconds"] = json!({"min": 0, "max": 10});
        let mut c = case(0.0, 1.0, 0.0, "full", 3);
        c["name"] = json!("zero-draw");
        c["expect_delay_seconds"] = json!(0);
        let mut d = case(3.0, 2.0, 0.0, "none", 2);
        d["name"] = json!("none-range");
        d["expect_delay_range_seconds"] = json!({"min": 6.0, "max": 6});
        json!({"description": "r", "cases": [a, b, c, d]})
    }

    #[test]
    fn exact_decimal_results_and_degenerate_ranges_pass() {
        // 0.1 * 3^2 is 0.9 exactly, although doubles make it 0.9000000000000001.
        assert_all_pass("retry_backoff", &block(), run);
    }

    #[test]
    fn wrong_expectations_are_mismatches() {
        let mut b = block();
        b["cases"][0]["expect_delay_seconds"] = json!(0.9000000000000001);
        assert_mismatch_at(
            &verdict_of("retry_backoff", &b, "decimal", run),
            "/retry_backoff/cases/0/expect_delay_seconds",
        );
        b["cases"][1]["expect_delay_range_seconds"]["max"] = json!(32);
        assert_mismatch_at(
            &verdict_of("retry_backoff", &b, "range", run),
            "/retry_backoff/cases/1/expect_delay_range_seconds/max",
        );
        b["cases"][1]["expect_delay_seconds"] = json!(10);
        b["cases"][1]["expect_delay_range_seconds"]["max"] = json!(10);
        assert_mismatch_at(
            &verdict_of("retry_backoff", &b, "range", run),
            "/retry_backoff/cases/1/expect_delay_seconds",
        );
        b["cases"][3]["expect_delay_range_seconds"]["min"] = json!(0);
        assert_mismatch_at(
            &verdict_of("retry_backoff", &b, "none-range", run),
            "/retry_backoff/cases/3/expect_delay_range_seconds/min",
        );
    }

    #[test]
    fn bad_inputs_are_malformed() {
        let mut b = block();
        b["cases"][0]["retry_backoff"] = json!(-1);
        b["cases"][1]["n"] = json!(0);
        b["cases"][2]["retry_jitter"] = json!("equal");
        b["cases"][3]["expect_delay_range_seconds"] = json!({"min": 6});
        let at = |id: &str, ptr: &str| {
            assert_malformed_at(&verdict_of("retry_backoff", &b, id, run), ptr)
        };
        at("decimal", "/retry_backoff/cases/0/retry_backoff");
        at("range", "/retry_backoff/cases/1/n");
        at("zero-draw", "/retry_backoff/cases/2/retry_jitter");
        at(
            "none-range",
            "/retry_backoff/cases/3/expect_delay_range_seconds",
        );
    }

    #[test]
    fn junk_never_panics() {
        assert_no_panic_on_junk("retry_backoff", &block(), run);
    }
}
