//! The strict core decoder's verdict on a raw body (`kafka_poison`, `identity_verdict`).
//!
//! - `poison`: the bytes are not one UTF-8 JSON value, the value is neither an object nor the
//!   literal `null`, or a known member has the wrong type. Known members, matched by their exact
//!   spelling: `trace_id` (string), `attempts` (integer), `data` (object whose numbers are all
//!   finite doubles), `meta` (object: `id`, `queue`, `lang` strings, `schema_version`,
//!   `created_at` integers) and `dead_letter` (object: `reason`, `error`, `exception`,
//!   `original_queue`, `lang` strings, `failed_at`, `attempts` integers). Every known member
//!   may be null. An integer is written without fraction or exponent and fits 64 signed bits.
//!   Every occurrence of a repeated known member is checked, as a streaming typed decoder
//!   checks each one it meets. Any other member (`job`, `urn`, other spellings, forbidden
//!   keys) is only read for syntax.
//! - otherwise `ok` when the body has an identity, else `no_identity`. Identity: the last `job`
//!   when it is a string that is not blank; else the last `urn` when it is a string that is not
//!   blank; a value of any other type is ignored. Blank: empty or only ASCII whitespace.

use super::number::{fits_int64, is_finite_double};
use super::scan::{Doc, Kind, scan};
use crate::model::is_ascii_blank;
use crate::switch::{Mutant, on, poison as mutant};

/// The core decoder's verdict on a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyVerdict {
    /// Decodes and carries a valid identity.
    Ok,
    /// Decodes, but neither `job` nor `urn` is a valid identity.
    NoIdentity,
    /// Cannot be decoded into the envelope.
    Poison,
}

impl BodyVerdict {
    /// The `kafka_poison` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyVerdict::Ok => "ok",
            BodyVerdict::NoIdentity => "no_identity",
            BodyVerdict::Poison => "poison",
        }
    }

    /// The verdict outside Kafka (`identity_verdict`): no identity is poison too.
    pub fn outside_kafka(self) -> &'static str {
        match self {
            BodyVerdict::Ok => "ok",
            BodyVerdict::NoIdentity | BodyVerdict::Poison => "poison",
        }
    }
}

/// The verdict and, for poison, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    pub verdict: BodyVerdict,
    pub why: String,
}

fn poison(why: impl Into<String>) -> Classified {
    Classified {
        verdict: BodyVerdict::Poison,
        why: why.into(),
    }
}

/// The type a known member must have (or be null).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Str,
    Int,
    /// `data`: an object whose numbers are all finite doubles.
    Data,
    /// `meta` or `dead_letter`: an object whose own known members are checked.
    Nested(&'static [(&'static str, Want)]),
}

const META: &[(&str, Want)] = &[
    ("id", Want::Str),
    ("queue", Want::Str),
    ("lang", Want::Str),
    ("schema_version", Want::Int),
    ("created_at", Want::Int),
];

const DEAD_LETTER: &[(&str, Want)] = &[
    ("reason", Want::Str),
    ("error", Want::Str),
    ("exception", Want::Str),
    ("original_queue", Want::Str),
    ("lang", Want::Str),
    ("failed_at", Want::Int),
    ("attempts", Want::Int),
];

const TOP: &[(&str, Want)] = &[
    ("trace_id", Want::Str),
    ("attempts", Want::Int),
    ("data", Want::Data),
    ("meta", Want::Nested(META)),
    ("dead_letter", Want::Nested(DEAD_LETTER)),
];

/// Classifies the raw bytes of a message body.
pub fn classify(bytes: &[u8]) -> Classified {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return poison("the body is not valid UTF-8");
    };
    let text = mutant::bom_skipped(text);
    let doc = match scan(text) {
        Ok(doc) => doc,
        Err(e) => return poison(format!("invalid JSON at byte {}: {}", e.offset, e.message)),
    };
    match doc.root().kind {
        Kind::Null if !on(Mutant::PoisonNullRootRejected) => {
            return Classified {
                verdict: BodyVerdict::NoIdentity,
                why: "a bare null is an empty envelope".into(),
            };
        }
        Kind::Object(_) => {}
        _ => return poison("the JSON root is not an object"),
    }
    if let Err(why) = check_object(&doc, 0, TOP, "") {
        return poison(why);
    }
    if mutant::schema_version_gated(&doc) {
        return poison("meta.schema_version is not 1");
    }
    for name in ["job", "urn"] {
        let typed = mutant::non_string_identity_fatal(name);
        if typed
            && occurrences(&doc, 0, name)
                .into_iter()
                .any(|v| !is_string_or_null(&doc, v))
        {
            return poison(format!("`{name}` is not a string"));
        }
    }
    identity(&doc)
}

/// The members of the object at `at` that `name` selects under the active mutant: every
/// occurrence, or only the last one.
fn occurrences(doc: &Doc<'_>, at: usize, name: &str) -> Vec<usize> {
    let all: Vec<usize> = doc
        .members(at)
        .iter()
        .filter(|(n, _)| mutant::same_name(&n.text, name))
        .map(|(_, v)| *v)
        .collect();
    if on(Mutant::PoisonTypeCheckLastOnly) {
        all.last().copied().into_iter().collect()
    } else {
        all
    }
}

