//! Expectation checks shared by the section runners: reading the case's inputs, resolving the
//! manifest's JSON pointers strictly, and turning a disagreement into a verdict at the manifest
//! pointer of the field that holds the expectation.

use serde_json::{Map, Value};

use std::rc::Rc;

use super::decode::{Decoded, RejectKind, Rejection, decode_parsed};
use super::encode::{EncodeError, bump_attempts, encode, encode_owned};
use super::make::{MakeError, MakeInput};
use crate::case::{Case, Step, compact};
use crate::memo;
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::escape_token;
use bqsuite_core::json::pointer::resolve;

/// `base` extended by one (escaped) reference token.
pub fn sub_pointer(base: &str, token: &str) -> String {
    format!("{base}/{}", escape_token(token))
}

/// A mismatch verdict at an arbitrary manifest pointer.
pub fn mismatch_at(
    pointer: String,
    expected: impl Into<String>,
    derived: impl Into<String>,
) -> Verdict {
    Verdict::Mismatch(Mismatch {
        pointer,
        expected: expected.into(),
        derived: derived.into(),
    })
}

/// A malformed verdict at an arbitrary manifest pointer.
pub fn malformed_at(pointer: String, message: impl Into<String>) -> Verdict {
    Verdict::Malformed {
        pointer,
        message: message.into(),
    }
}

/// `accepted` / `rejected (<why>)`.
pub fn describe(result: &Result<Decoded, Rejection>) -> String {
    match result {
        Ok(_) => "accepted".to_string(),
        Err(r) => r.verdict_words(),
    }
}

/// `no warning` or `warnings at /urn, /meta/ts`.
pub fn describe_warnings(message: &Decoded) -> String {
    if message.warnings.is_empty() {
        "no warning".to_string()
    } else {
        let pointers: Vec<&str> = message
            .warnings
            .iter()
            .map(|w| w.pointer.as_str())
            .collect();
        format!("warnings at {}", pointers.join(", "))
    }
}

/// The text of the fixture the case's `file` field names.
pub fn fixture_text<'f>(c: &Case<'_>, fixtures: &'f dyn FixtureSource) -> Step<&'f str> {
    let file = c.str("file")?;
    c.fixture("file", file, fixtures)
}

/// Decodes the fixture the case's `file` field names (once per evaluation: see [`memo`]).
pub fn decode_fixture(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<Rc<Decode>> {
    let file = c.str("file")?;
    let text = c.fixture("file", file, fixtures)?;
    Ok(decode_file(file, text))
}

/// What decoding a fixture gives.
pub type Decode = Result<Decoded, Rejection>;

/// Decodes the text of the fixture `file` (once per evaluation: see [`memo`]).
pub fn decode_file(file: &str, text: &str) -> Rc<Decode> {
    memo::get_or_compute(file, "decode", || {
        decode_parsed(text, memo::take(file, PARSED))
    })
}

/// The memo key under which a fixture's parsed value may be [`memo::offer`]ed, so that decoding
/// it does not parse it again.
pub const PARSED: &str = "parsed";

/// The fixture the case's `file` field names, decoded and re-encoded unchanged, or why not (once
/// per evaluation: see [`memo`]).
pub fn reencode_fixture(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<Rc<Reencode>> {
    let file = c.str("file")?;
    let decoded = decode_fixture(c, fixtures)?;
    Ok(memo::get_or_compute(file, "reencode", || match &*decoded {
        Ok(message) => encode(message).map_err(Refused::Encode),
        Err(rejection) => Err(Refused::Decode(rejection.verdict_words())),
    }))
}

/// What re-encoding a fixture gives.
pub type Reencode = Result<Value, Refused>;

/// Why a fixture was not re-encoded.
#[derive(Debug, Clone)]
pub enum Refused {
    /// Decoding rejected it (the verdict in words).
    Decode(String),
    Encode(EncodeError),
}

/// The re-encoded document, or the case's mismatch at `field`: the fixture was not accepted
/// (`accepted` says what was expected instead) or encode refused it.
pub fn reencoded<'r>(
    c: &Case<'_>,
    result: &'r Reencode,
    field: &str,
    accepted: &str,
) -> Step<&'r Value> {
    result.as_ref().map_err(|refused| match refused {
        Refused::Decode(words) => c.mismatch(field, accepted, words.clone()),
        Refused::Encode(e) => c.mismatch(field, "re-encoded", format!("encode refused: {e}")),
    })
}

