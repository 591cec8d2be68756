//! The findings of `results`, one constructor each: each owns its code, severity and words.

use super::codes::Code;
use bqsuite_core::diag::{Diagnostic, Severity};

// ---------------------------------------------------------------- reading a results file

/// The results file `name` is larger than `max` bytes.
pub(crate) fn file_too_large(name: &str, max: u64) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsTooLarge,
        name,
        format!("is larger than {max} bytes; refusing to read it"),
    )
    .help("a results file lists one status per case; pass the file the runner wrote")
}

fn too_large(name: &str, what: String) -> Diagnostic {
    Diagnostic::error(Code::ResultsTooLarge, name, what).help(
        "a results file lists one short status per case; pass the file the runner \
         wrote",
    )
}

/// The member `key` of the results file `name` holds a name of `len` bytes, more than `max`.
pub(crate) fn name_too_long(name: &str, key: &str, len: usize, max: usize) -> Diagnostic {
    too_large(
        name,
        format!(
            "`{key}` holds a name of {len} bytes, longer than {max} bytes; \
             refusing to read the file",
        ),
    )
}

/// The `sections` of the results file `name` has `count` members, more than `max`.
pub(crate) fn too_many_sections(name: &str, count: usize, max: usize) -> Diagnostic {
    too_large(
        name,
        format!(
            "`sections` has {count} members, more than {max}; refusing to read \
             the file",
        ),
    )
}

/// The `sections` of the results file `name` hold `cases` cases, more than `max`.
pub(crate) fn too_many_cases(name: &str, cases: usize, max: usize) -> Diagnostic {
    too_large(
        name,
        format!(
            "`sections` holds {cases} cases, more than {max}; refusing to read \
             the file"
        ),
    )
}

/// A key of the results file `name` is `len` bytes, more than `max`.
pub(crate) fn key_too_long(name: &str, len: usize, max: usize) -> Diagnostic {
    too_large(
        name,
        format!(
            "a key of {len} bytes is longer than {max} bytes; refusing \
             to read the file",
        ),
    )
}

/// A string of the results file `name` is `len` bytes, more than `max`.
pub(crate) fn string_too_long(name: &str, len: usize, max: usize) -> Diagnostic {
    too_large(
        name,
        format!(
            "a string of {len} bytes is longer than {max} bytes; refusing to \
             read the file",
        ),
    )
}

/// The results file `name` is not UTF-8.
pub(crate) fn not_utf8(name: &str) -> Diagnostic {
    Diagnostic::error(Code::ResultsJsonSyntax, name, "the file is not valid UTF-8")
        .help("a results file is JSON, which is UTF-8 text")
}

/// The results file `name` is not JSON (`message` says where the parser stopped).
pub(crate) fn not_json(name: &str, message: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsJsonSyntax,
        name,
        format!("the file is not valid JSON: {message}"),
    )
    .help("a results file is one JSON object (schema/results.schema.json)")
}

// ---------------------------------------------------------------- results matrix

/// The matrix's columns are of different suite versions (`warning` says which).
pub(crate) fn version_mixed(warning: String) -> Diagnostic {
    Diagnostic::warning(Code::ResultsVersionMixed, "", warning)
        .help("compare results of one suite version, or read each column's verdict")
}

/// The column of `file` (labelled `label`) is not compatible: `verdict` with suite `version`
/// (the suite directory `suite`, named in the command when it is not the default `suite`).
pub(crate) fn not_compatible(
    file: &str,
    label: &str,
    verdict: &str,
    version: &str,
    suite: &std::path::Path,
) -> Diagnostic {
    let with_suite = if suite == std::path::Path::new("suite") {
        String::new()
    } else {
        format!(" --suite {}", bqsuite_core::shell::arg(suite))
    };
    Diagnostic::note(
        Code::ResultsNotCompatible,
        file,
        format!("{label}: {verdict} with suite {version}"),
    )
    .help(format!(
        "`bqsuite results check {file}{with_suite}` lists the reasons"
    ))
}

// ---------------------------------------------------------------- results diff

/// The two runs (NEW in `file`) pin different suite versions, `old` then `new`.
pub(crate) fn diff_suite_changed(file: &str, old: &str, new: &str) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsDiffSuiteChanged,
        file,
        format!("the runs pin different suite versions: {old} → {new}"),
    )
}

/// The section `section` of NEW (`file`) is new, with `cases` cases.
pub(crate) fn section_added(file: &str, section: &str, cases: usize) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsSectionAdded,
        file,
        format!(
            "section `{section}` is new ({cases} case{})",
            bqsuite_core::diag::plural(cases)
        ),
    )
}

