//! The Markdown in this repository holds together: every relative link in every `*.md` file
//! (README.md, docs/, CHANGELOG.md, SECURITY.md, CONTRIBUTING.md, bench/, fuzz/, tests/data/)
//! points at a file or directory of the repository, and every `#anchor` at a heading (GitHub's
//! slug) of the Markdown file it names. README.md stays a short entry point (at most 250 lines)
//! whose two set-up commands at the top are the ones CI runs.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::kit::root;

/// Every Markdown file of the repository, outside build output, VCS data and fuzzing corpora.
fn markdown_files() -> Vec<PathBuf> {
    const SKIP: [&str; 5] = ["target", "corpus", "artifacts", "logs", "node_modules"];
    walkdir::WalkDir::new(root())
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(name.starts_with('.')
                    || (e.file_type().is_dir() && SKIP.contains(&name.as_ref())))
        })
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect()
}

/// The lines of `text` that are not inside a fenced code block, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let marker: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
        match &fence {
            None if marker.len() >= 3
                && marker.chars().all(|c| c == marker.chars().next().unwrap()) =>
            {
                fence = Some(marker);
            }
            Some(open)
                if t.trim_end().starts_with(open.as_str())
                    && t.trim_end()
                        .chars()
                        .all(|c| c == open.chars().next().unwrap()) =>
            {
                fence = None;
            }
            None => out.push((i + 1, line)),
            Some(_) => {}
        }
    }
    out
}

/// `line` without its inline code spans.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].chars().take_while(|c| *c == '`').count();
        let after = &rest[start + run..];
        let closing = "`".repeat(run);
        match after.find(&closing) {
            Some(end) => rest = &after[end + run..],
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading's text: lower case; letters, digits, `_`, `-` and spaces kept,
/// everything else dropped; spaces become `-`.
fn slug(heading: &str) -> String {
    // Links in a heading show their text only.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => {
                let close = rest[open + mid..].find(')').map(|c| open + mid + c);
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..open + mid]);
                rest = close.map_or("", |c| &rest[c + 1..]);
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a Markdown text defines: its headings' slugs (a repeated slug gets `-1`, `-2`...)
/// and explicit `<a id="...">` / `<a name="...">` anchors.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            let base = slug(t[hashes..].trim().trim_end_matches('#').trim());
            let mut candidate = base.clone();
            let mut n = 0;
            while out.contains(&candidate) {
                n += 1;
                candidate = format!("{base}-{n}");
            }
            out.insert(candidate);
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attr) {
                let value = &rest[at + attr.len()..];
                if let Some(end) = value.find('"') {
                    out.insert(value[..end].to_string());
                }
                rest = &rest[at + attr.len()..];
            }
        }
    }
    out
}

/// The link targets of a Markdown text, with their line numbers: `[text](target)`,
/// `![alt](target)` and reference definitions `[label]: target`; code is skipped.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let target: String = after
                .chars()
                .take_while(|c| *c != ')' && !c.is_whitespace())
                .collect();
            out.push((
                number,
                target
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_string(),
            ));
            rest = after;
        }
        let t = line.trim_start();
        if t.starts_with('[')
            && let Some(end) = t.find("]: ")
        {
            let target = t[end + 3..].split_whitespace().next().unwrap_or("");
            out.push((number, target.to_string()));
        }
    }
    out
}

/// Does the target name a scheme (`https:`, `mailto:`...)? Those are not checked.
fn is_external(target: &str) -> bool {
    let scheme: String = target
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        .collect();
    !scheme.is_empty() && target[scheme.len()..].starts_with(':')
}