fn check_object(
    doc: &Doc<'_>,
    at: usize,
    table: &[(&str, Want)],
    prefix: &str,
) -> Result<(), String> {
    for &(name, want) in table {
        for value in occurrences(doc, at, name) {
            check_member(doc, value, want, &format!("{prefix}{name}"))?;
        }
    }
    Ok(())
}

fn check_member(doc: &Doc<'_>, at: usize, want: Want, path: &str) -> Result<(), String> {
    let node = &doc.nodes[at];
    let fits = match (&node.kind, want) {
        (Kind::Null, _) => {
            return if on(Mutant::PoisonNullMemberRejected) {
                Err(format!("`{path}` is null"))
            } else {
                Ok(())
            };
        }
        (Kind::String { .. }, Want::Str) => true,
        (Kind::Number, Want::Int) => mutant::integer_accepted(doc.source(at), fits_int64),
        (Kind::Bool(_), Want::Int) => crate::switch::python::bool_is_int(),
        (Kind::Object(_), Want::Data) => {
            if let Some(bad) = non_finite_number(doc, at) {
                return Err(format!("`{path}` holds the non-finite number {bad}"));
            }
            true
        }
        (Kind::Object(_), Want::Nested(table)) => {
            return check_object(doc, at, table, &format!("{path}."));
        }
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        Err(format!("`{path}` has the wrong type ({})", doc.source(at)))
    }
}

/// The first number below `at` that is not a finite double, if any.
fn non_finite_number<'t>(doc: &Doc<'t>, at: usize) -> Option<&'t str> {
    if on(Mutant::PoisonDataNumbersUnchecked) {
        return None;
    }
    doc.subtree(at)
        .into_iter()
        .filter(|&i| doc.nodes[i].kind == Kind::Number)
        .map(|i| doc.source(i))
        .find(|lexeme| !is_finite_double(lexeme))
}

fn is_string_or_null(doc: &Doc<'_>, at: usize) -> bool {
    matches!(doc.nodes[at].kind, Kind::String { .. } | Kind::Null)
}

/// The identity rule on a decodable body.
fn identity(doc: &Doc<'_>) -> Classified {
    for name in ["job", "urn"] {
        let all: Vec<usize> = doc
            .members(0)
            .iter()
            .filter(|(n, _)| mutant::same_name(&n.text, name))
            .map(|(_, v)| *v)
            .collect();
        let chosen = if on(Mutant::PoisonDuplicateFirstWins) {
            all.first()
        } else {
            all.last()
        };
        let Some(&value) = chosen else { continue };
        // A value that is not a string is ignored.
        if let Kind::String { value: s, .. } = &doc.nodes[value].kind {
            let blank = crate::switch::php::blank(s)
                .or_else(|| crate::switch::python::blank(s))
                .unwrap_or_else(|| mutant::blank(s, is_ascii_blank));
            if !blank {
                return Classified {
                    verdict: BodyVerdict::Ok,
                    why: format!("identity from `{name}`"),
                };
            }
            if name == "job" && on(Mutant::PoisonBlankNoFallback) {
                break;
            }
        }
    }
    Classified {
        verdict: BodyVerdict::NoIdentity,
        why: "neither job nor urn is a valid identity".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(body: &str) -> &'static str {
        classify(body.as_bytes()).verdict.as_str()
    }

    #[test]
    fn the_last_duplicate_decides_the_identity_but_every_typed_occurrence_is_checked() {
        assert_eq!(verdict(r#"{"job":5,"job":"urn:x"}"#), "ok");
        assert_eq!(verdict(r#"{"job":"urn:x","job":5}"#), "no_identity");
        assert_eq!(
            verdict(r#"{"job":"urn:x","attempts":"3","attempts":1}"#),
            "poison"
        );
        assert_eq!(
            verdict(r#"{"job":"urn:x","meta":{"id":1,"id":"a"}}"#),
            "poison"
        );
    }

    #[test]
    fn identity_rule() {
        assert_eq!(verdict(r#"{"job":" \t","urn":"urn:x"}"#), "ok");
        assert_eq!(verdict(r#"{"job":" \t"}"#), "no_identity");
        assert_eq!(verdict(r#"{"job":"\u000b"}"#), "no_identity");
        assert_eq!(verdict(r#"{"job":"\u00a0"}"#), "ok");
        assert_eq!(verdict(r#"{"job":[],"urn":{}}"#), "no_identity");
        assert_eq!(verdict(r#"{"JOB":"urn:x"}"#), "no_identity");
        assert_eq!(verdict("null"), "no_identity");
    }

    #[test]
    fn numbers() {
        assert_eq!(verdict(r#"{"data":{"a":[{"n":1e400}]}}"#), "poison");
        assert_eq!(verdict(r#"{"data":{"n":1e-400}}"#), "no_identity");
        // Outside `data` and the typed members a number is only read for syntax.
        assert_eq!(verdict(r#"{"job":"urn:x","x":1e400}"#), "ok");
        assert_eq!(
            verdict(r#"{"meta":{"created_at":-9223372036854775808}}"#),
            "no_identity"
        );
        assert_eq!(verdict(r#"{"dead_letter":{"attempts":1e0}}"#), "poison");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_poison() {
        assert_eq!(classify(b"{\"job\":\"\xff\"}").verdict, BodyVerdict::Poison);
    }
}
