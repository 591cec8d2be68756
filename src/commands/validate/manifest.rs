//! Manifest-level rules: version fields, the sections/scope map, exceptions, case ids and the
//! required fields of envelope cases.

use std::collections::BTreeMap;

use serde_json::Value;

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_core::index::{BINDINGS, CaseIndex, METADATA_KEYS, SCOPES};
use bqsuite_suite::Suite;
use bqsuite_suite::load::{MANIFEST, VERSION_FILE};
use bqsuite_suite::rules::{self, Feature};

pub fn check(suite: &Suite, manifest: &Value, index: &CaseIndex, out: &mut Vec<Diagnostic>) {
    let Some(map) = manifest.as_object() else {
        out.push(
            Diagnostic::error(
                Code::ManifestShape,
                MANIFEST,
                "the manifest must be a JSON object",
            )
            .at(""),
        );
        return;
    };
    // Each rule applies from the release that introduced it (see `suite::rules`).
    let version = rules::parse_version(suite.version_text());
    let since = |f: Feature| f.required(version.as_ref());
    versions(
        suite,
        manifest,
        since(Feature::ConformanceVersionField),
        out,
    );
    sections(map, since(Feature::SectionsMap), out);
    if since(Feature::Exceptions) || manifest.get("exceptions").is_some() {
        exceptions(manifest, out);
    }
    case_ids(index, out);
    envelope_fields(index, out);
}

fn versions(suite: &Suite, manifest: &Value, field_required: bool, out: &mut Vec<Diagnostic>) {
    match manifest.get("schema_version") {
        Some(v) if v.as_u64() == Some(1) => {}
        Some(v) => out.push(
            Diagnostic::error(
                Code::SchemaVersion,
                MANIFEST,
                format!("schema_version is {v}; this manifest format is schema_version 1"),
            )
            .at("/schema_version")
            .help("set \"schema_version\": 1"),
        ),
        None => out.push(
            Diagnostic::error(Code::SchemaVersion, MANIFEST, "schema_version is missing")
                .at("")
                .help("add \"schema_version\": 1 at the top of the manifest"),
        ),
    }
    let file_version = suite.version_text();
    if let Some(text) = file_version
        && let Err(e) = semver::Version::parse(text)
    {
        out.push(
            Diagnostic::error(
                Code::VersionNotSemver,
                VERSION_FILE,
                format!("`{text}` is not a SemVer version: {e}"),
            )
            .line_col(1, 1)
            .help("write MAJOR.MINOR.PATCH, with `-pre` for an untagged revision (e.g. 1.6.0-pre)"),
        );
    }
    match manifest.get("conformance_version") {
        None if !field_required => {}
        None => out.push(
            Diagnostic::error(
                Code::VersionMismatch,
                MANIFEST,
                "conformance_version is missing",
            )
            .at("")
            .help(
                "add \"conformance_version\" equal to CONFORMANCE_VERSION (required since 1.5.0)",
            ),
        ),
        Some(Value::String(v)) => {
            if let Some(file) = file_version
                && file != v
            {
                out.push(
                    Diagnostic::error(
                        Code::VersionMismatch,
                        MANIFEST,
                        format!(
                            "conformance_version is `{v}` but CONFORMANCE_VERSION says `{file}`"
                        ),
                    )
                    .at("/conformance_version")
                    .help("bump both together: they must always name the same version"),
                );
            }
        }
        Some(other) => out.push(
            Diagnostic::error(
                Code::VersionMismatch,
                MANIFEST,
                format!("conformance_version must be a string, found {other}"),
            )
            .at("/conformance_version"),
        ),
    }
}

fn sections(map: &serde_json::Map<String, Value>, required: bool, out: &mut Vec<Diagnostic>) {
    let scopes = match map.get("sections") {
        None if !required => return,
        Some(Value::Object(s)) => Some(s),
        Some(_) => {
            out.push(
                Diagnostic::error(
                    Code::SectionsMap,
                    MANIFEST,
                    "`sections` must be an object mapping each section to its scope",
                )
                .at("/sections"),
            );
            None
        }
        None => {
            out.push(
                Diagnostic::error(Code::SectionsMap, MANIFEST, "the `sections` map is missing")
                    .at("")
                    .help(
                        "add \"sections\": { \"<section>\": { \"scope\": \"<scope>\" }, ... } naming every block (required since 1.5.0)",
                    ),
            );
            None
        }
    };
    for (key, block) in map {
        if METADATA_KEYS.contains(&key.as_str()) {
            continue;
        }
        let pointer = format!("/{}", escape_token(key));
        if !(block.is_object() || key == "cases" && block.is_array()) {
            out.push(
                Diagnostic::error(
                    Code::SectionShape,
                    MANIFEST,
                    format!(
                        "section `{key}` must be an object (only the top-level `cases` is an array)"
                    ),
                )
                .at(pointer.clone()),
            );
        }
        if let Some(scopes) = scopes
            && !scopes.contains_key(key)
        {
            out.push(
                Diagnostic::error(
                    Code::SectionUnmapped,
                    MANIFEST,
                    format!(
                        "block `{key}` has no entry in `sections`, so no runner knows its scope"
                    ),
                )
                .at(pointer)
                .help(format!(
                    "add \"{key}\": {{ \"scope\": \"<scope>\" }} to `sections` (scope one of {})",
                    SCOPES.join(", ")
                )),
            );
        }
    }
    let Some(scopes) = scopes else { return };
    for (section, scope) in scopes {
        let pointer = format!("/sections/{}", escape_token(section));
        if METADATA_KEYS.contains(&section.as_str()) || !map.contains_key(section) {
            out.push(
                Diagnostic::error(
                    Code::SectionMissingBlock,
                    MANIFEST,
                    format!("`sections` names `{section}` but the manifest has no such block"),
                )
                .at(pointer.clone())
                .help("remove the entry or add the block"),
            );
        }
        match rules::scope_in(scope) {
            Some(s) if SCOPES.contains(&s) => {}
            _ => out.push(
                Diagnostic::error(
                    Code::InvalidScope,
                    MANIFEST,
                    format!(
                        "section `{section}` is mapped to {scope}; each entry is {{\"scope\": \"<scope>\"}} with exactly one scope, one of {}",
                        SCOPES.join(", ")
                    ),
                )
                .at(pointer)
                .help(format!("write \"{section}\": {{ \"scope\": \"core\" }} (or the binding it exercises)")),
            ),
        }
    }
}

