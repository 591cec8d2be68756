//! How the binary prints: human text (coloured through anstream when the terminal and the
//! environment allow it), one JSON document, or human text plus GitHub Actions annotations; the
//! job summary; and the one path every failure (exit 2) takes, so `--format json` always gives
//! exactly one JSON document on standard output.

use std::io::Write;
use std::path::PathBuf;

use bqsuite_core::diag::{self, Report};
use bqsuite_core::{github, show};

use serde_json::json;

use super::args::{ColorArg, FormatArg};

/// The check ran and found nothing wrong.
pub const CLEAN: u8 = 0;
/// The check ran and found a problem.
pub const FOUND: u8 = 1;
/// The command could not run.
pub const FAILED: u8 = 2;

/// The resolved output settings of one run.
pub struct Output {
    pub format: FormatArg,
    /// The command's name (`results check`), for JSON documents and summaries.
    pub command: String,
    /// The subject as given on the command line, for failures.
    pub subject: String,
    /// The title of the job summary this run appends to `GITHUB_STEP_SUMMARY`, if it has one
    /// (`validate`, `sync --check`...).
    summary: Option<String>,
    workspace: github::Workspace,
    summary_file: Option<PathBuf>,
}

/// The format when `--format` is not given: github inside GitHub Actions, else human.
pub fn resolve_format(explicit: Option<FormatArg>) -> FormatArg {
    explicit.unwrap_or_else(|| {
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            FormatArg::Github
        } else {
            FormatArg::Human
        }
    })
}

/// Applies `--color` to every stream written through anstream (NO_COLOR and CLICOLOR_FORCE are
/// honoured in `auto`).
pub fn apply_color(color: ColorArg) {
    let choice = match color {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    };
    choice.write_global();
}

/// Writes `text` to standard output as is (a closed pipe is not worth a panic).
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Writes styled `text` to standard output; styles are dropped where colour is off.
pub fn print_styled(text: &str) {
    let mut out = anstream::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Writes styled `text` to standard error; styles are dropped where colour is off.
pub fn eprint_styled(text: &str) {
    let mut out = anstream::stderr().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

impl Output {
    pub fn new(format: FormatArg, command: &str, subject: String, summary: Option<&str>) -> Output {
        Output {
            format,
            command: command.to_string(),
            subject,
            summary: summary.map(str::to_string),
            workspace: github::Workspace::from_env(),
            summary_file: std::env::var_os("GITHUB_STEP_SUMMARY")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        }
    }

    pub fn json(&self) -> bool {
        self.format == FormatArg::Json
    }

    /// Prints a report in the chosen format and returns the exit code (0 clean, 1 found).
    pub fn emit(&self, report: &Report, what: &str) -> u8 {
        self.emit_text(report, what, None)
    }

    /// [`Output::emit`] with the command's own human rendering (`human`) in place of the generic
    /// one, for reports laid out their own way (sync's one line per target).
    pub fn emit_text(&self, report: &Report, what: &str, human: Option<&str>) -> u8 {
        let raw = || match human {
            Some(text) => text.to_string(),
            None => diag::render_human_styled(report, what, true),
        };
        // A command's own rendering (sync) passes the guard like every other human text.
        let text = || show::guard(&raw());
        match self.format {
            FormatArg::Json => print(&diag::render_json(report, &self.command)),
            FormatArg::Human => print_styled(&text()),
            FormatArg::Github => {
                print_styled(&text());
                print(&github::annotations(report, &self.workspace));
            }
        }
        self.summarise(report, what);
        if report.is_clean() { CLEAN } else { FOUND }
    }

    /// Findings printed on standard error while the command's own output goes to standard output
    /// (`eval`, `results matrix` without `--format json`), with annotations in github format
    /// (on standard error too, which the runner reads as well: standard output is the data).
    pub fn side_findings(&self, report: &Report) {
        let mut text = String::new();
        for d in &report.diagnostics {
            text.push_str(&diag::render_diagnostic_in(d, report.root.as_deref(), true));
            text.push('\n');
        }
        let mut text = show::guard(&text);
        if self.format == FormatArg::Github {
            text.push_str(&github::annotations(report, &self.workspace));
        }
        eprint_styled(&text);
    }

    /// Appends the job summary when `GITHUB_STEP_SUMMARY` is set and the command has one.
    pub fn summarise(&self, report: &Report, what: &str) {
        if let Some(name) = &self.summary {
            let text = github::summary(name, report, what, &self.workspace);
            self.append_summary(&text);
        }
    }

    fn append_summary(&self, text: &str) {
        let Some(path) = &self.summary_file else {
            return;
        };
        let written = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = written {
            eprint_styled(&format!(
                "bqsuite: warning: cannot append the job summary to {} ({}); the result above \
                 stands\n",
                bqsuite_core::error::shown_path(path),
                bqsuite_core::error::describe_io(&e)
            ));
        }
    }

    /// Reports a failure (exit 2): the message (and what to do) on standard error, and with
    /// `--format json` exactly one JSON document on standard output; annotations and the summary
    /// in GitHub Actions. `kind`, `path` and `help` are an [`bqsuite_core::Error`]'s.
    pub fn fail_with(
        &self,
        kind: &str,
        message: &str,
        path: Option<&str>,
        help: Option<&str>,
    ) -> u8 {
        let mut text = format!(
            "{} {}\n",
            diag::paint("bqsuite: error:", diag::style::ERROR, true),
            show::text(message)
        );
        if let Some(help) = help {
            text.push_str(&format!(
                "  {} {}\n",
                diag::paint("help:", diag::style::HELP, true),
                show::text(help)
            ));
        }
        eprint_styled(&show::guard(&text));
        match self.format {
            FormatArg::Json => print(&diag::render_error_json(
                &self.command,
                &self.subject,
                diag::error_json(kind, message, path, help),
            )),
            FormatArg::Github => print(&github::failure_annotation(kind, message, help)),
            FormatArg::Human => {}
        }
        if self.summary.is_some() {
            self.append_summary(&github::failure_summary(&self.command, message));
        }
        FAILED
    }
}

/// Prints generated text (a completion script, a manual page); with `--format json`, inside the
/// document's `data.text`.
pub fn generated(out: &Output, text: &str) -> u8 {
    if out.json() {
        let mut report = Report::new(out.subject.clone());
        report.data = json!({ "text": text });
        print(&diag::render_json(&report, &out.command));
    } else {
        print(text);
    }
    CLEAN
}
