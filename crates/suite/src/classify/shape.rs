//! The members a released runner reads: an added case that lacks a member every case of its
//! block carried in OLD (`case-lacks-member`, major).
//!
//! A runner written against OLD reads what every case of a block has (`expect.tier_ms` of each
//! `backoff.retry_attempt_tier` case, say) without asking whether it is there, as the real
//! babelqueue-python runner does. A new case without it is not additive for that runner: it
//! stops with a missing key, so a minor release would turn a passing SDK red. The converse,
//! a case with fields OLD never had, is additive (runners ignore unknown fields).
//!
//! The members looked at are the case's own (its `description` aside) and those of each member
//! that is an object (`expect.topic`), not deeper: a map of header values one level further down
//! is data the runner iterates, not a field it reads by name. A block needs at least two cases
//! in OLD to say what its cases always carry. A case of a block that OLD did not have is held
//! against the whole section, as a runner that walks the section's cases meets it (the real
//! babelqueue-python runner hands every case of `retry_backoff` to one function).

use std::collections::BTreeSet;

use serde_json::Value;

use super::change::Change;
use super::codes::Code;
use super::sections::{CaseKey, holder, shown_id};
use crate::load::MANIFEST;
use bqsuite_core::index::IndexedCase;

/// The fewest cases of OLD a block needs before what they all carry is a shape.
const LEAST_CASES: usize = 2;

/// The member paths of one case: `name`, `expect`, `expect.topic`.
fn members(case: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Value::Object(map) = case else {
        return out;
    };
    for (key, value) in map.iter().filter(|(k, _)| k.as_str() != "description") {
        out.insert(key.clone());
        if let Value::Object(inner) = value {
            out.extend(inner.keys().map(|k| format!("{key}.{k}")));
        }
    }
    out
}

/// The members every one of `cases` carries, when there are enough of them to tell.
fn carried_by_all<'a>(mut cases: impl Iterator<Item = &'a Value>) -> Option<BTreeSet<String>> {
    let mut common = members(cases.next()?);
    let mut seen = 1;
    for case in cases {
        let mine = members(case);
        common.retain(|m| mine.contains(m));
        seen += 1;
    }
    (seen >= LEAST_CASES).then_some(common)
}

/// The `case-lacks-member` change for the case `key` added to `section`, when it lacks members
/// that every case of its block (the same sub-block, or the section's own cases) had in OLD. A
/// case in a block OLD did not have is held against every case of the section: a runner walks a
/// section's cases, sub-blocks included (the case-id rule), and one written for OLD hands the new
/// block's cases to the code that read all of OLD's.
pub(super) fn lacking(
    section: &str,
    key: &CaseKey,
    added: &IndexedCase<'_>,
    old_cases: &[(CaseKey, &IndexedCase<'_>)],
) -> Option<Change> {
    let block = holder(added);
    let known = old_cases.iter().any(|(_, c)| holder(c) == block);
    let siblings: Vec<&Value> = old_cases
        .iter()
        .filter(|(_, c)| !known || holder(c) == block)
        .map(|(_, c)| c.case.case)
        .collect();
    let carried = carried_by_all(siblings.iter().copied())?;
    let has = members(added.case.case);
    let missing: Vec<String> = carried.into_iter().filter(|m| !has.contains(m)).collect();
    if missing.is_empty() {
        return None;
    }
    let id = shown_id(key);
    let where_from = match (&block, known) {
        (Some(b), true) => format!(
            "all {} cases of `{section}.{b}` carry in OLD",
            siblings.len()
        ),
        (None, true) => format!("all {} cases of `{section}` carry in OLD", siblings.len()),
        (_, false) => format!(
            "all {} cases of section `{section}` carry in OLD, and its new block is walked with them",
            siblings.len()
        ),
    };
    let shown: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
    Some(
        Change::new(
            Code::CaseLacksMember,
            MANIFEST,
            format!(
                "case `{id}` added to section `{section}` lacks {}, which {where_from}: a runner \
                 of OLD's version reads {} and fails on this case",
                shown.join(", "),
                if missing.len() == 1 { "it" } else { "them" },
            ),
        )
        .at(&added.pointer)
        .case(section, &id)
        .detail(&missing.iter().map(|m| format!("- {m}")).collect::<Vec<_>>()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_go_one_object_deep_and_skip_the_description() {
        let case =
            json!({"name": "a", "description": "d", "expect": {"n": 1, "headers": {"x": "1"}}});
        let got: Vec<String> = members(&case).into_iter().collect();
        assert_eq!(got, ["expect", "expect.headers", "expect.n", "name"]);
    }

    #[test]
    fn one_case_does_not_make_a_shape() {
        let one = json!({"name": "a", "x": 1});
        assert_eq!(carried_by_all([&one].into_iter()), None);
        let two = json!({"name": "b", "x": 2, "y": 3});
        let got = carried_by_all([&one, &two].into_iter()).unwrap();
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["name", "x"]);
    }
}
