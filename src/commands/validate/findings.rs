//! One constructor per finding of `validate`, owning its code, severity, message and help. The
//! parameters are the facts the words need; the checks add only where a finding is (`.at`,
//! `.case`, `.line_col`).

use std::fmt::Display;

use serde_json::Value;

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::json;
use bqsuite_suite::kind::BABELQUEUE_BINDINGS as BINDINGS;
use bqsuite_suite::layout;
use bqsuite_suite::load::{MANIFEST, RESULTS_EXAMPLE, RESULTS_SCHEMA, VERSION_FILE};
use bqsuite_suite::rules;

// manifest.rs

pub(super) fn manifest_not_object() -> Diagnostic {
    Diagnostic::error(
        Code::ManifestShape,
        MANIFEST,
        "the manifest must be a JSON object",
    )
}

pub(super) fn schema_version_wrong(found: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::SchemaVersion,
        MANIFEST,
        format!("schema_version is {found}; this manifest format is schema_version 1"),
    )
    .help("set \"schema_version\": 1")
}

pub(super) fn schema_version_missing() -> Diagnostic {
    Diagnostic::error(Code::SchemaVersion, MANIFEST, "schema_version is missing")
        .help("add \"schema_version\": 1 at the top of the manifest")
}

pub(super) fn version_not_semver(text: &str, e: &semver::Error) -> Diagnostic {
    Diagnostic::error(
        Code::VersionNotSemver,
        VERSION_FILE,
        format!("`{text}` is not a SemVer version: {e}"),
    )
    .help("write MAJOR.MINOR.PATCH, with `-pre` for an untagged revision (e.g. 1.6.0-pre)")
}

pub(super) fn conformance_version_missing() -> Diagnostic {
    Diagnostic::error(
        Code::VersionMismatch,
        MANIFEST,
        "conformance_version is missing",
    )
    .help("add \"conformance_version\" equal to CONFORMANCE_VERSION (required since 1.5.0)")
}

pub(super) fn conformance_version_differs(manifest: &str, file: &str) -> Diagnostic {
    Diagnostic::error(
        Code::VersionMismatch,
        MANIFEST,
        format!("conformance_version is `{manifest}` but CONFORMANCE_VERSION says `{file}`"),
    )
    .help("bump both together: they must always name the same version")
}

pub(super) fn conformance_version_not_string(found: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::VersionMismatch,
        MANIFEST,
        format!("conformance_version must be a string, found {found}"),
    )
}

pub(super) fn sections_not_object() -> Diagnostic {
    Diagnostic::error(
        Code::SectionsMap,
        MANIFEST,
        "`sections` must be an object mapping each section to its scope",
    )
}

pub(super) fn sections_missing() -> Diagnostic {
    Diagnostic::error(Code::SectionsMap, MANIFEST, "the `sections` map is missing").help(
        "add \"sections\": { \"<section>\": { \"scope\": \"<scope>\" }, ... } naming every block (required since 1.5.0)",
    )
}

pub(super) fn section_not_object(key: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SectionShape,
        MANIFEST,
        format!("section `{key}` must be an object (only the top-level `cases` is an array)"),
    )
}

pub(super) fn section_unmapped(key: &str, scopes: &[String]) -> Diagnostic {
    Diagnostic::error(
        Code::SectionUnmapped,
        MANIFEST,
        format!("block `{key}` has no entry in `sections`, so no runner knows its scope"),
    )
    .help(format!(
        "add \"{key}\": {{ \"scope\": \"<scope>\" }} to `sections` (scope one of {})",
        scopes.join(", ")
    ))
}

pub(super) fn section_missing_block(section: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SectionMissingBlock,
        MANIFEST,
        format!("`sections` names `{section}` but the manifest has no such block"),
    )
    .help("remove the entry or add the block")
}

pub(super) fn invalid_scope(section: &str, scope: &Value, scopes: &[String]) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidScope,
        MANIFEST,
        format!(
            "section `{section}` is mapped to {scope}; each entry is {{\"scope\": \"<scope>\"}} with exactly one scope, one of {}",
            scopes.join(", ")
        ),
    )
    .help(format!(
        "write \"{section}\": {{ \"scope\": \"core\" }} (or the binding it exercises)"
    ))
}