fn is_adr(s: &str) -> bool {
    s.len() == 8 && s.starts_with("ADR-") && s[4..].bytes().all(|b| b.is_ascii_digit())
}

fn exceptions(manifest: &Value, out: &mut Vec<Diagnostic>) {
    let Some(list) = manifest.get("exceptions") else {
        out.push(
            Diagnostic::error(
                Code::ExceptionInvalid,
                MANIFEST,
                "the `exceptions` list is missing",
            )
            .at("")
            .help("add \"exceptions\": [] (or the ADR-backed family/binding exceptions)"),
        );
        return;
    };
    let Some(list) = list.as_array() else {
        out.push(
            Diagnostic::error(
                Code::ExceptionInvalid,
                MANIFEST,
                "`exceptions` must be an array",
            )
            .at("/exceptions"),
        );
        return;
    };
    for (i, entry) in list.iter().enumerate() {
        let pointer = format!("/exceptions/{i}");
        let field = |name: &str| entry.get(name).and_then(Value::as_str);
        let mut problems = Vec::new();
        if field("family").is_none_or(|f| f.trim().is_empty()) {
            problems.push("`family` must be a non-empty string (e.g. \"php\")".to_string());
        }
        match field("binding") {
            Some(b) if BINDINGS.contains(&b) && b != "otel" => {}
            _ => problems.push(format!(
                "`binding` must be one of {}",
                BINDINGS[..7].join(", ")
            )),
        }
        if !field("adr").is_some_and(is_adr) {
            problems.push("`adr` must cite an ADR as ADR-NNNN".to_string());
        }
        for problem in problems {
            out.push(
                Diagnostic::error(Code::ExceptionInvalid, MANIFEST, problem).at(pointer.clone()),
            );
        }
    }
}

fn case_ids(index: &CaseIndex, out: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for case in &index.cases {
        if let Some(first) = seen.insert((&case.section, &case.id), &case.pointer) {
            out.push(
                Diagnostic::error(
                    Code::DuplicateCaseId,
                    MANIFEST,
                    format!(
                        "case id `{}` is used twice in section `{}` (first at {first}); results files could not tell them apart",
                        case.id, case.section
                    ),
                )
                .at(case.pointer.clone())
                .case(case.section.clone(), case.id.clone())
                .help("give the case a unique `name`"),
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
                out.push(
                    Diagnostic::error(
                        Code::CaseShape,
                        MANIFEST,
                        "envelope case has no boolean `valid`",
                    )
                    .at(c.pointer.clone()),
                );
            }
            continue;
        };
        match valid.as_bool() {
            None => out.push(
                Diagnostic::error(Code::CaseShape, MANIFEST, format!("`valid` must be a boolean, found {valid}"))
                    .at(format!("{}/valid", c.pointer)),
            ),
            Some(true) if c.section == "cases" && !case.get("expect").is_some_and(Value::is_object) => {
                out.push(
                    Diagnostic::error(Code::MissingExpect, MANIFEST, "a `valid: true` case must carry an `expect` object")
                        .at(c.pointer.clone())
                        .help("add \"expect\": { \"urn\", \"data\", \"attempts\", \"lang\", \"schema_version\" }"),
                )
            }
            Some(false) if case.get("reason").and_then(Value::as_str).is_none_or(|r| r.trim().is_empty()) => {
                out.push(
                    Diagnostic::error(Code::MissingReason, MANIFEST, "a `valid: false` case must say why in `reason`")
                        .at(c.pointer.clone())
                        .help("add \"reason\": \"<why a consumer must reject it>\""),
                )
            }
            _ => {}
        }
    }
}
