//! Report examples in Markdown: finding the blocks marked `<!-- example: NAME -->` …
//! `<!-- /example -->`, telling a report from a command to type, and cutting a long report to the
//! part a page shows (every cut marked `[…]`). Used by the docs examples
//! (tests/cli/docs/examples.rs).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::root;

/// The first `head` and last `tail` lines, with one `[…]` line for what is cut.
pub fn head_tail(text: &str, head: usize, tail: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= head + tail + 1 {
        return text.to_string();
    }
    let mut out: Vec<&str> = lines[..head].to_vec();
    out.push("[…]");
    out.extend(&lines[lines.len() - tail..]);
    out.join("\n") + "\n"
}

/// The paragraphs (blank-line separated) whose first line contains one of `keep`, and the last
/// paragraph (the verdict; only its last `tail` lines when given); each run of cut paragraphs
/// becomes one `[…]`.
pub fn paragraphs(text: &str, keep: &[&str], tail: Option<usize>) -> String {
    let paras: Vec<&str> = text.trim_end().split("\n\n").collect();
    let last = paras.len() - 1;
    let mut out: Vec<String> = Vec::new();
    let mut cutting = false;
    for (i, p) in paras.iter().enumerate() {
        let first = p.lines().next().unwrap_or("");
        if i == last {
            let lines: Vec<&str> = p.lines().collect();
            match tail {
                Some(n) if lines.len() > n => {
                    if !cutting {
                        out.push("[…]".to_string());
                    }
                    out.push(lines[lines.len() - n..].join("\n"));
                }
                _ => out.push(p.to_string()),
            }
        } else if keep.iter().any(|k| first.contains(k)) {
            out.push(p.to_string());
            cutting = false;
        } else if !cutting {
            out.push("[…]".to_string());
            cutting = true;
        }
    }
    out.join("\n\n") + "\n"
}

/// One marked block in a Markdown file.
pub struct Block {
    pub name: String,
    /// Byte range of the fenced block's content (between the fence lines).
    pub content: std::ops::Range<usize>,
    /// The fence (```` ``` ```` or longer) the block uses.
    pub fence: String,
}

pub const OPEN: &str = "<!-- example: ";
pub const CLOSE: &str = "<!-- /example -->";

/// The marked blocks of one Markdown text.
pub fn blocks(text: &str, file: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(at) = text[pos..].find(OPEN) {
        let start = pos + at;
        let name_end = start
            + text[start..]
                .find("-->")
                .unwrap_or_else(|| panic!("{file}: unterminated example marker"));
        let name = text[start + OPEN.len()..name_end].trim().to_string();
        let close = name_end
            + text[name_end..]
                .find(CLOSE)
                .unwrap_or_else(|| panic!("{file}: example `{name}` has no {CLOSE}"));
        let inner_start = name_end + 3;
        let inner = &text[inner_start..close];
        let open_rel = inner
            .find("```")
            .unwrap_or_else(|| panic!("{file}: example `{name}` holds no fenced code block"));
        let line_end = open_rel + inner[open_rel..].find('\n').unwrap() + 1;
        let fence: String = inner[open_rel..]
            .chars()
            .take_while(|c| *c == '`')
            .collect();
        let close_rel = inner[line_end..]
            .rfind(&format!("{fence}\n"))
            .map(|r| line_end + r)
            .unwrap_or_else(|| panic!("{file}: example `{name}`: the fence is not closed"));
        out.push(Block {
            name,
            content: inner_start + line_end..inner_start + close_rel,
            fence,
        });
        pos = close + CLOSE.len();
    }
    out
}

/// README.md and every Markdown file under docs/.
pub fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for entry in walkdir::WalkDir::new(root().join("docs")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.into_path());
        }
    }
    files
}

pub fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

/// Does this fenced block look like a report (a transcript or bqsuite's JSON) rather than a
/// command to type?
pub fn looks_like_report(content: &str) -> bool {
    content.lines().any(|l| {
        l.starts_with("$ ")
            || l.starts_with("FAILED: ")
            || l.starts_with("ok: ")
            || l.contains("\"diagnostics\"")
            || ["error[", "warning[", "note["]
                .iter()
                .any(|p| l.starts_with(p))
    })
}

/// Every fenced block of `text` outside the marked examples that looks like a report.
pub fn unmarked_reports(text: &str, marked: &[Block]) -> Vec<usize> {
    let mut found = Vec::new();
    let mut offset = 0;
    let mut open: Option<(usize, String)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        match &open {
            None if trimmed.starts_with("```") => {
                let fence: String = trimmed.chars().take_while(|c| *c == '`').collect();
                open = Some((offset + line.len(), fence));
            }
            Some((start, fence)) if trimmed.trim_end() == fence => {
                let content = &text[*start..offset];
                let inside = marked
                    .iter()
                    .any(|b| b.content.start <= *start && offset <= b.content.end);
                if !inside && looks_like_report(content) {
                    found.push(text[..*start].lines().count());
                }
                open = None;
            }
            _ => {}
        }
        offset += line.len();
    }
    found
}

