//! One runner per subcommand: build the command's options from its arguments, call it, and hand
//! its report to [`Output`] with the words of a clean verdict.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use bqsuite::commands::{
    adopt, diff, eval, fetch, mutants, proposal, release, results, sync, validate,
};
use bqsuite_core::diag::{self, Report};
use bqsuite_core::{Error, error, fsutil, show};
use bqsuite_suite::compare;
use serde_json::json;

use super::args::{self, FetchArgs, FormatArg, SyncArgs, suite_or_default};
use super::output::{self, CLEAN, FOUND, Output};
use super::usage::check_source_date_epoch;

pub fn validate(
    suite: &Option<PathBuf>,
    proposal: Option<&Path>,
    since: Option<&Path>,
    out: &Output,
) -> Result<u8, Error> {
    let suite = suite_or_default(suite);
    if let Some(proposal) = proposal {
        let report = proposal::validate(&suite, proposal)?;
        return Ok(out.emit(&report, "is sound and additive"));
    }
    let mut report = validate::validate(&suite)?;
    let what = sound(&report);
    let Some(old) = since else {
        return Ok(out.emit(&report, &what));
    };
    diff::since(&mut report, old, &suite)?;
    report.sort();
    // One line per section added since OLD (the report's summary) rather than one note per
    // change; `--format json` and the annotations take the whole report.
    let mut shown = report.clone();
    shown.diagnostics.retain(|d| !diff::is_change_note(d));
    let human = diag::render_human_styled(&shown, &what, true);
    Ok(out.emit_text(&report, &what, Some(&human)))
}

/// The verdict of a clean `validate`: `is sound (710 cases in 32 sections)`.
fn sound(report: &Report) -> String {
    let count = |key: &str| report.data[key].as_u64().unwrap_or(0) as usize;
    format!(
        "is sound ({} in {})",
        diag::count(count("cases"), "case", "cases"),
        diag::count(count("sections"), "section", "sections")
    )
}

pub fn sync(a: &SyncArgs, out: &Output) -> Result<u8, Error> {
    let options = sync::Options {
        suite: suite_or_default(&a.suite),
        workspace: a.workspace.clone(),
        targets: a.targets.clone(),
        check: a.check,
        diff: a.diff,
        strict: a.strict,
    };
    let outcome = sync::sync(&options)?;
    let what = if a.check {
        "is vendored everywhere"
    } else {
        "synced"
    };
    let human = sync::render_human_styled(&outcome, a.verbose, true);
    Ok(out.emit_text(&outcome.report, what, Some(&human)))
}

pub fn results_check(
    files: &[PathBuf],
    suite: &Option<PathBuf>,
    known_gaps: &Option<PathBuf>,
    out: &Output,
) -> Result<u8, Error> {
    let report = results::check(&results::CheckOptions {
        files: files.to_vec(),
        suite: suite_or_default(suite),
        known_gaps: known_gaps.clone(),
    })?;
    Ok(out.emit(&report, "Compatible"))
}

pub fn results_matrix(
    files: &[PathBuf],
    suite: &Option<PathBuf>,
    html: &Option<PathBuf>,
    markdown: &Option<PathBuf>,
    out: &Output,
) -> Result<u8, Error> {
    let (mut report, text) = results::matrix(&results::MatrixOptions {
        files: files.to_vec(),
        suite: suite_or_default(suite),
        html: html.clone(),
        markdown: markdown.clone(),
    })?;
    if out.json() {
        // The table itself, when it is not written to a file.
        report.data["markdown"] = if html.is_none() && markdown.is_none() {
            json!(text)
        } else {
            serde_json::Value::Null
        };
        // The matrix is a report, not a gate: it rendered, so the document is ok.
        output::print(&diag::render_json(&report, &out.command));
    } else {
        output::print(&show::guard(&text));
        out.side_findings(&report);
    }
    out.summarise(&report, "rendered");
    Ok(if report.is_clean() { CLEAN } else { FOUND })
}

pub fn results_diff(old: &Path, new: &Path, out: &Output) -> Result<u8, Error> {
    let report = results::diff(&results::DiffOptions {
        old: old.to_path_buf(),
        new: new.to_path_buf(),
    })?;
    Ok(out.emit(&report, "has no regression"))
}

pub fn diff(old: &Path, new: &Path, markdown: &Option<PathBuf>, out: &Output) -> Result<u8, Error> {
    let report = diff::diff(&diff::Options {
        old: old.to_path_buf(),
        new: new.to_path_buf(),
        markdown: markdown.clone(),
    })?;
    Ok(out.emit(&report, "makes a sufficient version bump"))
}

pub fn mutants(
    suite: &Option<PathBuf>,
    proposal: Option<&Path>,
    out: &Output,
) -> Result<u8, Error> {
    let suite = suite_or_default(suite);
    let report = match proposal {
        Some(proposal) => proposal::mutants(&suite, proposal)?,
        None => mutants::mutants(&suite)?,
    };
    Ok(out.emit(&report, "kills every mutant"))
}

/// `bqsuite adopt`: the report, then (when the proposal was adopted) the commands to run next,
/// after the verdict in human text and as `data.next` in JSON.
pub fn adopt(
    version: &str,
    suite: &Option<PathBuf>,
    proposal: &Path,
    out: &Output,
) -> Result<u8, Error> {
    let adoption = adopt::adopt(&adopt::Options {
        version: version.to_string(),
        suite: suite_or_default(suite),
        proposal: proposal.to_path_buf(),
    })?;
    let what = format!("adopted the proposal as {}", show::text(version));
    let mut human = diag::render_human_styled(&adoption.report, &what, true);
    if !adoption.next.is_empty() {
        human.push_str(&diag::paint("next:", diag::style::HELP, true));
        human.push('\n');
        for line in &adoption.next {
            human.push_str(&format!("  {line}\n"));
        }
    }
    Ok(out.emit_text(&adoption.report, &what, Some(&human)))
}