pub(super) fn exceptions_missing() -> Diagnostic {
    Diagnostic::error(
        Code::ExceptionInvalid,
        MANIFEST,
        "the `exceptions` list is missing",
    )
    .help("add \"exceptions\": [] (or the ADR-backed family/binding exceptions)")
}

pub(super) fn exceptions_not_array() -> Diagnostic {
    Diagnostic::error(
        Code::ExceptionInvalid,
        MANIFEST,
        "`exceptions` must be an array",
    )
}

pub(super) fn exception_family_invalid() -> Diagnostic {
    Diagnostic::error(
        Code::ExceptionInvalid,
        MANIFEST,
        "`family` must be a non-empty string (e.g. \"php\")",
    )
}

pub(super) fn exception_binding_invalid() -> Diagnostic {
    Diagnostic::error(
        Code::ExceptionInvalid,
        MANIFEST,
        format!("`binding` must be one of {}", BINDINGS[..7].join(", ")),
    )
}

pub(super) fn exception_adr_invalid() -> Diagnostic {
    Diagnostic::error(
        Code::ExceptionInvalid,
        MANIFEST,
        "`adr` must cite an ADR as ADR-NNNN",
    )
}

pub(super) fn duplicate_case_id(id: &str, section: &str, first: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCaseId,
        MANIFEST,
        format!(
            "case id `{id}` is used twice in section `{section}` (first at {first}); results files could not tell them apart"
        ),
    )
    .help("give the case a unique `name`")
}

pub(super) fn envelope_case_without_valid() -> Diagnostic {
    Diagnostic::error(
        Code::CaseShape,
        MANIFEST,
        "envelope case has no boolean `valid`",
    )
}

pub(super) fn valid_not_boolean(found: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::CaseShape,
        MANIFEST,
        format!("`valid` must be a boolean, found {found}"),
    )
}

pub(super) fn valid_case_without_expect() -> Diagnostic {
    Diagnostic::error(
        Code::MissingExpect,
        MANIFEST,
        "a `valid: true` case must carry an `expect` object",
    )
    .help("add \"expect\": { \"urn\", \"data\", \"attempts\", \"lang\", \"schema_version\" }")
}

pub(super) fn invalid_case_without_reason() -> Diagnostic {
    Diagnostic::error(
        Code::MissingReason,
        MANIFEST,
        "a `valid: false` case must say why in `reason`",
    )
    .help("add \"reason\": \"<why a consumer must reject it>\"")
}

// pointers.rs

pub(super) fn pointer_entry_not_string(field: &str, item: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::BadPointer,
        MANIFEST,
        format!("`{field}` entries must be strings, found {item}"),
    )
}

fn pointer_field_shape(field: &str, wanted: &str) -> Diagnostic {
    Diagnostic::error(
        Code::CaseShape,
        MANIFEST,
        format!("`{field}` must be {wanted}"),
    )
}

pub(super) fn pointer_field_not_keys(field: &str) -> Diagnostic {
    pointer_field_shape(field, "an object whose keys are JSON pointers")
}

pub(super) fn pointer_field_not_list(field: &str) -> Diagnostic {
    pointer_field_shape(field, "an array of JSON pointers")
}

pub(super) fn pointer_field_not_single(field: &str) -> Diagnostic {
    pointer_field_shape(field, "a JSON pointer string")
}

pub(super) fn pointer_invalid(p: &str, e: impl Display) -> Diagnostic {
    Diagnostic::error(
        Code::BadPointer,
        MANIFEST,
        format!("`{p}` is not a valid JSON pointer: {e}"),
    )
    .help("write an RFC 6901 pointer such as /meta/vendor_flag (escape `~` as ~0 and `/` as ~1)")
}