/// `path` with `.` and `..` resolved lexically, or None when it climbs above the root.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with each relative link of the Markdown file `file` (relative to `root`).
fn broken_links(root: &Path, file: &Path) -> Vec<String> {
    let text = fs::read_to_string(root.join(file)).unwrap();
    let mut problems = Vec::new();
    for (line, target) in links(&text) {
        if target.is_empty() || is_external(&target) {
            continue;
        }
        let place = format!("{}:{line}: `{target}`", file.display());
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            Some(file.to_path_buf())
        } else if path.starts_with('/') {
            None
        } else {
            normalise(
                &file
                    .parent()
                    .unwrap_or(Path::new(""))
                    .join(path.replace("%20", " ")),
            )
        };
        let Some(resolved) = resolved else {
            problems.push(format!(
                "{place} leads outside the repository (or is absolute)"
            ));
            continue;
        };
        let full = root.join(&resolved);
        if !full.exists() {
            problems.push(format!("{place}: {} does not exist", resolved.display()));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if resolved.extension().is_some_and(|x| x == "md") {
            let defined = anchors(&fs::read_to_string(&full).unwrap());
            if !defined.contains(anchor) {
                problems.push(format!(
                    "{place}: no heading of {} has the anchor `#{anchor}`",
                    resolved.display()
                ));
            }
        } else if !(anchor.starts_with('L')
            && anchor[1..]
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == 'L'))
        {
            problems.push(format!(
                "{place}: `#{anchor}` in a file that is not Markdown"
            ));
        }
    }
    problems
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let files = markdown_files();
    for expected in [
        "README.md",
        "CHANGELOG.md",
        "SECURITY.md",
        "CONTRIBUTING.md",
        "docs/README.md",
        "fuzz/README.md",
    ] {
        assert!(
            files
                .iter()
                .any(|f| f.strip_prefix(root()).unwrap() == Path::new(expected)),
            "{expected} is not among the Markdown files checked: {files:?}"
        );
    }
    let mut problems = Vec::new();
    for file in &files {
        problems.extend(broken_links(root(), file.strip_prefix(root()).unwrap()));
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_broken_link_or_anchor_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("docs")).unwrap();
    fs::write(
        dir.path().join("docs/page.md"),
        "# A page\n\n## Second `part`: here\n\n## Second `part`: here\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("README.md"),
        "# Title\n\n\
         [ok](docs/page.md) [ok](docs/page.md#second-part-here-1) [ok](#title) [ok](https://x.y/z)\n\
         `[in code](nowhere.md)`\n\
         ```text\n[in a fence](nowhere.md)\n```\n\
         [missing](docs/nope.md) [anchor](docs/page.md#third) [up](../outside.md)\n\
         [ref]: docs/gone.md\n",
    )
    .unwrap();
    let problems = broken_links(dir.path(), Path::new("README.md"));
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(
        problems[0].contains("docs/nope.md does not exist"),
        "{problems:#?}"
    );
    assert!(problems[1].contains("anchor `#third`"), "{problems:#?}");
    assert!(
        problems[2].contains("outside the repository"),
        "{problems:#?}"
    );
    assert!(
        problems[3].contains("docs/gone.md does not exist"),
        "{problems:#?}"
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("Checking the suite: `bqsuite validate`"),
        "checking-the-suite-bqsuite-validate"
    );
    assert_eq!(
        slug("diff and validate --since"),
        "diff-and-validate---since"
    );
    assert_eq!(
        slug("Checking the SDK's results"),
        "checking-the-sdks-results"
    );
    assert_eq!(slug("install.sh"), "installsh");
    assert_eq!(slug("`data` per command"), "data-per-command");
    assert_eq!(slug("See [the guide](x.md) now"), "see-the-guide-now");
}

const README_MAX_LINES: usize = 250;

#[test]
fn readme_is_a_short_entry_point() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/ and link it"
    );
}

/// The README's first code block: its commands, without comments.
fn readme_setup_commands() -> Vec<String> {
    setup_commands("README.md")
}

/// The first code block of the page `rel`: its commands, without comments.
fn setup_commands(rel: &str) -> Vec<String> {
    let page = fs::read_to_string(root().join(rel)).unwrap();
    let mut lines = page.lines().skip_while(|l| !l.starts_with("```"));
    let open = lines.next().expect("the page has a code block");
    assert!(open.starts_with("```"), "{open}");
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn readme_opens_with_the_main_job_and_the_ci_test_command() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let first_content = readme
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("<!--"))
        .unwrap();
    assert!(
        first_content.starts_with("```"),
        "README.md must open with its set-up commands, not `{first_content}`"
    );
    let commands = readme_setup_commands();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert_eq!(commands[0], "cargo run --release -- validate");

    // .ci/run's test command: the tools script, then the line that runs `cargo test` (after its
    // env prefix).
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    let code: Vec<&str> = ci
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let tools = code
        .iter()
        .find(|l| l.trim() == "bash tests/tools.sh")
        .expect(".ci/run installs the tests' tools");
    let cargo = code
        .iter()
        .find_map(|l| l.find("cargo test").map(|at| l[at..].trim().to_string()))
        .expect(".ci/run runs cargo test");
    let ci_command = format!("{} && {cargo}", tools.trim());
    assert_eq!(
        commands[1], ci_command,
        "README.md's test command must be exactly the one .ci/run runs"
    );
}

/// The Rust version the workspace declares (`rust-version` in Cargo.toml).
fn declared_rust_version() -> String {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("rust-version"))
        .expect("Cargo.toml declares a rust-version");
    line.split('"').nth(1).unwrap().to_string()
}

#[test]
fn contributing_sets_up_as_the_readme_does() {
    assert_eq!(
        setup_commands("CONTRIBUTING.md"),
        readme_setup_commands(),
        "CONTRIBUTING.md's set-up commands must be the README's"
    );
    let rust = format!("{} or newer", declared_rust_version());
    for page in ["README.md", "CONTRIBUTING.md"] {
        let text = fs::read_to_string(root().join(page))
            .unwrap()
            .replace('\n', " ");
        assert!(
            text.contains(&rust),
            "{page} must say the toolchain is Rust {rust}"
        );
        assert!(
            text.contains("a C compiler"),
            "{page} must say a C compiler is needed"
        );
        assert!(
            text.contains("tests/tools.sh"),
            "{page} must name tests/tools.sh"
        );
    }
}
