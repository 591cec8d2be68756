//! What a sync run shows: the JSON `data` (everything), the verdict, and the human report, in
//! blocks of one shape for both modes: `sync --check` ([`super::check_report`]) and `sync`
//! ([`super::sync_report`]).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::lines::verdict_line;
use super::outcome::{Outcome, Status, TargetResult};
use bqsuite_core::diag::{self, Severity, plural};
use bqsuite_core::show;
use bqsuite_suite::drift::drift_json;

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
                for (k, v) in drift_json(r.identity.as_ref(), &r.files, r.cases.as_ref()) {
                    row[k.as_str()] = v;
                }
                row["group"] = r.group.into();
                // Every row has the key: the first error of a target that could not be checked.
                row["error"] = r
                    .findings
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .filter(|_| r.status == Status::Error)
                    .map_or(Value::Null, |d| {
                        json!({"code": d.code.as_str(), "file": d.file, "message": d.message, "help": d.help})
                    });
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
    let mut data = json!({
        "mode": if outcome.check { "check" } else { "sync" },
        "workspace": outcome.workspace.display().to_string(),
        "targets_file": outcome.targets_file.display().to_string(),
        "canonical_version": outcome.canonical_version,
        "counts": counts,
        "fix": outcome.fix,
        "targets": rows,
    });
    if outcome.check {
        data["groups"] = outcome
            .groups
            .iter()
            .map(|g| {
                json!({
                    "status": g.status.word(),
                    "targets": g.members.iter().map(|&i| &results[i].target.path).collect::<Vec<_>>(),
                })
            })
            .collect();
    }
    data
}

/// The verdict and, when there is one, the fix (also the JSON `summary`).
/// `bad_lines` counts the targets file's refused lines.
pub(super) fn summary_lines(
    outcome: &Outcome,
    results: &[TargetResult],
    bad_lines: usize,
) -> Vec<String> {
    let notes = Notes::of(outcome, results, bad_lines);
    if outcome.check {
        check_lines(outcome, results, &notes)
    } else {
        vec![sync_line(outcome, results, &notes)]
    }
}

/// What the verdict adds in parentheses: SDK repositories not in the workspace and refused
/// lines of the targets file, and whether they fail the run.
struct Notes {
    text: String,
    failing: bool,
}

impl Notes {
    fn of(outcome: &Outcome, results: &[TargetResult], bad_lines: usize) -> Notes {
        let missing = count(results, Status::MissingRepo);
        let mut notes = Vec::new();
        if missing > 0 {
            let repos: std::collections::BTreeSet<&str> = results
                .iter()
                .filter(|r| r.status == Status::MissingRepo)
                .map(|r| r.target.repo.as_str())
                .collect();
            let targets = if missing == repos.len() {
                String::new()
            } else {
                format!("{} of ", diag::count(missing, "target", "targets"))
            };
            notes.push(format!(
                "{targets}{} SDK repo{} not in {}{}",
                repos.len(),
                plural(repos.len()),
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
        Notes {
            text: if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            },
            failing: bad_lines > 0 || (outcome.strict && missing > 0),
        }
    }
}

/// `sync --check`: the verdict over the copies checked, and the fix when there is one.
fn check_lines(outcome: &Outcome, results: &[TargetResult], notes: &Notes) -> Vec<String> {
    let Notes {
        text: notes,
        failing,
    } = notes;
    let errors = count(results, Status::Error);
    let drifted = count(results, Status::Drift);
    let fresh = count(results, Status::NotVendored);
    let in_sync = count(results, Status::InSync);
    let mut lines = Vec::new();
    if drifted + fresh + errors == 0 && !failing {
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
        // Out of the targets whose SDK repository is there: the absent ones were not checked
        // (the notes count them).
        let checked = results.len() - count(results, Status::MissingRepo);
        let mut parts = Vec::new();
        if drifted > 0 {
            // The noun agrees with the count: "1 of 3 copies checked drifted".
            parts.push(format!(
                "{drifted} of {} drifted",
                diag::count(checked, "copy checked", "copies checked")
            ));
        }
        if fresh > 0 {
            parts.push(format!("{fresh} of {checked} not vendored yet"));
        }
        if errors > 0 {
            parts.push(format!("{errors} of {checked} could not be checked"));
        }
        if parts.is_empty() {
            parts.push(format!(
                "{in_sync} of {} in sync",
                diag::count(checked, "copy checked", "copies checked")
            ));
        }
        lines.push(format!("FAILED: {}{notes}", parts.join(", ")));
    }
    if let Some(fix) = &outcome.fix {
        lines.push(format!(
            "fix: `{fix}` re-vendors every drifted copy from the canonical suite"
        ));
    }
    lines
}

/// `sync`: the verdict over the copies written.
fn sync_line(outcome: &Outcome, results: &[TargetResult], notes: &Notes) -> String {
    let errors = count(results, Status::Error);
    let synced = count(results, Status::Synced);
    let unchanged = count(results, Status::Unchanged);
    let verdict = if errors == 0 && !notes.failing {
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
        let _ = write!(text, ", {errors} of {} could not be synced", results.len());
    }
    text.push_str(&notes.text);
    text
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
    if outcome.check {
        super::check_report::render(outcome, &out, verbose, color)
    } else {
        super::sync_report::render(outcome, &out, verbose, color)
    }
}
