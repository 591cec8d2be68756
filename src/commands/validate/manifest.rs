//! Manifest-level rules: version fields, the sections/scope map, exceptions, case ids and the
//! required fields of envelope cases.

use std::collections::BTreeMap;

use serde_json::Value;

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_core::index::{CaseIndex, METADATA_KEYS};
use bqsuite_suite::Suite;
use bqsuite_suite::kind::BABELQUEUE_BINDINGS as BINDINGS;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::rules::{self, Feature};

pub fn check(
    suite: &Suite,
    kind: &Kind,
    manifest: &Value,
    index: &CaseIndex,
    out: &mut Vec<Diagnostic>,
) {
    let Some(map) = manifest.as_object() else {
        out.push(findings::manifest_not_object().at(""));
        return;
    };
    // Each rule applies from the release that introduced it (see `suite::rules`).
    let version = rules::parse_version(suite.version_text());
    let since = |f: Feature| f.required_of(kind, version.as_ref());
    versions(
        suite,
        manifest,
        since(Feature::ConformanceVersionField),
        out,
    );
    sections(map, &kind.scopes, since(Feature::SectionsMap), out);
    if kind.format.exceptions
        && (since(Feature::Exceptions) || manifest.get("exceptions").is_some())
    {
        exceptions(manifest, out);
    }
    case_ids(index, out);
    envelope_fields(index, out);
    if manifest.get("decisions").is_some() {
        decisions(manifest, index, out);
    }
}

/// The fields of a row of `decisions`: the case, what each source says, and what the suite
/// decided.
const DECISION_FIELDS: [&str; 5] = ["case", "plan", "spec", "ref", "decision"];

/// `decisions` (a suite's table of the cases where its sources disagree) is an array of rows,
/// each naming one existing case, once, and saying what each source says.
fn decisions(manifest: &Value, index: &CaseIndex, out: &mut Vec<Diagnostic>) {
    let Some(rows) = manifest["decisions"].as_array() else {
        out.push(findings::decisions_not_array().at("/decisions"));
        return;
    };
    let mut seen = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let pointer = format!("/decisions/{i}");
        let text = |name: &str| {
            row.get(name)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
        };
        if let Some(missing) = DECISION_FIELDS.iter().find(|f| text(f).is_none()) {
            out.push(findings::decision_field_missing(missing).at(pointer));
            continue;
        }
        let case = text("case").unwrap_or_default();
        let exists = index.cases.iter().any(|c| {
            case.strip_prefix(c.section.as_str())
                .and_then(|r| r.strip_prefix('/'))
                == Some(c.id.as_str())
        });
        if !exists {
            out.push(findings::decision_unknown_case(case).at(format!("{pointer}/case")));
        } else if let Some(first) = seen.insert(case, i) {
            out.push(findings::decision_repeated(case, first).at(format!("{pointer}/case")));
        }
    }
}

fn versions(suite: &Suite, manifest: &Value, field_required: bool, out: &mut Vec<Diagnostic>) {
    match manifest.get("schema_version") {
        Some(v) if v.as_u64() == Some(1) => {}
        Some(v) => out.push(findings::schema_version_wrong(v).at("/schema_version")),
        None => out.push(findings::schema_version_missing().at("")),
    }
    let file_version = suite.version_text();
    if let Some(text) = file_version
        && let Err(e) = semver::Version::parse(text)
    {
        out.push(findings::version_not_semver(text, &e).line_col(1, 1));
    }
    match manifest.get("conformance_version") {
        None if !field_required => {}
        None => out.push(findings::conformance_version_missing().at("")),
        Some(Value::String(v)) => {
            if let Some(file) = file_version
                && file != v
            {
                out.push(findings::conformance_version_differs(v, file).at("/conformance_version"));
            }
        }
        Some(other) => {
            out.push(findings::conformance_version_not_string(other).at("/conformance_version"))
        }
    }
}

