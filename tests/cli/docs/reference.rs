//! The reference pages keep up with the code: docs/reference/findings.md lists exactly the
//! finding codes of the code enums, and docs/reference/commands.md every command and option the
//! binary's `--help` prints.

use std::collections::BTreeSet;
use std::fs;

use crate::kit;
use crate::kit::root;

fn page(name: &str) -> String {
    fs::read_to_string(root().join("docs/reference").join(name)).unwrap()
}

/// Every code of the findings page's tables (the first cell of each row).
fn codes_on_page(page: &str) -> BTreeSet<String> {
    page.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .map(str::to_string)
        .collect()
}

#[test]
fn findings_page_lists_exactly_the_codes_of_the_enums() {
    let codes: BTreeSet<String> = bqsuite::commands::finding_codes()
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    // Every module's enum is in the list (a list that lost one would pass vacuously).
    for known in [
        "expectation-mismatch",
        "archive-dotdot",
        "case-added",
        "drift-changed",
        "results-case-failed",
        "sync-bad-target",
        "surviving-mutant",
        "unportable-name",
        "copy-drift",
        "sync-bad-manifest",
        "symlink",
        "proposal-conflict",
        "case-not-passing",
        "missing-license",
        "checksum-missing",
        "version-bump",
    ] {
        assert!(codes.contains(known), "the enums lack `{known}`: {codes:?}");
    }
    assert_eq!(
        bqsuite::commands::finding_codes().len(),
        codes.len(),
        "a code is declared by two enums"
    );
    let listed = codes_on_page(&page("findings.md"));
    let undocumented: Vec<&String> = codes.difference(&listed).collect();
    assert!(
        undocumented.is_empty(),
        "docs/reference/findings.md does not list these codes (add each with its meaning and \
         fix): {undocumented:?}"
    );
    let unknown: Vec<&String> = listed.difference(&codes).collect();
    assert!(
        unknown.is_empty(),
        "docs/reference/findings.md lists codes no module reports: {unknown:?}"
    );
}

/// The long options (`--name`) of the help text's Options section.
fn options(help: &str) -> BTreeSet<String> {
    help.split("Options:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix('-')
                .filter(|r| !r.starts_with('-'))
                .map_or(l, |r| r.split_once(", ").map_or(l, |(_, long)| long));
            let name: String = l
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            Some(format!("--{name}"))
        })
        .collect()
}

fn help(args: &[&str]) -> String {
    let out = kit::bqsuite(args);
    assert_eq!(kit::code(&out), 0, "{args:?}: {}", kit::stderr(&out));
    kit::stdout(&out)
}

/// The section of commands.md under the heading `heading` (up to the next `## `).
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let head = format!("\n{heading}\n");
    let start = doc
        .find(&head)
        .unwrap_or_else(|| panic!("docs/reference/commands.md has no section {head:?}"));
    let body = &doc[start + head.len()..];
    &body[..body.find("\n## ").unwrap_or(body.len())]
}

#[test]
fn commands_page_lists_every_command_and_option() {
    let doc = page("commands.md");
    let global = options(&help(&["--help"]));
    for option in &global {
        assert!(
            section(&doc, "## Options of every command").contains(&format!("`{option}")),
            "the options of every command do not mention {option}"
        );
    }
    let top = help(&["--help"]);
    let listed = kit::help_commands(&top);
    let mut commands: Vec<Vec<&str>> = listed
        .iter()
        .map(String::as_str)
        .filter(|c| *c != "help")
        .map(|c| vec![c])
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    commands.retain(|c| c[0] != "results");
    for sub in ["check", "matrix", "diff"] {
        commands.push(vec!["results", sub]);
    }
    let mut missing = Vec::new();
    for command in &commands {
        let title = command.join(" ");
        let mut args = command.clone();
        args.push("--help");
        let text = section(&doc, &format!("## `{title}`"));
        for option in options(&help(&args)).difference(&global) {
            if !text.contains(&format!("`{option}")) {
                missing.push(format!("{title} {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/reference/commands.md does not describe: {missing:?}"
    );
}
