//! The manual: bqsuite(1) and one page per command (bqsuite-fetch(1), bqsuite-results-check(1)...),
//! generated from the clap definition with every option, plus the sections clap knows nothing
//! of: EXIT STATUS, ENVIRONMENT, EXAMPLES and SEE ALSO.

use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

mod synopsis;

use crate::cli::args as cli;
use crate::cli::commands;

/// The name of the page of the command at `path`: `bqsuite`, `bqsuite-results-check`.
pub fn page_name(path: &[&str]) -> String {
    std::iter::once("bqsuite")
        .chain(path.iter().copied())
        .collect::<Vec<_>>()
        .join("-")
}

/// The command tree the pages are made of: built (so that each command knows its full name), and
/// without clap's `help` commands, which have no page.
pub fn tree() -> clap::Command {
    fn no_help(cmd: clap::Command) -> clap::Command {
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        let mut cmd = cmd.disable_help_subcommand(true);
        for name in names {
            cmd = cmd.mut_subcommand(name, no_help);
        }
        cmd
    }
    let mut cmd = no_help(cli::command());
    cmd.build();
    cmd
}

/// Every command path, bqsuite itself (the empty path) first, then depth first in the order of
/// `--help`.
pub fn paths(cmd: &clap::Command) -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: Vec<String>, all: &mut Vec<Vec<String>>) {
        all.push(path.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let mut next = path.clone();
            next.push(sub.get_name().to_string());
            walk(sub, next, all);
        }
    }
    let mut all = Vec::new();
    walk(cmd, Vec::new(), &mut all);
    all
}

fn find<'a>(cmd: &'a clap::Command, path: &[&str]) -> Option<&'a clap::Command> {
    path.iter().try_fold(cmd, |c, name| c.find_subcommand(name))
}

/// The page of the command at `path` (roff), or `None` when there is no such command.
pub fn page(path: &[&str]) -> Option<String> {
    let root = tree();
    let all = paths(&root);
    let cmd = find(&root, path)?.clone();
    let cmd = cmd.clone().override_usage(synopsis::line(&cmd));
    let key = path.join(" ");
    let title = page_name(path);
    // The footer holds the source (left), the date (centre) and the page (right); each field is
    // set, and short enough to share an 80-column line without running into the others.
    let man = Man::new(cmd.clone())
        .title(title.clone())
        .date(format!("suite {}", cli::SUITE_VERSION.trim()))
        .source(format!("bqsuite {}", env!("CARGO_PKG_VERSION")))
        .manual("Conformance suite tools");

    // clap_mangen writes its sections one by one; each starts with the same preamble, kept once.
    let preamble = Roff::new().render();
    let mut text = String::new();
    let mut add = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
        let mut bytes = Vec::new();
        render(&mut bytes).expect("writing to memory");
        let section = String::from_utf8_lossy(&bytes).into_owned();
        match section.strip_prefix(&preamble) {
            Some(rest) if !text.is_empty() => text.push_str(rest),
            _ => text.push_str(&section),
        }
    };
    add(&|w| man.render_title(w));
    add(&|w| man.render_name_section(w));
    add(&|w| man.render_synopsis_section(w));
    add(&|w| man.render_description_section(w));
    add(&|w| man.render_options_section(w));
    if cmd.get_subcommands().next().is_some() {
        add(&|w| man.render_subcommands_section(w));
    }

    let mut roff = Roff::new();
    exit_status(&mut roff, &key);
    environment(&mut roff, &key);
    examples(&mut roff, &key);
    see_also(&mut roff, path, &all);
    roff.control("SH", ["VERSION"]);
    roff.text([roman(format!("bqsuite {}", cli::version_text()))]);
    text.push_str(&roff.to_roff());
    Some(text)
}

fn exit_status(roff: &mut Roff, key: &str) {
    let found = commands::page(key).map_or("the command ran and found a problem", |p| p.found);
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in [
        (
            "0",
            "a clean run: nothing wrong was found (and, where the command writes, it wrote)",
        ),
        ("1", found),
        (
            "2",
            "the command could not run: a usage error, a missing or unusable path, an I/O or \
             network failure",
        ),
    ] {
        roff.control("TP", []);
        roff.text([bold(code)]);
        roff.text([roman(meaning)]);
    }
}