fn sections(
    map: &serde_json::Map<String, Value>,
    known: &[String],
    required: bool,
    out: &mut Vec<Diagnostic>,
) {
    let scopes = match map.get("sections") {
        None if !required => return,
        Some(Value::Object(s)) => Some(s),
        Some(_) => {
            out.push(findings::sections_not_object().at("/sections"));
            None
        }
        None => {
            out.push(findings::sections_missing().at(""));
            None
        }
    };
    for (key, block) in map {
        if METADATA_KEYS.contains(&key.as_str()) {
            continue;
        }
        let pointer = format!("/{}", escape_token(key));
        if !(block.is_object() || key == "cases" && block.is_array()) {
            out.push(findings::section_not_object(key).at(pointer.clone()));
        }
        if let Some(scopes) = scopes
            && !scopes.contains_key(key)
        {
            out.push(findings::section_unmapped(key, known).at(pointer));
        }
    }
    let Some(scopes) = scopes else { return };
    for (section, scope) in scopes {
        let pointer = format!("/sections/{}", escape_token(section));
        if METADATA_KEYS.contains(&section.as_str()) || !map.contains_key(section) {
            out.push(findings::section_missing_block(section).at(pointer.clone()));
        }
        match rules::scope_in(scope) {
            Some(s) if known.iter().any(|k| k == s) => {}
            _ => out.push(findings::invalid_scope(section, scope, known).at(pointer)),
        }
    }
}

fn is_adr(s: &str) -> bool {
    s.len() == 8 && s.starts_with("ADR-") && s[4..].bytes().all(|b| b.is_ascii_digit())
}

fn exceptions(manifest: &Value, out: &mut Vec<Diagnostic>) {
    let Some(list) = manifest.get("exceptions") else {
        out.push(findings::exceptions_missing().at(""));
        return;
    };
    let Some(list) = list.as_array() else {
        out.push(findings::exceptions_not_array().at("/exceptions"));
        return;
    };
    for (i, entry) in list.iter().enumerate() {
        let pointer = format!("/exceptions/{i}");
        let field = |name: &str| entry.get(name).and_then(Value::as_str);
        let mut problems = Vec::new();
        if field("family").is_none_or(|f| f.trim().is_empty()) {
            problems.push(findings::exception_family_invalid());
        }
        match field("binding") {
            Some(b) if BINDINGS.contains(&b) && b != "otel" => {}
            _ => problems.push(findings::exception_binding_invalid()),
        }
        if !field("adr").is_some_and(is_adr) {
            problems.push(findings::exception_adr_invalid());
        }
        for problem in problems {
            out.push(problem.at(pointer.clone()));
        }
    }
}

fn case_ids(index: &CaseIndex, out: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for case in &index.cases {
        if let Some(first) = seen.insert((&case.section, &case.id), &case.pointer) {
            out.push(
                findings::duplicate_case_id(&case.id, &case.section, first)
                    .at(case.pointer.clone())
                    .case(case.section.clone(), case.id.clone()),
            );
        }
    }
}

fn envelope_fields(index: &CaseIndex, out: &mut Vec<Diagnostic>) {
    for c in &index.cases {
        let case = c.case.case;
        // Envelope cases decode a fixture; payload-schema cases also carry `valid` but no file.
        if c.section != "cases" && case.get("file").is_none() {
            continue;
        }
        let Some(valid) = case.get("valid") else {
            if c.section == "cases" {
                out.push(findings::envelope_case_without_valid().at(c.pointer.clone()));
            }
            continue;
        };
        match valid.as_bool() {
            None => out.push(findings::valid_not_boolean(valid).at(format!("{}/valid", c.pointer))),
            Some(true)
                if c.section == "cases" && !case.get("expect").is_some_and(Value::is_object) =>
            {
                out.push(findings::valid_case_without_expect().at(c.pointer.clone()))
            }
            Some(false)
                if case
                    .get("reason")
                    .and_then(Value::as_str)
                    .is_none_or(|r| r.trim().is_empty()) =>
            {
                out.push(findings::invalid_case_without_reason().at(c.pointer.clone()))
            }
            _ => {}
        }
    }
}
