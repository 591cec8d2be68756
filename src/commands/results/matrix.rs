//! `results matrix`: the compatibility matrix — SDKs (sdk + version) as columns, the suite's
//! sections as rows, each cell the pass / fail / skip counts of one SDK in one section, with the
//! non-passing case ids one click (HTML `<details>`) or one list (Markdown) away, and each SDK's
//! verdict from the same check as `results check`.
//!
//! A cell is `—` (n/a) when the section's scope is not one the SDK carries and the file has no
//! such section. The matrix is a report, not a gate: its findings are a warning when the files
//! pin different suite versions and a note per SDK that is not Compatible, so the command exits 0
//! whenever it rendered (use `results check` to gate).
//!
//! The HTML page is one self-contained file: inline CSS, no script, no external asset; every
//! string taken from the input is escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::check::{FileCheck, SectionRule, SuiteRules, check_all, needs_adr, subject};
use super::findings;
use super::grid::{Cell, Column, Counts, Item, ItemKind, Matrix, Row};
use super::read::{Reason, Status};
use bqsuite_core::diag::{Report, plural};
use bqsuite_core::error::Result;
use bqsuite_core::fsutil;

/// `results matrix`.
#[derive(Debug, Clone)]
pub struct MatrixOptions {
    pub files: Vec<PathBuf>,
    pub suite: PathBuf,
    pub html: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
}

fn cell(rules: &SuiteRules, rule: &SectionRule, fc: &FileCheck) -> Cell {
    if !fc.readable {
        return Cell::Unreadable;
    }
    let in_scope = fc.scopes.contains(&rule.scope);
    let Some(entry) = fc.section(&rule.name) else {
        return if in_scope {
            Cell::Missing
        } else {
            Cell::NotApplicable(
                rules
                    .exception(fc.family, &rule.scope)
                    .map(|e| e.adr.clone().unwrap_or_else(|| "exception".into())),
            )
        };
    };
    let mut counts = Counts {
        out_of_scope: !in_scope,
        ..Counts::default()
    };
    let Some(cases) = &entry.cases else {
        counts.malformed = true;
        return Cell::Counts(counts);
    };
    let mut seen = std::collections::HashSet::new();
    for case in cases {
        let reason = case.reason.text().map(str::to_string);
        let kind = if !rule.has(&case.id) {
            counts.other += 1;
            Some(ItemKind::Unknown)
        } else {
            seen.insert(case.id.as_str());
            match case.status {
                Status::Pass => {
                    counts.pass += 1;
                    None
                }
                Status::Fail => {
                    counts.fail += 1;
                    Some(ItemKind::Fail)
                }
                Status::Skip => {
                    counts.skip += 1;
                    Some(if needs_adr(case.status, &case.reason) {
                        counts.skip_without_adr = true;
                        ItemKind::SkipWithoutAdr
                    } else {
                        ItemKind::Skip
                    })
                }
                Status::Invalid => {
                    counts.other += 1;
                    Some(ItemKind::Invalid)
                }
            }
        };
        if let Some(kind) = kind {
            let reason = match (&case.reason, reason) {
                (Reason::NotText, _) => Some("(reason is not a string)".to_string()),
                (_, r) => r,
            };
            counts.add(Item {
                id: case.id.clone(),
                kind,
                reason,
            });
        }
    }
    if in_scope {
        for id in rule.ids.iter().filter(|id| !seen.contains(id.as_str())) {
            counts.missing += 1;
            counts.add(Item {
                id: id.clone(),
                kind: ItemKind::Missing,
                reason: None,
            });
        }
    }
    Cell::Counts(counts)
}

