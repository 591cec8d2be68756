//! The variations of the poison mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::poison`].

use serde_json::{Map, Value};

use super::{Mutant, on};
use crate::bindings::poison::scan;

/// Under the mutant, a meta.schema_version other than 1 makes the body poison.
pub fn schema_version_gated(doc: &scan::Doc<'_>) -> bool {
    if !on(Mutant::PoisonSchemaVersionGated) {
        return false;
    }
    let last = |at: usize, name: &str| {
        let members = doc.members(at);
        members
            .iter()
            .rev()
            .find(|(n, _)| n.text == name)
            .map(|(_, v)| *v)
    };
    last(0, "meta")
        .and_then(|m| last(m, "schema_version"))
        .is_some_and(|v| doc.nodes[v].kind == scan::Kind::Number && doc.source(v) != "1")
}

/// Under the mutant, a body with JSON whitespace around it is not taken as an object.
pub fn whitespace_wrapped(text: &str) -> bool {
    on(Mutant::DlqWhitespaceWrapped) && !(text.starts_with('{') && text.ends_with('}'))
}

/// Whether the DLQ writer sees an unpaired surrogate escape in `doc`.
pub fn lone_surrogate_seen(doc: &scan::Doc<'_>) -> bool {
    if on(Mutant::DlqLoneSurrogateAccepted) {
        return false;
    }
    if on(Mutant::DlqKeySurrogateUnchecked) {
        return doc.nodes.iter().any(|n| {
            matches!(
                n.kind,
                scan::Kind::String {
                    lone_surrogate: true,
                    ..
                }
            )
        });
    }
    doc.has_lone_surrogate()
}

/// Whether the DLQ writer finds a `dead_letter` member that forces the wrapper.
pub fn dead_letter_seen(doc: &scan::Doc<'_>) -> bool {
    if on(Mutant::DlqExistingDeadLetterSpliced) {
        return false;
    }
    let named =
        |members: &[(scan::Name, usize)]| members.iter().any(|(n, _)| n.text == "dead_letter");
    if on(Mutant::DlqNestedDeadLetterWrapped) {
        return (0..doc.nodes.len()).any(|i| named(doc.members(i)));
    }
    named(doc.members(0))
}

/// The body text the classifier reads: without a leading BOM under the mutant.
pub fn bom_skipped(text: &str) -> &str {
    skip_bom(text, Mutant::PoisonBomSkipped)
}

/// The body text the DLQ writer reads: without a leading BOM under the mutant.
pub fn dlq_bom_skipped(text: &str) -> &str {
    skip_bom(text, Mutant::DlqBomSkipped)
}

fn skip_bom(text: &str, mutant: Mutant) -> &str {
    if on(mutant) {
        text.strip_prefix('\u{FEFF}').unwrap_or(text)
    } else {
        text
    }
}

/// Whether a member spelled `found` is the known member `known`.
pub fn same_name(found: &str, known: &str) -> bool {
    if on(Mutant::PoisonKeysCaseInsensitive) {
        found.eq_ignore_ascii_case(known)
    } else {
        found == known
    }
}

/// Whether an integer member written as `lexeme` is accepted (`rule` is the contract's test).
pub fn integer_accepted(lexeme: &str, rule: fn(&str) -> bool) -> bool {
    if on(Mutant::PoisonIntegralFloatAccepted) {
        let v = lexeme.parse::<f64>().unwrap_or(f64::NAN);
        v.fract() == 0.0 && v.abs() < 9.3e18
    } else if on(Mutant::PoisonInt64Unbounded) {
        !lexeme.contains(['.', 'e', 'E'])
    } else {
        rule(lexeme)
    }
}

/// Whether a string identity is blank (`rule` is the contract's test).
pub fn blank(s: &str, rule: fn(&str) -> bool) -> bool {
    if on(Mutant::PoisonBlankSpacesOnly) {
        s.chars().all(|c| c == ' ')
    } else {
        rule(s)
    }
}

/// Whether a non-string `name` (`job` or `urn`) is a decode error under the active mutant.
pub fn non_string_identity_fatal(name: &str) -> bool {
    match name {
        "job" => on(Mutant::PoisonNonStringJobFatal),
        _ => on(Mutant::PoisonUrnNonStringFatal),
    }
}

/// Adds the encoding field to a text wrapper under the mutant.
pub fn text_raw_encoding(raw: &mut Map<String, Value>) {
    if on(Mutant::DlqRawEncodingUtf8) {
        raw.insert("raw_encoding".into(), Value::String("utf8".into()));
    }
}

/// Under the mutant, the body with `NaN` / `Infinity` read as numbers (here: replaced by 0).
pub fn non_finite_literals_read(text: &str) -> Option<String> {
    on(Mutant::DlqNanAccepted).then(|| {
        text.replace("-Infinity", "0")
            .replace("Infinity", "0")
            .replace("NaN", "0")
    })
}
