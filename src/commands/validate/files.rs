//! The suite's files: the required ones exist, JSON parses, and no JSON file (other than a
//! fixture that tests it on purpose) repeats a key.

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::json;
use bqsuite_suite::Suite;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::{
    ENVELOPE_SCHEMA, MANIFEST, RESULTS_EXAMPLE, RESULTS_SCHEMA, VERSION_FILE, keeps_value,
};
use bqsuite_suite::rules::{self, Feature};

/// Which suites must have a file.
#[derive(Clone, Copy)]
enum Need {
    /// Every release of every suite.
    Always,
    /// Every release of a suite with an envelope schema (BabelQueue's).
    Envelope,
    /// The releases that must follow a rule of the format.
    Since(Feature),
}

/// The files a suite must have, with what each is and who must have it.
const REQUIRED: [(&str, &str, Need); 5] = [
    (
        VERSION_FILE,
        "the suite's SemVer, e.g. `1.8.0`",
        Need::Always,
    ),
    (MANIFEST, "the case list", Need::Always),
    (
        ENVELOPE_SCHEMA,
        "the draft-07 envelope schema",
        Need::Envelope,
    ),
    (
        RESULTS_SCHEMA,
        "the draft 2020-12 results schema, required since 1.5.0",
        Need::Since(Feature::ResultsFormat),
    ),
    (
        RESULTS_EXAMPLE,
        "an example results file, required since 1.5.0",
        Need::Since(Feature::ResultsFormat),
    ),
];

pub fn check(suite: &Suite, kind: &Kind, out: &mut Vec<Diagnostic>) {
    let version = rules::parse_version(suite.version_text());
    for (rel, what, need) in REQUIRED {
        let needed = match need {
            Need::Always => true,
            Need::Envelope => kind.format.envelope_schema,
            Need::Since(f) => f.required_of(kind, version.as_ref()),
        };
        if !needed {
            continue;
        }
        if suite.file(rel).is_none() && !suite.problems.iter().any(|p| p.file == rel) {
            out.push(findings::missing_file(rel, what));
        }
    }
    // Names outside the layout (not `.json`, nested, hidden, unportable) are refused by the
    // loader (see `suite::layout`) and reach this check as problems, not files.
    // The fixtures' syntax is checked with the rest of their checks (see `fixtures`).
    for (rel, file) in suite.files.iter().filter(|(rel, _)| keeps_value(rel)) {
        let Some(parsed) = &file.json else { continue };
        match parsed {
            Err(e) => out.push(findings::syntax_error(rel, e)),
            // A fixture may repeat a key on purpose (duplicate-keys-last-wins); the manifest and
            // the schemas never should, because the earlier value would be silently ignored.
            Ok(doc) => {
                // The loader noted while parsing whether a key repeats; the positioned tree that
                // says where is built only for a file that does, for this check alone (kept, the
                // manifest's would be the largest thing validation holds).
                if !doc.repeats_a_key() {
                    continue;
                }
                let tree = file.text().and_then(|t| json::parse(t).ok());
                for dup in tree.map(|t| t.duplicate_keys()).unwrap_or_default() {
                    out.push(
                        findings::duplicate_key(rel, &dup.key, dup.first.line, dup.first.column)
                            .line_col(dup.repeated.line, dup.repeated.column)
                            .at(dup.pointer.clone()),
                    );
                }
            }
        }
    }
}