/// The fixture the case's `file` field names through one retry hop: decoded, `attempts + 1`,
/// re-encoded (once per evaluation: see [`memo`]). Decode warnings do not stop the hop.
pub fn retry_fixture(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<Rc<Reencode>> {
    let file = c.str("file")?;
    let text = c.fixture("file", file, fixtures)?;
    Ok(memo::get_or_compute(file, "retry", || {
        let mut message = decode_parsed(text, memo::take(file, PARSED))
            .map_err(|r| Refused::Decode(r.verdict_words()))?;
        bump_attempts(&mut message);
        encode_owned(message).map_err(Refused::Encode)
    }))
}

/// `text` without the whitespace JSON allows between tokens (space, `\t`, `\n`, `\r` outside
/// strings); string contents, escapes included, are kept as written. Works on any text, JSON or
/// not, so a wrong expectation compares unequal instead of failing to parse.
pub fn strip_insignificant_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for ch in text.chars() {
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
            out.push(ch);
        } else if !matches!(ch, ' ' | '\t' | '\n' | '\r') {
            out.push(ch);
        }
    }
    out
}

/// Resolves `pointer` (a string found in the manifest at `at`) in `doc`; a syntactically invalid
/// pointer makes the case malformed.
pub fn resolve_checked<'v>(doc: &'v Value, pointer: &str, at: &str) -> Step<Option<&'v Value>> {
    resolve(doc, pointer).map_err(|e| {
        malformed_at(
            at.to_string(),
            format!("invalid JSON pointer `{pointer}`: {e}"),
        )
    })
}

fn derived_words(value: Option<&Value>) -> String {
    value.map_or_else(|| "absent".to_string(), compact)
}

/// Every `{ "<pointer>": <value> }` entry of the object at `field` holds in `doc` (deep equality
/// with type distinction). Pointers listed in `skip` are not evaluated. `context` is appended to
/// the derived side of a mismatch (e.g. ` after the retry hop`).
pub fn check_pointer_values(
    c: &Case<'_>,
    field: &str,
    doc: &Value,
    skip: &[&str],
    context: &str,
) -> Step<()> {
    let expected = c.object(field)?;
    for (pointer, want) in expected {
        let at = sub_pointer(&c.ptr(field), pointer);
        let got = resolve_checked(doc, pointer, &at)?;
        if skip.contains(&pointer.as_str()) {
            continue;
        }
        if got != Some(want) {
            return Err(mismatch_at(
                at,
                compact(want),
                format!("{}{context}", derived_words(got)),
            ));
        }
    }
    Ok(())
}

/// No pointer of the array at `field` exists in `doc`.
pub fn check_pointers_absent(c: &Case<'_>, field: &str, doc: &Value) -> Step<()> {
    let list = c
        .require(field)?
        .as_array()
        .ok_or_else(|| c.malformed(field, format!("`{field}` must be an array of pointers")))?;
    for (index, item) in list.iter().enumerate() {
        let at = format!("{}/{index}", c.ptr(field));
        let pointer = item
            .as_str()
            .ok_or_else(|| malformed_at(at.clone(), "a pointer must be a string"))?;
        if let Some(got) = resolve_checked(doc, pointer, &at)? {
            return Err(mismatch_at(
                at,
                format!("{pointer} absent"),
                format!("{pointer} = {}", compact(got)),
            ));
        }
    }
    Ok(())
}

/// `expected` (found at manifest pointer `at`) is an object of sub-fields that the derived
/// block must carry with deep-equal values; `derived` must be an object.
pub fn check_block_subset(at: &str, expected: &Value, derived: Option<&Value>) -> Step<()> {
    let want = expected
        .as_object()
        .ok_or_else(|| malformed_at(at.to_string(), "must be an object of sub-fields"))?;
    let Some(Value::Object(got)) = derived else {
        return Err(mismatch_at(
            at.to_string(),
            compact(expected),
            format!("no dead_letter object ({})", derived_words(derived)),
        ));
    };
    for (key, value) in want {
        let got_value = got.get(key);
        if got_value != Some(value) {
            return Err(mismatch_at(
                sub_pointer(at, key),
                compact(value),
                derived_words(got_value),
            ));
        }
    }
    Ok(())
}

