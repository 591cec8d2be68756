//! What a sync run shows: the JSON `data` (everything), and the human report (one line per
//! target, at most ten file names per drifted copy, a verdict that says what is wrong and the one
//! command that fixes it).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Change, Outcome, Status, TargetResult};
use crate::diag::{self, Severity, plural, style};
use crate::show;

/// File names listed per target in the human report (all of them with `--verbose`).
pub const LISTED_FILES: usize = 10;

const CHANGES: [Change; 3] = [Change::Missing, Change::Changed, Change::Extra];

fn count(results: &[TargetResult], status: Status) -> usize {
    results.iter().filter(|r| r.status == status).count()
}

/// `data` of the JSON document.
pub(super) fn json_data(outcome: &Outcome, results: &[TargetResult]) -> Value {
    let rows: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut row = json!({
                "target": r.target.path,
                "repo": r.target.repo,
                "line": r.target.line,
                "status": r.status.word(),
                "vendored_version": r.vendored_version,
            });
            if outcome.check {
                row["incomplete"] = r.incomplete.into();
                if let Some(id) = &r.identity
                    && let serde_json::Value::Object(fields) = id.json()
                {
                    for (k, v) in fields {
                        row[k.as_str()] = v;
                    }
                }
            }
            if outcome.check {
                row["missing"] = r.count(Change::Missing).into();
                row["changed"] = r.count(Change::Changed).into();
                row["extra"] = r.count(Change::Extra).into();
                row["files"] = r
                    .files
                    .iter()
                    .map(|(path, change)| json!({"path": path, "change": change.word()}))
                    .collect();
            } else {
                row["written"] = json!(r.written);
                row["deleted"] = json!(r.deleted);
            }
            row
        })
        .collect();
    let mut counts = serde_json::Map::new();
    for status in [
        Status::InSync,
        Status::Drift,
        Status::NotVendored,
        Status::MissingRepo,
        Status::Error,
        Status::Synced,
        Status::Unchanged,
    ] {
        counts.insert(status.word().into(), count(results, status).into());
    }
    json!({
        "mode": if outcome.check { "check" } else { "sync" },
        "workspace": outcome.workspace.display().to_string(),
        "targets_file": outcome.targets_file.display().to_string(),
        "canonical_version": outcome.canonical_version,
        "counts": counts,
        "fix": outcome.fix,
        "targets": rows,
    })
}

/// The verdict and, when there is one, the fix (also the JSON `summary`).
/// `bad_lines` counts the targets file's refused lines.
pub(super) fn summary_lines(
    outcome: &Outcome,
    results: &[TargetResult],
    bad_lines: usize,
) -> Vec<String> {
    let total = results.len();
    let missing = count(results, Status::MissingRepo);
    let errors = count(results, Status::Error);
    let mut notes = Vec::new();
    if missing > 0 {
        notes.push(format!(
            "{missing} SDK repo{} not in {}{}",
            plural(missing),
            show::text(&outcome.workspace.display().to_string()),
            if outcome.strict {
                ", a failure with --strict"
            } else {
                ""
            }
        ));
    }
    if bad_lines > 0 {
        notes.push(format!(
            "{bad_lines} refused line{} in the targets file",
            plural(bad_lines)
        ));
    }
    let failing_notes = bad_lines > 0 || (outcome.strict && missing > 0);
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    let mut lines = Vec::new();
    if outcome.check {
        let drifted = count(results, Status::Drift);
        let fresh = count(results, Status::NotVendored);
        let in_sync = count(results, Status::InSync);
        if drifted + fresh + errors == 0 && !failing_notes {
            lines.push(if in_sync == 1 {
                format!(
                    "ok: 1 vendored copy matches the canonical suite {}{notes}",
                    outcome.canonical_version
                )
            } else {
                format!(
                    "ok: all {in_sync} vendored copies match the canonical suite {}{notes}",
                    outcome.canonical_version
                )
            });
        } else {
            let mut parts = Vec::new();
            if drifted > 0 {
                // The noun agrees with the total: "1 of 25 vendored copies drifted".
                parts.push(format!(
                    "{drifted} of {} drifted",
                    diag::count(total, "vendored copy", "vendored copies")
                ));
            }
            if fresh > 0 {
                parts.push(format!("{fresh} of {total} not vendored yet"));
            }
            if errors > 0 {
                parts.push(format!("{errors} of {total} could not be checked"));
            }
            if parts.is_empty() {
                parts.push(format!(
                    "{in_sync} of {} in sync",
                    diag::count(total, "vendored copy", "vendored copies")
                ));
            }
            lines.push(format!("FAILED: {}{notes}", parts.join(", ")));
        }
        if let Some(fix) = &outcome.fix {
            lines.push(format!(
                "fix: `{fix}` re-vendors every drifted copy from the canonical suite"
            ));
        }
    } else {
        let synced = count(results, Status::Synced);
        let unchanged = count(results, Status::Unchanged);
        let verdict = if errors == 0 && !failing_notes {
            "ok"
        } else {
            "FAILED"
        };
        let mut text = format!(
            "{verdict}: {synced} cop{} synced to {}, {unchanged} already up to date",
            if synced == 1 { "y" } else { "ies" },
            outcome.canonical_version
        );
        if errors > 0 {
            let _ = write!(text, ", {errors} of {total} could not be synced");
        }
        text.push_str(&notes);
        lines.push(text);
    }
    lines
}

