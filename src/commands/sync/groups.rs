//! `sync --check`: copies whose vendored files are the same bytes drifted the same way, so they
//! are one group, reported once; each group's cases are counted once against the canonical
//! suite's ([`CaseCounter`]); a copy whose manifest.json is not JSON is an error row.

use std::collections::BTreeMap;
use std::path::Path;

use super::findings;
use super::outcome::{Group, Status, TargetResult};
use bqsuite_core::diag::Diagnostic;
use bqsuite_suite::drift::{CaseCount, CaseCounter, summary_finding};
use bqsuite_suite::load::MANIFEST;

/// The cases of the group whose first copy is `first`.
fn cases_of(counter: &CaseCounter, workspace: &Path, first: &TargetResult) -> CaseCount {
    if first.status == Status::NotVendored {
        return counter.count(None);
    }
    counter.count_copy(&workspace.join(&first.target.path), &first.files)
}

/// Groups the checked copies, counts each group's cases, turns a copy whose manifest.json is not
/// JSON into an error, and returns the groups (drifted ones first, largest first; then those not
/// vendored; then those in sync) with one summary finding per drifted or unvendored group.
pub(super) fn settle(
    results: &mut [TargetResult],
    expected: &BTreeMap<String, Vec<u8>>,
    workspace: &Path,
    canonical_version: &str,
    fix: &str,
) -> (Vec<Group>, Vec<Diagnostic>) {
    let counter = CaseCounter::new(expected.get(MANIFEST).map_or(&[][..], Vec::as_slice));
    let mut kept = Vec::new();
    let mut summaries = Vec::new();
    for group in group(results) {
        let cases = cases_of(&counter, workspace, &results[group.members[0]]);
        if let CaseCount::NotJson(why) = &cases {
            for &i in &group.members {
                let r = &mut results[i];
                r.status = Status::Error;
                r.cases = Some(cases.clone());
                let file = format!("{}/{MANIFEST}", r.target.path);
                r.findings.insert(0, findings::bad_manifest(file, why, fix));
            }
            continue;
        }
        let index = kept.len();
        for &i in &group.members {
            results[i].cases = Some(cases.clone());
            results[i].group = Some(index);
        }
        let summary = summary_of(&group, results, &cases, canonical_version, fix);
        summaries.extend(summary);
        kept.push(group);
    }
    (kept, summaries)
}

/// The copies that drifted alike (same status, same fingerprint) in one group each, ordered:
/// drifted first, largest first; then those not vendored; then those in sync. A copy without a
/// fingerprint is a group of its own; copies in other states are in none.
fn group(results: &[TargetResult]) -> Vec<Group> {
    let mut keyed: BTreeMap<(&'static str, String), Vec<usize>> = BTreeMap::new();
    let mut groups = Vec::new();
    for (i, r) in results.iter().enumerate() {
        if !matches!(
            r.status,
            Status::Drift | Status::InSync | Status::NotVendored
        ) {
            continue;
        }
        match &r.fingerprint {
            Some(key) => keyed
                .entry((r.status.word(), key.clone()))
                .or_default()
                .push(i),
            None => groups.push(Group {
                status: r.status,
                members: vec![i],
            }),
        }
    }
    groups.extend(keyed.into_values().map(|members| Group {
        status: results[members[0]].status,
        members,
    }));
    let order = |s: Status| match s {
        Status::Drift => 0,
        Status::NotVendored => 1,
        _ => 2,
    };
    groups.sort_by_key(|g| (order(g.status), usize::MAX - g.members.len(), g.members[0]));
    groups
}

/// The summary finding of a drifted or unvendored group (`None` for copies in sync).
fn summary_of(
    group: &Group,
    results: &[TargetResult],
    cases: &CaseCount,
    canonical_version: &str,
    fix: &str,
) -> Option<Diagnostic> {
    let copies: Vec<String> = group
        .members
        .iter()
        .map(|&i| results[i].target.path.clone())
        .collect();
    let agree = |one: &str, many: &str| {
        if copies.len() == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let verdict = match group.status {
        Status::Drift => format!(
            "{} from the canonical suite {canonical_version}",
            agree("differs", "differ")
        ),
        Status::NotVendored => format!("{} not vendored yet", agree("is", "are")),
        _ => return None,
    };
    let first = &results[group.members[0]];
    Some(summary_finding(
        &copies,
        &verdict,
        first.identity.as_ref(),
        &first.files,
        Some(cases),
        Some(fix),
    ))
}
