//! The human report of `sync --check`, grouped so that it stays short on a real fleet:
//!
//! - each copy that could not be checked is one line (the file, what is wrong, what to do);
//! - copies that drifted the same way are one block: what they are, their cases, their files
//!   (most important first, at most [`LISTED_FILES`] without `--verbose`), then the copies;
//! - groups of copies that differ in the same files but not with the same bytes (two earlier
//!   releases, say) share one block too: the files once, then each group's copies with what they
//!   are and their cases ([`shared_files_block`]);
//! - copies not vendored yet, copies in sync and targets whose SDK repository is absent are one
//!   block each, listing their targets;
//! - then the verdict and the one command that fixes the drift.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::lines::{header_line, status_style, verdict_line, version_column};
use super::outcome::{Group, Outcome, Status, TargetResult};
use bqsuite_core::diag::{self, Severity};
use bqsuite_core::show;
use bqsuite_suite::drift::{Change, file_lines, head_lines, what_copy};

/// File names listed per block (all of them with `--verbose`).
pub const LISTED_FILES: usize = 10;

/// Indentation of a block's lines, and of the targets it lists.
pub(super) const DETAIL: &str = "    ";
pub(super) const LISTED: &str = "      ";

pub(super) fn status_word(status: Status, color: bool) -> String {
    diag::paint(status.word(), status_style(status), color)
}

/// The one line of a copy that could not be checked: its first error's message and help.
fn error_line(r: &TargetResult, color: bool) -> String {
    let problem = r
        .findings
        .iter()
        .find(|d| d.severity == Severity::Error && Change::of(d.code).is_none());
    let text = match problem {
        Some(d) => match &d.help {
            Some(help) => format!("{}: {help}", d.message),
            None => d.message.clone(),
        },
        None => format!("`{}` could not be checked", r.target.path),
    };
    format!(
        "{}: {}",
        status_word(Status::Error, color),
        show::text(&text)
    )
}

/// The unified diffs `--diff` attached to the files of copy `r`, by path within the copy.
fn details_of(r: &TargetResult) -> BTreeMap<&str, &str> {
    let mut details = BTreeMap::new();
    for d in &r.findings {
        let path = d
            .file
            .strip_prefix(&r.target.path)
            .and_then(|p| p.strip_prefix('/'));
        if let (Some(path), Some(detail)) = (path, d.detail.as_deref()) {
            details.entry(path).or_insert(detail);
        }
    }
    details
}

/// What the file list of a drifted group shows: its differing files, how many match, and each
/// file's diff. Groups with equal listings print theirs once.
#[derive(PartialEq, Eq)]
struct Listing<'a> {
    files: &'a [(String, Change)],
    matched: usize,
    details: BTreeMap<&'a str, &'a str>,
}

impl<'a> Listing<'a> {
    fn of(r: &'a TargetResult) -> Self {
        Listing {
            files: &r.files,
            matched: r.matched,
            details: details_of(r),
        }
    }
}

/// The lines that list the differing files of copy `r` (each with its diff, if any), at most
/// `listed` of them.
fn listing_lines(out: &mut String, r: &TargetResult, listed: usize) {
    let details = details_of(r);
    let files = r.files.iter().map(|(p, c)| (p.as_str(), c.word()));
    let hint = "`--verbose` lists every file";
    let detail = |path: &str| details.get(path).map(|d| d.to_string());
    for line in file_lines(files, listed, hint, &detail) {
        let _ = writeln!(out, "{LISTED}{}", show::text(&line));
    }
}

/// The drifted groups of `outcome` with their blocks: each group alone, except that groups whose
/// file listings are equal are gathered, in the order of the first of them.
fn drift_blocks(outcome: &Outcome) -> Vec<Vec<&Group>> {
    let mut blocks: Vec<(Listing, Vec<&Group>)> = Vec::new();
    for group in outcome.groups.iter().filter(|g| g.status == Status::Drift) {
        let listing = Listing::of(&outcome.results[group.members[0]]);
        match blocks.iter_mut().find(|(l, _)| *l == listing) {
            Some((_, groups)) => groups.push(group),
            None => blocks.push((listing, vec![group])),
        }
    }
    blocks.into_iter().map(|(_, groups)| groups).collect()
}