pub(super) fn pointer_not_in_fixture(p: &str, field: &str, fixture_path: &str) -> Diagnostic {
    Diagnostic::error(
        Code::PointerNotInFixture,
        MANIFEST,
        format!("`{p}` ({field}) does not exist in {fixture_path}, so the assertion tests nothing"),
    )
    .help(format!(
        "add the member to {fixture_path}, or correct the pointer"
    ))
}

// references.rs

pub(super) fn reference_not_string(value: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::CaseShape,
        MANIFEST,
        format!("a file reference must be a string, found {value}"),
    )
}

/// `problem`: why the path is not a fixture's (the words [`super::references`] gives).
pub(super) fn bad_file_reference(path: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(
        Code::BadFileReference,
        MANIFEST,
        format!("`{path}` {problem}"),
    )
    .help("write it as fixtures/<name>.json")
}

pub(super) fn missing_fixture(path: &str) -> Diagnostic {
    Diagnostic::error(
        Code::MissingFixture,
        MANIFEST,
        format!("`{path}` does not exist in the suite"),
    )
    .help(format!("add {path}, or correct the name"))
}

pub(super) fn orphan_fixture(rel: &str) -> Diagnostic {
    Diagnostic::error(Code::OrphanFixture, rel, "no case uses this fixture").help(
        "reference it from a case, or delete it (it would be released and vendored for nothing)",
    )
}

// files.rs

/// The finding for the suite file `rel` that is not JSON.
pub(super) fn syntax_error(rel: &str, e: &json::SyntaxError) -> Diagnostic {
    Diagnostic::error(
        Code::JsonSyntax,
        rel,
        format!("invalid JSON: {}", e.message),
    )
    .line_col(e.pos.line, e.pos.column)
    .help("fix the syntax; every suite file must be strict RFC 8259 JSON")
}

/// `what`: what the required file is (and since when it is required).
pub(super) fn missing_file(rel: &str, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::MissingFile,
        rel,
        format!("required file is missing ({what})"),
    )
    .help(format!("create `{rel}` in the suite directory"))
}

pub(super) fn duplicate_key(
    rel: &str,
    key: &str,
    first_line: u32,
    first_column: u32,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateKey,
        rel,
        format!(
            "key `{key}` appears twice in the same object (first at {first_line}:{first_column}); the first value is silently ignored"
        ),
    )
    .help("remove or rename one of the two members")
}

// names.rs

/// `path`: the path in the release (under its root directory); `last_len`: the bytes of its last
/// component.
pub(super) fn release_name_too_long(
    rel: &str,
    path: &str,
    is_dir: bool,
    last_len: usize,
) -> Diagnostic {
    Diagnostic::error(
        layout::Code::NameTooLong,
        rel,
        format!(
            "{} `{path}` ({} bytes, last component {} bytes) cannot be stored in a \
             release: a ustar header holds a name of at most 100 bytes after a directory \
             prefix of at most 155 bytes",
            if is_dir {
                "the directory"
            } else {
                "the release path"
            },
            path.len(),
            last_len,
        ),
    )
    .help("rename it: keep every file name under 100 bytes and the whole path under 250")
}

// schemas.rs

/// `code` and `reason`: why the schema `rel` cannot be used, as `compile_for_draft` says it (the
/// words that follow "the schema").
pub(super) fn schema_unusable(code: Code, rel: &str, reason: &str, draft: &str) -> Diagnostic {
    Diagnostic::error(code, rel, format!("the schema {reason}")).help(format!(
        "the schema must be a valid JSON Schema under {draft}"
    ))
}

pub(super) fn results_example_invalid(message: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsExampleInvalid,
        RESULTS_EXAMPLE,
        format!("does not conform to {RESULTS_SCHEMA}: {message}"),
    )
    .help("fix the example (or the schema): CI consumers copy this file")
}

pub(super) fn fixture_schema_invalid(path: &str, message: &str) -> Diagnostic {
    Diagnostic::error(
        Code::FixtureSchemaInvalid,
        path,
        format!("fails the producer envelope schema: {message}"),
    )
    .help("fix the fixture, or mark a deliberate consumer-tolerance case with \"producer_schema_valid\": false")
}

