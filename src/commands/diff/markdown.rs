//! The release-notes draft of `bqsuite diff --markdown FILE`: the new cases per section, then the
//! other changes grouped by what they need.

use std::fmt::Write as _;

use super::outcome::Outcome;
use bqsuite_suite::classify::version::Bump;
use bqsuite_suite::classify::{Change, Code, Effect, shorten};
use bqsuite_suite::kind::Kind;

/// Longest case description quoted in the notes.
const DESCRIPTION_CHARS: usize = 240;

/// `text` as a Markdown code span, whatever backticks it holds.
pub fn code(text: &str) -> String {
    let text = &bqsuite_core::show::text(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || text.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text with Markdown's inline markup characters escaped (for descriptions); the description's
/// own `code spans` are kept as they are.
fn plain(text: &str) -> String {
    let text = &bqsuite_core::show::text(text);
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    // An unbalanced backtick would swallow what follows: close it.
    if in_code {
        out.push('`');
    }
    out
}

/// A change's message with its detail folded onto one line, for a bullet.
fn bullet(change: &Change) -> String {
    format!(
        "- {}\n",
        bqsuite_core::show::text(&change.message.replace('\n', " "))
    )
}

/// Which changes a group of the notes holds.
type Keep = fn(&Change) -> bool;

/// The release-notes draft of a version of `kind`'s suite.
pub fn render(outcome: &Outcome, kind: &Kind) -> String {
    let mut out = String::new();
    let new_version = outcome
        .new_version
        .as_deref()
        .unwrap_or("(unknown version)");
    let old_version = outcome
        .old_version
        .as_deref()
        .unwrap_or("(unknown version)");
    let title = bqsuite_core::show::text(&kind.title);
    let _ = writeln!(out, "# {title} conformance suite {new_version}\n");
    let _ = writeln!(
        out,
        "Changes since {old_version}. Smallest version bump this change needs: **{}** ({}).",
        outcome.needed,
        outcome.needed.reason()
    );
    if let Some(text) = &outcome.verdict_text {
        let _ = writeln!(out, "Version check: {text}.");
    }
    out.push('\n');
    new_cases(&mut out, outcome);
    other_changes(&mut out, outcome);
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// "New cases": per section, in report order (NEW's section order), each case with its
/// description; a new section with its scope and description.
fn new_cases(out: &mut String, outcome: &Outcome) {
    let added: Vec<&Change> = outcome
        .changes
        .iter()
        .filter(|c| c.code == Code::CaseAdded)
        .collect();
    let _ = writeln!(out, "## New cases\n");
    if added.is_empty() {
        let _ = writeln!(out, "None.\n");
        return;
    }
    let mut current: Option<&str> = None;
    for change in &added {
        let section = change.section.as_deref().unwrap_or_default();
        if current != Some(section) {
            if current.is_some() {
                out.push('\n');
            }
            current = Some(section);
            section_heading(out, outcome, &added, section);
        }
        let id = change.case.as_deref().unwrap_or_default();
        match &change.description {
            Some(d) => {
                let _ = writeln!(
                    out,
                    "- {} — {}",
                    code(id),
                    plain(&shorten(d, DESCRIPTION_CHARS))
                );
            }
            None => {
                let _ = writeln!(out, "- {}", code(id));
            }
        }
    }
    out.push('\n');
}

/// A section's heading among the new cases: a new section with its scope and description, an
/// existing one with its count of new cases.
fn section_heading(out: &mut String, outcome: &Outcome, added: &[&Change], section: &str) {
    let new_section = outcome
        .changes
        .iter()
        .find(|c| c.code == Code::SectionAdded && c.section.as_deref() == Some(section));
    let _ = write!(out, "### {}", code(section));
    match new_section {
        Some(s) => {
            let scope = s
                .scope
                .as_deref()
                .map_or(String::new(), |sc| format!(", scope {}", code(sc)));
            let _ = writeln!(out, " (new section{scope})\n");
            if let Some(d) = &s.description {
                let _ = writeln!(out, "{}\n", plain(&shorten(d, DESCRIPTION_CHARS)));
            }
        }
        None => {
            let count = added
                .iter()
                .filter(|c| c.section.as_deref() == Some(section))
                .count();
            let _ = writeln!(
                out,
                " ({count} new case{})\n",
                bqsuite_core::diag::plural(count)
            );
        }
    }
}

/// The other changes, grouped by what they need: removals and changes (major), other additions
/// (minor), descriptions and formatting (patch). An empty group is left out.
fn other_changes(out: &mut String, outcome: &Outcome) {
    let groups: [(&str, Keep); 4] = [
        ("Removed (needs a major release)", |c| {
            c.bump == Bump::Major && c.code.effect() == Effect::Removed
        }),
        ("Changed (needs a major release)", |c| {
            c.bump == Bump::Major && c.code.effect() != Effect::Removed
        }),
        ("Other additions", |c| {
            c.bump == Bump::Minor && c.code != Code::CaseAdded && c.code != Code::SectionAdded
        }),
        ("Descriptions and formatting", |c| c.bump == Bump::Patch),
    ];
    for (title, keep) in groups {
        let items: Vec<&Change> = outcome.changes.iter().filter(|c| keep(c)).collect();
        if items.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {title}\n");
        for change in items {
            out.push_str(&bullet(change));
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("a"), "`a`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
    }

    #[test]
    fn plain_escapes_markup() {
        assert_eq!(plain("a_b *c* <d>"), "a\\_b \\*c\\* \\<d\\>");
        assert_eq!(plain("`a_b` c_d"), "`a_b` c\\_d");
        assert_eq!(plain("x `y_z"), "x `y_z`");
    }
}
