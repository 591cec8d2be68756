//! Helpers the binding section runners share: pointers of inherited parameters, fixture
//! loading, typed field access beyond `Case`, whole-map comparison, and the
//! `schema_version_gate` runner common to sqs, asb, pulsar, kafka and artemis.

use std::rc::Rc;

use serde_json::{Map, Value};

use super::Binding;
use super::gate::{self, GateInput, GateVerdict};
use super::payload::PayloadSchema;
use super::projection::ProjectionSource;
use crate::eval::case::{Case, Step, compact, finish};
use crate::eval::memo;
use crate::eval::outcome::{FixtureSource, Verdict};
use crate::suite::ids::{CaseRef, escape_token};

/// A malformed verdict at an explicit pointer.
pub fn malformed_at(pointer: impl Into<String>, message: impl Into<String>) -> Verdict {
    Verdict::Malformed {
        pointer: pointer.into(),
        message: message.into(),
    }
}

/// Pointer of the section that holds `case` (`/sqs`): the first token of its pointer.
pub fn section_pointer(case: &CaseRef<'_>) -> String {
    let rest = case.pointer.strip_prefix('/').unwrap_or(&case.pointer);
    match rest.split('/').next() {
        Some(token) => format!("/{token}"),
        None => String::new(),
    }
}

/// Pointer of the object that owns `case` (`case.parent`): the sub-key object, or the section
/// itself for direct cases.
pub fn parent_pointer(case: &CaseRef<'_>) -> String {
    match case.sub_key {
        Some(key) => format!("{}/{}", section_pointer(case), escape_token(key)),
        None => section_pointer(case),
    }
}

/// A field looked up like [`Case::inherited`] (case, then its owner, then the section), with
/// the pointer of where it was found.
pub fn inherited_ptr<'a>(
    case: &CaseRef<'a>,
    field: &str,
    section_block: &'a Value,
) -> Option<(&'a Value, String)> {
    let token = escape_token(field);
    if let Some(value) = case.case.get(field) {
        return Some((value, format!("{}/{token}", case.pointer)));
    }
    if let Some(value) = case.parent.get(field) {
        return Some((value, format!("{}/{token}", parent_pointer(case))));
    }
    section_block
        .get(field)
        .map(|value| (value, format!("{}/{token}", section_pointer(case))))
}

/// A required inherited field (malformed at the case's own field pointer when missing).
pub fn require_inherited<'a>(
    case: &CaseRef<'a>,
    field: &str,
    section_block: &'a Value,
) -> Step<(&'a Value, String)> {
    inherited_ptr(case, field, section_block).ok_or_else(|| {
        malformed_at(
            format!("{}/{}", case.pointer, escape_token(field)),
            format!("missing required field `{field}` (on the case, its owner or the section)"),
        )
    })
}

/// A required inherited string field.
pub fn inherited_str<'a>(
    case: &CaseRef<'a>,
    field: &str,
    section_block: &'a Value,
) -> Step<(&'a str, String)> {
    let (value, pointer) = require_inherited(case, field, section_block)?;
    match value.as_str() {
        Some(text) => Ok((text, pointer)),
        None => Err(malformed_at(pointer, format!("`{field}` must be a string"))),
    }
}

/// The text of the fixture named by the inherited `envelope_file`, with that field's pointer.
pub fn load_fixture_text<'f>(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &'f dyn FixtureSource,
) -> Step<(&'f str, String)> {
    let (path, pointer) = inherited_str(case, "envelope_file", section_block)?;
    match fixtures.text(path) {
        Some(text) => Ok((text, pointer)),
        None => Err(malformed_at(
            pointer,
            format!("fixture `{path}` is not in the suite"),
        )),
    }
}