/// `marked`: the case says `"producer_schema_valid": false` (else its shape is a rejected one).
pub(super) fn fixture_schema_unexpected_pass(path: &str, marked: bool) -> Diagnostic {
    let why = if marked {
        "is marked \"producer_schema_valid\": false but passes the producer envelope schema"
    } else {
        "is a rejected data shape but passes the producer envelope schema"
    };
    Diagnostic::error(
        Code::FixtureSchemaUnexpectedPass,
        MANIFEST,
        format!("{path} {why}"),
    )
    .help("the fixture no longer tests what the case says; fix the fixture or the case")
}

// evaluator.rs

/// `by_schema_validator`: the verdict came from a draft-07 JSON Schema validator (the payload
/// sections).
pub(super) fn expectation_mismatch(
    mismatch: impl Display,
    by_schema_validator: bool,
) -> Diagnostic {
    let by = if by_schema_validator {
        " (a draft-07 JSON Schema validator)"
    } else {
        ""
    };
    Diagnostic::error(
        Code::ExpectationMismatch,
        MANIFEST,
        format!("the case {mismatch}{by}"),
    )
    .help("correct the expectation (or, if the model is wrong, the reference evaluator) so that both agree with the spec")
}

pub(super) fn no_reference_rule(section: &str) -> Diagnostic {
    Diagnostic::error(
        Code::NoReferenceRule,
        MANIFEST,
        format!("the reference evaluator has no rule for section `{section}`, so this case's expectation is unchecked"),
    )
    .help("teach the evaluator the section (crates/eval/src/sections/) before adding it to the canonical suite")
}

/// A case of `section` carries `field`, which no other case of the section has and which is a
/// typo away from `closest`, a field the case lacks.
pub(super) fn case_field_misspelled(field: &str, closest: &str, section: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::MisspelledField,
        MANIFEST,
        format!(
            "unknown case field `{field}`: no other case of section `{section}` has it; did you \
             mean `{closest}`?"
        ),
    )
    .help(format!(
        "rename `{field}` to `{closest}`; a field the section's runner does not read is ignored"
    ))
}

/// `message`: what the evaluator found malformed in the case.
pub(super) fn case_malformed(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::CaseShape, MANIFEST, message)
        .help("give the case the fields its section's runner reads (see the spec's case shape)")
}

pub(super) fn unknown_section(section: &str, n: usize) -> Diagnostic {
    Diagnostic::warning(
        Code::UnknownSection,
        MANIFEST,
        format!(
            "section `{section}` is newer than this bqsuite {} (it knows the suite up to {}), so its {n} case{} are not re-derived",
            env!("CARGO_PKG_VERSION"),
            rules::KNOWN_SUITE,
            bqsuite_core::diag::plural(n),
        ),
    )
    .help("update bqsuite to a release that knows this section")
}

pub(super) fn decisions_not_array() -> Diagnostic {
    Diagnostic::error(
        Code::DecisionInvalid,
        MANIFEST,
        "`decisions` must be an array of rows, one per case whose expectation a decision sets",
    )
    .help("write each row as {\"case\": \"<section>/<case id>\", \"plan\": \"...\", \"spec\": \"...\", \"ref\": \"...\", \"decision\": \"...\"}")
}

pub(super) fn decision_field_missing(field: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DecisionInvalid,
        MANIFEST,
        format!("this decision has no `{field}` (a non-empty string)"),
    )
    .help("give every row `case`, `plan`, `spec`, `ref` and `decision`")
}

pub(super) fn decision_unknown_case(case: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DecisionInvalid,
        MANIFEST,
        format!(
            "this decision names the case `{}`, which the manifest does not have",
            bqsuite_core::shell::escape(case)
        ),
    )
    .help("name a case as `<section>/<case id>`, or remove the row")
}

pub(super) fn decision_repeated(case: &str, first: usize) -> Diagnostic {
    Diagnostic::error(
        Code::DecisionInvalid,
        MANIFEST,
        format!(
            "the case `{}` already has a decision, at /decisions/{first}",
            bqsuite_core::shell::escape(case)
        ),
    )
    .help("merge the two rows into one")
}