/// The envelope verdict of a decode-style case: `valid` against accept/reject; for a valid case
/// every known field of `expect` (`urn`, `data`, `attempts`, `lang`, `schema_version`, `queue`,
/// `trace_id`, and `dead_letter` as a subset match) with `required` ones mandatory; for an
/// invalid case a string `reason`. `expect` itself is mandatory when `required` is not empty.
pub fn check_decode_expectations(
    c: &Case<'_>,
    result: &Result<Decoded, Rejection>,
    required: &[&str],
) -> Step<()> {
    let valid = c.bool("valid")?;
    let message = match (valid, result) {
        (true, Ok(message)) => message,
        (false, Err(_)) => {
            c.str("reason")?;
            return Ok(());
        }
        (true, Err(_)) => return Err(c.mismatch("valid", "accepted", describe(result))),
        (false, Ok(_)) => return Err(c.mismatch("valid", "rejected", "accepted")),
    };
    let expect = match c.get("expect") {
        None if required.is_empty() => return Ok(()),
        _ => c.object("expect")?,
    };
    let base = c.ptr("expect");
    for field in required {
        if !expect.contains_key(*field) {
            return Err(malformed_at(
                sub_pointer(&base, field),
                format!("missing required field `expect.{field}`"),
            ));
        }
    }
    for (field, want) in expect {
        let at = sub_pointer(&base, field);
        let got: Option<Value> = match field.as_str() {
            "urn" => Some(Value::String(message.urn.clone())),
            "data" => Some(Value::Object(message.data.clone())),
            "attempts" => Some(Value::from(message.attempts)),
            "lang" => message.meta.lang.clone(),
            "queue" => message.meta.queue.clone(),
            "schema_version" => Some(Value::from(message.meta.schema_version)),
            "trace_id" => message.trace_id.clone().map(Value::String),
            "dead_letter" => {
                check_block_subset(&at, want, message.dead_letter.as_ref())?;
                continue;
            }
            _ => continue,
        };
        if got.as_ref() != Some(want) {
            return Err(mismatch_at(at, compact(want), derived_words(got.as_ref())));
        }
    }
    Ok(())
}

/// The identity verdict of a decode case (sections `trim` and `job_type`): `valid: true` means
/// decode accepts the fixture with `expect.urn` as the resolved identity (the other known
/// `expect` fields are checked too) and warns iff `expect_warning`; `valid: false` (with a
/// string `reason`) means decode refuses it, and for lack of identity, not some other defect.
pub fn check_identity_expectations(c: &Case<'_>, result: &Result<Decoded, Rejection>) -> Step<()> {
    check_decode_expectations(c, result, &["urn"])?;
    match result {
        Ok(message) => {
            let want = c.bool("expect_warning")?;
            let warned = !message.warnings.is_empty();
            if want == warned {
                return Ok(());
            }
            let expected = if want { "a warning" } else { "no warning" };
            Err(c.mismatch("expect_warning", expected, describe_warnings(message)))
        }
        Err(rejection) if rejection.kind != RejectKind::NoIdentity => Err(c.mismatch(
            "reason",
            format!("rejected ({})", RejectKind::NoIdentity.label()),
            rejection.verdict_words(),
        )),
        Err(_) => Ok(()),
    }
}

/// The producer inputs every make-style case carries: `urn`, `queue`, `data` (object) and an
/// optional `trace_id` (string; `null` counts as absent).
pub fn make_input(c: &Case<'_>) -> Step<MakeInput> {
    let trace_id = match c.get("trace_id") {
        None | Some(Value::Null) => None,
        Some(_) => Some(c.str("trace_id")?.to_string()),
    };
    Ok(MakeInput {
        urn: c.str("urn")?.to_string(),
        trace_id,
        queue: c.str("queue")?.to_string(),
        data: c.object("data")?.clone(),
        ..MakeInput::default()
    })
}