/// The case `id` of `section` in NEW (`file`) is new, with the status `now` (with its reason).
pub(crate) fn case_added(file: &str, id: &str, section: &str, now: &str) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsCaseAdded,
        file,
        format!("case `{id}` of `{section}` is new: {now}"),
    )
}

/// The case `id` of `section` in NEW (`file`) went from pass to `now` (with its reason).
pub(crate) fn regression(file: &str, id: &str, section: &str, now: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsRegression,
        file,
        format!("case `{id}` of `{section}` went from pass to {now}"),
    )
    .help("the SDK passed this case in the earlier run; fix the change that broke it")
}

/// The case `id` of `section` in NEW (`file`) went from `before` to pass.
pub(crate) fn fix(file: &str, id: &str, section: &str, before: &str) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsFix,
        file,
        format!("case `{id}` of `{section}` went from {before} to pass"),
    )
}

/// The case `id` of `section` in NEW (`file`) went from `before` to `now` (with its reason).
pub(crate) fn status_changed(
    file: &str,
    id: &str,
    section: &str,
    before: &str,
    now: &str,
) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsStatusChanged,
        file,
        format!("case `{id}` of `{section}` went from {before} to {now}"),
    )
}

/// The case `id` of `section` of OLD (`file`, status `before`) is no longer reported.
pub(crate) fn case_removed(file: &str, id: &str, section: &str, before: &str) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsCaseRemoved,
        file,
        format!("case `{id}` of `{section}` ({before} before) is no longer reported"),
    )
    .help("`results check` reports it as missing while its section is in scope")
}

/// The section `section` of OLD (`file`, `cases` cases) is no longer reported.
pub(crate) fn section_removed(file: &str, section: &str, cases: usize) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsSectionRemoved,
        file,
        format!(
            "section `{section}` ({cases} case{}) is no longer reported",
            bqsuite_core::diag::plural(cases)
        ),
    )
    .help("`results check` reports it as missing while its scope is carried")
}

// ---------------------------------------------------------------- known gaps

fn gaps_invalid(file: &str, message: String) -> Diagnostic {
    Diagnostic::error(Code::KnownGapsInvalid, file, message).help(
        "each entry is {\"section\": \"<section>\", \"case\": \"<case id>\", \"reason\": \"<why, and the plan>\"}",
    )
}

/// The known-gaps file `file` is not `{"gaps": [...]}`.
pub(crate) fn gaps_not_a_list(file: &str) -> Diagnostic {
    gaps_invalid(file, "the top level must be {\"gaps\": [...]}".into())
}

/// The entry `i` of the known-gaps file `file` lacks a `section`, `case` or `reason`.
pub(crate) fn gap_incomplete(file: &str, i: usize) -> Diagnostic {
    gaps_invalid(
        file,
        format!("gaps[{i}] needs a non-empty string `section`, `case` and `reason`"),
    )
}

/// `section` / `case` is listed twice in `file` (first at `first`).
pub(crate) fn gap_duplicate(file: &str, section: &str, case: &str, first: &str) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapDuplicate,
        file,
        format!("`{section}` / `{case}` is listed twice (first at {first})"),
    )
    .help("list each known gap once")
}

/// The manifest of suite `version` has no section `section` (listed in `file`).
pub(crate) fn gap_section_unknown(file: &str, version: &str, section: &str) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapUnknown,
        file,
        format!("the manifest of suite {version} has no section `{section}`"),
    )
    .help("remove the entry, or name the section as the manifest does")
}

/// The section `section` of suite `version` has no case `case` (listed in `file`).
pub(crate) fn gap_case_unknown(file: &str, section: &str, version: &str, case: &str) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapUnknown,
        file,
        format!("section `{section}` of suite {version} has no case `{case}`"),
    )
    .help("remove the entry, or name the case by its id as results files do")
}

/// The core section `section` is listed as a known gap in `file`.
pub(crate) fn gap_core(file: &str, section: &str) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapCore,
        file,
        format!("`{section}` is a core section: the core envelope is never a known gap"),
    )
    .help("fix the SDK; only a case of a binding's section may be a documented gap")
}

/// `failed` (a `results-case-failed` finding about case `case` of `section`) as a known gap that
/// `gaps_file` lists for `reason`.
pub(crate) fn known_gap(
    failed: Diagnostic,
    case: &str,
    section: &str,
    gaps_file: &str,
    reason: &str,
) -> Diagnostic {
    Diagnostic {
        code: Code::ResultsKnownGap.code(),
        severity: Severity::Note,
        message: format!("case `{case}` of `{section}` fails, as {gaps_file} lists it: {reason}"),
        help: None,
        ..failed
    }
}