/// Builds the matrix of already checked files.
pub fn build(rules: &SuiteRules, checks: Vec<FileCheck>) -> Matrix {
    let rows: Vec<Row> = rules
        .sections
        .iter()
        .map(|rule| Row {
            section: rule.name.clone(),
            scope: rule.scope.clone(),
            cases: rule.ids.len(),
            cells: checks.iter().map(|fc| cell(rules, rule, fc)).collect(),
        })
        .collect();
    let columns = checks
        .into_iter()
        .enumerate()
        .map(|(i, check)| {
            let mut totals = Counts::default();
            for row in &rows {
                if let Cell::Counts(c) = &row.cells[i] {
                    totals.pass += c.pass;
                    totals.fail += c.fail;
                    totals.skip += c.skip;
                    totals.missing += c.missing;
                    totals.other += c.other;
                }
            }
            Column { check, totals }
        })
        .collect::<Vec<_>>();
    let mut pinned: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for c in &columns {
        if let Some(v) = &c.check.conformance_version {
            pinned.entry(v).or_default().push(c.check.label());
        }
    }
    let version_warning = (pinned.len() > 1).then(|| {
        let groups: Vec<String> = pinned
            .iter()
            .map(|(v, sdks)| format!("{v} ({})", sdks.join(", ")))
            .collect();
        format!(
            "The results files pin different suite versions: {}. Every column is checked \
             against suite {}, so a column that pins another version is not Compatible with it.",
            groups.join("; "),
            rules.version
        )
    });
    Matrix {
        suite_title: rules.kind.title.clone(),
        suite_version: rules.version.clone(),
        columns,
        rows,
        version_warning,
    }
}

/// Runs `results matrix`.
pub fn run(options: &MatrixOptions) -> Result<(Report, String)> {
    let rules = SuiteRules::load(&options.suite)?;
    let checks = check_all(&options.files, &rules)?;
    let matrix = build(&rules, checks);
    let mut report = Report::new(subject(&options.files));
    if let Some(warning) = &matrix.version_warning {
        report.push(findings::version_mixed(warning.clone()));
    }
    for c in &matrix.columns {
        let fc = &c.check;
        if !fc.compatible() {
            report.push(findings::not_compatible(
                &fc.file,
                &fc.label(),
                &fc.verdict(),
                &matrix.suite_version,
                &options.suite,
            ));
        }
        report
            .summary
            .push(format!("{}: {}", fc.label(), fc.verdict()));
    }
    let markdown = render_markdown(&matrix);
    let mut written = String::new();
    if let Some(path) = &options.html {
        fsutil::write_atomic(path, render_html(&matrix).as_bytes())?;
        let _ = writeln!(written, "{}", wrote(path, &matrix));
    }
    if let Some(path) = &options.markdown {
        fsutil::write_atomic(path, markdown.as_bytes())?;
        let _ = writeln!(written, "{}", wrote(path, &matrix));
    }
    report.data = serde_json::json!({
        "suite_version": matrix.suite_version,
        "versions_mixed": matrix.version_warning.is_some(),
        "compatible": matrix.columns.iter().filter(|c| c.check.compatible()).count(),
        "files": super::json::files(&matrix),
        "html": options.html.as_ref().map(|p| p.display().to_string()),
        "markdown_file": options.markdown.as_ref().map(|p| p.display().to_string()),
    });
    let text = if options.html.is_none() && options.markdown.is_none() {
        markdown
    } else {
        written
    };
    Ok((report, text))
}

fn wrote(path: &Path, m: &Matrix) -> String {
    let compatible = m.columns.iter().filter(|c| c.check.compatible()).count();
    format!(
        "wrote {} ({} SDK{} × {} sections, {compatible} Compatible)",
        path.display(),
        m.columns.len(),
        plural(m.columns.len()),
        m.rows.len()
    )
}

// ---------------------------------------------------------------------------------- Markdown

