//! Findings with stable codes, and the one renderer that turns them into text or JSON.
//!
//! Every check in bqsuite reports through [`Diagnostic`]: a stable kebab-case `code` (documented in
//! the README, safe to match on in CI), the file and place (line:column, JSON pointer and/or
//! section/case id), what is wrong and what to do about it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::error::{Error, escape_controls, strip_os_error};
use crate::show;

/// How bad a finding is. Errors make a check fail (exit 1); warnings are shown but do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    /// Information that is neither a problem nor a risk (e.g. an SDK's own unmanaged file).
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A finding's stable code, as JSON, text and annotations show it (`missing-file`). It is made
/// only from a variant of a module's code enum (declared with
/// [`finding_codes!`](crate::finding_codes)), so every code is declared once, and logic compares
/// codes as enum variants, never as strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(&'static str);

impl Code {
    /// For [`finding_codes!`](crate::finding_codes) only: the one place a code's text becomes a [`Code`].
    #[doc(hidden)]
    pub const fn declared(text: &'static str) -> Code {
        Code(text)
    }

    /// The stable kebab-case text.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Declares a module's finding codes: an enum with one variant per code, each with its stable
/// kebab-case text. The enum gets `ALL` (every variant, for the documentation's list),
/// `as_str`, conversion into [`Code`] (what [`Diagnostic`]'s constructors take), comparison
/// with a [`Code`], and `of` (the variant a [`Code`] is, if it is one of this enum's).
#[macro_export]
macro_rules! finding_codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every code of this enum, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stable kebab-case text of the code.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The code as a finding carries it.
            pub const fn code(self) -> $crate::diag::Code {
                $crate::diag::Code::declared(self.as_str())
            }

            /// The variant `code` is, when it is one of this enum's.
            pub fn of(code: $crate::diag::Code) -> Option<$name> {
                Self::ALL.iter().copied().find(|c| c.code() == code)
            }
        }

        impl From<$name> for $crate::diag::Code {
            fn from(code: $name) -> $crate::diag::Code {
                code.code()
            }
        }

        impl PartialEq<$name> for $crate::diag::Code {
            fn eq(&self, other: &$name) -> bool {
                *self == other.code()
            }
        }
    };
}

/// One finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Stable kebab-case identifier of the rule that was broken.
    pub code: Code,
    pub severity: Severity,
    /// The file, relative to the checked directory (`/`-separated), or empty when the finding
    /// concerns the directory as a whole.
    pub file: String,
    /// 1-based line and column in `file`, when known.
    pub line_col: Option<(u32, u32)>,
    /// RFC 6901 pointer inside `file`, when the finding concerns a JSON value.
    pub pointer: Option<String>,
    /// `(section, case id)` when the finding concerns one manifest case.
    pub case: Option<(String, String)>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Multi-line supporting material, e.g. a unified diff.
    pub detail: Option<String>,
    /// The finding sums up other findings of the same report (a drifted copy and its files): it
    /// is the one annotated in their place. It is listed, and counted, like any other finding.
    pub summary: bool,
    /// The finding is one a summary finding stands for when its report has one (a drifted
    /// file of a copy): annotations then leave it to the summary.
    pub summed_up: bool,
}

impl Diagnostic {
    /// A new error-level finding about `file`.
    pub fn error(
        code: impl Into<Code>,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code: code.into(),
            severity: Severity::Error,
            file: file.into(),
            line_col: None,
            pointer: None,
            case: None,
            message: message.into(),
            help: None,
            detail: None,
            summary: false,
            summed_up: false,
        }
    }

    /// A new warning-level finding about `file`.
    pub fn warning(
        code: impl Into<Code>,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, file, message)
        }
    }

    /// A new note about `file`.
    pub fn note(
        code: impl Into<Code>,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(code, file, message)
        }
    }

    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    pub fn line_col(mut self, line: u32, column: u32) -> Self {
        self.line_col = Some((line, column));
        self
    }

    pub fn case(mut self, section: impl Into<String>, id: impl Into<String>) -> Self {
        self.case = Some((section.into(), id.into()));
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Marks the finding as the summary of others in its report ([`Diagnostic::summary`]).
    pub fn summarising(mut self) -> Self {
        self.summary = true;
        self
    }

    /// Marks the finding as one a summary finding stands for ([`Diagnostic::summed_up`]).
    pub fn summed_up(mut self) -> Self {
        self.summed_up = true;
        self
    }

    /// `file:line:col` (or the parts that are known).
    pub fn place(&self) -> String {
        self.place_in(None)
    }

    /// [`Diagnostic::place`], with a relative file named inside `root` (the directory its path is
    /// relative to, as the user passed it): `suite/manifest.json:12:7`.
    pub fn place_in(&self, root: Option<&Path>) -> String {
        let mut place = match root {
            Some(root) if !self.file.is_empty() && !Path::new(&self.file).is_absolute() => {
                joined(root, &self.file)
            }
            _ => self.file.clone(),
        };
        if let Some((line, col)) = self.line_col {
            let _ = write!(place, ":{line}:{col}");
        }
        place
    }

    fn to_json(&self) -> Value {
        json!({
            "code": self.code.as_str(),
            "severity": self.severity.as_str(),
            "file": self.file,
            "line": self.line_col.map(|(l, _)| l),
            "column": self.line_col.map(|(_, c)| c),
            "pointer": self.pointer,
            "section": self.case.as_ref().map(|(s, _)| s),
            "case": self.case.as_ref().map(|(_, c)| c),
            "message": strip_os_error(&self.message),
            "help": self.help.as_deref().map(strip_os_error),
            "detail": self.detail,
        })
    }
}

