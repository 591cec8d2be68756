//! The `redis` section (scope redis): the Redis binding (broker-bindings §1).
//!
//! - `payload_identity`: the fixture `envelope_file` (a valid JSON object envelope) is stored
//!   as the queue element and reserved back byte for byte, with no wrapping or added fields.

use serde_json::Value;

use crate::bindings::harness::{self, malformed_at};
use crate::bindings::redis;
use crate::case::{Case, Step, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("payload_identity") => finish(payload_identity_case(case, section_block, fixtures)),
        _ => harness::unknown_sub_key(case, "redis"),
    }
}

fn payload_identity_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    // The element must be an envelope: a JSON object.
    let (_, pointer) = harness::load_envelope(case, section_block, fixtures)?;
    let (text, _) = harness::load_fixture_text(case, section_block, fixtures)?;
    let element = redis::produce(text);
    let reserved = redis::reserve(&element);
    if reserved.as_bytes() != text.as_bytes() {
        return Err(c.mismatch(
            "envelope_file",
            "the reserved element equals the envelope bytes",
            "the reserved element differs",
        ));
    }
    if !redis::payload_identity_holds(text) {
        return Err(malformed_at(pointer, "payload identity does not hold"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{assert_all_pass, assert_malformed_at, verdict_of};
    use serde_json::json;

    #[test]
    fn junk_never_panics() {
        let b = json!({ "payload_identity": { "envelope_file": "fixtures/order-created.json" } });
        crate::bindings::testutil::assert_no_panic_on_junk("redis", &b, run);
    }

    #[test]
    fn identity_passes() {
        let b = json!({
            "description": "redis",
            "payload_identity": {
                "description": "d",
                "envelope_file": "fixtures/order-created.json"
            }
        });
        assert_all_pass("redis", &b, run);
    }

    #[test]
    fn missing_fixture_is_malformed() {
        let b = json!({ "payload_identity": { "envelope_file": "fixtures/nope.json" } });
        let v = verdict_of("redis", &b, "payload_identity", run);
        assert_malformed_at(&v, "/redis/payload_identity/envelope_file");
        let b = json!({ "payload_identity": { "description": "no file" } });
        let v = verdict_of("redis", &b, "payload_identity", run);
        assert_malformed_at(&v, "/redis/payload_identity/envelope_file");
    }

    #[test]
    fn unknown_sub_key() {
        let b = json!({ "layout": { "queue": "q" } });
        let v = verdict_of("redis", &b, "layout", run);
        assert!(matches!(v, Verdict::Malformed { ref message, .. } if message.contains("layout")));
    }
}
