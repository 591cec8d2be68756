//! Section `encode_reject`: encode refuses forbidden and colliding keys. Build from `urn`,
//! `queue`, `data` and exactly one input field — `meta` (write API), `meta_entries` (ordered
//! `[key, value]` pairs, so a repeated key is expressible), `extras_top` or `extras_meta`
//! (preserved unknown keys) — then make or encode must refuse: the derived `reject` (or `accept`
//! when the model emits an envelope) must equal `expect`. The informational
//! `offending_key` must name the refused key (as `k`, `meta.k`, `/k` or `/meta/k`).

use serde_json::Value;

use crate::case::{Case, Step, compact, finish};
use crate::model::encode::encode;
use crate::model::expect::{
    make_input, malformed_at, meta_entries, object_clone, offending_key_matches,
};
use crate::model::make::make;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

/// What `expect` says when make or encode refuses (every real case).
const REJECT: &str = "reject";

/// The case fields that can carry the rejected input; a case has exactly one.
const INPUT_FIELDS: [&str; 4] = ["meta", "meta_entries", "extras_top", "extras_meta"];

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case)))
}

fn entries_list(c: &Case<'_>) -> Step<Vec<(String, Value)>> {
    let list = c
        .require("meta_entries")?
        .as_array()
        .ok_or_else(|| c.malformed("meta_entries", "`meta_entries` must be an array"))?;
    let mut entries = Vec::with_capacity(list.len());
    for (index, item) in list.iter().enumerate() {
        match item.as_array().map(Vec::as_slice) {
            Some([Value::String(key), value]) => entries.push((key.clone(), value.clone())),
            _ => {
                return Err(malformed_at(
                    format!("{}/{index}", c.ptr("meta_entries")),
                    "an entry must be a [key, value] pair with a string key",
                ));
            }
        }
    }
    Ok(entries)
}

fn run_case(c: &Case<'_>) -> Step<()> {
    let expect = c.str("expect")?;
    let offending_key = c.str("offending_key")?;
    let mut input = make_input(c)?;
    let present: Vec<&str> = INPUT_FIELDS
        .iter()
        .copied()
        .filter(|f| c.get(f).is_some())
        .collect();
    match present.as_slice() {
        ["meta"] => input.meta_entries = meta_entries(c, "meta")?,
        ["meta_entries"] => input.meta_entries = entries_list(c)?,
        ["extras_top"] => input.extras_top = object_clone(c, "extras_top")?,
        ["extras_meta"] => input.extras_meta = object_clone(c, "extras_meta")?,
        _ => {
            return Err(malformed_at(
                c.case.pointer.clone(),
                format!(
                    "a case carries exactly one of {}; found {}",
                    INPUT_FIELDS.join(", "),
                    present.len()
                ),
            ));
        }
    }

    let refused_key = match make(input) {
        Err(error) => error.offending_key,
        Ok(message) => match encode(&message) {
            Err(error) => error.key,
            Ok(out) => {
                return Err(c.mismatch(
                    "expect",
                    expect,
                    format!("accept (encoded {})", compact(&out)),
                ));
            }
        },
    };
    if expect != REJECT {
        return Err(c.mismatch(
            "expect",
            expect,
            format!("{REJECT} (refused key {refused_key:?})"),
        ));
    }
    if offending_key_matches(offending_key, &refused_key) {
        Ok(())
    } else {
        Err(c.mismatch(
            "offending_key",
            offending_key,
            format!("refused key {refused_key:?}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{fixtures, run_all, verdict_pointer};
    use serde_json::json;

    fn case(name: &str, key: &str, field: &str, input: Value) -> Value {
        let mut c = json!({"name": name, "urn": "urn:babel:orders:created", "queue": "orders",
                           "data": {"order_id": 1042}, "expect": "reject", "offending_key": key});
        if let Some(m) = c.as_object_mut() {
            m.insert(field.to_string(), input);
        }
        c
    }

    #[test]
    fn passes_and_flips() {
        let good = json!({"description": "d", "cases": [
            case("reject-top-level-timestamp", "timestamp", "extras_top", json!({"timestamp": 1})),
            case("reject-top-level-urn", "urn", "extras_top", json!({"urn": "urn:babel:orders:created"})),
            case("reject-meta-max-retries", "max_retries", "meta", json!({"max_retries": 3})),
            case("reject-meta-attempts", "attempts", "meta", json!({"attempts": 1})),
            case("reject-meta-source", "meta.source", "meta", json!({"source": "x"})),
            case("reject-meta-ts", "/meta/ts", "meta", json!({"ts": 1})),
            case("reject-forbidden-meta-key-in-extras", "max_retries", "extras_meta", json!({"max_retries": 3})),
            case("reject-core-meta-id", "id", "meta", json!({"id": "x"})),
            case("reject-core-meta-queue", "queue", "meta", json!({"queue": "x"})),
            case("reject-core-meta-lang", "lang", "meta", json!({"lang": "go"})),
            case("reject-core-meta-schema-version", "schema_version", "meta", json!({"schema_version": 2})),
            case("reject-core-meta-created-at", "created_at", "meta", json!({"created_at": 1})),
            case("reject-repeated-key", "ext", "meta_entries",
                 json!([["ext", {"acme": {"a": 1}}], ["ext", {"acme": {"a": 2}}]]))
        ]});
        let verdicts = run_all(run, "encode_reject", &good, &fixtures(&[]));
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let flipped = json!({"description": "d", "cases": [
            case("a", "vendor_flag", "meta", json!({"vendor_flag": true})),
            case("b", "timestamp", "extras_top", json!({"Timestamp": 1})),
            case("c", "ext", "meta_entries", json!([["ext", 1], ["other", 2]])),
            case("d", "ts", "meta", json!({"source": 1})),
            flipped_expect("e", "reject-flipped"),
            flipped_expect("f", "accept")
        ]});
        let got: Vec<String> = run_all(run, "encode_reject", &flipped, &fixtures(&[]))
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /encode_reject/cases/0/expect",
                "mismatch /encode_reject/cases/1/expect",
                "mismatch /encode_reject/cases/2/expect",
                "mismatch /encode_reject/cases/3/offending_key",
                "mismatch /encode_reject/cases/4/expect",
                "mismatch /encode_reject/cases/5/expect",
            ]
        );
    }

    fn flipped_expect(name: &str, expect: &str) -> Value {
        let mut c = case(name, "ts", "meta", json!({"ts": 1}));
        c["expect"] = json!(expect);
        c
    }

    #[test]
    fn malformed_cases() {
        let mut two = case("b", "ts", "meta", json!({"ts": 1}));
        if let Some(m) = two.as_object_mut() {
            m.insert("extras_top".into(), json!({"timestamp": 1}));
        }
        let mut accept = case("d", "ts", "meta", json!({"ts": 1}));
        if let Some(m) = accept.as_object_mut() {
            m.insert("expect".into(), json!(false));
        }
        let block = json!({"cases": [
            {"name": "a", "urn": "u", "queue": "q", "data": {}, "expect": "reject",
             "offending_key": "ts"},
            two,
            case("c", "ext", "meta_entries", json!([["ext", 1, 2]])),
            accept,
            case("e", "ts", "extras_meta", json!([]))
        ]});
        let got: Vec<String> = run_all(run, "encode_reject", &block, &fixtures(&[]))
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /encode_reject/cases/0",
                "malformed /encode_reject/cases/1",
                "malformed /encode_reject/cases/2/meta_entries/0",
                "malformed /encode_reject/cases/3/expect",
                "malformed /encode_reject/cases/4/extras_meta",
            ]
        );
    }
}
