//! The shell examples of the README, the guides and the adapter protocol page work as written. Every ```` ```sh ```` block
//! there says, on the line before it, what it needs:
//!
//! * `<!-- shell: offline -->`: run here, as written, in a scratch directory that holds what a
//!   clone of this repository holds (`suite/`, `sbp-suite/` and their `LICENSE-*`, `proposal/`, `examples/`, the real releases
//!   under `tests/data/real-releases/`), with the built bqsuite first on PATH; the blocks of one
//!   page run in order in the same directory, each under `sh -e`;
//! * `<!-- shell: network -->`: it downloads (a release, the installer or a crate from GitHub, an
//!   SDK from PyPI);
//! * `<!-- shell: ci -->`: this repository's own set-up and test commands, which CI runs
//!   (`.ci/run`, and `tests/cli/docs/links.rs` checks they are the ones it runs).
//!
//! A block without a mark fails the first test, so a new example is either run or says why not.

use std::fs;
use std::path::{Path, PathBuf};

use crate::kit::markdown::rel;
use crate::kit::*;

/// What a shell block needs to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Needs {
    Offline,
    Network,
    Ci,
}

/// One ```` ```sh ```` block of a page: where it opens (1-based line), its mark, its commands.
struct ShellBlock {
    line: usize,
    needs: Option<Needs>,
    code: String,
}

/// The README and every guide.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut guides: Vec<PathBuf> = fs::read_dir(root().join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    pages.extend(guides);
    // The protocol page tells adapter authors what to paste.
    pages.push(root().join("docs/reference/adapter-protocol.md"));
    pages
}

/// The mark on `line`, if it is one.
fn mark(line: &str) -> Option<Needs> {
    match line.trim() {
        "<!-- shell: offline -->" => Some(Needs::Offline),
        "<!-- shell: network -->" => Some(Needs::Network),
        "<!-- shell: ci -->" => Some(Needs::Ci),
        _ => None,
    }
}

/// The shell blocks of a Markdown text (fences may be indented, as in a list item).
fn shell_blocks(text: &str) -> Vec<ShellBlock> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut previous = "";
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            let indent = lines[i].len() - trimmed.len();
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_start().starts_with("```"))
                .unwrap_or(lines.len());
            if matches!(info.trim(), "sh" | "bash" | "shell") {
                let code: Vec<&str> = lines[i + 1..end]
                    .iter()
                    .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
                    .collect();
                out.push(ShellBlock {
                    line: i + 1,
                    needs: mark(previous),
                    code: code.join("\n") + "\n",
                });
            }
            i = end + 1;
            previous = "";
            continue;
        }
        if !trimmed.is_empty() {
            previous = lines[i];
        }
        i += 1;
    }
    out
}

#[test]
fn every_shell_example_of_the_readme_and_guides_says_what_it_needs() {
    let mut unmarked = Vec::new();
    let mut offline = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for block in shell_blocks(&text) {
            match block.needs {
                None => unmarked.push(format!("{}:{}", rel(&page), block.line)),
                Some(Needs::Offline) => offline += 1,
                Some(_) => {}
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "shell blocks without a mark on the line before them (`<!-- shell: offline -->`, \
         `<!-- shell: network -->` or `<!-- shell: ci -->`): {unmarked:?}"
    );
    assert!(offline > 0, "no shell example is run");
}

/// A scratch directory holding what a clone of this repository holds, as the guides use it.
fn scratch_clone() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = root();
    copy_tree(&bundled_suite(), &dir.path().join("suite"));
    copy_tree(&root.join("proposal"), &dir.path().join("proposal"));
    fs::copy(suite_license(), dir.path().join(SUITE_LICENSE)).unwrap();
    copy_tree(&root.join("sbp-suite"), &dir.path().join("sbp-suite"));
    copy_tree(&root.join("examples"), &dir.path().join("examples"));
    fs::copy(
        root.join("LICENSE-sbp-suite"),
        dir.path().join("LICENSE-sbp-suite"),
    )
    .unwrap();
    copy_tree(
        &data("real-releases"),
        &dir.path().join("tests/data/real-releases"),
    );
    dir
}

/// Runs the offline blocks of `page` in order in a fresh scratch clone; the failures, described.
fn run_page(page: &Path) -> Vec<String> {
    let text = fs::read_to_string(page).unwrap();
    let blocks: Vec<ShellBlock> = shell_blocks(&text)
        .into_iter()
        .filter(|b| b.needs == Some(Needs::Offline))
        .collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    let clone = scratch_clone();
    let mut failures = Vec::new();
    for block in blocks {
        let out = shell_in(clone.path(), &block.code, &["-e"]);
        if !out.status.success() {
            failures.push(format!(
                "{}:{} exits {}:\n{}\n--- stdout\n{}\n--- stderr\n{}",
                rel(page),
                block.line,
                code(&out),
                block.code,
                stdout(&out),
                stderr(&out)
            ));
        }
    }
    failures
}

#[test]
fn the_offline_shell_examples_of_the_readme_and_guides_run_as_written() {
    let failures: Vec<String> = pages().iter().flat_map(|p| run_page(p)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_failing_command_in_a_shell_example_fails_its_run() {
    // The runner stops at the first failing command of a block (`sh -e`) and reports it.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.md");
    fs::write(
        &page,
        "<!-- shell: offline -->\n```sh\nbqsuite validate no-such-suite\necho reached\n```\n",
    )
    .unwrap();
    let text = fs::read_to_string(&page).unwrap();
    let blocks = shell_blocks(&text);
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].needs, Some(Needs::Offline));
    let out = shell_in(dir.path(), &blocks[0].code, &["-e"]);
    assert_eq!(code(&out), 2);
    assert!(!stdout(&out).contains("reached"));
}