/// The versions of the copies of a shared block for its head line: each distinct one once (at
/// most [`SHOWN_VERSIONS`]), against the canonical version when none of them is it.
fn versions_of(outcome: &Outcome, firsts: &[&TargetResult]) -> String {
    let mut shown: Vec<String> = Vec::new();
    for r in firsts {
        let short = r
            .identity
            .as_ref()
            .map_or_else(|| "-".to_string(), |id| id.short());
        if !shown.contains(&short) {
            shown.push(short);
        }
    }
    let more = shown.len().saturating_sub(SHOWN_VERSIONS);
    shown.truncate(SHOWN_VERSIONS);
    let mut text = match (shown.split_last(), more) {
        (Some((last, [])), 0) => last.clone(),
        (Some((last, init)), 0) => format!("{} and {last}", init.join(", ")),
        _ => format!("{} and {more} more", shown.join(", ")),
    };
    let canonical = &outcome.canonical_version;
    let elsewhere = firsts.iter().all(|r| {
        r.identity
            .as_ref()
            .is_none_or(|id| id.version.as_deref() != Some(canonical.as_str()))
    });
    if elsewhere {
        text.push_str(&format!(" -> {canonical}"));
    }
    show::text(&text)
}

/// Distinct versions named in the head line of a shared block.
const SHOWN_VERSIONS: usize = 3;

