//! Whether a delivered body is poison for the consumer SDK (error-handling §7, ADR-0036
//! decision 4): not exactly one JSON object, a known member of the wrong type, a non-finite
//! number inside `data`, or neither a usable `job` nor a usable `urn` identity.
//!
//! The typed members: `trace_id`, `meta.id|queue|lang` and `dead_letter.reason|error|
//! exception|original_queue|lang` are string-or-null; `attempts`, `meta.schema_version|
//! created_at` and `dead_letter.failed_at|attempts` are an int64 integer literal or null;
//! `data`, `meta`, `dead_letter` are object-or-null. Every occurrence of a duplicated member
//! is checked. Identity takes the last occurrence of `job` / `urn`.

use super::json_text::{Dialect, JVal, parse};
use crate::model::is_ascii_blank;

#[derive(Clone, Copy)]
enum Kind {
    Str,
    Int,
    Data,
    Obj(&'static [(&'static str, Kind)]),
}

const META: &[(&str, Kind)] = &[
    ("id", Kind::Str),
    ("queue", Kind::Str),
    ("lang", Kind::Str),
    ("schema_version", Kind::Int),
    ("created_at", Kind::Int),
];

const DEAD_LETTER: &[(&str, Kind)] = &[
    ("reason", Kind::Str),
    ("error", Kind::Str),
    ("exception", Kind::Str),
    ("original_queue", Kind::Str),
    ("lang", Kind::Str),
    ("failed_at", Kind::Int),
    ("attempts", Kind::Int),
];

const TOP: &[(&str, Kind)] = &[
    ("trace_id", Kind::Str),
    ("attempts", Kind::Int),
    ("data", Kind::Data),
    ("meta", Kind::Obj(META)),
    ("dead_letter", Kind::Obj(DEAD_LETTER)),
];

/// True when the consumer SDK must treat `body` as poison (never handed to a handler).
pub fn is_poison(body: &str) -> bool {
    let Some(root) = parse(body, Dialect::Strict) else {
        return true;
    };
    let JVal::Obj(members) = &root else {
        return true;
    };
    if !well_typed(members, TOP) {
        return true;
    }
    !(usable_identity(root.member("job")) || usable_identity(root.member("urn")))
}

fn usable_identity(value: Option<&JVal>) -> bool {
    matches!(value, Some(JVal::Str(s)) if !is_ascii_blank(s))
}

fn well_typed(members: &[(String, JVal)], kinds: &[(&str, Kind)]) -> bool {
    members.iter().all(
        |(key, value)| match kinds.iter().find(|(name, _)| name == key) {
            None => true,
            Some((_, kind)) => member_ok(*kind, value),
        },
    )
}

fn member_ok(kind: Kind, value: &JVal) -> bool {
    if *value == JVal::Null {
        return true;
    }
    match (kind, value) {
        (Kind::Str, JVal::Str(_)) => true,
        (Kind::Int, JVal::Num(n)) => {
            n.int_literal && n.integer.is_some_and(|i| i64::try_from(i).is_ok())
        }
        (Kind::Data, JVal::Obj(_)) => all_finite(value),
        (Kind::Obj(inner), JVal::Obj(members)) => well_typed(members, inner),
        _ => false,
    }
}

fn all_finite(value: &JVal) -> bool {
    match value {
        JVal::Num(n) => n.value.is_finite(),
        JVal::Arr(items) => items.iter().all(all_finite),
        JVal::Obj(members) => members.iter().all(|(_, v)| all_finite(v)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_with_an_identity_are_not_poison() {
        for body in [
            "{\"job\": \"urn:bq:orders:created\",  \"attempts\": 2, \"data\": {\"id\": 1}}",
            "{\"urn\":\"urn:a\",\"job\":7}",
            "{\"job\":\"urn:a\",\"x\":1e400,\"attempts\":null}",
        ] {
            assert!(!is_poison(body), "{body}");
        }
    }

    #[test]
    fn poison_bodies() {
        for body in [
            "not-json",
            "",
            "null",
            "[]",
            "42",
            "{\"attempts\":0,\"data\":{}}",
            "{\"job\":\" \\t\"}",
            "{\"job\":\"urn:a\",\"attempts\":\"3\"}",
            "{\"job\":\"urn:a\",\"attempts\":1.0}",
            "{\"job\":\"urn:a\",\"attempts\":true}",
            "{\"job\":\"urn:a\",\"attempts\":9223372036854775808}",
            "{\"job\":\"urn:a\",\"data\":{\"n\":1e400}}",
            "{\"job\":\"urn:a\",\"data\":[]}",
            "{\"job\":\"urn:a\",\"data\":{\"n\":NaN}}",
            "{\"job\":\"urn:a\",\"meta\":{\"schema_version\":\"1\"}}",
            "{\"job\":\"urn:a\",\"trace_id\":1,\"trace_id\":\"t\"}",
            "{\"job\":\"urn:a\",\"dead_letter\":{\"failed_at\":1.5}}",
        ] {
            assert!(is_poison(body), "{body}");
        }
    }
}
