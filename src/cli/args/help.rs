//! What `--help` says besides clap's own sections: the environment variables each command reads,
//! its examples (from its file under `cli/commands/`) and bqsuite's exit codes (the manual pages
//! show the same lists); and how help is laid out for one run: the width it is wrapped to, and
//! whether it is styled.

use std::ffi::OsString;
use std::io::IsTerminal;

use crate::cli::commands;

/// The exit codes, as `--help` states them.
pub const EXIT_CODES: &str = "Exit codes: 0 clean; 1 the check ran and found a problem; 2 it could not run (usage, missing \
     path, I/O, network).";

/// An environment variable the program reads, and the commands it changes (none: every command).
pub struct Variable {
    pub name: &'static str,
    pub commands: &'static [&'static str],
    pub text: &'static str,
}

/// Every environment variable bqsuite reads, itself or through the libraries that draw its output
/// and make its connections (tests/cli/man.rs checks the source for the ones it reads itself).
pub const ENVIRONMENT: &[Variable] = &[
    Variable {
        name: "BQ_CONFORMANCE_BASE_URL",
        commands: &["fetch"],
        text: "Where to download releases from instead of the suite's release URL (its \
               description's; the GitHub releases of BabelQueue/conformance, tagged vVERSION for \
               BabelQueue's suite and sbp-vVERSION for SBP's): an \
               http://, https:// or file:/// URL of a directory holding the suite's asset \
               (babelqueue-conformance-VERSION.tar.gz, sbp-conformance-VERSION.tar.gz) and \
               SHA256SUMS; {version} in it is replaced by the version.",
    },
    Variable {
        name: "HTTPS_PROXY, HTTP_PROXY, ALL_PROXY",
        commands: &["fetch"],
        text: "The proxy for https, http, or every download (upper or lower case; the lower-case \
               name wins). Never used for localhost, 127.0.0.0/8 and ::1. HTTP_PROXY is ignored when \
               REQUEST_METHOD is set (a CGI context).",
    },
    Variable {
        name: "NO_PROXY",
        commands: &["fetch"],
        text: "Comma-separated hosts and networks reached without the proxy (upper or lower case).",
    },
    Variable {
        name: "SSL_CERT_FILE, SSL_CERT_DIR",
        commands: &["fetch"],
        text: "On Linux and other Unix systems (not macOS): when either is set, https downloads \
               trust only the certificate authorities in this PEM file and these directories \
               (colon-separated), instead of the system's store.",
    },
    Variable {
        name: "CI",
        commands: &["fetch"],
        text: "When set, no progress bar is drawn, even on a terminal.",
    },
    Variable {
        name: "SOURCE_DATE_EPOCH",
        commands: &["release", "eval"],
        text: "Seconds since 1970-01-01 UTC: the modification time of every entry of the release \
               tarball (release) and the generated_at of results.json (eval). A value that is not \
               a whole number of seconds stops the command (exit status 2).",
    },
    Variable {
        name: "BQSUITE_THREADS",
        commands: &["validate", "release"],
        text: "How many threads check the suite's fixtures (validate, release) and compress the \
               release asset (release), 1 to 256. Unset: one per available core. Neither the \
               findings nor the asset's bytes depend on it. Any other value stops the command \
               (exit status 2).",
    },
    Variable {
        name: "GITHUB_ACTIONS",
        commands: &[],
        text: "When it is true and --format is not given, the format is github (human text plus \
               GitHub Actions annotations).",
    },
    Variable {
        name: "GITHUB_WORKSPACE",
        commands: &[],
        text: "The repository root: annotations name files relative to it.",
    },
    Variable {
        name: "GITHUB_STEP_SUMMARY",
        commands: &SUMMARISED,
        text: "A file the command appends its Markdown job summary to (sync and fetch only with \
               --check).",
    },
    Variable {
        name: "NO_COLOR",
        commands: &[],
        text: "When set and not empty, --color auto writes no colour.",
    },
    Variable {
        name: "CLICOLOR_FORCE",
        commands: &[],
        text: "When set and not empty (and NO_COLOR is not), --color auto colours even when the \
               output is not a terminal.",
    },
    Variable {
        name: "CLICOLOR",
        commands: &[],
        text: "0 turns colour off in --color auto.",
    },
    Variable {
        name: "TERM",
        commands: &[],
        text: "Unset or dumb: --color auto writes no colour (on Unix).",
    },
    Variable {
        name: "COLUMNS",
        commands: &[],
        text: "The width --help is wrapped to when standard output is not a terminal (80 when \
               unset); on a terminal, help is wrapped to the terminal's width. Never wider than \
               100 columns.",
    },
];

