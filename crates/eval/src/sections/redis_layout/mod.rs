//! The `redis_layout` section (scope redis, broker-bindings §1.1, §1.6, §1.7).
//!
//! - Direct `cases` (since 1.5.0): the Laravel-compatible key names of `queue` under
//!   `key_prefix`: `expect` lists some of `ready` (`<prefix><q>`), `delayed`, `reserved`,
//!   `notify` (suffixes of the ready key). No broker.
//! - Behavioural blocks (since 1.6.0): a case with a `layout` is a scenario (initial `state`,
//!   ordered `steps`, per-step `expect`) that the SDK runs against a live Redis; here it runs
//!   against the pure queue model of `bindings::redis_queue` ([`scenario`], [`state`],
//!   [`expect`]).

pub mod expect;
pub mod scenario;
pub mod state;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use crate::bindings::{harness, redis};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// Runs one `redis_layout` case: a scenario when it names a `layout`, else a key-name case.
pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    if case.case.get("layout").is_some() {
        return finish(scenario::run(case));
    }
    finish(key_names(case))
}

/// The key names the transport uses for `queue` under `key_prefix` (default `queues:`); every
/// key `expect` lists must equal the derived one (keys it omits are not asserted).
fn key_names(case: &CaseRef<'_>) -> Step<()> {
    let c = Case::new(case);
    let queue = c.str("queue")?;
    let prefix = match c.get("key_prefix") {
        None => "queues:",
        Some(_) => c.str("key_prefix")?,
    };
    let derived = redis::layout_keys_with_prefix(prefix, queue).to_map();
    if c.get("expect").is_none() && c.get("expect_keys").is_some() {
        // The reconstructed pre-release shape: all four names, compared as a whole map.
        return harness::compare_map(&c, "expect_keys", &derived);
    }
    let expected = c.object("expect")?;
    for (name, want) in expected {
        check_key(&c, name, want, &derived)?;
    }
    Ok(())
}

fn check_key(c: &Case<'_>, name: &str, want: &Value, derived: &Map<String, Value>) -> Step<()> {
    match derived.get(name) {
        Some(got) if got == want => Ok(()),
        Some(got) => Err(c.mismatch(
            "expect",
            format!("{name}: {}", compact(want)),
            format!("{name}: {}", compact(got)),
        )),
        None => Err(c.mismatch(
            "expect",
            format!("{name}: {}", compact(want)),
            format!("no key `{name}` in the layout (ready, delayed, reserved, notify)"),
        )),
    }
}
