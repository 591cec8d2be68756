//! GitHub Actions integration: workflow-command annotations (`::error file=…::…`) that land on
//! the file in a pull request, and the Markdown job summary (`GITHUB_STEP_SUMMARY`).
//!
//! Pure functions over a [`Report`]: they return text and never print. The binary decides when to
//! use them (`--format github`, or `GITHUB_ACTIONS=true` without `--format`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::diag::{Code, Diagnostic, Report, Severity, plural};
use crate::error::strip_os_error;
use crate::show;

/// Where paths are resolved: the current directory and the repository root (`GITHUB_WORKSPACE`).
#[derive(Debug, Clone)]
pub struct Workspace {
    pub cwd: PathBuf,
    pub root: Option<PathBuf>,
}

impl Workspace {
    /// From the process environment.
    pub fn from_env() -> Workspace {
        Workspace {
            cwd: std::env::current_dir().unwrap_or_default(),
            root: std::env::var_os("GITHUB_WORKSPACE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        }
    }

    /// `path` (absolute, or relative to the current directory) as GitHub wants it: relative to
    /// the repository root with `/` separators, or absolute when it is outside the repository.
    pub fn repo_path(&self, path: &Path) -> String {
        let absolute = normalize(&self.cwd.join(path));
        let absolute = canonical_prefix(&absolute);
        if let Some(root) = &self.root {
            let root = normalize(&self.cwd.join(root));
            let root = root
                .canonicalize()
                .unwrap_or_else(|_| canonical_prefix(&root));
            if let Ok(rel) = absolute.strip_prefix(&root) {
                return rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
            }
        }
        absolute.display().to_string()
    }
}

/// Removes `.` and resolves `..` lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` with its longest existing ancestor canonicalized (symbolic links such as macOS's
/// `/tmp` resolved), so it compares with a canonical workspace; the missing rest is kept.
/// The last component is never resolved: a finding about a symbolic link names the link.
fn canonical_prefix(path: &Path) -> PathBuf {
    let (Some(name), Some(parent)) = (path.file_name(), path.parent()) else {
        return path.to_path_buf();
    };
    let mut rest = vec![name.to_os_string()];
    let mut current = parent.to_path_buf();
    loop {
        if let Ok(canonical) = current.canonicalize() {
            let mut out = canonical;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (
            current.file_name().map(|n| n.to_os_string()),
            current.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                current = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Escapes a workflow command's message (`%`, `\r`, `\n`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command: `::<level> file=…,line=…,col=…,title=…::<message>`.
///
/// Every part is shown by the one rule ([`show::text`]) before the workflow-command escaping:
/// the file and title whole, the message line by line (its line breaks are the caller's own,
/// `%0A` in the annotation; a line break from data is already a visible `\n` there); `##[`
/// becomes `#\u{23}[`.
pub fn command(
    level: &str,
    file: Option<&str>,
    line_col: Option<(u32, u32)>,
    title: &str,
    message: &str,
) -> String {
    let mut properties = Vec::new();
    if let Some(file) = file.filter(|f| !f.is_empty()) {
        properties.push(format!("file={}", escape_property(&show::text(file))));
        if let Some((line, col)) = line_col {
            properties.push(format!("line={line}"));
            properties.push(format!("col={col}"));
        }
    }
    properties.push(format!("title={}", escape_property(&show::text(title))));
    let line = format!(
        "::{level} {}::{}",
        properties.join(","),
        escape_data(&show::lines(message))
    );
    // The legacy `##[command]` form is honoured anywhere in a line: never from data.
    line.replace("##[", "#\\u{23}[")
}

/// The directory a report's relative file names are relative to.
fn report_root(report: &Report) -> Option<PathBuf> {
    if let Some(root) = &report.root {
        return Some(root.clone());
    }
    let subject = Path::new(&report.subject);
    (!report.subject.is_empty() && subject.is_dir()).then(|| subject.to_path_buf())
}

/// The repository path of a finding's file, if it names one.
pub fn finding_path(report: &Report, d: &Diagnostic, ws: &Workspace) -> Option<String> {
    if d.file.is_empty() {
        return None;
    }
    let file = Path::new(&d.file);
    let full = match report_root(report) {
        Some(root) if !file.is_absolute() => root.join(file),
        _ => file.to_path_buf(),
    };
    Some(ws.repo_path(&full))
}

/// Annotations GitHub shows per level (error, warning, notice) in one step; it drops the rest.
pub const MAX_PER_LEVEL: usize = 10;

/// Whether `d` is a finding (a drifted file of a copy) that a summary finding of its report
/// already stands for, with its counts and its fix.
fn covered(d: &Diagnostic, summarised: bool) -> bool {
    summarised && d.summed_up
}

/// The errors and warnings of `report` at `severity`, most useful first, and those a summary
/// stands for. Most useful: one finding of each code before a second of any (a hundred
/// findings of one kind do not hide the one of another), in report order within that; a
/// command's summary findings come first in its report.
fn ranked(report: &Report, severity: Severity) -> (Vec<&Diagnostic>, Vec<&Diagnostic>) {
    let summarised = report.diagnostics.iter().any(|d| d.summary);
    let mut seen: HashMap<Code, usize> = HashMap::new();
    let mut ordered = Vec::new();
    let mut rest = Vec::new();
    for (i, d) in report
        .diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .enumerate()
    {
        if covered(d, summarised) {
            rest.push(d);
            continue;
        }
        let n = seen.entry(d.code).or_insert(0);
        ordered.push((*n, i, d));
        *n += 1;
    }
    ordered.sort_by_key(|(n, i, _)| (*n, *i));
    (ordered.into_iter().map(|(_, _, d)| d).collect(), rest)
}

/// The annotation of one finding.
fn annotation(report: &Report, d: &Diagnostic, level: &str, ws: &Workspace) -> String {
    // Each part from data is shown on its own; the only line break is the renderer's.
    let mut message = show::text(&strip_os_error(&d.message));
    if let Some(pointer) = d.pointer.as_deref().filter(|p| !p.is_empty()) {
        let _ = write!(message, " (at {})", show::text(pointer));
    }
    if let Some((section, id)) = &d.case {
        let _ = write!(
            message,
            " [section {}, case {}]",
            show::text(section),
            show::text(id)
        );
    }
    if let Some(help) = &d.help {
        let _ = write!(message, "\nhelp: {}", show::text(&strip_os_error(help)));
    }
    let file = finding_path(report, d, ws);
    let mut out = command(
        level,
        file.as_deref(),
        d.line_col,
        d.code.as_str(),
        &message,
    );
    out.push('\n');
    out
}

/// The annotations of `report`, within what GitHub shows: at most [`MAX_PER_LEVEL`] errors and
/// as many warnings, the most useful first (`ranked`); a copy that drifted (`sync --check`,
/// `fetch --check`) is one annotation with its counts and its fix, not one per file; then one
/// notice saying how many findings the log and the job summary hold beyond the annotations, and
/// why: cut by GitHub's limit, or summed up in their copy's annotation. Notes are not annotated.
pub fn annotations(report: &Report, ws: &Workspace) -> String {
    let mut out = String::new();
    let (mut over_limit, mut summed_up) = (0, 0);
    for (severity, level) in [(Severity::Error, "error"), (Severity::Warning, "warning")] {
        let (ordered, covered) = ranked(report, severity);
        summed_up += covered.len();
        over_limit += ordered.len().saturating_sub(MAX_PER_LEVEL);
        for d in ordered.into_iter().take(MAX_PER_LEVEL) {
            out.push_str(&annotation(report, d, level, ws));
        }
    }
    let mut said = Vec::new();
    if over_limit > 0 {
        said.push(format!(
            "{over_limit} more finding{} {} not annotated (GitHub shows at most {MAX_PER_LEVEL} \
             annotations per level in a step)",
            plural(over_limit),
            if over_limit == 1 { "is" } else { "are" },
        ));
    }
    // Said as what it is: the copy's annotation stands for them, whatever the limit.
    if summed_up > 0 {
        said.push(format!(
            "{summed_up} per-file finding{} {} summed up in the annotation of {}",
            plural(summed_up),
            if summed_up == 1 { "is" } else { "are" },
            if summed_up == 1 {
                "its copy"
            } else {
                "their copies"
            }
        ));
    }
    if !said.is_empty() {
        let message = format!(
            "{}: the log above and the job summary report every one, and `--format json` lists \
             them",
            said.join("; ")
        );
        out.push_str(&command(
            "notice",
            None,
            None,
            "bqsuite: more findings",
            &message,
        ));
        out.push('\n');
    }
    out
}

/// The annotation of a run that could not happen (exit 2).
pub fn failure_annotation(kind: &str, message: &str, help: Option<&str>) -> String {
    let mut text = show::text(message);
    if let Some(help) = help {
        let _ = write!(text, "\nhelp: {}", show::text(help));
    }
    let mut out = command("error", None, None, &format!("bqsuite: {kind}"), &text);
    out.push('\n');
    out
}

/// A Markdown table cell: hidden characters (line breaks, controls, bidi) shown escaped by the one
/// rule ([`show::text`]), `|` escaped, HTML neutralised.
fn cell(text: &str) -> String {
    show::text(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
}

/// At most this many rows per table in a summary (the run log has them all).
const MAX_ROWS: usize = 50;

/// The job-summary Markdown of one command run: the verdict, the report's facts, a table of
/// targets when `data.targets` lists them (sync), and a table of the errors and warnings.
pub fn summary(command: &str, report: &Report, what: &str, ws: &Workspace) -> String {
    let mut out = String::new();
    let (errors, warnings) = (report.errors(), report.warnings());
    let verdict = if errors == 0 {
        format!("✅ `{}` {what}", cell(&report.subject))
    } else {
        format!(
            "❌ `{}`: {errors} error{}",
            cell(&report.subject),
            plural(errors)
        )
    };
    let _ = writeln!(out, "### bqsuite {command}\n\n{verdict}");
    if warnings > 0 {
        let _ = writeln!(out, "({warnings} warning{})", plural(warnings));
    }
    if !report.summary.is_empty() {
        out.push('\n');
        for fact in &report.summary {
            let _ = writeln!(out, "- {}", cell(fact));
        }
    }
    targets_table(&report.data, &mut out);
    // The findings in the order the annotations take them; the per-file drift findings a copy's
    // summary stands for come last (the table above lists each copy's files).
    let (errors_ranked, errors_covered) = ranked(report, Severity::Error);
    let (warnings_ranked, warnings_covered) = ranked(report, Severity::Warning);
    let findings: Vec<&Diagnostic> = errors_ranked
        .into_iter()
        .chain(warnings_ranked)
        .chain(errors_covered)
        .chain(warnings_covered)
        .collect();
    if !findings.is_empty() {
        out.push_str("\n| | code | file | message |\n| --- | --- | --- | --- |\n");
        for d in findings.iter().take(MAX_ROWS) {
            let icon = if d.severity == Severity::Error {
                "❌"
            } else {
                "⚠️"
            };
            let mut place = finding_path(report, d, ws).unwrap_or_default();
            if let Some((line, col)) = d.line_col {
                let _ = write!(place, ":{line}:{col}");
            }
            let _ = writeln!(
                out,
                "| {icon} | `{}` | `{}` | {} |",
                d.code,
                cell(&place),
                cell(&d.message)
            );
        }
        if findings.len() > MAX_ROWS {
            let _ = writeln!(
                out,
                "\n… and {} more (see the log; `--format json` lists every one)",
                findings.len() - MAX_ROWS
            );
        }
    }
    out.push('\n');
    out
}

/// What a copy is, from its drift object: `1.7.0`, `unversioned`, `1.8.0 +2 edited`,
/// `1.8.0 (interrupted)`.
fn copy_cell(t: &Value) -> String {
    let mut text = match t.get("version").and_then(Value::as_str) {
        Some(v) => v.to_string(),
        None if t.get("unversioned") == Some(&Value::Bool(true)) => "unversioned".into(),
        None => return String::new(),
    };
    if t.get("interrupted") == Some(&Value::Bool(true)) {
        text.push_str(" (interrupted)");
    } else if let Some(n) = t
        .get("edited_files")
        .and_then(Value::as_u64)
        .filter(|n| *n > 0)
    {
        let _ = write!(text, " +{n} edited");
    }
    text
}

/// A copy's cases, from its drift object: `654 of 710 missing, 0 changed, 0 extra`.
fn cases_cell(t: &Value) -> String {
    if let Some(c) = t.get("cases").filter(|c| c.is_object()) {
        let n = |k: &str| c.get(k).and_then(Value::as_u64).unwrap_or(0);
        return format!(
            "{} of {} missing, {} changed, {} extra",
            n("missing"),
            n("expected"),
            n("changed"),
            n("extra")
        );
    }
    match t.get("cases_not_counted").and_then(Value::as_str) {
        Some(why) => format!("not counted: {why}"),
        None => String::new(),
    }
}

/// The copies of a report: `data.targets[]` (sync), or `data.copy` of `data.destination`
/// (fetch --check, `data.dest` its directory), each with its target name and status.
fn copies(data: &Value) -> Vec<(String, String, &Value)> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    if let Some(targets) = data.get("targets").and_then(Value::as_array) {
        return targets
            .iter()
            .map(|t| (text(t, "target"), text(t, "status"), t))
            .collect();
    }
    match (data.get("dest"), data.get("copy")) {
        (Some(dest), Some(copy)) if dest.is_string() && copy.get("files").is_some() => {
            vec![(text(data, "dest"), text(data, "status"), copy)]
        }
        _ => Vec::new(),
    }
}

/// The copies (`data.targets[]` of sync, `data.copy` of fetch --check) as a drift table: what
/// each copy is, its cases and its files (the most important first).
fn targets_table(data: &Value, out: &mut String) {
    let rows = copies(data);
    if rows.is_empty() {
        return;
    }
    let checked = rows.iter().any(|(_, _, t)| t.get("cases").is_some());
    if checked {
        out.push_str(
            "\n| target | status | copy | cases | files |\n| --- | --- | --- | --- | --- |\n",
        );
    } else {
        out.push_str("\n| target | status | files |\n| --- | --- | --- |\n");
    }
    for (target, status, t) in rows.iter().take(MAX_ROWS) {
        let files: Vec<String> = t
            .get("files")
            .and_then(Value::as_array)
            .map(|files| {
                files
                    .iter()
                    .map(|f| {
                        let path = f.get("path").and_then(Value::as_str).unwrap_or("");
                        match f.get("change").and_then(Value::as_str) {
                            Some(change) => format!("`{}` ({})", cell(path), cell(change)),
                            None => format!("`{}`", cell(path)),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let shown = if files.len() > 10 {
            format!("{} … and {} more", files[..10].join(", "), files.len() - 10)
        } else {
            files.join(", ")
        };
        if checked {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                cell(target),
                cell(status),
                cell(&copy_cell(t)),
                cell(&cases_cell(t)),
                shown
            );
        } else {
            let _ = writeln!(out, "| `{}` | {} | {} |", cell(target), cell(status), shown);
        }
    }
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "\n… and {} more targets", rows.len() - MAX_ROWS);
    }
}

/// The job-summary Markdown of a command that could not run.
pub fn failure_summary(command: &str, message: &str) -> String {
    format!(
        "### bqsuite {command}\n\n⛔ could not run: {}\n\n",
        cell(message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::diag::tests::TestCode;

    #[test]
    fn escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("100%\r\nnext"), "100%25%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        let line = command(
            "error",
            Some("dir,x/m:1.json"),
            Some((3, 4)),
            "drift-changed",
            "a\nb",
        );
        assert_eq!(
            line,
            "::error file=dir%2Cx/m%3A1.json,line=3,col=4,title=drift-changed::a%0Ab"
        );
        assert_eq!(
            command("warning", None, Some((1, 2)), "t", "m\u{1b}[31m\u{202e}"),
            "::warning title=t::m\\u{1b}[31m\\u{202e}"
        );
    }

    #[test]
    fn paths_are_relative_to_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join("tests/conformance")).unwrap();
        let ws = Workspace {
            cwd: repo.clone(),
            root: Some(repo.clone()),
        };
        let mut report = Report::new("tests/conformance");
        report.root = Some(repo.join("tests/conformance"));
        report.push(
            Diagnostic::error(TestCode::DriftChanged, "manifest.json", "differs")
                .line_col(2, 5)
                .help("run `x`"),
        );
        report.push(Diagnostic::note(
            TestCode::UnmanagedFile,
            "own.txt",
            "left alone",
        ));
        let text = annotations(&report, &ws);
        assert_eq!(
            text,
            "::error file=tests/conformance/manifest.json,line=2,col=5,title=drift-changed::differs%0Ahelp: run `x`\n"
        );
        let outside = Workspace {
            cwd: repo.clone(),
            root: Some(repo.join("tests")),
        };
        assert_eq!(
            outside.repo_path(Path::new("../elsewhere/x.json")),
            canonical_prefix(&dir.path().join("elsewhere/x.json"))
                .display()
                .to_string()
        );
    }

    #[test]
    fn summary_has_verdict_facts_targets_and_findings() {
        let mut report = Report::new("suite");
        report.summary.push("2 targets".into());
        report.data = serde_json::json!({"targets": [
            {"target": "php-sdk/tests/conformance", "status": "drift",
             "files": [{"path": "manifest.json", "change": "changed"}]},
        ]});
        report.push(Diagnostic::error(TestCode::DriftChanged, "a|b", "x <y>"));
        let ws = Workspace {
            cwd: PathBuf::from("/nonexistent-cwd"),
            root: None,
        };
        let md = summary("sync --check", &report, "is in sync", &ws);
        assert!(
            md.starts_with("### bqsuite sync --check\n\n❌ `suite`: 1 error"),
            "{md}"
        );
        assert!(md.contains("- 2 targets"), "{md}");
        assert!(
            md.contains("| `php-sdk/tests/conformance` | drift | `manifest.json` (changed) |"),
            "{md}"
        );
        assert!(md.contains("x &lt;y&gt;"), "{md}");
        assert!(md.contains("a\\|b"), "{md}");
    }
}