/// Escapes text for a GitHub Markdown table cell or list item: Markdown and HTML syntax and the
/// cell separator are backslash-escaped; hidden characters (line breaks, controls, bidi) are
/// shown escaped by the one rule ([`bqsuite_core::show::text`]), as `\\u{202e}` in the source.
pub fn md(text: &str) -> String {
    let text = bqsuite_core::show::text(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '$' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The Markdown rendering: a heading, the warning, the table, a legend and the drill-down.
pub fn render_markdown(m: &Matrix) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## {} conformance matrix — suite {}\n",
        md(&m.suite_title),
        md(&m.suite_version)
    );
    if let Some(w) = &m.version_warning {
        let _ = writeln!(out, "> **⚠️ Warning:** {}\n", md(w));
    }
    out.push_str("| Section | Scope | Cases |");
    for c in &m.columns {
        let _ = write!(out, " {} |", md(&c.check.label()));
    }
    out.push_str("\n| :-- | :-- | --: |");
    for _ in &m.columns {
        out.push_str(" :-- |");
    }
    out.push_str("\n| **Verdict** | | |");
    for c in &m.columns {
        let mark = if c.check.compatible() { "✅" } else { "❌" };
        let _ = write!(out, " {mark} **{}** |", c.check.verdict());
    }
    out.push_str("\n| *Pinned suite* | | |");
    for c in &m.columns {
        let v = c.check.conformance_version.as_deref().unwrap_or("?");
        let _ = write!(out, " {} |", md(v));
    }
    out.push('\n');
    for row in &m.rows {
        let _ = write!(
            out,
            "| {} | {} | {} |",
            md(&row.section),
            md(&row.scope),
            row.cases
        );
        for cell in &row.cells {
            let mark = cell.tone().mark();
            let sep = if mark.is_empty() { "" } else { " " };
            let _ = write!(out, " {mark}{sep}{} |", md(&cell.text()));
        }
        out.push('\n');
    }
    out.push_str("| **Total** | | |");
    for c in &m.columns {
        let _ = write!(out, " {} |", c.totals.text());
    }
    out.push_str(
        "\n\n🟢 all pass · 🟡 skips citing an ADR · 🔴 failing, missing or invalid · — not in \
         the SDK's scope (n/a)\n",
    );
    let mut drill = String::new();
    for row in &m.rows {
        let mut lines = String::new();
        for (col, cell) in m.columns.iter().zip(&row.cells) {
            let (listed, more) = cell.items();
            let mut items: Vec<String> = listed
                .iter()
                .map(|i| match &i.reason {
                    Some(r) => format!("{} ({}: {})", md(&i.id), i.kind.label(), md(r)),
                    None => format!("{} ({})", md(&i.id), i.kind.label()),
                })
                .collect();
            if more > 0 {
                items.push(format!("… and {more} more"));
            }
            let text = match cell {
                Cell::Missing => "the whole section is missing".to_string(),
                Cell::Counts(c) if c.malformed => "the section is not an object".to_string(),
                _ if items.is_empty() => continue,
                _ => items.join(", "),
            };
            let _ = writeln!(lines, "- **{}**: {text}", md(&col.check.label()));
        }
        if !lines.is_empty() {
            let _ = write!(drill, "\n#### {}\n\n{lines}", md(&row.section));
        }
    }
    if !drill.is_empty() {
        out.push_str("\n### Not passing\n");
        out.push_str(&drill);
    }
    out
}

// ---------------------------------------------------------------------------------- HTML

