//! The reference pages keep up with the code: docs/reference/findings.md lists every stable
//! finding code the source can emit, and docs/reference/commands.md every command and option the
//! binary's `--help` prints.

use std::collections::BTreeSet;
use std::fs;

use crate::kit;
use crate::kit::root;

fn page(name: &str) -> String {
    fs::read_to_string(root().join("docs/reference").join(name)).unwrap()
}

/// Is `s` shaped like a finding code (kebab-case, at least two words)?
fn code_shaped(s: &str) -> bool {
    s.contains('-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The string literal at the start of `text` (after whitespace), if any.
fn leading_literal(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The constant named at the start of `text` (after whitespace; `drift::SUMMARY_CODE` gives
/// `SUMMARY_CODE`), if any.
fn leading_constant(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let name = text[..end].rsplit("::").next()?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')).then_some(name)
}

/// Every code the source hands to `Diagnostic::error/warning/note` as a literal or as a string
/// constant, and every code of a `CODES` table; test modules (`#[cfg(test)] mod ...`) are left
/// out.
fn codes_in_source() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    let mut constants = std::collections::BTreeMap::new();
    let mut named = BTreeSet::new();
    for entry in walkdir::WalkDir::new(root().join("src")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = fs::read_to_string(entry.path()).unwrap();
        let text = text.split("#[cfg(test)]\nmod ").next().unwrap();
        for call in [
            "Diagnostic::error(",
            "Diagnostic::warning(",
            "Diagnostic::note(",
        ] {
            for (at, _) in text.match_indices(call) {
                let argument = &text[at + call.len()..];
                if let Some(code) = leading_literal(argument) {
                    codes.insert(code.to_string());
                } else if let Some(name) = leading_constant(argument) {
                    named.insert(name.to_string());
                }
            }
        }
        for (at, _) in text.match_indices("const ") {
            let line = text[at + "const ".len()..].lines().next().unwrap_or("");
            if let Some((name, rest)) = line.split_once(": &str = ")
                && let Some(value) = leading_literal(rest)
            {
                constants.insert(name.trim().to_string(), value.to_string());
            }
        }
        for (at, _) in text.match_indices("const CODES") {
            let table = &text[at..at + text[at..].find("];").unwrap()];
            for literal in table.split('"').skip(1).step_by(2) {
                if code_shaped(literal) {
                    codes.insert(literal.to_string());
                }
            }
        }
    }
    for name in named {
        if let Some(code) = constants.get(&name).filter(|c| code_shaped(c)) {
            codes.insert(code.clone());
        }
    }
    codes
}

#[test]
fn findings_page_lists_every_code() {
    let codes = codes_in_source();
    // The scan must see the codes of every command (a broken scan would pass vacuously).
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
    ] {
        assert!(
            codes.contains(known),
            "the source scan missed `{known}`: {codes:?}"
        );
    }
    let findings = page("findings.md");
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !findings.contains(&format!("`{c}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/reference/findings.md does not list these codes (add each with its meaning and \
         fix): {missing:?}"
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
    let mut commands: Vec<Vec<&str>> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
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
