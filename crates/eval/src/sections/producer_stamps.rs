//! The `producer_stamps` section (scope core): the per-message fields the producer API stamps,
//! asserted for their form, never their value. Build with `urn`, `queue`, `data` (and
//! `trace_id` when given) between two readings of the clock, encode, and check:
//! `expect_envelope` (pointer -> value, as in `extension_write`), `expect_stamps` (pointer ->
//! `uuid`: the RFC 4122 text form; `unix_ms_now`: an integer of Unix milliseconds between the
//! two readings, 1 ms of rounding allowed at each end) and `expect_distinct` (pointers that
//! hold values, pairwise different).
//!
//! The model's clock reads [`MODEL_CLOCK_MS`] both times.

use serde_json::Value;

use crate::case::{Case, Step, compact, finish};
use crate::model::encode::encode;
use crate::model::expect::{
    check_pointer_values, make_error_verdict, make_input, malformed_at, mismatch_at,
    resolve_checked, sub_pointer,
};
use crate::model::make::make;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// The model's clock during a case, in Unix milliseconds (2026-12-03T12:34:56.789Z): a reading
/// with non-zero milliseconds, so that whole seconds are told apart.
pub const MODEL_CLOCK_MS: u64 = 1_796_301_296_789;

/// How far a `unix_ms_now` stamp may fall outside the two readings: a clock that rounds rather
/// than truncates its milliseconds.
const ROUNDING_MS: u64 = 1;

/// The forms `expect_stamps` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stamp {
    Uuid,
    UnixMsNow,
}

impl Stamp {
    fn parse(word: &Value) -> Option<Stamp> {
        match word.as_str()? {
            "uuid" => Some(Stamp::Uuid),
            "unix_ms_now" => Some(Stamp::UnixMsNow),
            _ => None,
        }
    }

    /// What a stamp of this form is, for the expected side of a mismatch.
    fn words(self) -> String {
        match self {
            Stamp::Uuid => "a UUID in its text form (8-4-4-4-12 hex digits with hyphens)".into(),
            Stamp::UnixMsNow => format!(
                "an integer of Unix milliseconds at the clock reading {MODEL_CLOCK_MS} \
                 (±{ROUNDING_MS} for rounding)"
            ),
        }
    }

    fn holds(self, value: &Value) -> bool {
        match self {
            Stamp::Uuid => value.as_str().is_some_and(is_uuid_text),
            Stamp::UnixMsNow => value.as_u64().is_some_and(|ms| {
                (MODEL_CLOCK_MS - ROUNDING_MS..=MODEL_CLOCK_MS + ROUNDING_MS).contains(&ms)
            }),
        }
    }
}

/// The RFC 4122 text form of a UUID: 32 hex digits (either case) in groups of 8, 4, 4, 4 and
/// 12, joined by hyphens.
pub fn is_uuid_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case)))
}

fn run_case(c: &Case<'_>) -> Step<()> {
    c.object("expect_envelope")?;
    let stamps = stamps_of(c)?;
    let distinct = distinct_of(c)?;
    let mut input = make_input(c)?;
    input.now_ms = Some(MODEL_CLOCK_MS);
    let message = make(input).map_err(|e| make_error_verdict(c, &e, "urn"))?;
    let out = encode(&message)
        .map_err(|e| c.mismatch("urn", "encoded", format!("encode refused: {e}")))?;
    check_pointer_values(c, "expect_envelope", &out, &[], "")?;
    for (pointer, at, stamp) in &stamps {
        let got = resolve_checked(&out, pointer, at)?;
        if !got.is_some_and(|v| stamp.holds(v)) {
            return Err(mismatch_at(
                at.clone(),
                stamp.words(),
                got.map_or_else(|| "absent".to_string(), compact),
            ));
        }
    }
    check_distinct(c, &out, &distinct)
}

/// The `expect_stamps` entries: pointer, its place in the manifest, and the form named.
fn stamps_of(c: &Case<'_>) -> Step<Vec<(String, String, Stamp)>> {
    let mut stamps = Vec::new();
    for (pointer, word) in c.object("expect_stamps")? {
        let at = sub_pointer(&c.ptr("expect_stamps"), pointer);
        let stamp = Stamp::parse(word).ok_or_else(|| {
            malformed_at(
                at.clone(),
                format!(
                    "`{}` is not a stamp form: `uuid` or `unix_ms_now`",
                    compact(word)
                ),
            )
        })?;
        stamps.push((pointer.clone(), at, stamp));
    }
    Ok(stamps)
}