/// The findings of one command run over one subject (a suite directory, a results file...).
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// What was checked (a path as the user gave it).
    pub subject: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Short facts worth printing (e.g. "84 cases in 22 sections", one line per sync target).
    pub summary: Vec<String>,
    /// Command-specific structured output for `--format json` (e.g. per-target statuses).
    pub data: Value,
    /// The directory that relative [`Diagnostic::file`]s are relative to, as the user named it:
    /// the human text names each file inside it (`suite/manifest.json`), and annotations name
    /// the file in the repository. `None`: the human text names the files as they are, and
    /// annotations take them relative to `subject` when it is a directory, else to the current
    /// directory.
    pub root: Option<PathBuf>,
}

impl Report {
    pub fn new(subject: impl Into<String>) -> Self {
        Report {
            subject: subject.into(),
            ..Report::default()
        }
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The error-level findings listed: every count a renderer shows (the human verdict, JSON's
    /// `errors`, the job summary) is this one, so a count never differs from the list beside it.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// The warning-level findings listed (see [`Report::errors`]).
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// The findings of `severity` in [`Report::diagnostics`].
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// True when nothing at error level was found.
    pub fn is_clean(&self) -> bool {
        self.errors() == 0
    }

    /// Orders findings by file, then line, then pointer, so output is stable across runs.
    pub fn sort(&mut self) {
        self.diagnostics.sort_by(|a, b| {
            (&a.file, a.line_col, &a.pointer, a.code, &a.message)
                .cmp(&(&b.file, b.line_col, &b.pointer, b.code, &b.message))
        });
    }
}

/// Output formats shared by every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
}

/// Terminal styles for the human rendering (applied only when colour is on).
pub mod style {
    use anstyle::{AnsiColor, Style};

    pub const ERROR: Style = AnsiColor::Red.on_default().bold();
    pub const WARNING: Style = AnsiColor::Yellow.on_default().bold();
    pub const NOTE: Style = AnsiColor::Cyan.on_default().bold();
    pub const OK: Style = AnsiColor::Green.on_default().bold();
    pub const PLACE: Style = AnsiColor::Blue.on_default().bold();
    pub const HELP: Style = Style::new().bold();
}

/// `text` in `style` when `color`, else as is.
pub fn paint(text: &str, style: anstyle::Style, color: bool) -> String {
    if color {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}

fn severity_style(severity: Severity) -> anstyle::Style {
    match severity {
        Severity::Error => style::ERROR,
        Severity::Warning => style::WARNING,
        Severity::Note => style::NOTE,
    }
}

/// Text from a finding as printed: every hidden character escaped ([`crate::show::text`]: line
/// breaks too, so a name inside a message can never start a line of its own), and without an
/// operating-system error number (`(os error 2)`) that a check may have formatted into it.
fn shown(text: &str) -> String {
    show::text(&strip_os_error(text))
}

/// `rel`, a path relative to `dir`, as the user names it: inside `dir` as they passed it
/// (`suite` and `manifest.json` give `suite/manifest.json`).
pub fn joined(dir: &Path, rel: &str) -> String {
    let dir = dir.display().to_string();
    if dir.is_empty() {
        rel.to_string()
    } else if rel.is_empty() {
        dir
    } else if dir.ends_with('/') || dir.ends_with(std::path::MAIN_SEPARATOR) {
        format!("{dir}{rel}")
    } else {
        format!("{dir}/{rel}")
    }
}

/// Renders one diagnostic as human text (two or three lines).
pub fn render_diagnostic(d: &Diagnostic) -> String {
    render_diagnostic_styled(d, false)
}

/// [`render_diagnostic`], with the severity, place and help styled when `color`.
pub fn render_diagnostic_styled(d: &Diagnostic, color: bool) -> String {
    render_diagnostic_in(d, None, color)
}

/// [`render_diagnostic_styled`], naming a relative file inside `root` ([`Report::root`]).
pub fn render_diagnostic_in(d: &Diagnostic, root: Option<&Path>, color: bool) -> String {
    let head = format!("{}[{}]", d.severity.as_str(), d.code.as_str());
    let mut out = format!(
        "{}: {}",
        paint(&head, severity_style(d.severity), color),
        shown(&d.message)
    );
    let mut place = escape_controls(&d.place_in(root));
    if let Some(pointer) = &d.pointer {
        let shown_pointer = if pointer.is_empty() {
            "(root)".to_string()
        } else {
            escape_controls(pointer)
        };
        let _ = write!(place, " at {shown_pointer}");
    }
    if let Some((section, id)) = &d.case {
        let _ = write!(
            place,
            " (section {}, case {})",
            escape_controls(section),
            escape_controls(id)
        );
    }
    if !place.is_empty() {
        let _ = write!(out, "\n  {} {place}", paint("-->", style::PLACE, color));
    }
    if let Some(help) = &d.help {
        let _ = write!(
            out,
            "\n  {} {}",
            paint("help:", style::HELP, color),
            shown(help)
        );
    }
    if let Some(detail) = &d.detail {
        for line in detail.lines() {
            let _ = write!(out, "\n    {}", shown(line));
        }
    }
    show::guard(&out)
}

/// Renders a report as human text: findings, then a one-line verdict.
pub fn render_human(report: &Report, what: &str) -> String {
    render_human_styled(report, what, false)
}

/// [`render_human`], with severities and the verdict coloured when `color`.
pub fn render_human_styled(report: &Report, what: &str, color: bool) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        out.push_str(&render_diagnostic_in(d, report.root.as_deref(), color));
        out.push_str("\n\n");
    }
    for fact in &report.summary {
        let _ = writeln!(out, "{}", shown(fact));
    }
    let (errors, warnings) = (report.errors(), report.warnings());
    let subject = escape_controls(&report.subject);
    if errors == 0 {
        let _ = write!(out, "{} {subject} {what}", paint("ok:", style::OK, color));
        if warnings > 0 {
            let _ = write!(out, " ({warnings} warning{})", plural(warnings));
        }
    } else {
        let _ = write!(
            out,
            "{} {subject} {} {errors} error{}",
            paint("FAILED:", style::ERROR, color),
            has(&report.subject),
            plural(errors)
        );
        if warnings > 0 {
            let _ = write!(out, " and {warnings} warning{}", plural(warnings));
        }
    }
    out.push('\n');
    show::guard(&out)
}