/// The `meta` object of a case as ordered write-API entries.
pub fn meta_entries(c: &Case<'_>, field: &str) -> Step<Vec<(String, Value)>> {
    Ok(c.object(field)?
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect())
}

/// An object field of the case, cloned.
pub fn object_clone(c: &Case<'_>, field: &str) -> Step<Map<String, Value>> {
    Ok(c.object(field)?.clone())
}

/// Words for a failed make, for the derived side of a mismatch.
pub fn describe_make_error(error: &MakeError) -> String {
    format!("rejected by make ({error})")
}

/// The verdict for a make that refused a case's input: a mismatch at `urn` when the URN was
/// refused, else at `fallback_field`.
pub fn make_error_verdict(c: &Case<'_>, error: &MakeError, fallback_field: &str) -> Verdict {
    let field = if error.offending_key == "urn" {
        "urn"
    } else {
        fallback_field
    };
    c.mismatch(field, "accepted by make", describe_make_error(error))
}

/// Whether the manifest's informational `offending_key` names `key` (also accepted written as
/// `meta.<key>`, `/<key>` or `/meta/<key>`).
pub fn offending_key_matches(manifest: &str, key: &str) -> bool {
    let trimmed = manifest.strip_prefix('/').unwrap_or(manifest);
    let bare = trimmed
        .strip_prefix("meta/")
        .or_else(|| trimmed.strip_prefix("meta."))
        .unwrap_or(trimmed);
    manifest == key || trimmed == key || bare == key
}

#[cfg(test)]
mod tests {
    use super::*;
    use bqsuite_core::ids::section_cases;
    use serde_json::json;

    #[test]
    fn offending_key_forms() {
        let table: &[(&str, &str, bool)] = &[
            ("timestamp", "timestamp", true),
            ("/timestamp", "timestamp", true),
            ("meta.max_retries", "max_retries", true),
            ("/meta/ts", "ts", true),
            ("ext", "ext", true),
            ("ts", "source", false),
            ("meta", "meta", true),
        ];
        for (manifest, key, want) in table {
            assert_eq!(offending_key_matches(manifest, key), *want, "{manifest}");
        }
    }

    #[test]
    fn pointer_values_and_absence() {
        let block = json!({"cases": [{
            "name": "x",
            "expect_preserved": {"/a": 1, "/b": {}},
            "expect_absent_after_reencode": ["/c"],
            "bad": {"a": 1},
            "bad_list": ["c"]
        }]});
        let refs = section_cases("roundtrip", &block);
        let c = Case::new(&refs[0]);
        let ok = json!({"a": 1, "b": {}});
        assert_eq!(
            check_pointer_values(&c, "expect_preserved", &ok, &[], ""),
            Ok(())
        );
        assert_eq!(
            check_pointers_absent(&c, "expect_absent_after_reencode", &ok),
            Ok(())
        );
        let wrong_type = json!({"a": true, "b": {}});
        match check_pointer_values(&c, "expect_preserved", &wrong_type, &[], "") {
            Err(Verdict::Mismatch(m)) => {
                assert_eq!(m.pointer, "/roundtrip/cases/0/expect_preserved/~1a");
            }
            other => panic!("{other:?}"),
        }
        let array_not_object = json!({"a": 1, "b": []});
        assert!(check_pointer_values(&c, "expect_preserved", &array_not_object, &[], "").is_err());
        match check_pointers_absent(&c, "expect_absent_after_reencode", &json!({"c": 0})) {
            Err(Verdict::Mismatch(m)) => {
                assert_eq!(
                    m.pointer,
                    "/roundtrip/cases/0/expect_absent_after_reencode/0"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            check_pointer_values(&c, "bad", &ok, &[], ""),
            Err(Verdict::Malformed { .. })
        ));
        assert!(matches!(
            check_pointers_absent(&c, "bad_list", &ok),
            Err(Verdict::Malformed { .. })
        ));
        assert!(matches!(
            check_pointers_absent(&c, "missing", &ok),
            Err(Verdict::Malformed { .. })
        ));
    }
}
