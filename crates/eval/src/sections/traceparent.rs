//! The `traceparent` section (scope otel): consumer-side W3C `traceparent` extraction
//! (ADR-0028) with the `trace_id` fallback (ADR-0025). A `mode: extract` case gives the
//! delivered header (`traceparent`, a string, or null when the transport delivered none) and
//! the envelope's `trace_id`; every field of `expect` (`source`, `trace_id_hex`,
//! `parent_span_id`, `flags`) must equal what the extraction yields. A fallback context has no
//! parent span id and no flags, so an expectation of either is a mismatch there.

use serde_json::{Map, Value};

use crate::bindings::harness;
use crate::bindings::traceparent::{TraceContext, extract};
use crate::case::{Case, Step, compact, finish};
use crate::model::expect::{mismatch_at, sub_pointer};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    match case.sub_key {
        None => finish(run_case(&Case::new(case))),
        Some(_) => harness::unknown_sub_key(case, "traceparent"),
    }
}

fn run_case(c: &Case<'_>) -> Step<()> {
    match c.str("mode")? {
        "extract" => extract_case(c),
        other => Err(c.malformed("mode", format!("`mode` must be \"extract\", not {other:?}"))),
    }
}

fn extract_case(c: &Case<'_>) -> Step<()> {
    let header = match c.require("traceparent")? {
        Value::Null => None,
        Value::String(text) => Some(text.as_str()),
        _ => {
            return Err(c.malformed(
                "traceparent",
                "`traceparent` must be a string, or null when the header is absent",
            ));
        }
    };
    let trace_id = c.str("trace_id")?;
    let expect = c.object("expect")?;
    let derived = fields(&extract(header, trace_id));
    let base = c.ptr("expect");
    for (field, want) in expect {
        let got = derived.get(field);
        if got != Some(want) {
            return Err(mismatch_at(
                sub_pointer(&base, field),
                compact(want),
                got.map_or_else(|| "absent (the header was not used)".to_string(), compact),
            ));
        }
    }
    Ok(())
}

/// The context as the suite names its fields.
fn fields(context: &TraceContext) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("source".into(), Value::from(context.source.word()));
    out.insert(
        "trace_id_hex".into(),
        Value::from(context.trace_id_hex.as_str()),
    );
    if let Some(parent) = &context.parent_span_id {
        out.insert("parent_span_id".into(), Value::from(parent.as_str()));
    }
    if let Some(flags) = &context.flags {
        out.insert("flags".into(), Value::from(flags.as_str()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{
        assert_all_pass, assert_malformed_at, assert_mismatch_at, verdict_of,
    };
    use serde_json::json;

    const ENV: &str = "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b";
    const DERIVED: &str = "7b3f9c2ae41d4f889b2a1c0d5e6f7a8b";
    const HEADER: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

    fn fallback(name: &str, header: Value) -> Value {
        json!({"name": name, "mode": "extract", "traceparent": header, "trace_id": ENV,
               "expect": {"source": "trace_id", "trace_id_hex": DERIVED}})
    }

    fn block() -> Value {
        json!({"description": "traceparent", "cases": [
            {"name": "header-wins", "mode": "extract", "traceparent": HEADER, "trace_id": ENV,
             "expect": {"source": "traceparent", "trace_id_hex": "4bf92f3577b34da6a3ce929d0e0e4736",
                        "parent_span_id": "00f067aa0ba902b7", "flags": "00"}},
            fallback("absent", Value::Null),
            fallback("empty", json!("")),
            fallback("wrong-version", json!(HEADER.replacen("00", "01", 1))),
            fallback("five-fields", json!(format!("{HEADER}-00"))),
            {"name": "upper-uuid", "mode": "extract", "traceparent": null,
             "trace_id": ENV.to_ascii_uppercase(),
             "expect": {"source": "trace_id", "trace_id_hex": DERIVED}}
        ]})
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("traceparent", &block(), run);
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("traceparent", &block(), run);
    }

    #[test]
    fn flipped_expectations() {
        let mut b = block();
        b["cases"][0]["expect"]["flags"] = json!("01");
        let v = verdict_of("traceparent", &b, "header-wins", run);
        assert_mismatch_at(&v, "/traceparent/cases/0/expect/flags");
        b["cases"][3]["expect"]["source"] = json!("traceparent");
        let v = verdict_of("traceparent", &b, "wrong-version", run);
        assert_mismatch_at(&v, "/traceparent/cases/3/expect/source");
        b["cases"][4]["expect"]["parent_span_id"] = json!("00f067aa0ba902b7");
        let v = verdict_of("traceparent", &b, "five-fields", run);
        assert_mismatch_at(&v, "/traceparent/cases/4/expect/parent_span_id");
        b["cases"][5]["expect"]["trace_id_hex"] = json!(ENV.to_ascii_uppercase().replace('-', ""));
        let v = verdict_of("traceparent", &b, "upper-uuid", run);
        assert_mismatch_at(&v, "/traceparent/cases/5/expect/trace_id_hex");
    }

    #[test]
    fn missing_fields_are_malformed() {
        let mut b = block();
        b["cases"][1]
            .as_object_mut()
            .map(|o| o.remove("traceparent"));
        b["cases"][2]["trace_id"] = json!(5);
        b["cases"][3]["mode"] = json!("inject");
        b["cases"][4]["expect"] = json!("trace_id");
        let malformed = [
            ("absent", "/traceparent/cases/1/traceparent"),
            ("empty", "/traceparent/cases/2/trace_id"),
            ("wrong-version", "/traceparent/cases/3/mode"),
            ("five-fields", "/traceparent/cases/4/expect"),
        ];
        for (id, pointer) in malformed {
            assert_malformed_at(&verdict_of("traceparent", &b, id, run), pointer);
        }
    }
}