// ------------------------------------------------------------ the filters of the examples

/// The whole output.
pub fn all(text: &str) -> String {
    text.to_string()
}

/// `jq '.data | .targets |= map(select(.repo == "babelqueue-python"))'`
pub fn sync_data_python_row(text: &str) -> String {
    let doc: Value = serde_json::from_str(text).expect("one JSON document");
    let mut data = doc["data"].clone();
    let rows = data["targets"].as_array().cloned().unwrap_or_else(|| {
        panic!(
            "sync --check's JSON has no data.targets any more: adjust sync_data_python_row and its \
             jq filter (both in tests/cli/docs/examples.rs). The output:\n{text}"
        )
    });
    data["targets"] = Value::Array(
        rows.into_iter()
            .filter(|r| r["repo"] == "babelqueue-python")
            .map(|mut r| {
                first_affected_cases(&mut r);
                r
            })
            .collect(),
    );
    serde_json::to_string_pretty(&data).unwrap() + "\n"
}

/// The cases a drift object's `affected_cases` keeps in the docs (`affected_cases |= .[:2]` in
/// the examples' jq filters): an edited fixture may be read by a hundred.
const AFFECTED_SHOWN: usize = 2;

fn first_affected_cases(drift: &mut Value) {
    if let Some(cases) = drift["affected_cases"].as_array_mut() {
        cases.truncate(AFFECTED_SHOWN);
    }
}

/// `fetch --check --format json` with only the first cases of `data.copy.affected_cases`.
pub fn fetch_check_first_affected(text: &str) -> String {
    let mut doc: Value = serde_json::from_str(text).expect("one JSON document");
    first_affected_cases(&mut doc["data"]["copy"]);
    serde_json::to_string_pretty(&doc).unwrap() + "\n"
}

/// The heading and the first group's counts, then the verdict.
pub fn sync_table(text: &str) -> String {
    head_tail(text, 7, 2)
}

/// The first `n` `thin` lines of a `mutants` report (where each section is thin) and its last two
/// lines (the count and the verdict).
pub fn thin_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let thin: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("thin "))
        .take(n)
        .collect();
    assert!(
        !thin.is_empty(),
        "mutants should print a thin line:\n{text}"
    );
    let mut out = vec!["[…]"];
    out.extend(thin);
    out.push("[…]");
    out.extend(&lines[lines.len().saturating_sub(2)..]);
    out.join("\n") + "\n"
}

/// The workflow commands only (they follow the human report, which is cut).
pub fn annotations(text: &str) -> String {
    let mut out = vec!["[…]"];
    out.extend(text.lines().filter(|l| l.starts_with("::")));
    out.join("\n") + "\n"
}

/// The note about the added case that kills nothing (`header-equals-body`, which the examples'
/// world adds), that case's line of the summary, and the verdict.
pub fn idle_case(text: &str) -> String {
    let case = "attempts_reconciliation/header-equals-body";
    let paragraphs: Vec<&str> = text.trim_end().split("\n\n").collect();
    let at = paragraphs
        .iter()
        .position(|p| p.starts_with("note[") && p.contains(case))
        .unwrap_or_else(|| panic!("mutants should print a note about {case}:\n{text}"));
    let summary = paragraphs[paragraphs.len() - 1];
    let idle = summary
        .lines()
        .find(|l| l.contains(case) && l.contains("kills no mutant"))
        .unwrap_or_else(|| panic!("no summary line says {case} kills no mutant:\n{text}"));
    let before = if at > 0 { "[…]\n\n" } else { "" };
    format!(
        "{before}{}\n\n[…]\n{idle}\n{}",
        paragraphs[at],
        head_tail(summary, 0, 3)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_parser_finds_content_and_cuts() {
        let text = "a\n<!-- example: x -->\n```text\n$ bqsuite x\nout\n```\n<!-- /example -->\n\
                    ```text\n$ bqsuite y\n```\n";
        let found = blocks(text, "t.md");
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].content.clone()], "$ bqsuite x\nout\n");
        assert_eq!(unmarked_reports(text, &found), vec![8]);
        assert_eq!(head_tail("1\n2\n3\n4\n5\n", 1, 1), "1\n[…]\n5\n");
        assert_eq!(
            paragraphs("a\n\nb\n\nc\n\nd\n", &["b"], None),
            "[…]\n\nb\n\n[…]\n\nd\n"
        );
        assert_eq!(
            paragraphs("a\n\nb\n\nc\nd\ne\n", &["b"], Some(1)),
            "[…]\n\nb\n\n[…]\n\ne\n"
        );
    }
}
