//! GitHub Actions integration: workflow-command annotations (`::error file=…::…`) that land on
//! the file in a pull request, and the Markdown job summary (`GITHUB_STEP_SUMMARY`).
//!
//! Pure functions over a [`Report`]: they return text and never print. The binary decides when to
//! use them (`--format github`, or `GITHUB_ACTIONS=true` without `--format`).

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::diag::{Diagnostic, Report, Severity, plural};
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

/// One annotation per error and warning of `report` (notes are not annotated), each on its line.
pub fn annotations(report: &Report, ws: &Workspace) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => continue,
        };
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
        out.push_str(&command(
            level,
            file.as_deref(),
            d.line_col,
            d.code,
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
    let findings: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
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
                "\n… and {} more (see the log)",
                findings.len() - MAX_ROWS
            );
        }
    }
    out.push('\n');
    out
}

/// `data.targets[]` (`target`, `status`, `files[]` with `path` and `change`) as a drift table.
fn targets_table(data: &Value, out: &mut String) {
    let Some(targets) = data.get("targets").and_then(Value::as_array) else {
        return;
    };
    if targets.is_empty() {
        return;
    }
    out.push_str("\n| target | status | files |\n| --- | --- | --- |\n");
    for t in targets.iter().take(MAX_ROWS) {
        let text = |key: &str| t.get(key).and_then(Value::as_str).unwrap_or("").to_string();
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
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            cell(&text("target")),
            cell(&text("status")),
            shown
        );
    }
    if targets.len() > MAX_ROWS {
        let _ = writeln!(out, "\n… and {} more targets", targets.len() - MAX_ROWS);
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
            Diagnostic::error("drift-changed", "manifest.json", "differs")
                .line_col(2, 5)
                .help("run `x`"),
        );
        report.push(Diagnostic::note("unmanaged-file", "own.txt", "left alone"));
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
        report.push(Diagnostic::error("drift-changed", "a|b", "x <y>"));
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