/// The version of the `--format json` document's shape, its first member `format_version`. It
/// grows by one when a member is removed, renamed or changes type or meaning; members added to the
/// envelope or to a command's `data` keep it. `docs/reference/output.schema.json` is the JSON
/// Schema of the document of this version.
pub const FORMAT_VERSION: u32 = 1;

/// Renders a report as one JSON document (the shape of `docs/reference/output.schema.json`:
/// `format_version`, `command`, `subject`, `ok`, `errors`, `warnings`, `summary`, `data`,
/// `diagnostics`, `error`).
pub fn render_json(report: &Report, command: &str) -> String {
    document(json!({
        "format_version": FORMAT_VERSION,
        "command": command,
        "subject": report.subject,
        "ok": report.is_clean(),
        "errors": report.errors(),
        "warnings": report.warnings(),
        "summary": report.summary,
        "data": report.data,
        "diagnostics": report.diagnostics.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
        "error": Value::Null,
    }))
}

/// The `error` object of a run that could not happen (exit 2).
pub fn error_json(kind: &str, message: &str, path: Option<&str>, help: Option<&str>) -> Value {
    json!({ "kind": kind, "message": message, "path": path, "help": help })
}

/// The JSON document of a command that could not run (exit 2): the same shape as a report, with
/// `ok: false`, no findings, `data: null` and an `error` object (`kind`, `message`, `path`,
/// `help`).
pub fn render_error_json(command: &str, subject: &str, error: Value) -> String {
    document(json!({
        "format_version": FORMAT_VERSION,
        "command": command,
        "subject": subject,
        "ok": false,
        "errors": 0,
        "warnings": 0,
        "summary": [],
        "data": Value::Null,
        "diagnostics": [],
        "error": error,
    }))
}

/// [`render_error_json`] for an [`Error`].
pub fn render_failure_json(command: &str, subject: &str, e: &Error) -> String {
    let message = e.to_string();
    let path = e.path();
    let help = e.help();
    render_error_json(
        command,
        subject,
        error_json(
            e.kind().as_str(),
            &message,
            path.as_deref(),
            help.as_deref(),
        ),
    )
}

/// The one JSON document writer: pretty-printed, with every hidden character of its strings as
/// `\uXXXX` ([`show::json`]).
fn document(doc: Value) -> String {
    let mut text = show::json(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    text.push('\n');
    text
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The verb that agrees with a report's subject: `have` for a counted plural such as
/// "2 results files", `has` for anything else (a path, "1 results file").
pub fn has(subject: &str) -> &'static str {
    let Some((number, noun)) = subject.split_once(' ') else {
        return "has";
    };
    let counted = number.parse::<usize>().is_ok_and(|n| n != 1)
        && noun.ends_with('s')
        && noun.chars().all(|c| c.is_ascii_lowercase() || c == ' ');
    if counted { "have" } else { "has" }
}

/// `n` and the noun that agrees with it: `count(1, "copy", "copies")` is "1 copy".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
#[path = "diag_tests.rs"]
pub(crate) mod tests;
