//! JSON pointers used by cases are valid RFC 6901, and the ones that speak about the case's
//! input really exist in its fixture (otherwise the assertion would test nothing); and where in
//! its file a finding's pointer lands ([`locate_one`]).

use serde_json::Value;

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_core::index::IndexedCase;
use bqsuite_core::json::{self, pointer};

/// Top-level envelope fields that encode itself writes: a preserved pointer there need not exist in
/// the input (the identity is re-derived from `urn`, attempts is bumped, a dead-letter move adds
/// `dead_letter`).
const ENCODE_WRITTEN: [&str; 3] = ["job", "attempts", "dead_letter"];

/// Where a pointer field lists its pointers.
enum Shape {
    /// `{ "<pointer>": <value> }`
    Keys,
    /// `[ "<pointer>", ... ]`
    List,
    /// `"<pointer>"`
    Single,
}

/// The pointer fields of a case, how they hold pointers, and whether each pointer must exist in
/// the case's input fixture.
const FIELDS: [(&str, Shape, bool); 4] = [
    ("expect_preserved", Shape::Keys, true),
    ("expect_absent_after_reencode", Shape::List, true),
    ("forbidden_key", Shape::Single, true),
    ("expect_envelope", Shape::Keys, false),
];

/// Checks the pointers of `cases`, which all name the fixture `fixture_path` (`None`: no `file`
/// field), whose value is `fixture` (`None`: missing or not JSON, reported elsewhere).
pub fn check(
    cases: &[&IndexedCase],
    fixture_path: Option<&str>,
    fixture: Option<&Value>,
    out: &mut Vec<Diagnostic>,
) {
    for c in cases {
        let case = c.case.case;
        for (field, shape, must_exist) in &FIELDS {
            let Some(value) = case.get(*field) else {
                continue;
            };
            let field_ptr = format!("{}/{}", c.pointer, field);
            let mut pointers: Vec<(String, &str)> = Vec::new();
            let shape_ok = match (shape, value) {
                (Shape::Keys, Value::Object(map)) => {
                    for key in map.keys() {
                        pointers.push((format!("{field_ptr}/{}", escape_token(key)), key));
                    }
                    true
                }
                (Shape::List, Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        match item.as_str() {
                            Some(p) => pointers.push((format!("{field_ptr}/{i}"), p)),
                            None => out.push(
                                findings::pointer_entry_not_string(field, item)
                                    .at(format!("{field_ptr}/{i}")),
                            ),
                        }
                    }
                    true
                }
                (Shape::Single, Value::String(p)) => {
                    pointers.push((field_ptr.clone(), p));
                    true
                }
                _ => false,
            };
            if !shape_ok {
                let finding = match shape {
                    Shape::Keys => findings::pointer_field_not_keys(field),
                    Shape::List => findings::pointer_field_not_list(field),
                    Shape::Single => findings::pointer_field_not_single(field),
                };
                out.push(finding.at(field_ptr.clone()));
                continue;
            }
            for (at, p) in pointers {
                if let Err(e) = pointer::parse_pointer(p) {
                    out.push(findings::pointer_invalid(p, e).at(at));
                    continue;
                }
                if !must_exist {
                    continue;
                }
                let (Some(fixture), Some(fixture_path)) = (fixture, fixture_path) else {
                    continue;
                };
                let first = p.split('/').nth(1).unwrap_or("");
                if *field == "expect_preserved" && ENCODE_WRITTEN.contains(&first) {
                    continue;
                }
                if !matches!(pointer::resolve(fixture, p), Ok(Some(_))) {
                    out.push(findings::pointer_not_in_fixture(p, field, fixture_path).at(at));
                }
            }
        }
    }
}

/// Places `d`, a finding with a pointer into the file `tree` was parsed from, at its line:column;
/// a pointer to something missing (a required field) at its nearest ancestor's.
pub(super) fn locate_one(tree: &json::Node, d: &mut Diagnostic) {
    if let Some(pos) = d
        .pointer
        .as_deref()
        .and_then(|p| json::nearest_position(tree, p))
    {
        d.line_col = Some((pos.line, pos.column));
    }
}