/// Escapes text for HTML element content and quoted attribute values; hidden characters (line
/// breaks, controls, bidi) are shown escaped by the one rule ([`bqsuite_core::show::text`]).
pub fn html(text: &str) -> String {
    let text = bqsuite_core::show::text(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = r#"
:root { color-scheme: light; --line: #d1d9e0; --muted: #59636e;
  --pass: #dafbe1; --pass-ink: #116329; --skip: #fff8c5; --skip-ink: #7d4e00;
  --fail: #ffebe9; --fail-ink: #a40e26; --na: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 20px 24px; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
p.meta { color: var(--muted); margin: 0 0 16px; }
.warning { border: 1px solid #d4a72c; background: var(--skip); color: #3b2300; padding: 10px 14px; border-radius: 6px; margin: 0 0 16px; max-width: 1100px; }
.wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; max-width: 100%; width: max-content; }
table { border-collapse: separate; border-spacing: 0; }
th, td { padding: 4px 10px; border-right: 1px solid var(--line); border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
tr > :last-child { border-right: 0; }
thead th { background: var(--na); position: sticky; top: 0; z-index: 2; min-width: 150px; }
thead th .sdk { font-size: 14px; display: block; }
thead th .ver { font-weight: 400; display: block; }
thead th .file { font-weight: 400; color: var(--muted); font-size: 11px; display: block; overflow-wrap: anywhere; max-width: 240px; }
tbody th { font-weight: 600; background: #fff; white-space: nowrap; }
th .scope { display: inline-block; font-weight: 400; font-size: 11px; color: var(--muted); border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; margin-left: 6px; }
th .n { font-weight: 400; color: var(--muted); font-size: 12px; margin-left: 4px; }
td { font-variant-numeric: tabular-nums; }
td.pass { background: var(--pass); color: var(--pass-ink); }
td.skip { background: var(--skip); color: var(--skip-ink); }
td.fail { background: var(--fail); color: var(--fail-ink); }
td.na { background: var(--na); color: #8c959f; text-align: center; }
tr.verdict td, tr.verdict th { font-weight: 700; border-bottom: 2px solid #afb8c1; }
tr.total td, tr.total th { border-top: 2px solid #afb8c1; font-weight: 600; background: #fff; color: #1f2328; }
td.ok { color: var(--pass-ink); } td.bad { color: var(--fail-ink); }
details > summary { cursor: pointer; }
ul.cases { margin: 6px 0 2px; padding-left: 18px; max-width: 380px; color: #1f2328; font-weight: 400; }
ul.cases li { margin: 2px 0; overflow-wrap: anywhere; }
ul.cases code { font-size: 12px; }
.tag { font-size: 11px; border-radius: 4px; padding: 0 4px; margin-right: 4px; font-weight: 600; }
.tag.fail { background: #ffcecb; color: var(--fail-ink); }
.tag.skip { background: #fae17d; color: #4d2d00; }
.reason { color: var(--muted); font-size: 12px; }
.legend { margin-top: 14px; color: var(--muted); }
.legend span { display: inline-block; padding: 1px 8px; border-radius: 4px; margin-right: 10px; border: 1px solid var(--line); }
"#;

/// The HTML rendering: one self-contained page.
pub fn render_html(m: &Matrix) -> String {
    let mut out = String::new();
    let title = format!(
        "{} conformance matrix — suite {}",
        m.suite_title, m.suite_version
    );
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        html(&title),
        html(&title)
    );
    let compatible = m.columns.iter().filter(|c| c.check.compatible()).count();
    let _ = writeln!(
        out,
        "<p class=\"meta\">{} SDK{} · {} sections · {compatible} Compatible. Each cell counts \
         one SDK's cases in one section; open a cell to see the cases that did not pass.</p>",
        m.columns.len(),
        plural(m.columns.len()),
        m.rows.len()
    );
    if let Some(w) = &m.version_warning {
        let _ = writeln!(
            out,
            "<div class=\"warning\" role=\"alert\"><strong>⚠ Warning:</strong> {}</div>",
            html(w)
        );
    }
    out.push_str("<div class=\"wrap\">\n<table>\n<thead>\n<tr><th scope=\"col\">Section</th>");
    for c in &m.columns {
        out.push_str(&html_column_head(&c.check));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n<tr class=\"verdict\"><th scope=\"row\">Verdict</th>");
    for c in &m.columns {
        let (class, mark) = if c.check.compatible() {
            ("ok", "✔")
        } else {
            ("bad", "✘")
        };
        let _ = write!(
            out,
            "<td class=\"{class}\">{mark} {}</td>",
            html(&c.check.verdict())
        );
    }
    out.push_str("</tr>\n");
    for row in &m.rows {
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}<span class=\"scope\">{}</span><span class=\"n\">{}</span></th>",
            html(&row.section),
            html(&row.scope),
            row.cases
        );
        for cell in &row.cells {
            out.push_str(&html_cell(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("<tr class=\"total\"><th scope=\"row\">Total</th>");
    for c in &m.columns {
        let _ = write!(out, "<td>{}</td>", html(&c.totals.text()));
    }
    out.push_str("</tr>\n</tbody>\n</table>\n</div>\n");
    out.push_str(
        "<p class=\"legend\"><span style=\"background:var(--pass)\">all pass</span>\
         <span style=\"background:var(--skip)\">skips citing an ADR</span>\
         <span style=\"background:var(--fail)\">failing, missing or invalid</span>\
         <span style=\"background:var(--na)\">— not in the SDK's scope (n/a)</span></p>\n",
    );
    let _ = writeln!(
        out,
        "<p class=\"meta\">Generated by bqsuite {} (<code>bqsuite results matrix</code>).</p>\n\
         </body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// A column's heading: the SDK (or the file when it names none), its version, the suite and
/// family it reports, and the file.
fn html_column_head(fc: &FileCheck) -> String {
    let name = fc.sdk.clone().unwrap_or_else(|| fc.file.clone());
    let mut about = Vec::new();
    if let Some(v) = &fc.conformance_version {
        about.push(format!("suite {v}"));
    }
    if let Some(f) = fc.family {
        about.push(format!("family {f}"));
    }
    format!(
        "<th scope=\"col\"><span class=\"sdk\">{}</span><span class=\"ver\">{}</span>\
         <span class=\"file\">{}</span><span class=\"file\">{}</span></th>",
        html(&name),
        html(fc.version.as_deref().unwrap_or("")),
        html(&about.join(" · ")),
        html(&fc.file)
    )
}

fn html_cell(cell: &Cell) -> String {
    let class = cell.tone().class();
    let text = html(&cell.text());
    let (items, more) = cell.items();
    if items.is_empty() {
        let title = match cell {
            Cell::NotApplicable(Some(_)) => " title=\"excepted for this SDK's family\"",
            Cell::NotApplicable(None) => " title=\"not in this SDK's scope\"",
            Cell::Missing => " title=\"a required section is absent\"",
            Cell::Unreadable => " title=\"the results file could not be read\"",
            _ => "",
        };
        return format!("<td class=\"{class}\"{title}>{text}</td>");
    }
    let mut out =
        format!("<td class=\"{class}\"><details><summary>{text}</summary><ul class=\"cases\">");
    for item in items {
        let _ = write!(
            out,
            "<li><span class=\"tag {}\">{}</span><code>{}</code>",
            item.kind.class(),
            html(item.kind.label()),
            html(&item.id)
        );
        if let Some(r) = &item.reason {
            let _ = write!(out, "<div class=\"reason\">{}</div>", html(r));
        }
        out.push_str("</li>");
    }
    if more > 0 {
        let _ = write!(out, "<li>… and {more} more</li>");
    }
    out.push_str("</ul></details></td>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::results::grid::MAX_ITEMS_PER_CELL;

    #[test]
    fn cells_list_at_most_the_cap() {
        use bqsuite_core::json;
        use serde_json::{Value, json};
        let rules = crate::commands::results::check::tests::rules();
        let cases: serde_json::Map<String, Value> = (0..MAX_ITEMS_PER_CELL + 5)
            .map(|i| (format!("x{i}"), json!({"status": "fail"})))
            .collect();
        let doc = json!({"sdk": "s", "version": "1", "conformance_version": "1.5.0",
                         "bindings": [], "sections": {"cases": cases}});
        let tree = json::parse(&doc.to_string()).unwrap();
        let fc = crate::commands::results::check::check_tree(&rules, "f", &tree);
        let m = build(&rules, vec![fc]);
        let Cell::Counts(c) = &m.rows[0].cells[0] else {
            panic!("{:?}", m.rows[0].cells[0])
        };
        assert_eq!(c.items.len(), MAX_ITEMS_PER_CELL);
        assert_eq!(c.more_items, 7); // 5 more unknown ids and the 2 missing cases
        assert!(render_html(&m).contains("<li>… and 7 more</li>"));
        assert!(render_markdown(&m).contains(", … and 7 more\n"));
        assert!(matches!(m.rows[1].cells[0], Cell::NotApplicable(None)));
    }

    #[test]
    fn escaping() {
        assert_eq!(
            html("<script>\"a\"&'b'</script>"),
            "&lt;script&gt;&quot;a&quot;&amp;&#39;b&#39;&lt;/script&gt;"
        );
        assert_eq!(md("a|b<i>*x*\n`c`"), "a\\|b\\<i\\>\\*x\\*\\\\n\\`c\\`");
        assert_eq!(md("a\u{202e}b"), "a\\\\u{202e}b");
        assert_eq!(html("a\u{1b}\u{202e}<"), "a\\u{1b}\\u{202e}&lt;");
    }
}