/// The parsed envelope named by the inherited `envelope_file` (a JSON object; duplicate keys
/// resolve last-wins), with that field's pointer. Parsed once per evaluation (see [`memo`]).
pub fn load_envelope(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<(Rc<Value>, String)> {
    let (text, pointer) = load_fixture_text(case, section_block, fixtures)?;
    let (path, _) = inherited_str(case, "envelope_file", section_block)?;
    let parsed = memo::get_or_compute(path, "envelope", || match crate::json::parse_value(text) {
        Err(e) => Err(format!("the envelope fixture is not valid JSON: {e}")),
        Ok(envelope) if !envelope.is_object() => {
            Err("the envelope fixture is not a JSON object".to_string())
        }
        Ok(envelope) => Ok(Rc::new(envelope)),
    });
    match &*parsed {
        Ok(envelope) => Ok((envelope.clone(), pointer)),
        Err(why) => Err(malformed_at(pointer, why.clone())),
    }
}

/// The projection inputs of the inherited `envelope_file`.
pub fn projection_source(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<ProjectionSource> {
    let (envelope, pointer) = load_envelope(case, section_block, fixtures)?;
    ProjectionSource::from_envelope(&envelope).map_err(|e| malformed_at(pointer, e.to_string()))
}

/// A required non-negative integer field.
pub fn uint(c: &Case<'_>, field: &str) -> Step<u64> {
    c.require(field)?
        .as_u64()
        .ok_or_else(|| c.malformed(field, format!("`{field}` must be a non-negative integer")))
}

/// A required field that is a non-negative integer or null (`None`).
pub fn uint_or_null(c: &Case<'_>, field: &str) -> Step<Option<u64>> {
    match c.require(field)? {
        Value::Null => Ok(None),
        value => value.as_u64().map(Some).ok_or_else(|| {
            c.malformed(
                field,
                format!("`{field}` must be a non-negative integer or null"),
            )
        }),
    }
}

/// A required string field restricted to `words`.
pub fn word<'a>(c: &Case<'a>, field: &str, words: &[&str]) -> Step<&'a str> {
    let text = c.str(field)?;
    if words.contains(&text) {
        Ok(text)
    } else {
        Err(c.malformed(
            field,
            format!("`{field}` must be one of {}", words.join(", ")),
        ))
    }
}

fn key_text(key: &str) -> String {
    compact(&Value::String(key.to_owned()))
}

/// Compares the whole expected map at `field` with the derived one (key order is not
/// significant; values compare with type distinction). On a difference the mismatch sits at
/// `field` and both sides name the first differing key: expected keys in manifest order
/// first, then keys only the model derives.
pub fn compare_map(c: &Case<'_>, field: &str, derived: &Map<String, Value>) -> Step<()> {
    let expected = c.object(field)?;
    if expected == derived {
        return Ok(());
    }
    compare_subset(c, field, derived)?;
    for (key, got) in derived {
        if !expected.contains_key(key) {
            return Err(c.mismatch(
                field,
                format!("no {} key", key_text(key)),
                format!("{}: {}", key_text(key), compact(got)),
            ));
        }
    }
    Ok(())
}