pub fn release(
    suite: &Option<PathBuf>,
    dir: &Path,
    tag: &Option<String>,
    allow_pre: bool,
    out: &Output,
) -> Result<u8, Error> {
    let options = release::Options {
        suite: suite_or_default(suite),
        out: dir.to_path_buf(),
        tag: tag.clone(),
        allow_pre,
    };
    let report = release::release(&options)?;
    Ok(out.emit(&report, "released"))
}

pub fn fetch(a: &FetchArgs, out: &Output) -> Result<u8, Error> {
    let defaults = fetch::Network::default();
    let network = fetch::Network {
        deadline: a
            .timeout
            .map_or(defaults.deadline, std::time::Duration::from_secs),
        min_speed: a.min_speed.unwrap_or(defaults.min_speed),
        ..defaults
    };
    let options = fetch::Options {
        version: a.version.clone(),
        dest: a.dest.clone(),
        check: a.check,
        update: a.update,
        sha256: a.sha256.clone(),
        diff: a.diff,
        suite: a.suite.clone(),
        base_url: std::env::var(error::BASE_URL_ENV)
            .ok()
            .filter(|s| !s.is_empty()),
        network,
        progress: out.format == FormatArg::Human
            && std::io::stderr().is_terminal()
            && std::env::var_os("CI").is_none(),
        ..fetch::Options::default()
    };
    let what = if a.check {
        "matches the release"
    } else if a.update {
        "is vendored from the release"
    } else {
        "fetched"
    };
    let result = if options.progress {
        let mut bar = super::progress::ProgressBar::new();
        let result =
            fetch::fetch_with_progress(&options, &mut |done, total| bar.update(done, total));
        bar.finish();
        result
    } else {
        fetch::fetch(&options)
    };
    let report = result?;
    // --check has its own short layout (the github format leaves the fix line to the copy's
    // annotation, so the log names it once).
    let human = a
        .check
        .then(|| {
            let fix_line = out.format != FormatArg::Github;
            compare::report::render_human(&report, true, fix_line)
        })
        .flatten();
    Ok(out.emit_text(&report, what, human.as_deref()))
}

/// `bqsuite eval`: the reference model's results.json on standard output (or `--out FILE`), and
/// every case that does not pass as a finding.
pub fn eval(suite: &Option<PathBuf>, file: Option<&Path>, out: &Output) -> Result<u8, Error> {
    check_source_date_epoch()?;
    // `--out -` is standard output; any other path must be new or a regular file.
    let file = file.filter(|p| p.as_os_str() != "-");
    if let Some(path) = file {
        fsutil::check_writable_target(path)?;
    }
    let suite = suite_or_default(suite);
    let evaluation = eval::evaluate_dir(&suite)?;
    let mut text = show::json(
        &serde_json::to_string_pretty(&evaluation.document)
            .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?,
    );
    text.push('\n');
    if let Some(path) = file {
        fsutil::write_atomic(path, text.as_bytes())?;
    }
    let report = eval::report(&suite, file, &evaluation);
    let failures = evaluation.failures().count();
    if out.json() {
        output::print(&diag::render_json(&report, &out.command));
    } else {
        if file.is_none() {
            output::print(&text);
        }
        out.side_findings(&report);
        if let Some(path) = file {
            output::eprint_styled(&format!(
                "wrote {} ({} cases, {} not passing)\n",
                error::shown_path(path),
                evaluation.outcomes.len(),
                failures
            ));
        }
    }
    Ok(if failures == 0 { CLEAN } else { FOUND })
}

/// `bqsuite run`: grades the implementation behind the adapter, writes its results.json and
/// reports every case that did not pass.
pub fn run(a: &args::RunArgs, out: &Output) -> Result<u8, Error> {
    check_source_date_epoch()?;
    fsutil::check_writable_target(&a.out)?;
    let options = bqsuite::commands::run::Options {
        suite: suite_or_default(&a.suite),
        adapter: a.adapter.clone(),
        sections: a.sections.clone(),
        cases: a.cases.clone(),
        timeout: a.timeout,
    };
    let graded = bqsuite::commands::run::run(&options)?;
    let mut text = show::json(
        &serde_json::to_string_pretty(&graded.document())
            .map_err(|e| Error::Usage(format!("cannot render results: {e}")))?,
    );
    text.push('\n');
    fsutil::write_atomic(&a.out, text.as_bytes())?;
    let report = bqsuite::commands::run::report(&graded, Some(&a.out));
    Ok(out.emit(&report, "passes every case"))
}

/// `bqsuite adapter`: serves a model over the adapter protocol until stop or end of input.
pub fn adapter(a: &args::AdapterArgs) -> Result<u8, Error> {
    let mut server = bqsuite::commands::adapter::Server::new(&a.model, a.mistake.as_deref())?;
    let stdin = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let stdout = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    bqsuite::commands::adapter::serve(&mut server, stdin, stdout)?;
    Ok(CLEAN)
}

pub fn completions(shell: clap_complete::Shell, out: &Output) -> u8 {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut args::command(), "bqsuite", &mut script);
    generated(out, &String::from_utf8_lossy(&script))
}

/// Prints generated text (a completion script, the man page); with `--format json`, inside the
/// document's `data.text`.
pub fn generated(out: &Output, text: &str) -> u8 {
    if out.json() {
        let mut report = Report::new(out.subject.clone());
        report.data = json!({ "text": text });
        output::print(&diag::render_json(&report, &out.command));
    } else {
        output::print(text);
    }
    CLEAN
}