/// The version column of a target with no identity (not checked).
fn plain_version(outcome: &Outcome, v: Option<&str>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if v == outcome.canonical_version => show::text(v),
        Some(v) => format!(
            "{} -> {}",
            show::text(v),
            show::text(&outcome.canonical_version)
        ),
    }
}

/// The version column: the copy's version (or `unversioned`, `(interrupted)`, `+N edited`),
/// against the canonical one when they differ.
fn version_column(outcome: &Outcome, r: &TargetResult) -> String {
    match (&r.identity, r.vendored_version.as_deref()) {
        (Some(id), _) => {
            let short = show::text(&id.short());
            if id.version.as_deref() == Some(outcome.canonical_version.as_str()) {
                short
            } else {
                format!("{short} -> {}", show::text(&outcome.canonical_version))
            }
        }
        (None, v) => plain_version(outcome, v),
    }
}

/// The per-target line: status, the copy's version (against the canonical one when they
/// differ), what differs, and the target.
fn target_line(outcome: &Outcome, r: &TargetResult, width: usize, color: bool) -> String {
    let version = version_column(outcome, r);
    let facts = match r.status {
        Status::Drift => CHANGES
            .iter()
            .map(|c| (r.count(*c), c.word()))
            .filter(|(n, _)| *n > 0)
            .map(|(n, word)| format!("{n} {word}"))
            .collect::<Vec<_>>()
            .join(", "),
        Status::NotVendored => format!("{} missing (no copy yet)", r.files.len()),
        Status::MissingRepo => "SDK repo not in workspace".to_string(),
        Status::Synced => format!(
            "{} written, {} deleted",
            diag::count(r.written.len(), "file", "files"),
            r.deleted.len()
        ),
        Status::Error => "not checked: see below".to_string(),
        Status::InSync | Status::Unchanged => String::new(),
    };
    let status = diag::paint(
        &format!("{:<13}", r.status.word()),
        status_style(r.status),
        color,
    );
    let line = format!(
        "  {status} {version:<width$} {facts:<28} {}",
        show::text(&r.target.path)
    );
    line.trim_end().to_string()
}

