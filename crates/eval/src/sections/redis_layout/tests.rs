use super::*;
use crate::realkit::{self, release};
use bqsuite_core::ids::section_cases;
use serde_json::json;

/// Every leaf of `value` with its pointer suffix.
fn leaves(value: &Value, at: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{at}/{i}"), out);
            }
        }
        Value::Object(members) if !members.is_empty() => {
            for (k, v) in members {
                leaves(
                    v,
                    format!("{at}/{}", bqsuite_core::ids::escape_token(k)),
                    out,
                );
            }
        }
        _ => out.push((at, value.clone())),
    }
}

/// Another plausible value for an expectation leaf.
fn flipped(leaf: &Value) -> Value {
    match leaf {
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i + 1),
            None => Value::from(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        Value::String(s) => Value::String(format!("{s}-flipped")),
        Value::Null => Value::Bool(false),
        Value::Array(_) => json!(["/flipped"]),
        Value::Object(_) => json!({"flipped": true}),
    }
}

/// Flips every leaf of every step expectation of every behavioural case (one at a time) and
/// requires a mismatch inside that case. Returns the flips made.
fn assert_step_flips_caught(version: &str) -> usize {
    let (manifest, files) = release(version);
    step_flips_caught(version, &manifest, &files)
}

fn step_flips_caught(
    version: &str,
    manifest: &Value,
    files: &std::collections::BTreeMap<String, String>,
) -> usize {
    let cases: Vec<(String, Vec<(String, Value)>)> =
        section_cases("redis_layout", &manifest["redis_layout"])
            .iter()
            .map(|c| {
                let mut out = Vec::new();
                if let Some(Value::Array(steps)) = c.case.get("steps") {
                    for (i, step) in steps.iter().enumerate() {
                        if let Some(e) = step.get("expect") {
                            leaves(e, format!("{}/steps/{i}/expect", c.pointer), &mut out);
                        }
                    }
                }
                (c.pointer.clone(), out)
            })
            .collect();
    let mut problems = Vec::new();
    let mut flips = 0;
    for (case_ptr, leaves) in &cases {
        for (ptr, leaf) in leaves {
            let mut changed = manifest.clone();
            *changed.pointer_mut(ptr).expect("leaf") = flipped(leaf);
            flips += 1;
            let block = &changed["redis_layout"];
            let case = section_cases("redis_layout", block)
                .into_iter()
                .find(|c| &c.pointer == case_ptr)
                .expect("case");
            match realkit::run_case("redis_layout", &case, block, files) {
                Verdict::Mismatch(m) if m.pointer.starts_with(case_ptr.as_str()) => {}
                other => problems.push(format!("{ptr}: {other:?}")),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{version}: {} step flips not caught:\n{}",
        problems.len(),
        problems.join("\n")
    );
    flips
}

#[test]
fn the_proposal_cases_pass_and_catch_every_step_flip() {
    let (manifest, files) = realkit::with_proposal();
    let (real, _) = release("1.8.0");
    let count = |m: &Value| section_cases("redis_layout", &m["redis_layout"]).len();
    let added = count(&manifest) - count(&real);
    assert!(added >= 3);
    for c in section_cases("redis_layout", &manifest["redis_layout"]) {
        let v = realkit::run_case("redis_layout", &c, &manifest["redis_layout"], &files);
        assert_eq!(v, Verdict::Pass, "{}", c.id);
    }
    step_flips_caught("1.8.0 + proposal", &manifest, &files);
}

#[test]
fn every_step_expectation_flip_is_caught() {
    for v in ["1.6.0", "1.7.0", "1.8.0"] {
        assert!(assert_step_flips_caught(v) > 200, "{v}");
    }
}

const BODY: &str = "{\"job\":\"urn:a\",\"attempts\":0,\"data\":{}}";

/// The verdict of one behavioural case placed in a `probe` block.
fn verdict(case: Value) -> Verdict {
    let block = json!({"description": "probe", "probe": {"cases": [case]}});
    let cases = section_cases("redis_layout", &block);
    run(&cases[0], &block, &std::collections::BTreeMap::new())
}

fn pointer(v: &Verdict) -> String {
    match v {
        Verdict::Mismatch(m) => format!("mismatch {}", m.pointer),
        Verdict::Malformed { pointer, .. } => format!("malformed {pointer}"),
        other => format!("{other:?}"),
    }
}

const AT: &str = "/redis_layout/probe/cases/0";

fn zset(state: Value, steps: Value) -> Value {
    json!({"name": "p", "layout": "zset", "queue": "q", "retry_after": 90, "state": state, "steps": steps})
}

fn legacy(state: Value, steps: Value) -> Value {
    json!({"name": "p", "layout": "legacy", "queue": "q", "retry_after": 90, "state": state, "steps": steps})
}

#[test]
fn reserved_members_compare_json_types_strictly_but_reported_attempts_loosely() {
    let step = |reserved: Value, reported: Value| {
        zset(
            json!({"ready": [BODY], "notify": 1}),
            json!([{"op": "reserve", "now": 1000, "expect": {
                "reported_attempts": reported, "reserved": reserved}}]),
        )
    };
    let member = |attempts: Value| json!([{"member_json": {"job": "urn:a", "attempts": attempts, "data": {}}, "score": 1090}]);
    assert_eq!(verdict(step(member(json!(1)), json!(1))), Verdict::Pass);
    assert_eq!(verdict(step(member(json!(1.0)), json!(1.0))), Verdict::Pass);
    // The plain comparison of the runner: true == 1.
    assert_eq!(verdict(step(member(json!(1)), json!(true))), Verdict::Pass);
    let v = verdict(step(member(json!(true)), json!(1)));
    assert_eq!(
        pointer(&v),
        format!("mismatch {AT}/steps/0/expect/reserved")
    );
    // cjson keeps 14 significant digits: a 15-digit integer does not come back exact.
    let big = zset(
        json!({"ready": ["{\"job\":\"urn:a\",\"attempts\":0,\"x\":123456789012345}"]}),
        json!([{"op": "reserve", "now": 1000, "expect": {"reserved": [
            {"member_json": {"job": "urn:a", "attempts": 1, "x": 123456789012345i64}, "score": 1090}]}}]),
    );
    assert_eq!(
        pointer(&verdict(big)),
        format!("mismatch {AT}/steps/0/expect/reserved")
    );
}

#[test]
fn zset_entries_are_a_multiset_with_nothing_left_over() {
    let state = json!({"delayed": [{"member": "a", "score": 5}, {"member": "b", "score": 5}]});
    let check = |delayed: Value| {
        verdict(zset(
            state.clone(),
            json!([{"op": "migrate", "now": 1, "expect": {"delayed": delayed}}]),
        ))
    };
    let a = json!({"member": "a", "score": 5});
    let b = json!({"member": "b", "score": "5"});
    assert_eq!(check(json!([b, a])), Verdict::Pass);
    assert_eq!(
        pointer(&check(json!([a]))),
        format!("mismatch {AT}/steps/0/expect/delayed")
    );
    assert_eq!(
        pointer(&check(json!([a, a]))),
        format!("mismatch {AT}/steps/0/expect/delayed")
    );
}

#[test]
fn legacy_reservations_report_no_attempts_and_zset_dead_letters_are_prefixed() {
    let v = verdict(legacy(
        json!({"ready": [BODY]}),
        json!([{"op": "reserve", "now": 1000, "expect": {"reported_attempts": 0}}]),
    ));
    assert_eq!(
        pointer(&v),
        format!("mismatch {AT}/steps/0/expect/reported_attempts")
    );
    // The zset DLQ is the Laravel queue `queues:<q>.dlq`: LLEN `<q>.dlq` stays 0.
    let dlq = |n: u64| {
        verdict(zset(
            json!({"ready": [BODY]}),
            json!([{"op": "reserve", "now": 1000, "as": "r"},
                   {"op": "dead_letter", "reservation": "r", "now": 1000,
                    "expect": {"dlq_count": n, "reserved": []}}]),
        ))
    };
    assert_eq!(dlq(0), Verdict::Pass);
    assert_eq!(
        pointer(&dlq(1)),
        format!("mismatch {AT}/steps/1/expect/dlq_count")
    );
}

#[test]
fn steps_the_sdk_cannot_run_are_mismatches_and_bad_shapes_are_malformed() {
    let explicit = json!({"token": "0123456789abcdef0123456789abcdef", "raw": BODY});
    let v = verdict(zset(
        json!({}),
        json!([{"op": "ack", "now": 1, "reservation": explicit}]),
    ));
    assert_eq!(pointer(&v), format!("mismatch {AT}/steps/0/reservation"));
    let v = verdict(legacy(
        json!({}),
        json!([{"op": "push_delayed", "now": 1, "delay": 1, "body": BODY}]),
    ));
    assert_eq!(pointer(&v), format!("mismatch {AT}/steps/0/op"));
    let v = verdict(zset(
        json!({}),
        json!([{"op": "reserve", "now": 1, "as": "r"},
        {"op": "release", "now": 1, "delay": 0, "reservation": "r"}]),
    ));
    assert_eq!(pointer(&v), format!("mismatch {AT}/steps/1/reservation"));
    let v = verdict(zset(
        json!({}),
        json!([{"op": "ack", "now": 1, "reservation": "nobody"}]),
    ));
    assert_eq!(pointer(&v), format!("malformed {AT}/steps/0/reservation"));
    let v = verdict(zset(json!({}), json!([{"op": "reserve"}])));
    assert_eq!(pointer(&v), format!("malformed {AT}/steps/0/now"));
    let mut c = zset(json!({}), json!([]));
    c["retry_after"] = json!(-1);
    assert_eq!(pointer(&verdict(c)), format!("malformed {AT}/retry_after"));
    let mut c = zset(json!({}), json!([]));
    c["layout"] = json!("cluster");
    assert_eq!(pointer(&verdict(c)), format!("malformed {AT}/layout"));
    let c = zset(
        json!({"delayed_generate": {"count": 2, "member": "x-%s", "score": 1}}),
        json!([]),
    );
    assert_eq!(
        pointer(&verdict(c)),
        format!("malformed {AT}/state/delayed_generate/member")
    );
}

#[test]
fn a_stated_false_tokens_distinct_is_compared() {
    let case = |distinct: bool| {
        legacy(
            json!({"ready": [BODY, BODY]}),
            json!([{"op": "reserve", "now": 1, "as": "a"},
                   {"op": "reserve", "now": 1, "as": "b", "expect": {"tokens_distinct": distinct}}]),
        )
    };
    assert_eq!(verdict(case(true)), Verdict::Pass);
    assert_eq!(
        pointer(&verdict(case(false))),
        format!("mismatch {AT}/steps/1/expect/tokens_distinct")
    );
}

#[test]
fn generated_and_printf_members() {
    assert_eq!(
        state::printf_int("item-%03d", 7).as_deref(),
        Some("item-007")
    );
    assert_eq!(state::printf_int("%d%%", 12).as_deref(), Some("12%"));
    assert_eq!(state::printf_int("%5d", 3).as_deref(), Some("    3"));
    assert_eq!(state::printf_int("no conversion", 1), None);
    assert_eq!(state::printf_int("%d-%d", 1), None);
}

#[test]
fn junk_never_panics() {
    let block = json!({
        "description": "junk",
        "cases": [{"name": "k", "queue": "q", "key_prefix": "queues:", "expect": {"ready": "queues:q"}}],
        "z": {"cases": [{
            "name": "z", "layout": "zset", "queue": "q", "retry_after": 90, "migration_batch_size": 2,
            "state": {"ready": [BODY], "delayed": [{"member": "m", "score": "+inf"}],
                      "delayed_generate": {"count": 2, "member": "i-%d", "score": 1}, "notify": 1},
            "steps": [
                {"op": "push_delayed", "now": 1.5, "delay": 2, "body": BODY},
                {"op": "reserve", "now": 1000, "as": "r", "expect": {"outcome": "delivered",
                    "handler_body": BODY, "reported_attempts": 1, "ready_generate": {"count": 2, "member": "i-%d"},
                    "reserved": [{"member_json": {"job": "urn:a", "attempts": 1, "data": {}}, "score": 1090}],
                    "notify": 2}},
                {"op": "release", "reservation": "r", "delay": 1, "now": 1000,
                    "expect": {"delayed": [{"body_json": {"job": "urn:a", "attempts": 1, "data": {}}, "score": 1001},
                        {"member": BODY, "score": 3}, {"member": "m", "score": "+inf"}], "reserved": []}},
                {"op": "dead_letter", "reservation": "r", "now": 1000, "expect": {"dlq_count": 0}}
            ]}]},
        "l": {"cases": [{
            "name": "l", "layout": "legacy", "queue": "q", "retry_after": null,
            "state": {"processing": [BODY], "deadlines": [
                {"token": "0123456789abcdef0123456789abcdef", "raw": BODY, "score": 1},
                {"member": "short", "score": 1}]},
            "steps": [
                {"op": "sweep", "now": 5, "expect": {"ready": [BODY], "processing": []}},
                {"op": "reserve", "now": 5, "as": "a", "expect": {"deadlines": [
                    {"token": "<any>", "raw": BODY, "score": "+inf"}], "tokens_distinct": true}},
                {"op": "ack", "reservation": {"token": "0123456789abcdef0123456789abcdef", "raw": BODY}, "now": 6},
                {"op": "release", "reservation": "a", "delay": 0, "now": 6, "expect": {"ready_count": 1}},
                {"op": "dead_letter", "reservation": "a", "now": 6, "expect": {"dlq_count": 0}}
            ]}]}
    });
    crate::bindings::testutil::assert_all_pass("redis_layout", &block, run);
    crate::bindings::testutil::assert_no_panic_on_junk("redis_layout", &block, run);
}

#[test]
fn the_reconstructed_expect_keys_shape_is_still_read() {
    let block = json!({"description": "d", "cases": [
        {"name": "a", "queue": "billing.invoices", "expect_keys": {
            "ready": "queues:billing.invoices", "delayed": "queues:billing.invoices:delayed",
            "reserved": "queues:billing.invoices:reserved", "notify": "queues:billing.invoices:notify"}},
        {"name": "b", "queue": "o", "expect": {"notify": "queues:o:notify"}},
        {"name": "c", "queue": "o", "key_prefix": "p:", "expect": {"ready": "p:o"}}
    ]});
    crate::bindings::testutil::assert_all_pass("redis_layout", &block, run);
    let mut b = block.clone();
    b["cases"][0]["expect_keys"]["delayed"] = json!("queues:billing:invoices:delayed");
    let v = crate::bindings::testutil::verdict_of("redis_layout", &b, "a", run);
    crate::bindings::testutil::assert_mismatch_at(&v, "/redis_layout/cases/0/expect_keys");
    b["cases"][2]["expect"]["ttl"] = json!("p:o");
    let v = crate::bindings::testutil::verdict_of("redis_layout", &b, "c", run);
    crate::bindings::testutil::assert_mismatch_at(&v, "/redis_layout/cases/2/expect");
}
