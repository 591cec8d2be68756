//! What `fetch --check` reports once the release is verified and the copy compared: one finding
//! that sums the copy up (its counts, its most important files, the fix) before the per-file
//! findings; the summary lines; the JSON `data`; and the short human report, grouped like
//! `sync --check`'s (the fix once, the most important files first, at most [`LISTED_FILES`]).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::Comparison;
use crate::drift::{self, CaseCounter, Change, drift_json, summary_finding};
use bqsuite_core::diag::{self, Report, Severity, style};
use bqsuite_core::show;

/// File names listed in the human report (`--format json` lists every one).
pub const LISTED_FILES: usize = 10;

/// The facts of a verified release a copy was compared with.
pub struct Facts<'a> {
    pub version: &'a str,
    pub destination: &'a Path,
    /// The command that re-vendors the copy.
    pub fix: &'a str,
}

/// Adds the comparison to `report`: the summary finding (when the copy drifted) and every
/// per-file finding, the summary lines (`copy:`, `cases:`, `files:`, `fix:`) after those already
/// there. Returns what `data` adds to fetch's own facts: `{status, fix, copy}` where `status` is
/// `in-sync` or `drift` and `copy` is the drift object ([`drift_json`]) plus `matched` and
/// `unmanaged` (the SDK's own top-level entries, left alone).
pub fn settle(
    report: &mut Report,
    comparison: Comparison,
    facts: &Facts<'_>,
) -> serde_json::Map<String, Value> {
    let drifted = !comparison.is_clean();
    let mut files: Vec<(String, Change)> = comparison
        .findings
        .iter()
        .filter_map(|d| Change::of(d.code).map(|c| (d.file.clone(), c)))
        .collect();
    drift::sort_files(&mut files);
    let cases = comparison
        .expected_manifest
        .as_deref()
        .map(|m| CaseCounter::new(m).count_copy(facts.destination, &files));
    let identity = &comparison.identity;
    let fix = facts.fix;
    let advice = fix_advice(fix, facts.version);
    if drifted {
        let destination = facts.destination.display().to_string();
        let mut summary = summary_finding(
            &[destination],
            &format!("differs from release {}", facts.version),
            Some(identity),
            &files,
            cases.as_ref(),
            None,
        );
        // Findings of fetch are relative to the copy.
        summary.file = files.first().map(|(p, _)| p.clone()).unwrap_or_default();
        summary = summary.help(advice.clone());
        report.diagnostics.push(summary);
    }
    let unmanaged: Vec<String> = comparison
        .findings
        .iter()
        .filter(|d| d.code == drift::Code::UnmanagedFile)
        .map(|d| d.file.clone())
        .collect();
    report
        .diagnostics
        .extend(comparison.findings.into_iter().map(|mut d| {
            if Change::of(d.code).is_some() {
                d.help = Some(format!(
                    "`{fix}` re-vendors the copy from the release, keeping the SDK's own files"
                ));
            }
            d
        }));
    // The head lines of the human report's block.
    report.summary.extend(drift::head_lines(
        Some(identity),
        &files,
        cases.as_ref(),
        Some(comparison.matched),
    ));
    if drifted {
        report.summary.push(format!("fix: {advice}"));
    }
    let mut copy = drift_json(Some(identity), &files, cases.as_ref());
    copy.insert("matched".into(), comparison.matched.into());
    copy.insert("unmanaged".into(), json!(unmanaged));
    let mut data = serde_json::Map::new();
    data.insert(
        "status".into(),
        json!(if drifted { "drift" } else { "in-sync" }),
    );
    data.insert("fix".into(), json!(drifted.then_some(fix)));
    data.insert("copy".into(), Value::Object(copy));
    data
}

/// What the fix of a drifted copy does: re-vendor it from release `version`.
fn fix_advice(fix: &str, version: &str) -> String {
    format!("`{fix}` re-vendors the copy from release {version} (the SDK's own files are kept)")
}

