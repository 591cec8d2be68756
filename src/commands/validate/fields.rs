//! Misspelled case fields. A runner reads the fields it knows and ignores the others, so a typo
//! in an optional field (`expect_warnin`) silently drops an expectation, and a typo in a required
//! one is reported only as the field missing. A field that no other case of its section carries,
//! and that is a typo or two away from a field the case lacks (one that other cases of the section
//! carry, or one the evaluator found missing), gets a did-you-mean naming both.

use std::collections::{BTreeMap, BTreeSet};

use super::codes::Code;
use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::ids::escape_token;
use bqsuite_core::index::{CaseIndex, IndexedCase};

/// Appends a did-you-mean finding for each case field that looks misspelled. `found` holds the
/// findings so far: a `case-shape` finding at `<case>/<field>` for a field the case lacks names a
/// field the evaluator asked for.
pub fn check(index: &CaseIndex, found: &[Diagnostic], out: &mut Vec<Diagnostic>) {
    let mut carried: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for c in &index.cases {
        let section = carried.entry(c.section.as_str()).or_default();
        for key in fields_of(c) {
            *section.entry(key).or_default() += 1;
        }
    }
    for c in &index.cases {
        let section = &carried[c.section.as_str()];
        let own: BTreeSet<&str> = fields_of(c).collect();
        // The fields the case lacks: `true` when the evaluator asked for it.
        let mut known: BTreeMap<String, bool> = section
            .keys()
            .filter(|k| !own.contains(*k))
            .map(|k| (k.to_string(), false))
            .collect();
        for field in asked_for(c, found) {
            if !own.contains(field.as_str()) {
                known.insert(field, true);
            }
        }
        for field in own.iter().filter(|k| section.get(*k) == Some(&1)) {
            if let Some(closest) = closest(field, &known) {
                out.push(
                    findings::case_field_misspelled(field, closest, &c.section).at(format!(
                        "{}/{}",
                        c.pointer,
                        escape_token(field)
                    )),
                );
            }
        }
    }
}

/// The field names of a case.
fn fields_of<'a>(c: &'a IndexedCase<'_>) -> impl Iterator<Item = &'a str> {
    c.case
        .case
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys().map(String::as_str))
}

/// The fields the evaluator found missing in case `c`: `case-shape` findings at `<case>/<field>`.
fn asked_for(c: &IndexedCase<'_>, found: &[Diagnostic]) -> Vec<String> {
    let prefix = format!("{}/", c.pointer);
    found
        .iter()
        .filter(|d| d.code == Code::CaseShape)
        .filter_map(|d| d.pointer.as_deref()?.strip_prefix(&prefix))
        .filter(|token| !token.contains('/'))
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The known field closest to `field`, when it is near enough to be a typo of it
/// ([`allowed`]); `known` maps each field to whether the evaluator asked for it.
fn closest<'k>(field: &str, known: &'k BTreeMap<String, bool>) -> Option<&'k str> {
    known
        .iter()
        .map(|(k, asked)| (distance(field, k), k, *asked))
        .filter(|(d, k, asked)| *d <= allowed(field.chars().count().min(k.chars().count()), *asked))
        .min_by_key(|(d, ..)| *d)
        .map(|(_, k, _)| k.as_str())
}

/// The edits a typo may take between names whose shorter is `length` characters: one under six
/// characters, two from six, none under three. A field the evaluator asked for, which the case
/// lacks, may be up to half its length away (`expeted` for `expect`).
fn allowed(length: usize, asked: bool) -> usize {
    let typo = match length {
        0..3 => 0,
        3..6 => 1,
        _ => 2,
    };
    if asked { typo.max(length / 2) } else { typo }
}

/// The edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_near_and_other_names_are_not() {
        assert_eq!(distance("expeted", "expected"), 1);
        assert_eq!(distance("epxect", "expect"), 1);
        assert_eq!(distance("expect_warnin", "expect_warning"), 1);
        let known: BTreeMap<String, bool> = ["expect", "expected_attempts", "queue"]
            .iter()
            .map(|s| (s.to_string(), false))
            .collect();
        assert_eq!(
            closest("expeted_attempts", &known),
            Some("expected_attempts")
        );
        assert_eq!(closest("exepct", &known), Some("expect"));
        assert_eq!(closest("expeted", &known), None);
        assert_eq!(closest("value", &known), None);
        assert_eq!(closest("q", &known), None);
        // Asked for by the evaluator: a looser typo.
        let asked = BTreeMap::from([("expect".to_string(), true)]);
        assert_eq!(closest("expeted", &asked), Some("expect"));
        assert_eq!(closest("value", &asked), None);
    }
}