/// The file list (and findings) of one target that needs attention.
fn target_detail(r: &TargetResult, verbose: bool, color: bool) -> Option<String> {
    let mut out = String::new();
    let names: Vec<(&str, &str)> = match r.status {
        Status::Drift => r
            .files
            .iter()
            .map(|(p, c)| (c.word(), p.as_str()))
            .collect(),
        Status::Synced => r
            .written
            .iter()
            .map(|p| ("written", p.as_str()))
            .chain(r.deleted.iter().map(|p| ("deleted", p.as_str())))
            .collect(),
        _ => Vec::new(),
    };
    let problems: Vec<_> = r
        .findings
        .iter()
        .filter(|d| d.severity == Severity::Error && !d.code.starts_with("drift-"))
        .filter(|_| r.status != Status::NotVendored)
        .collect();
    if names.is_empty() && problems.is_empty() {
        return None;
    }
    let _ = writeln!(out, "{}:", show::text(&r.target.path));
    if let Some(id) = &r.identity {
        let again = if id.interrupted {
            "; sync it again"
        } else {
            ""
        };
        let _ = writeln!(out, "    copy: {}{again}", show::text(&id.describe()));
    }
    let shown = if verbose {
        names.len()
    } else {
        names.len().min(LISTED_FILES)
    };
    for (word, path) in &names[..shown] {
        let _ = writeln!(out, "    {word:<8} {}", show::text(path));
        let diff = r.findings.iter().find(|d| {
            d.detail.is_some() && d.file.strip_prefix(&r.target.path) == Some(&format!("/{path}"))
        });
        if let Some(detail) = diff.and_then(|d| d.detail.as_deref()) {
            for line in detail.lines() {
                let _ = writeln!(out, "        {}", show::text(line));
            }
        }
    }
    if shown < names.len() {
        let _ = writeln!(
            out,
            "    ... and {} more (`--verbose` lists every file)",
            names.len() - shown
        );
    }
    for d in problems {
        for line in diag::render_diagnostic_styled(d, color).lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
    Some(out)
}

/// The style of a status word: green when all is well, yellow for a skipped or not yet vendored
/// copy, red for drift and errors.
fn status_style(status: Status) -> anstyle::Style {
    match status {
        Status::InSync | Status::Synced | Status::Unchanged => style::OK,
        Status::NotVendored | Status::MissingRepo => style::WARNING,
        Status::Drift | Status::Error => style::ERROR,
    }
}

/// A summary line with its verdict word (`ok:`, `FAILED:`, `fix:`) styled.
fn verdict_line(line: &str, color: bool) -> String {
    let shown = show::text(line);
    for (word, style) in [
        ("ok:", style::OK),
        ("FAILED:", style::ERROR),
        ("fix:", style::HELP),
    ] {
        if let Some(rest) = shown.strip_prefix(word) {
            return format!("{}{rest}", diag::paint(word, style, color));
        }
    }
    shown
}

/// The human report of a sync run, without colour.
pub fn render_human(outcome: &Outcome, verbose: bool) -> String {
    render_human_styled(outcome, verbose, false)
}

/// The human report of a sync run; status words, severities and the verdict are coloured when
/// `color` (the binary prints through anstream, which drops the styles where `--color`,
/// NO_COLOR or the terminal say so, as for every other command).
pub fn render_human_styled(outcome: &Outcome, verbose: bool, color: bool) -> String {
    let report = &outcome.report;
    if outcome.results.is_empty() {
        // The run stopped before the targets (an invalid suite, a targets file with no usable
        // line): the findings say why, the summary what it means.
        let mut out = String::new();
        for d in &report.diagnostics {
            out.push_str(&diag::render_diagnostic_styled(d, color));
            out.push_str("\n\n");
        }
        for line in &report.summary {
            let _ = writeln!(out, "{}", verdict_line(line, color));
        }
        return show::guard(&out);
    }
    let mut out = String::new();
    // Findings that belong to no target (the targets file's own lines).
    let targets: Vec<&str> = outcome
        .results
        .iter()
        .map(|r| r.target.path.as_str())
        .collect();
    for d in &report.diagnostics {
        let own = targets
            .iter()
            .any(|t| d.file == *t || d.file.starts_with(&format!("{t}/")));
        if !own {
            out.push_str(&diag::render_diagnostic_styled(d, color));
            out.push_str("\n\n");
        }
    }
    let _ = writeln!(
        out,
        "{}: {} target{} in workspace {} (targets file {}), canonical suite {}",
        if outcome.check {
            "sync --check"
        } else {
            "sync"
        },
        outcome.results.len(),
        plural(outcome.results.len()),
        show::text(&outcome.workspace.display().to_string()),
        show::text(&outcome.targets_file.display().to_string()),
        show::text(&outcome.canonical_version)
    );
    let width = outcome
        .results
        .iter()
        .map(|r| version_column(outcome, r).chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    let _ = writeln!(
        out,
        "  {:<13} {:<width$} {:<28} TARGET",
        "STATUS",
        "VENDORED",
        if outcome.check { "DIFFERS" } else { "CHANGED" }
    );
    for r in &outcome.results {
        let _ = writeln!(out, "{}", target_line(outcome, r, width, color));
    }
    let details: Vec<String> = outcome
        .results
        .iter()
        .filter_map(|r| target_detail(r, verbose, color))
        .collect();
    for detail in details {
        out.push('\n');
        out.push_str(&detail);
    }
    out.push('\n');
    for line in &report.summary {
        let _ = writeln!(out, "{}", verdict_line(line, color));
    }
    show::guard(&out)
}
