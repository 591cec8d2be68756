//! Helpers the binding section runners share: pointers of inherited parameters, fixture
//! loading, typed field access beyond `Case`, whole-map comparison, and the payload-schema
//! case runner.

use std::rc::Rc;

use serde_json::{Map, Value};

use super::payload::PayloadSchema;
use super::projection::ProjectionSource;
use crate::case::{Case, Step, compact, finish};
use crate::memo;
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::{CaseRef, escape_token};

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
    fixture_text_at(case, "envelope_file", section_block, fixtures)
}

/// The text of the fixture named by the inherited string `field`, with that field's pointer.
fn fixture_text_at<'f>(
    case: &CaseRef<'_>,
    field: &str,
    section_block: &Value,
    fixtures: &'f dyn FixtureSource,
) -> Step<(&'f str, String)> {
    let (path, pointer) = inherited_str(case, field, section_block)?;
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
    load_envelope_at(case, "envelope_file", section_block, fixtures)
}

/// Like [`load_envelope`], for the envelope fixture named by the inherited field `field`.
pub fn load_envelope_at(
    case: &CaseRef<'_>,
    field: &str,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
) -> Step<(Rc<Value>, String)> {
    let (text, pointer) = fixture_text_at(case, field, section_block, fixtures)?;
    let (path, _) = inherited_str(case, field, section_block)?;
    let parsed = memo::get_or_compute(path, "envelope", || {
        match bqsuite_core::json::parse_value(text) {
            Err(e) => Err(format!("the envelope fixture is not valid JSON: {e}")),
            Ok(envelope) if !envelope.is_object() => {
                Err("the envelope fixture is not a JSON object".to_string())
            }
            Ok(envelope) => Ok(Rc::new(envelope)),
        }
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

/// Compares the case's expectation object `field` with the `derived` one member by member,
/// `first` first (the verdict word other members depend on), then the others in manifest
/// order, then members only the model derives. A difference is a mismatch at the member's own
/// pointer (`/expect/outcome`), or at `field` for a member the case does not state.
pub fn compare_members(
    c: &Case<'_>,
    field: &str,
    derived: &Map<String, Value>,
    first: &str,
) -> Step<()> {
    let expected = c.object(field)?;
    let member_ptr = |key: &str| format!("{}/{}", c.ptr(field), escape_token(key));
    let order = expected
        .keys()
        .filter(|k| k.as_str() == first)
        .chain(expected.keys().filter(|k| k.as_str() != first));
    for key in order {
        let want = &expected[key.as_str()];
        let got = match derived.get(key) {
            Some(got) if got == want => continue,
            Some(got) => compact(got),
            None => format!("no {} (the rule gives none here)", key_text(key)),
        };
        return Err(Verdict::Mismatch(crate::outcome::Mismatch {
            pointer: member_ptr(key),
            expected: compact(want),
            derived: got,
        }));
    }
    match derived.iter().find(|(key, _)| !expected.contains_key(*key)) {
        Some((key, got)) => Err(c.mismatch(
            field,
            format!("no {} key", key_text(key)),
            format!("{}: {}", key_text(key), compact(got)),
        )),
        None => Ok(()),
    }
}

/// An optional string field restricted to `words` (`None` when absent).
pub fn optional_word<'a>(c: &Case<'a>, field: &str, words: &[&str]) -> Step<Option<&'a str>> {
    match c.get(field) {
        None => Ok(None),
        Some(_) => word(c, field, words).map(Some),
    }
}

/// The verdict for a case under a sub-key the section does not define.
pub fn unknown_sub_key(case: &CaseRef<'_>, section: &str) -> Verdict {
    let message = match case.sub_key {
        Some(key) => format!("unknown {section} sub-key `{key}`"),
        None => format!("the {section} section has no direct cases"),
    };
    malformed_at(case.pointer.clone(), message)
}

/// Runs one case of a payload-schema section (`payload_schema`, `payload_schema_unicode`,
/// `payload_schema_types`):
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
    use bqsuite_core::ids::section_cases;
    use serde_json::json;

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