/// Commands that append a Markdown summary to `GITHUB_STEP_SUMMARY`, as their pages name them;
/// each says when it does in its `Run::summary` (a unit test keeps the two in step).
const SUMMARISED: [&str; 6] = [
    "validate",
    "sync",
    "fetch",
    "results check",
    "results matrix",
    "diff",
];

/// Help is wrapped to the terminal's width, but never wider than this: longer lines are hard to
/// read.
pub const WIDEST_HELP: usize = 100;

/// The width of help written to a pipe or a file (COLUMNS unset), and the width the examples are
/// laid out for.
pub const PLAIN_HELP_WIDTH: usize = 80;

/// How deep a wrapped line of an example's command is indented, under its first line.
const CONTINUED: &str = "    ";

/// `cmd` with each command's sections after its help: its environment variables, its examples,
/// and for bqsuite itself the exit codes.
pub fn with_sections(cmd: clap::Command) -> clap::Command {
    let styles = cmd.get_styles().clone();
    with_sections_at(cmd, "", &styles)
}

fn with_sections_at(
    cmd: clap::Command,
    key: &str,
    styles: &clap::builder::Styles,
) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let text = sections(key, styles);
    let mut cmd = if text.is_empty() {
        cmd
    } else {
        cmd.after_help(text)
    };
    for name in names {
        let path = if key.is_empty() {
            name.clone()
        } else {
            format!("{key} {name}")
        };
        cmd = cmd.mut_subcommand(name, |sub| with_sections_at(sub, &path, styles));
    }
    cmd
}

/// The text after the help of the command `key` (`""` for bqsuite itself, `results check`...).
fn sections(key: &str, styles: &clap::builder::Styles) -> String {
    let header = *styles.get_header();
    let literal = *styles.get_literal();
    let mut text = String::new();
    let own: Vec<&Variable> = ENVIRONMENT
        .iter()
        .filter(|v| !key.is_empty() && v.commands.contains(&key))
        .collect();
    if !own.is_empty() {
        text.push_str(&format!("{header}Environment:{header:#}\n"));
        for var in own {
            text.push_str(&format!(
                "  {literal}{}{literal:#}\n          {}\n",
                var.name, var.text
            ));
        }
        let every: Vec<&str> = ENVIRONMENT
            .iter()
            .filter(|v| v.commands.is_empty())
            .map(|v| v.name)
            .collect();
        let (last, rest) = every.split_last().expect("variables every command reads");
        text.push_str(&format!(
            "  Like every command, it also reads {} and {last} (`bqsuite man {key} | man -l -` \
             says how).\n\n",
            rest.join(", ")
        ));
    }
    if let Some(page) = commands::page(key) {
        text.push_str(&format!("{header}Examples:{header:#}\n"));
        for (what, line) in page.examples {
            let plain: Vec<&str> = what.split_whitespace().collect();
            for comment in fill(&plain, "  # ", "  # ", "") {
                text.push_str(&comment);
                text.push('\n');
            }
            let indent = format!("  {CONTINUED}");
            for command in fill(&words(line), "  ", &indent, " \\") {
                text.push_str(&command);
                text.push('\n');
            }
        }
    }
    if key.is_empty() {
        text.push('\n');
        text.push_str(EXIT_CODES);
    }
    text
}

/// The words of `line`, split at spaces outside quotes (a quoted word stays whole, so a command
/// split between its words still means what it did).
fn words(line: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut quote = None;
    let mut start = 0;
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if at > start {
                    words.push(&line[start..at]);
                }
                start = at + 1;
            }
            _ => {}
        }
    }
    if line.len() > start {
        words.push(&line[start..]);
    }
    words
}

