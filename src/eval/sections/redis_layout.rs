//! The `redis_layout` section (scope redis): the key names of the Laravel-compatible Redis
//! layout (broker-bindings §1.1) for `queue`: `expect_keys` must equal
//! `{ready: queues:<q>, delayed: queues:<q>:delayed, reserved: queues:<q>:reserved,
//! notify: queues:<q>:notify}`.

use serde_json::Value;

use crate::eval::bindings::harness;
use crate::eval::bindings::redis;
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        None => finish(layout_case(case)),
        Some(_) => harness::unknown_sub_key(case, "redis_layout"),
    }
}

fn layout_case(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let queue = c.str("queue")?;
    harness::compare_map(&c, "expect_keys", &redis::layout_keys(queue).to_map())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, verdict_of,
    };
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "layout",
            "cases": [
                { "name": "default-queue", "queue": "default", "expect_keys": {
                    "ready": "queues:default", "delayed": "queues:default:delayed",
                    "reserved": "queues:default:reserved", "notify": "queues:default:notify" } },
                { "name": "orders-queue", "queue": "orders", "expect_keys": {
                    "ready": "queues:orders", "delayed": "queues:orders:delayed",
                    "reserved": "queues:orders:reserved", "notify": "queues:orders:notify" } },
                { "name": "dotted-queue", "queue": "billing.invoices", "expect_keys": {
                    "ready": "queues:billing.invoices", "delayed": "queues:billing.invoices:delayed",
                    "reserved": "queues:billing.invoices:reserved", "notify": "queues:billing.invoices:notify" } }
            ]
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("redis_layout", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("redis_layout", &block(), run);
    }

    #[test]
    fn flipped_key() {
        let mut b = block();
        b["cases"][2]["expect_keys"]["delayed"] = json!("queues:billing:invoices:delayed");
        let v = verdict_of("redis_layout", &b, "dotted-queue", run);
        assert_mismatch_at(&v, "/redis_layout/cases/2/expect_keys");
        b["cases"][0]["queue"] = json!(1);
        let v = verdict_of("redis_layout", &b, "default-queue", run);
        assert_malformed_at(&v, "/redis_layout/cases/0/queue");
    }
}
