//! The `retry_backoff` section (scope core, from 1.6.0): the worker retry backoff formula
//! (ADR-0034 §9), checked on the SDK's helper without a broker.
//!
//! Each direct case gives `retry_backoff`, `retry_backoff_multiplier`, `retry_backoff_max`
//! (seconds, non-negative; max 0 = no cap), `retry_jitter` (`none` / `full`) and the attempt `n`
//! (from 1), and expects either `expect_delay_seconds` (the exact delay, without jitter) or
//! `expect_delay_range_seconds` `{min, max}` (the deterministic bounds of a jittered draw:
//! `[0, d(n)]` with full jitter, `[d(n), d(n)]` without). Values compare exactly in decimal.
//! A case of the `retry_backoff_defaults` section ([`run_defaults`]) gives only some of the
//! four parameters, in its `given` object, and the others take their defaults
//! ([`retry::configured`]). The cases' `source` fields cite the contract and are not read.

use serde_json::Value;

use crate::bindings::decimal::Dec;
use crate::bindings::harness::{self, uint, word};
use crate::bindings::retry::{self, Amount, Backoff, Given, Jitter};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::{CaseRef, escape_token};

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    let c = Case::new(case);
    let parameters = match case.sub_key {
        None => stated(&c),
        Some(_) => return harness::unknown_sub_key(case, "retry_backoff"),
    };
    finish(parameters.and_then(|(backoff, jitter)| check(&c, &backoff, jitter)))
}

/// A case of the `retry_backoff_defaults` section: the parameters its `given` names, the others
/// defaulted, and the delay checked as in `retry_backoff`.
pub fn run_defaults(
    case: &CaseRef<'_>,
    _section_block: &Value,
    _fixtures: &dyn FixtureSource,
) -> Verdict {
    let c = Case::new(case);
    let parameters = match case.sub_key {
        None => given(&c),
        Some(_) => return harness::unknown_sub_key(case, "retry_backoff_defaults"),
    };
    finish(parameters.and_then(|(backoff, jitter)| check(&c, &backoff, jitter)))
}

/// The four parameters' names, in the order of [`Given`]'s members.
const PARAMETERS: [&str; 4] = [
    "retry_backoff",
    "retry_backoff_multiplier",
    "retry_backoff_max",
    "retry_jitter",
];

const JITTERS: [&str; 2] = ["none", "full"];

/// A required non-negative number, exactly.
fn seconds(c: &Case<'_>, field: &str) -> Step<Dec> {
    Dec::from_json(c.require(field)?)
        .ok_or_else(|| c.malformed(field, format!("`{field}` must be a non-negative number")))
}

fn jitter_of(word: &str) -> Jitter {
    match word {
        "full" => Jitter::Full,
        _ => Jitter::None,
    }
}

/// A direct case's parameters: all four, stated.
fn stated(c: &Case<'_>) -> Step<(Backoff, Jitter)> {
    let backoff = Backoff {
        base: seconds(c, PARAMETERS[0])?,
        multiplier: seconds(c, PARAMETERS[1])?,
        max: seconds(c, PARAMETERS[2])?,
    };
    let jitter = jitter_of(word(c, PARAMETERS[3], &JITTERS)?);
    Ok((backoff, jitter))
}

/// A `retry_backoff_defaults` case's parameters: those its `given` object names, the others defaulted.
fn given(c: &Case<'_>) -> Step<(Backoff, Jitter)> {
    let members = c.object("given")?;
    let mut given = Given::default();
    for (name, value) in members {
        let at = || format!("{}/{}", c.ptr("given"), escape_token(name));
        let number = || {
            Dec::from_json(value).ok_or_else(|| {
                harness::malformed_at(at(), format!("`{name}` must be a non-negative number"))
            })
        };
        match name.as_str() {
            "retry_backoff" => given.base = Some(number()?),
            "retry_backoff_multiplier" => given.multiplier = Some(number()?),
            "retry_backoff_max" => given.max = Some(number()?),
            "retry_jitter" => {
                let word = value
                    .as_str()
                    .filter(|w| JITTERS.contains(w))
                    .ok_or_else(|| {
                        harness::malformed_at(at(), "`retry_jitter` must be one of none, full")
                    })?;
                given.jitter = Some(jitter_of(word));
            }
            _ => {
                return Err(harness::malformed_at(
                    at(),
                    format!("`given` names only {}", PARAMETERS.join(", ")),
                ));
            }
        }
    }
    Ok(retry::configured(&given))
}

