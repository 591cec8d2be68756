//! The human report of `sync --check`, grouped so that it stays short on a real fleet:
//!
//! - each copy that could not be checked is one line (the file, what is wrong, what to do);
//! - copies that drifted the same way are one block: what they are, their cases, their files
//!   (most important first, at most [`LISTED_FILES`] without `--verbose`), then the copies;
//! - copies not vendored yet, copies in sync and targets whose SDK repository is absent are one
//!   block each, listing their targets;
//! - then the verdict and the one command that fixes the drift.

use std::fmt::Write as _;

use super::render::{header_line, status_style, verdict_line, version_column};
use super::{Group, Outcome, Status, TargetResult};
use crate::diag::{self, Severity};
use crate::show;
use crate::suite::drift::{file_lines, head_lines};

/// File names listed per block (all of them with `--verbose`).
pub const LISTED_FILES: usize = 10;

/// Indentation of a block's lines, and of the targets it lists.
const DETAIL: &str = "    ";
const LISTED: &str = "      ";

fn status_word(status: Status, color: bool) -> String {
    diag::paint(status.word(), status_style(status), color)
}

/// The one line of a copy that could not be checked: its first error's message and help.
fn error_line(r: &TargetResult, color: bool) -> String {
    let problem = r
        .findings
        .iter()
        .find(|d| d.severity == Severity::Error && !d.code.starts_with("drift-"));
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
    let detail = |path: &str| -> Option<String> {
        first
            .findings
            .iter()
            .find(|d| {
                d.detail.is_some()
                    && d.file.strip_prefix(&first.target.path) == Some(&format!("/{path}"))
            })
            .and_then(|d| d.detail.clone())
    };
    for line in head_lines(identity, &first.files, first.cases.as_ref(), matched) {
        let _ = writeln!(out, "{DETAIL}{}", show::text(&line));
    }
    let files = first.files.iter().map(|(p, c)| (p.as_str(), c.word()));
    let hint = "`--verbose` lists every file";
    for line in file_lines(files, listed, hint, &detail) {
        let _ = writeln!(out, "{LISTED}{}", show::text(&line));
    }
    if members.len() > 1 {
        let _ = writeln!(out, "{DETAIL}copies:");
        for r in &members {
            let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
        }
    }
    out
}

/// The block of the targets whose SDK repository is not in the workspace.
fn missing_repos(outcome: &Outcome, color: bool) -> Option<String> {
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
    let _ = writeln!(
        out,
        "{status}: {} targets whose SDK repository is not in the workspace {workspace}",
        missing.len()
    );
    for r in missing {
        let _ = writeln!(out, "{LISTED}{}", show::text(&r.target.path));
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
    for group in &outcome.groups {
        blocks.push(group_block(outcome, group, verbose, color));
    }
    blocks.extend(missing_repos(outcome, color));
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