/// Compares the case's map `field` with `derived` as a subset: every listed key must be in
/// `derived` with the same value; keys of `derived` the case does not list are not asserted.
pub fn compare_subset(c: &Case<'_>, field: &str, derived: &Map<String, Value>) -> Step<()> {
    let expected = c.object(field)?;
    for (key, want) in expected {
        match derived.get(key) {
            None => {
                return Err(c.mismatch(
                    field,
                    format!("{}: {}", key_text(key), compact(want)),
                    format!("no {} key", key_text(key)),
                ));
            }
            Some(got) if got != want => {
                return Err(c.mismatch(
                    field,
                    format!("{}: {}", key_text(key), compact(want)),
                    format!("{}: {}", key_text(key), compact(got)),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The verdict for a case under a sub-key the section does not define.
pub fn unknown_sub_key(case: &CaseRef<'_>, section: &str) -> Verdict {
    let message = match case.sub_key {
        Some(key) => format!("unknown {section} sub-key `{key}`"),
        None => format!("the {section} section has no direct cases"),
    };
    malformed_at(case.pointer.clone(), message)
}

/// Runs one `schema_version_gate` case of `binding`.
pub fn run_gate(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
    binding: Binding,
) -> Verdict {
    finish(gate_case(case, section_block, fixtures, binding))
}

fn gate_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
    binding: Binding,
) -> Step<()> {
    let c = Case::new(case);
    let (property, property_ptr) = inherited_str(case, "property", section_block)?;
    // The body is always a valid envelope: it must at least be there and parse.
    load_envelope(case, section_block, fixtures)?;
    let expected_text = word(&c, "expect", &["decode", "reject"])?;
    let expected = GateVerdict::parse(expected_text)
        .ok_or_else(|| c.malformed("expect", "`expect` must be decode or reject"))?;
    let float_marker = match c.get("value_type") {
        None => false,
        Some(Value::String(s)) if s == "float" => true,
        Some(_) => {
            return Err(c.malformed("value_type", "the only `value_type` is \"float\""));
        }
    };
    let absent = match c.get("absent") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(c.malformed("absent", "`absent` must be a boolean")),
    };
    let input = match (c.get("value"), absent) {
        (Some(_), true) => {
            return Err(c.malformed(
                "value",
                "a case has either `value` or `absent: true`, not both",
            ));
        }
        (None, false) => {
            return Err(c.malformed(
                "value",
                "missing required field `value` (or `absent: true`)",
            ));
        }
        (None, true) => GateInput::Absent,
        (Some(Value::Null), false) if binding.carries_null_property() => GateInput::Null,
        (Some(Value::Null), false) => {
            return Err(c.malformed(
                "value",
                format!(
                    "the {} binding cannot carry a null property value",
                    binding.section()
                ),
            ));
        }
        (Some(Value::String(s)), false) => GateInput::Str(s),
        (Some(Value::Number(n)), false) if binding.carries_number_property() => GateInput::Number {
            value: n,
            float_marker,
        },
        (Some(_), false) if binding.carries_number_property() => GateInput::Other,
        (Some(_), false) => {
            return Err(c.malformed(
                "value",
                format!(
                    "the {} gate property is a string: only string values, null or `absent: true`",
                    binding.section()
                ),
            ));
        }
    };
    if float_marker && !matches!(input, GateInput::Number { .. }) {
        return Err(c.malformed(
            "value_type",
            "`value_type: \"float\"` only marks a number value",
        ));
    }
    if let GateInput::Number {
        value,
        float_marker,
    } = input
    {
        // Every native width the value fits must give the expected verdict.
        for number in gate::asb_number_encodings(value, float_marker) {
            let derived = gate::gate_amqp_number(number);
            if derived != expected {
                return Err(c.mismatch(
                    "expect",
                    expected.as_str(),
                    format!("{} (as {})", derived.as_str(), number.width()),
                ));
            }
        }
    } else {
        let derived = gate::gate(binding, input);
        if derived != expected {
            return Err(c.mismatch("expect", expected.as_str(), derived.as_str()));
        }
    }
    // The property name is the table's shared parameter; check it once the case itself holds.
    if property != binding.gate_property() {
        return Err(Verdict::Mismatch(crate::eval::outcome::Mismatch {
            pointer: property_ptr,
            expected: compact(&Value::String(property.to_owned())),
            derived: compact(&Value::String(binding.gate_property().to_owned())),
        }));
    }
    Ok(())
}

/// Runs one case of a payload-schema section (`payload_schema`, `payload_schema_unicode`):
/// `data` validated against the section-level draft-07 `schema` must give `valid`.
pub fn run_payload_schema(case: &CaseRef<'_>, section_block: &Value, section: &str) -> Verdict {
    match case.sub_key {
        None => finish(payload_case(case, section_block)),
        Some(_) => unknown_sub_key(case, section),
    }
}

fn payload_case(case: &CaseRef<'_>, section_block: &Value) -> Step<()> {
    let c = Case::new(case);
    let data = c.require("data")?;
    let expected = c.require("valid")?;
    c.bool("valid")?;
    let schema_ptr = format!("{}/schema", section_pointer(case));
    let schema = section_block
        .get("schema")
        .ok_or_else(|| malformed_at(schema_ptr.clone(), "missing the section-level `schema`"))?;
    let compiled =
        PayloadSchema::compile(schema).map_err(|e| malformed_at(schema_ptr, e.to_string()))?;
    c.expect_eq("valid", expected, &Value::Bool(compiled.is_valid(data)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bindings::testutil::{
        assert_malformed_at, assert_mismatch_at, fixtures, run_all,
    };
    use crate::suite::ids::section_cases;
    use serde_json::json;

    fn run_sqs_gate(case: &CaseRef<'_>, block: &Value, fx: &dyn FixtureSource) -> Verdict {
        run_gate(case, block, fx, Binding::Sqs)
    }

    #[test]
    fn pointers() {
        let block = json!({
            "envelope_file": "x",
            "one": { "a": 1 },
            "many": { "property": "p", "cases": [{ "name": "n" }] },
            "cases": [{ "name": "d" }]
        });
        let cases = section_cases("sec", &block);
        assert_eq!(parent_pointer(&cases[0]), "/sec/one");
        assert_eq!(parent_pointer(&cases[1]), "/sec/many");
        assert_eq!(parent_pointer(&cases[2]), "/sec");
        let (_, p) = inherited_ptr(&cases[1], "property", &block).expect("found");
        assert_eq!(p, "/sec/many/property");
        let (_, p) = inherited_ptr(&cases[1], "envelope_file", &block).expect("found");
        assert_eq!(p, "/sec/envelope_file");
        let (_, p) = inherited_ptr(&cases[1], "name", &block).expect("found");
        assert_eq!(p, "/sec/many/cases/0/name");
        assert!(inherited_ptr(&cases[0], "zzz", &block).is_none());
    }

    #[test]
    fn gate_property_name_is_checked() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq_schema_version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [{ "name": "value-1", "value": "1", "expect": "decode" }]
            }
        });
        let out = run_all("sqs", &block, &fixtures(), run_sqs_gate);
        assert_mismatch_at(&out[0].1, "/sqs/schema_version_gate/property");
    }

    #[test]
    fn gate_malformed_shapes() {
        let block = json!({
            "schema_version_gate": {
                "property": "bq-schema-version",
                "envelope_file": "fixtures/order-created.json",
                "cases": [
                    { "name": "both", "value": "1", "absent": true, "expect": "decode" },
                    { "name": "neither", "expect": "decode" },
                    { "name": "null", "value": null, "expect": "decode" },
                    { "name": "number", "value": 1, "expect": "decode" },
                    { "name": "bad-expect", "value": "1", "expect": "accept" },
                    { "name": "marker-on-string", "value": "1", "value_type": "float", "expect": "reject" },
                    { "name": "absent-false", "absent": false, "expect": "decode" }
                ]
            }
        });
        let out = run_all("sqs", &block, &fixtures(), run_sqs_gate);
        let base = "/sqs/schema_version_gate/cases";
        assert_malformed_at(&out[0].1, &format!("{base}/0/value"));
        assert_malformed_at(&out[1].1, &format!("{base}/1/value"));
        assert_malformed_at(&out[2].1, &format!("{base}/2/value"));
        assert_malformed_at(&out[3].1, &format!("{base}/3/value"));
        assert_malformed_at(&out[4].1, &format!("{base}/4/expect"));
        assert_malformed_at(&out[5].1, &format!("{base}/5/value_type"));
        assert_malformed_at(&out[6].1, &format!("{base}/6/value"));
        let out = run_all(
            "sqs",
            &block,
            &std::collections::BTreeMap::new(),
            run_sqs_gate,
        );
        assert_malformed_at(&out[0].1, "/sqs/schema_version_gate/envelope_file");
    }

    #[test]
    fn compare_map_names_first_differing_key() {
        let block = json!({ "p": { "m": { "a": 1, "b": 2 } } });
        let cases = section_cases("s", &block);
        let c = Case::new(&cases[0]);
        let derived: Map<String, Value> = [("b".to_owned(), json!(2)), ("a".to_owned(), json!(1))]
            .into_iter()
            .collect();
        assert_eq!(compare_map(&c, "m", &derived), Ok(()));
        let wrong: Map<String, Value> = [("a".to_owned(), json!("1")), ("b".to_owned(), json!(2))]
            .into_iter()
            .collect();
        match compare_map(&c, "m", &wrong) {
            Err(Verdict::Mismatch(m)) => {
                assert_eq!(m.pointer, "/s/p/m");
                assert_eq!(m.expected, "\"a\": 1");
                assert_eq!(m.derived, "\"a\": \"1\"");
            }
            other => panic!("{other:?}"),
        }
        let extra: Map<String, Value> = [
            ("a".to_owned(), json!(1)),
            ("b".to_owned(), json!(2)),
            ("c".to_owned(), json!(3)),
        ]
        .into_iter()
        .collect();
        match compare_map(&c, "m", &extra) {
            Err(Verdict::Mismatch(m)) => assert!(m.derived.contains("\"c\"")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            compare_map(&c, "zz", &extra),
            Err(Verdict::Malformed { .. })
        ));
    }

    #[test]
    fn broken_fixture_is_malformed() {
        let block = json!({ "p": { "envelope_file": "f.json" } });
        let cases = section_cases("s", &block);
        let mut fx = std::collections::BTreeMap::new();
        fx.insert("f.json".to_owned(), "{ not json".to_owned());
        let got = load_envelope(&cases[0], &block, &fx).map(|_| ());
        assert!(
            matches!(got, Err(Verdict::Malformed { ref pointer, .. }) if pointer == "/s/p/envelope_file")
        );
        fx.insert("f.json".to_owned(), "[1]".to_owned());
        assert!(load_envelope(&cases[0], &block, &fx).is_err());
        fx.insert("f.json".to_owned(), "{\"a\":1}".to_owned());
        assert!(projection_source(&cases[0], &block, &fx).is_err());
    }
}