fn listed(gaps_file: &str, gap_pointer: &str) -> String {
    format!("{gaps_file} lists it as a known gap (at {gap_pointer})")
}

/// The case `case` of `section` is absent from `file`, but `gaps_file` lists it (at
/// `gap_pointer`).
pub(crate) fn gap_absent(
    file: &str,
    case: &str,
    section: &str,
    gaps_file: &str,
    gap_pointer: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapAbsent,
        file,
        format!(
            "case `{case}` of `{section}` is absent, but {}",
            listed(gaps_file, gap_pointer)
        ),
    )
    .help("a known gap is run and reported as `fail`; report every case")
}

/// The case `case` of `section` passes in `file`, but `gaps_file` lists it (at `gap_pointer`).
pub(crate) fn gap_stale(
    file: &str,
    case: &str,
    section: &str,
    gaps_file: &str,
    gap_pointer: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapStale,
        file,
        format!(
            "case `{case}` of `{section}` passes, but {}: a stale gap",
            listed(gaps_file, gap_pointer)
        ),
    )
    .help(format!("remove the entry {gap_pointer} from {gaps_file}"))
}

/// The case `case` of `section` is skipped in `file`, but `gaps_file` lists it (at
/// `gap_pointer`).
pub(crate) fn gap_skipped(
    file: &str,
    case: &str,
    section: &str,
    gaps_file: &str,
    gap_pointer: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::KnownGapSkipped,
        file,
        format!(
            "case `{case}` of `{section}` is skipped, but {}",
            listed(gaps_file, gap_pointer)
        ),
    )
    .help("a known gap is run and reported as `fail`, never as `skip`")
}

// ---------------------------------------------------------------- results check

/// The key `key` appears twice in one object of `file` (first at `first`).
pub(crate) fn duplicate_key(file: &str, key: &str, first: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsDuplicateKey,
        file,
        format!(
            "`{key}` appears more than once in the same object (first at {first}); only the \
             last one counts",
        ),
    )
    .help("report each section and case once")
}

/// The results in `file` pin suite `pinned`, but the suite checked against is `version`.
pub(crate) fn version_differs(file: &str, pinned: &str, version: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsVersion,
        file,
        format!("the results pin suite {pinned}, but the suite checked against is {version}"),
    )
    .help(format!(
        "run the suite version {version} (or check against the suite the results pin, \
             with --suite)",
    ))
}

/// `binding` (in `file`) is not one of `bindings`.
pub(crate) fn binding_unknown(file: &str, binding: &str, bindings: &[&str]) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsBindingUnknown,
        file,
        format!("`{binding}` is not a binding"),
    )
    .help(if bindings.is_empty() {
        "this suite has no bindings: remove it (`bindings` is empty)".to_string()
    } else {
        format!("bindings may name only {}", bindings.join(", "))
    })
}

/// `binding` (in `file`) is excepted for `family` by `adr`; `description` explains it.
pub(crate) fn binding_excepted(
    file: &str,
    binding: &str,
    family: &str,
    adr: &str,
    description: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsBindingExcepted,
        file,
        format!(
            "`{binding}` is excepted for the {family} family ({adr}); it is not \
             listed in bindings and its sections are absent",
        ),
    )
    .help(match description {
        Some(d) => format!("remove `{binding}` from bindings. {d}"),
        None => format!("remove `{binding}` from bindings"),
    })
}

/// The required core section `name` is absent from `file`; it has `cases` cases.
pub(crate) fn core_section_missing(
    file: &str,
    name: &str,
    scope: &str,
    cases: usize,
) -> Diagnostic {
    section_missing(file, name, scope, "every core section is required", cases)
}

/// The section `name` of the listed binding `scope` is absent from `file`; it has `cases` cases.
pub(crate) fn binding_section_missing(
    file: &str,
    name: &str,
    scope: &str,
    cases: usize,
) -> Diagnostic {
    section_missing(
        file,
        name,
        scope,
        &format!("`{scope}` is in bindings"),
        cases,
    )
}

fn section_missing(file: &str, name: &str, scope: &str, why: &str, cases: usize) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSectionMissing,
        file,
        format!("required section `{name}` (scope {scope}) is absent: {why}"),
    )
    .help(format!(
        "run the section and report all of its {cases} case{}; an unimplemented \
         in-scope section means the package is not Compatible",
        bqsuite_core::diag::plural(cases)
    ))
}