/// The block of drifted groups that differ from the canonical suite in the same files, with
/// different bytes: the head, the files once, then each group (one copy on one line with what it
/// is and its cases; several copies with the same bytes on one such line, then their targets).
fn shared_files_block(outcome: &Outcome, groups: &[&Group], verbose: bool, color: bool) -> String {
    let mut out = String::new();
    let firsts: Vec<&TargetResult> = groups
        .iter()
        .map(|g| &outcome.results[g.members[0]])
        .collect();
    let first = firsts[0];
    let copies: usize = groups.iter().map(|g| g.members.len()).sum();
    let _ = writeln!(
        out,
        "{}: {copies} copies, {}, with the same files differing",
        status_word(Status::Drift, color),
        versions_of(outcome, &firsts)
    );
    for line in head_lines(None, &first.files, None, Some(first.matched)) {
        let _ = writeln!(out, "{DETAIL}{}", show::text(&line));
    }
    listing_lines(
        &mut out,
        first,
        if verbose { usize::MAX } else { LISTED_FILES },
    );
    let _ = writeln!(out, "{DETAIL}copies:");
    for (group, r) in groups.iter().zip(&firsts) {
        let what = [
            r.identity.as_ref().map(what_copy),
            r.cases.as_ref().map(|c| format!("cases: {}", c.line())),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
        match group.members.as_slice() {
            [_] => {
                let _ = writeln!(
                    out,
                    "{LISTED}{}: {}",
                    show::text(&r.target.path),
                    show::text(&what)
                );
            }
            members => {
                let _ = writeln!(
                    out,
                    "{LISTED}{} copies with the same bytes: {}",
                    members.len(),
                    show::text(&what)
                );
                for &i in members {
                    let _ = writeln!(
                        out,
                        "{LISTED}  {}",
                        show::text(&outcome.results[i].target.path)
                    );
                }
            }
        }
    }
    out
}

/// The block of one group of copies.
fn group_block(outcome: &Outcome, group: &Group, verbose: bool, color: bool) -> String {
    let mut out = String::new();
    let members: Vec<&TargetResult> = group.members.iter().map(|&i| &outcome.results[i]).collect();
    let first = members[0];
    let status = status_word(group.status, color);
    let version = version_column(outcome, first);
    let head = match (group.status, members.len()) {
        (Status::InSync, 1) => format!("{}, {version}", show::text(&first.target.path)),
        (Status::InSync, n) => format!(
            "{n} copies match the canonical suite {}",
            show::text(&outcome.canonical_version)
        ),
        (Status::NotVendored, 1) => format!("{}, no copy yet", show::text(&first.target.path)),
        (Status::NotVendored, n) => format!("{n} targets, no copy yet"),
        (_, 1) => format!("{}, {version}", show::text(&first.target.path)),
        (_, n) => format!("{n} copies, {version}, with the same files byte for byte"),
    };
    let _ = writeln!(out, "{status}: {head}");
    if group.status == Status::InSync {
        if members.len() > 1 {
            for r in &members {
                let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
            }
        }
        return out;
    }
    // A copy not vendored yet lacks every file: listing them says nothing new.
    let listed = match (verbose, group.status) {
        (true, _) => usize::MAX,
        (false, Status::NotVendored) => 0,
        (false, _) => LISTED_FILES,
    };
    let identity = (group.status == Status::Drift)
        .then_some(first.identity.as_ref())
        .flatten();
    let matched = (group.status == Status::Drift).then_some(first.matched);
    for line in head_lines(identity, &first.files, first.cases.as_ref(), matched) {
        let _ = writeln!(out, "{DETAIL}{}", show::text(&line));
    }
    listing_lines(&mut out, first, listed);
    if members.len() > 1 {
        let _ = writeln!(out, "{DETAIL}copies:");
        for r in &members {
            let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
        }
    }
    out
}

/// The block of the targets whose SDK repository is not in the workspace: one line, naming each
/// target only with `--verbose` (a workspace holding 3 of 25 SDKs is the usual case, and the rows
/// that matter must not drown under the others). `sync` and `sync --check` both end with it.
fn missing_repos(outcome: &Outcome, verbose: bool, color: bool) -> Option<String> {
    let missing: Vec<&TargetResult> = outcome
        .results
        .iter()
        .filter(|r| r.status == Status::MissingRepo)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut out = String::new();
    let status = status_word(Status::MissingRepo, color);
    let workspace = show::text(&outcome.workspace.display().to_string());
    if let [one] = missing.as_slice() {
        let _ = writeln!(
            out,
            "{status}: {} (SDK repository `{}` is not in the workspace {workspace})",
            show::text(&one.target.path),
            show::text(&one.target.repo)
        );
        return Some(out);
    }
    let repos: std::collections::BTreeSet<&str> =
        missing.iter().map(|r| r.target.repo.as_str()).collect();
    let _ = writeln!(
        out,
        "{status}: {} targets of {} SDK repositories not in the workspace {workspace}{}",
        missing.len(),
        repos.len(),
        if verbose {
            ""
        } else {
            " (`--verbose` lists them)"
        }
    );
    if verbose {
        for r in missing {
            let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
        }
    }
    Some(out)
}

/// The human report of `sync --check`. `preamble` holds the findings that belong to no target
/// (the targets file's own lines), already rendered.
pub(super) fn render(outcome: &Outcome, preamble: &str, verbose: bool, color: bool) -> String {
    let mut out = String::from(preamble);
    let _ = writeln!(out, "{}", header_line(outcome));
    let mut blocks = Vec::new();
    let errors: Vec<String> = outcome
        .results
        .iter()
        .filter(|r| r.status == Status::Error)
        .map(|r| error_line(r, color))
        .collect();
    if !errors.is_empty() {
        blocks.push(errors.join("\n") + "\n");
    }
    // Drifted groups first (the order of `outcome.groups`), those that share their files in one
    // block; then the others.
    for shared in drift_blocks(outcome) {
        blocks.push(match shared.as_slice() {
            [group] => group_block(outcome, group, verbose, color),
            groups => shared_files_block(outcome, groups, verbose, color),
        });
    }
    for group in outcome.groups.iter().filter(|g| g.status != Status::Drift) {
        blocks.push(group_block(outcome, group, verbose, color));
    }
    finish(out, blocks, outcome, verbose, color)
}

/// The end of both reports: the blocks (then the line of the targets whose SDK repository is not
/// in the workspace), each after a blank line, then the verdict.
pub(super) fn finish(
    mut out: String,
    mut blocks: Vec<String>,
    outcome: &Outcome,
    verbose: bool,
    color: bool,
) -> String {
    blocks.extend(missing_repos(outcome, verbose, color));
    for block in blocks {
        out.push('\n');
        out.push_str(&block);
    }
    out.push('\n');
    for line in &outcome.report.summary {
        let _ = writeln!(out, "{}", verdict_line(line, color));
    }
    show::guard(&out)
}