/// The `expect_distinct` pointers (an array of strings), with their places.
fn distinct_of(c: &Case<'_>) -> Step<Vec<(String, String)>> {
    let list = c.require("expect_distinct")?.as_array().ok_or_else(|| {
        c.malformed(
            "expect_distinct",
            "`expect_distinct` must be an array of JSON pointers",
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let at = sub_pointer(&c.ptr("expect_distinct"), &i.to_string());
            p.as_str()
                .map(|p| (p.to_string(), at.clone()))
                .ok_or_else(|| {
                    malformed_at(
                        at,
                        "an `expect_distinct` entry must be a JSON pointer (a string)",
                    )
                })
        })
        .collect()
}

/// Every `expect_distinct` pointer holds a value, and no two of them hold the same one.
fn check_distinct(c: &Case<'_>, out: &Value, distinct: &[(String, String)]) -> Step<()> {
    let mut seen: Vec<(&str, &Value)> = Vec::new();
    for (pointer, at) in distinct {
        let Some(value) = resolve_checked(out, pointer, at)? else {
            return Err(mismatch_at(
                at.clone(),
                format!("a value at {pointer}"),
                "absent",
            ));
        };
        if let Some((other, _)) = seen.iter().find(|(_, v)| *v == value) {
            return Err(mismatch_at(
                c.ptr("expect_distinct"),
                format!("{other} and {pointer} differ"),
                format!("both are {}", compact(value)),
            ));
        }
        seen.push((pointer, value));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::testutil::{assert_all_pass, assert_mismatch_at, verdict_of};
    use serde_json::json;

    fn case(name: &str, trace_id: Value, stamps: Value, distinct: Value) -> Value {
        json!({"name": name, "urn": "urn:acme:orders:created", "queue": "orders",
               "data": {"order_id": 1042}, "trace_id": trace_id, "expect_envelope": {},
               "expect_stamps": stamps, "expect_distinct": distinct})
    }

    fn block() -> Value {
        json!({"description": "stamps", "cases": [
            case("clock", Value::Null, json!({"/meta/created_at": "unix_ms_now"}), json!([])),
            case("ids", Value::Null, json!({"/meta/id": "uuid", "/trace_id": "uuid"}), json!([])),
            case("own-id", json!("4bf92f35-77b3-4da6-a3ce-929d0e0e4736"), json!({}),
                 json!(["/meta/id", "/trace_id"]))
        ]})
    }

    #[test]
    fn all_cases_pass() {
        assert_all_pass("producer_stamps", &block(), run);
    }

    #[test]
    fn junk_never_panics() {
        crate::bindings::testutil::assert_no_panic_on_junk("producer_stamps", &block(), run);
    }

    #[test]
    fn a_wrong_form_or_a_shared_value_is_a_mismatch_where_it_is_named() {
        let mut b = block();
        b["cases"][0]["expect_stamps"] = json!({"/meta/created_at": "uuid"});
        b["cases"][1]["expect_stamps"] = json!({"/meta/queue": "unix_ms_now"});
        b["cases"][2]["expect_distinct"] =
            json!(["/meta/queue", "/meta/id", "/job", "/meta/queue"]);
        assert_mismatch_at(
            &verdict_of("producer_stamps", &b, "clock", run),
            "/producer_stamps/cases/0/expect_stamps/~1meta~1created_at",
        );
        assert_mismatch_at(
            &verdict_of("producer_stamps", &b, "ids", run),
            "/producer_stamps/cases/1/expect_stamps/~1meta~1queue",
        );
        assert_mismatch_at(
            &verdict_of("producer_stamps", &b, "own-id", run),
            "/producer_stamps/cases/2/expect_distinct",
        );
    }

    #[test]
    fn malformed_cases_name_the_member() {
        let mut b = block();
        b["cases"][0]["expect_stamps"] = json!({"/meta/created_at": "now"});
        b["cases"][1]["expect_distinct"] = json!({"/meta/id": true});
        b["cases"][2]["expect_distinct"] = json!(["/meta/id", 7]);
        for (name, at) in [
            (
                "clock",
                "/producer_stamps/cases/0/expect_stamps/~1meta~1created_at",
            ),
            ("ids", "/producer_stamps/cases/1/expect_distinct"),
            ("own-id", "/producer_stamps/cases/2/expect_distinct/1"),
        ] {
            match verdict_of("producer_stamps", &b, name, run) {
                Verdict::Malformed { pointer, .. } => assert_eq!(pointer, at),
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_uuid_text_form() {
        assert!(is_uuid_text("4bf92f35-77b3-4da6-a3ce-929d0e0e4736"));
        assert!(is_uuid_text("4BF92F35-77B3-4DA6-A3CE-929D0E0E4736"));
        for wrong in [
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "{4bf92f35-77b3-4da6-a3ce-929d0e0e4736}",
            "urn:uuid:4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
            "4bf92f35-77b3-4da6-a3ce-929d0e0e473g",
            "4bf92f35-77b34-da6-a3ce-929d0e0e4736",
            "",
        ] {
            assert!(!is_uuid_text(wrong), "{wrong}");
        }
    }
}