/// `words` on lines of at most [`PLAIN_HELP_WIDTH`] columns: the first line starts with `first`,
/// the others with `then`, and every line but the last ends with `more`. A word too long for any
/// line has one of its own.
fn fill(words: &[&str], first: &str, then: &str, more: &str) -> Vec<String> {
    let width = |s: &str| s.chars().count();
    let mut lines: Vec<String> = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for &word in words {
        if !empty && width(&line) + 1 + width(word) + width(more) > PLAIN_HELP_WIDTH {
            line.push_str(more);
            lines.push(std::mem::replace(&mut line, then.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    lines.push(line);
    lines
}

/// `cmd` as this run shows its help: wrapped to the terminal's width (at most [`WIDEST_HELP`]),
/// or where standard output is not a terminal to COLUMNS, else [`PLAIN_HELP_WIDTH`]; and styled
/// as `--color` in `args` says, which clap must know before it parses them (`--help` stops the
/// parse, wherever `--color` is).
pub fn for_run(cmd: clap::Command, args: &[OsString]) -> clap::Command {
    let cmd = cmd.color(color_choice(args)).max_term_width(WIDEST_HELP);
    if std::io::stdout().is_terminal() {
        // clap asks the terminal.
        return cmd;
    }
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0);
    cmd.term_width(columns.unwrap_or(PLAIN_HELP_WIDTH).min(WIDEST_HELP))
}

/// The last `--color WHEN` (or `--color=WHEN`) of `args` before a `--`, as clap's choice.
fn color_choice(args: &[OsString]) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    let mut words = args.iter().skip(1).map(|a| a.to_str());
    while let Some(word) = words.next() {
        let value = match word {
            Some("--") => break,
            Some("--color") => words.next().flatten(),
            Some(w) => w.strip_prefix("--color="),
            None => None,
        };
        choice = match value {
            Some("never") => clap::ColorChoice::Never,
            Some("always") => clap::ColorChoice::Always,
            Some("auto") => clap::ColorChoice::Auto,
            _ => choice,
        };
    }
    choice
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_colour_of_help_is_read_before_parsing() {
        use clap::ColorChoice::{Always, Auto, Never};
        for (args, want) in [
            (&["bqsuite", "--help"][..], Auto),
            (&["bqsuite", "--color", "never", "--help"], Never),
            (&["bqsuite", "fetch", "--help", "--color", "never"], Never),
            (&["bqsuite", "--color=always", "validate"], Always),
            (
                &["bqsuite", "--color", "never", "--color", "always"],
                Always,
            ),
            (&["bqsuite", "--color", "bogus"], Auto),
            (&["bqsuite", "--", "--color", "never"], Auto),
        ] {
            assert_eq!(color_choice(&os(args)), want, "{args:?}");
        }
    }

    #[test]
    fn the_commands_that_summarise_are_the_ones_the_pages_name() {
        let mut summarised = std::collections::BTreeSet::new();
        for page in commands::pages().filter(|p| !p.key.is_empty()) {
            for (_, line) in page.examples {
                // The examples are plain command lines, some after a `VAR=value` prefix.
                let mut args: Vec<OsString> = line
                    .split(' ')
                    .skip_while(|w| *w != "bqsuite")
                    .map(OsString::from)
                    .collect();
                if let Some(end) = args.iter().position(|w| w == "|" || w == ">") {
                    args.truncate(end);
                }
                let cli = crate::cli::args::parse(&args).unwrap_or_else(|e| panic!("{line}: {e}"));
                let command = cli.command.runner();
                if let Some(title) = command.summary() {
                    // `sync --check`: the command's name, and the mode it summarises in.
                    assert!(title.starts_with(command.name()), "{line}: {title}");
                    summarised.insert(command.name());
                }
            }
        }
        let named: std::collections::BTreeSet<&str> = SUMMARISED.into_iter().collect();
        assert_eq!(summarised, named);
    }

    #[test]
    fn long_examples_are_split_between_words_and_continued() {
        let line = "BQ_CONFORMANCE_BASE_URL='https://mirror.example/conformance/v{version}' \
                    bqsuite fetch 1.8.0 /tmp/conformance";
        let lines = fill(&words(line), "  ", "      ", " \\");
        assert_eq!(
            lines,
            [
                "  BQ_CONFORMANCE_BASE_URL='https://mirror.example/conformance/v{version}' \\",
                "      bqsuite fetch 1.8.0 /tmp/conformance",
            ]
        );
        assert_eq!(words("a 'b c' \"d e\"  f"), ["a", "'b c'", "\"d e\"", "f"]);
        let long = "x".repeat(90);
        assert_eq!(
            fill(&["a", long.as_str(), "b"], "", "", ""),
            ["a", long.as_str(), "b"]
        );
    }
}
