//! The `rabbitmq` section (scope amqp): the RabbitMQ / AMQP 0-9-1 binding (broker-bindings §2).
//!
//! - `property_projection`: the basic `properties` (type, correlation_id, message_id, app_id,
//!   content_type) and the native-typed `headers` (x-schema-version and x-attempts stay
//!   numbers) projected from `envelope_file`.

use serde_json::Value;

use crate::eval::bindings::harness;
use crate::eval::bindings::projection;
use crate::eval::case::{Case, Step, finish};
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        Some("property_projection") => finish(projection_case(case, section_block, fixtures)),
        _ => harness::unknown_sub_key(case, "rabbitmq"),
    }
}

fn projection_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<()> {
    let c = Case::new(case);
    let source = harness::projection_source(case, section_block, fixtures)?;
    let derived = projection::rabbitmq_projection(&source);
    harness::compare_map(&c, "properties", &derived.properties)?;
    harness::compare_map(&c, "headers", &derived.headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn block() -> Value {
        json!({
            "description": "rabbitmq",
            "property_projection": {
                "description": "p",
                "envelope_file": "fixtures/order-created.json",
                "properties": {
                    "type":           "urn:babel:orders:created",
                    "correlation_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
                    "message_id":     "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
                    "app_id":         "babelqueue",
                    "content_type":   "application/json"
                },
                "headers": {
                    "x-schema-version": 1,
                    "x-source-lang":    "php",
                    "x-attempts":       0
                }
            }
        })
    }

    #[test]
    fn junk_never_panics() {
        crate::eval::bindings::testutil::assert_no_panic_on_junk("rabbitmq", &block(), run);
    }

    #[test]
    fn projection_passes() {
        assert_all_pass("rabbitmq", &block(), run);
    }

    #[test]
    fn stringified_header_is_a_mismatch() {
        let mut b = block();
        b["property_projection"]["headers"]["x-attempts"] = json!("0");
        let v = verdict_of("rabbitmq", &b, "property_projection", run);
        assert_mismatch_at(&v, "/rabbitmq/property_projection/headers");
        let mut b = block();
        b["property_projection"]["properties"]["app_id"] = json!("other");
        let v = verdict_of("rabbitmq", &b, "property_projection", run);
        assert_mismatch_at(&v, "/rabbitmq/property_projection/properties");
    }
}