/// The human report of a `fetch --check` that compared a copy; `None` for any other report (a
/// refused asset), which renders the usual way. `fix_line`: end with the `fix:` line (the github
/// format leaves it out: the copy's annotation, in the same log, carries it).
pub fn render_human(report: &Report, color: bool, fix_line: bool) -> Option<String> {
    let data = &report.data;
    let copy = data.get("copy")?;
    let files: Vec<(String, String)> = copy
        .get("files")?
        .as_array()?
        .iter()
        .filter_map(|f| {
            Some((
                f.get("path")?.as_str()?.to_string(),
                f.get("change")?.as_str()?.to_string(),
            ))
        })
        .collect();
    let text = |key: &str| data.get(key).and_then(Value::as_str).unwrap_or_default();
    let destination = text("dest");
    let version = text("version");
    let mut out = String::new();
    // Problems other than the copy's drift (none in a normal run), the usual way.
    for d in report.diagnostics.iter().filter(|d| {
        d.severity != Severity::Note
            && Change::of(d.code).is_none()
            && d.code != drift::Code::CopyDrift
    }) {
        out.push_str(&diag::render_diagnostic_styled(d, color));
        out.push_str("\n\n");
    }
    let _ = writeln!(
        out,
        "fetch --check: {} against release {}",
        show::text(destination),
        show::text(version)
    );
    // [`settle`] ends the summary with the counts (`files:` last) and, when the copy drifted
    // (`data.fix` is the command), the fix; the differing files go under the counts.
    let fix = data.get("fix").and_then(Value::as_str);
    let head = match fix {
        Some(_) => &report.summary[..report.summary.len().saturating_sub(1)],
        None => &report.summary[..],
    };
    for line in head {
        let _ = writeln!(out, "  {}", show::text(line));
    }
    list_files(report, &files, &mut out);
    if let Some(names) = copy.get("unmanaged").and_then(Value::as_array)
        && !names.is_empty()
    {
        let names: Vec<String> = names
            .iter()
            .filter_map(Value::as_str)
            .map(show::text)
            .collect();
        let _ = writeln!(
            out,
            "  left alone (the SDK's own, not part of the vendored set): {}",
            names.join(", ")
        );
    }
    let errors = report.errors();
    let verdict = if errors == 0 {
        format!(
            "{} {} matches release {}",
            diag::paint("ok:", style::OK, color),
            show::text(destination),
            show::text(version)
        )
    } else if files.is_empty() {
        format!(
            "{} {} has {}",
            diag::paint("FAILED:", style::ERROR, color),
            show::text(destination),
            diag::count(errors, "error", "errors")
        )
    } else {
        format!(
            "{} {} differs from release {} ({})",
            diag::paint("FAILED:", style::ERROR, color),
            show::text(destination),
            show::text(version),
            diag::count(files.len(), "file", "files")
        )
    };
    let _ = writeln!(out, "{verdict}");
    if let Some(fix) = fix.filter(|_| fix_line) {
        let _ = writeln!(
            out,
            "{} {}",
            diag::paint("fix:", style::HELP, color),
            show::text(&fix_advice(fix, version))
        );
    }
    Some(show::guard(&out))
}

/// The differing files, most important first, at most [`LISTED_FILES`], each with its diff
/// (`--diff`).
fn list_files(report: &Report, files: &[(String, String)], out: &mut String) {
    let detail = |path: &str| {
        report
            .diagnostics
            .iter()
            .find(|d| d.file == path && Change::of(d.code).is_some())
            .and_then(|d| d.detail.clone())
    };
    let listed = files.iter().map(|(p, c)| (p.as_str(), c.as_str()));
    let hint = "`--format json` lists every file";
    for line in drift::file_lines(listed, LISTED_FILES, hint, &detail) {
        let _ = writeln!(out, "    {}", show::text(&line));
    }
}