/// `file` does not conform to the results schema `schema` (`error` says how).
pub(crate) fn schema(file: &str, schema: &str, error: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSchema,
        file,
        format!("does not conform to {schema}: {error}"),
    )
    .help("fix the runner that wrote the file; the schema is the results format")
}

/// `dropped` more findings about `file` are not shown (the first `shown` are).
pub(crate) fn findings_truncated(file: &str, dropped: usize, shown: usize) -> Diagnostic {
    Diagnostic::note(
        Code::ResultsFindingsTruncated,
        file,
        format!(
            "{dropped} more finding{} not shown (the first {shown} are)",
            bqsuite_core::diag::plural(dropped)
        ),
    )
}

/// The section `name` (in `file`) is not in the manifest of suite `version`.
pub(crate) fn section_unknown(file: &str, name: &str, version: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSectionUnknown,
        file,
        format!("section `{name}` is not in the manifest of suite {version}"),
    )
    .help("report only the manifest's sections, under their manifest names")
}

/// The section `name` (in `file`) belongs to `scope`, excepted for `family` by `adr`.
pub(crate) fn section_excepted(
    file: &str,
    name: &str,
    scope: &str,
    family: &str,
    adr: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSectionOutOfScope,
        file,
        format!("section `{name}` belongs to `{scope}`, which is excepted for the {family} family ({adr})"),
    )
    .help("a binding under an exception is not a skip: its sections are absent")
}

/// The section `name` (in `file`) has the listed scope `scope`, yet is out of scope.
pub(crate) fn section_scope_listed(file: &str, name: &str, scope: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSectionOutOfScope,
        file,
        format!("section `{name}` has scope `{scope}`"),
    )
    .help("remove the section")
}

/// The section `name` (in `file`) has the scope `scope`, which is not in bindings.
pub(crate) fn section_scope_unlisted(file: &str, name: &str, scope: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsSectionOutOfScope,
        file,
        format!("section `{name}` has scope `{scope}`, which is not in bindings"),
    )
    .help(format!(
        "if the package carries {scope}, list `{scope}` in bindings (bindings must be \
         complete, and then every {scope} section is required); otherwise remove the \
         section",
    ))
}

/// The section `section` of the manifest has no case `id` (reported in `file`).
pub(crate) fn case_unknown(file: &str, section: &str, id: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsCaseUnknown,
        file,
        format!("section `{section}` of the manifest has no case `{id}`"),
    )
    .help(
        "case ids follow the spec's id rule: a case's name, <section>#<index> when \
         unnamed, <sub-key>/<name> inside a sub-key, or the sub-key itself",
    )
}

/// The case `id` of `section` failed (in `file`), for `reason` if given.
pub(crate) fn case_failed(file: &str, id: &str, section: &str, reason: Option<&str>) -> Diagnostic {
    let why = reason.map(|r| format!(": {r}")).unwrap_or_default();
    Diagnostic::error(
        Code::ResultsCaseFailed,
        file,
        format!("case `{id}` of `{section}` failed{why}"),
    )
    .help(
        "fix the SDK; a deviation from the wire contract is never a reason to \
         skip",
    )
}

fn skip_without_adr(file: &str, message: String) -> Diagnostic {
    Diagnostic::error(Code::ResultsSkipWithoutAdr, file, message).help(
        "a skip is only for a case an ADR makes not applicable, and its \
         reason cites it as ADR-NNNN; otherwise run the case",
    )
}

/// The case `id` of `section` is skipped without a reason (in `file`).
pub(crate) fn skip_without_reason(file: &str, id: &str, section: &str) -> Diagnostic {
    skip_without_adr(
        file,
        format!("case `{id}` of `{section}` is skipped without a reason"),
    )
}

/// The case `id` of `section` is skipped with a reason that is not a string (in `file`).
pub(crate) fn skip_reason_not_text(file: &str, id: &str, section: &str) -> Diagnostic {
    skip_without_adr(
        file,
        format!("case `{id}` of `{section}` is skipped and its reason is not a string"),
    )
}

/// The case `id` of `section` is skipped for `reason`, which cites no ADR (in `file`).
pub(crate) fn skip_cites_no_adr(file: &str, id: &str, section: &str, reason: &str) -> Diagnostic {
    skip_without_adr(
        file,
        format!("case `{id}` of `{section}` is skipped, but the reason cites no ADR: {reason}"),
    )
}

/// The case `id` of the in-scope `section` is not reported in `file`.
pub(crate) fn case_missing(file: &str, id: &str, section: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ResultsCaseMissing,
        file,
        format!("case `{id}` of `{section}` is not reported"),
    )
    .help("a results file lists every case of every in-scope section")
}