fn environment(roff: &mut Roff, key: &str) {
    roff.control("SH", ["ENVIRONMENT"]);
    for var in cli::ENVIRONMENT
        .iter()
        .filter(|v| key.is_empty() || v.commands.is_empty() || v.commands.contains(&key))
    {
        let mut text = var.text.to_string();
        if key.is_empty() && !var.commands.is_empty() {
            let users: Vec<String> = var
                .commands
                .iter()
                .map(|c| format!("bqsuite {c}"))
                .collect();
            text.push_str(&format!(" Read by {}.", users.join(", ")));
        }
        roff.control("TP", []);
        roff.text([bold(var.name)]);
        roff.text([roman(text)]);
    }
}

fn examples(roff: &mut Roff, key: &str) {
    let Some(page) = commands::page(key) else {
        return;
    };
    roff.control("SH", ["EXAMPLES"]);
    for (what, line) in page.examples {
        roff.text([roman(format!("{what}:"))]);
        roff.control("RS", ["4"]);
        roff.control("nf", []);
        roff.text([bold(*line)]);
        roff.control("fi", []);
        roff.control("RE", []);
        roff.control("PP", []);
    }
}

/// bqsuite(1) names every page; a command's page names bqsuite(1), its parent and its commands.
fn see_also(roff: &mut Roff, path: &[&str], all: &[Vec<String>]) {
    let related: Vec<String> = all
        .iter()
        .filter(|other| {
            let other: Vec<&str> = other.iter().map(String::as_str).collect();
            other.as_slice() != path
                && (path.is_empty()
                    || other.is_empty()
                    || path.starts_with(&other)
                    || (other.len() == path.len() + 1 && other.starts_with(path)))
        })
        .map(|other| {
            let words: Vec<&str> = other.iter().map(String::as_str).collect();
            page_name(&words)
        })
        .collect();
    roff.control("SH", ["SEE ALSO"]);
    let mut line = Vec::new();
    for (i, name) in related.iter().enumerate() {
        if i > 0 {
            line.push(roman(", "));
        }
        line.push(bold(name.as_str()));
        line.push(roman("(1)"));
    }
    roff.text(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Roff as a reader sees it: `\-` is a dash.
    fn plain(page: &str) -> String {
        page.replace("\\-", "-")
    }

    fn section<'a>(page: &'a str, name: &str) -> Option<&'a str> {
        let start = page
            .find(&format!(".SH \"{name}\""))
            .or_else(|| page.find(&format!(".SH {name}\n")))?;
        let rest = &page[start + 4..];
        Some(rest.find("\n.SH ").map_or(rest, |end| &rest[..end]))
    }

    #[test]
    fn every_page_has_every_option_positional_and_the_standard_sections() {
        let root = tree();
        for path in paths(&root) {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            let cmd = find(&root, &words).unwrap();
            let text = plain(&page(&words).unwrap());
            let name = page_name(&words);
            assert!(text.contains(&format!(".TH {name} 1")), "{name}: title");
            for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(long) = arg.get_long() {
                    assert!(text.contains(&format!("--{long}")), "{name} lacks --{long}");
                }
                if arg.is_positional() {
                    let shown = arg
                        .get_value_names()
                        .map(|v| v.join(" "))
                        .unwrap_or_else(|| arg.get_id().to_string());
                    let options = section(&text, "OPTIONS").unwrap_or_default();
                    assert!(
                        options.contains(&shown),
                        "{name} lacks the positional {shown}"
                    );
                }
            }
            for heading in ["EXIT STATUS", "ENVIRONMENT", "EXAMPLES", "SEE ALSO"] {
                assert!(section(&text, heading).is_some(), "{name} lacks {heading}");
            }
            let status = section(&text, "EXIT STATUS").unwrap();
            for code in ["\\fB0\\fR", "\\fB1\\fR", "\\fB2\\fR"] {
                assert!(status.contains(code), "{name}: exit status {code}");
            }
            assert!(
                commands::page(&words.join(" ")).is_some(),
                "{name}: no meaning of exit status 1"
            );
        }
    }

    #[test]
    fn every_page_named_anywhere_exists() {
        let root = tree();
        let names: Vec<String> = paths(&root)
            .iter()
            .map(|p| page_name(&p.iter().map(String::as_str).collect::<Vec<_>>()))
            .collect();
        let overview = plain(&page(&[]).unwrap());
        let see_also = section(&overview, "SEE ALSO").unwrap();
        for name in names.iter().skip(1) {
            assert!(
                see_also.contains(name.as_str()),
                "bqsuite(1) does not name {name}"
            );
        }
        for path in paths(&root) {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            let text = plain(&page(&words).unwrap());
            // Every `bqsuite...(1)` reference, in SEE ALSO or the list of commands.
            for (at, _) in text.match_indices("bqsuite") {
                let rest = &text[at..];
                let Some(end) = rest.find("(1)") else {
                    continue;
                };
                let named = rest[..end].replace("\\fR", "").replace("\\fB", "");
                if named.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                    assert!(
                        names.contains(&named),
                        "{}: names {named}(1)",
                        page_name(&words)
                    );
                }
            }
        }
    }

    #[test]
    fn every_command_help_has_examples_that_parse() {
        let root = tree();
        for path in paths(&root) {
            let key = path.join(" ");
            let cmd = find(&root, &path.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
            let help = cmd.clone().render_long_help().to_string();
            assert!(
                help.contains("Examples:\n"),
                "`bqsuite {key} --help` has no Examples"
            );
            let page = commands::page(&key).unwrap_or_else(|| panic!("no examples for `{key}`"));
            for (_, line) in page.examples {
                let words = shell_words(line);
                let args: Vec<std::ffi::OsString> = words.iter().map(Into::into).collect();
                assert_eq!(args[0], "bqsuite", "{line}");
                let parsed = cli::parse(&args).unwrap_or_else(|e| panic!("{line}: {e}"));
                // An example of `results` is one of its commands.
                let name = parsed.command.runner().name();
                assert!(name.starts_with(key.as_str()), "{line}");
            }
        }
        for page in commands::pages() {
            assert!(
                paths(&root).iter().any(|p| p.join(" ") == page.key),
                "`{}` is no command",
                page.key
            );
        }
    }

    /// The words a POSIX shell passes to bqsuite: `VAR=value` prefixes, a pipe and a redirection
    /// dropped; single quotes honoured.
    fn shell_words(line: &str) -> Vec<String> {
        let command = line.split(" | ").next().unwrap();
        let command = command.split(" > ").next().unwrap();
        let mut words = Vec::new();
        let mut word = String::new();
        let mut quoted = false;
        for c in command.chars() {
            match c {
                '\'' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        assert!(!quoted, "{line}: unbalanced quote");
        words.push(word);
        words
            .into_iter()
            .skip_while(|w| w.contains('=') && !w.starts_with('-'))
            .collect()
    }

    #[test]
    fn the_environment_names_what_the_program_reads() {
        let text = plain(&page(&[]).unwrap());
        let env = section(&text, "ENVIRONMENT").unwrap();
        for var in [
            "NO_COLOR",
            "CLICOLOR_FORCE",
            "CLICOLOR",
            "TERM",
            "SSL_CERT_FILE",
            "SSL_CERT_DIR",
        ] {
            assert!(env.contains(var), "bqsuite(1) ENVIRONMENT lacks {var}");
        }
        let fetch = plain(&page(&["fetch"]).unwrap());
        assert!(
            section(&fetch, "ENVIRONMENT")
                .unwrap()
                .contains("BQ_CONFORMANCE_BASE_URL")
        );
        let validate = plain(&page(&["validate"]).unwrap());
        assert!(
            !section(&validate, "ENVIRONMENT")
                .unwrap()
                .contains("BQ_CONFORMANCE_BASE_URL")
        );
    }

    #[test]
    fn unknown_pages_are_refused() {
        assert!(page(&["frob"]).is_none());
        assert!(page(&["results", "frob"]).is_none());
        assert!(page(&["results", "check"]).is_some());
    }

    #[test]
    fn the_preamble_appears_once() {
        let text = page(&["fetch"]).unwrap();
        let preamble = Roff::new().render();
        assert!(!preamble.is_empty());
        assert_eq!(text.matches(preamble.as_str()).count(), 1);
        assert!(text.starts_with(&preamble));
    }
}