/// Whether the stated number equals the derived amount.
fn same(expected: &Value, derived: Amount) -> bool {
    match derived {
        Amount::Exact(d) => Dec::from_json(expected) == Some(d),
        Amount::Approx(x) => expected.as_f64() == Some(x),
    }
}

/// The delay of attempt `n` under `backoff` and `jitter` against the case's expectation.
fn check(c: &Case<'_>, backoff: &Backoff, jitter: Jitter) -> Step<()> {
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
    let (low, high) = retry::delay_range(backoff, n, jitter);
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

    /// A `retry_backoff_defaults` section.
    fn defaults() -> Value {
        json!({"description": "d", "cases": [
            {"name": "nothing", "given": {}, "n": 4, "expect_delay_seconds": 0},
            {"name": "base", "given": {"retry_backoff": 3}, "n": 3, "expect_delay_seconds": 3},
            {"name": "growth", "given": {"retry_backoff": 1, "retry_backoff_multiplier": 10},
             "n": 5, "expect_delay_seconds": 10000},
            {"name": "jitter", "given": {"retry_backoff": 2, "retry_jitter": "full"}, "n": 1,
             "expect_delay_range_seconds": {"min": 0, "max": 2}}
        ]})
    }

    #[test]
    fn exact_decimal_results_and_degenerate_ranges_pass() {
        // 0.1 * 3^2 is 0.9 exactly, although doubles make it 0.9000000000000001.
        assert_all_pass("retry_backoff", &block(), run);
        assert_all_pass("retry_backoff_defaults", &defaults(), run_defaults);
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
    fn what_a_defaults_case_does_not_give_takes_its_default() {
        let mut b = defaults();
        b["cases"][0]["expect_delay_seconds"] = json!(1);
        assert_mismatch_at(
            &verdict_of("retry_backoff_defaults", &b, "nothing", run_defaults),
            "/retry_backoff_defaults/cases/0/expect_delay_seconds",
        );
        b["cases"][1]["expect_delay_seconds"] = json!(12);
        assert_mismatch_at(
            &verdict_of("retry_backoff_defaults", &b, "base", run_defaults),
            "/retry_backoff_defaults/cases/1/expect_delay_seconds",
        );
        // A non-zero cap by default would stop the growth short of 10000.
        b["cases"][2]["expect_delay_seconds"] = json!(600);
        assert_mismatch_at(
            &verdict_of("retry_backoff_defaults", &b, "growth", run_defaults),
            "/retry_backoff_defaults/cases/2/expect_delay_seconds",
        );
        // Without a jitter given, the delay is exact.
        b["cases"][2]["expect_delay_range_seconds"] = json!({"min": 0, "max": 10000});
        b["cases"][2]["expect_delay_seconds"] = json!(10000);
        assert_mismatch_at(
            &verdict_of("retry_backoff_defaults", &b, "growth", run_defaults),
            "/retry_backoff_defaults/cases/2/expect_delay_range_seconds/min",
        );
    }

    #[test]
    fn a_malformed_given_names_its_member() {
        let mut b = defaults();
        b["cases"][0]["given"] = json!([]);
        b["cases"][1]["given"]["retry_backoff"] = json!("3");
        b["cases"][2]["given"]["retry_jitter"] = json!("equal");
        b["cases"][3]["given"]["retry_delay"] = json!(1);
        let at = |id: &str, ptr: &str| {
            assert_malformed_at(
                &verdict_of("retry_backoff_defaults", &b, id, run_defaults),
                ptr,
            )
        };
        at("nothing", "/retry_backoff_defaults/cases/0/given");
        at(
            "base",
            "/retry_backoff_defaults/cases/1/given/retry_backoff",
        );
        at(
            "growth",
            "/retry_backoff_defaults/cases/2/given/retry_jitter",
        );
        at(
            "jitter",
            "/retry_backoff_defaults/cases/3/given/retry_delay",
        );
        let mut b = block();
        b["other"] = json!({"cases": [{"name": "x"}]});
        assert_malformed_at(
            &verdict_of("retry_backoff", &b, "other/x", run),
            "/retry_backoff/other/cases/0",
        );
    }

    #[test]
    fn junk_never_panics() {
        assert_no_panic_on_junk("retry_backoff", &block(), run);
        assert_no_panic_on_junk("retry_backoff_defaults", &defaults(), run_defaults);
    }
}
