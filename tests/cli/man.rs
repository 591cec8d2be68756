//! The manual as the binary gives it: `bqsuite man` (bqsuite(1)), `bqsuite man COMMAND...` (one
//! command's page), `bqsuite man --out DIR` (every page, each written whole); every page carries
//! every option of the command's `--help`, EXIT STATUS and ENVIRONMENT; every page bqsuite(1)
//! names exists; every command's `--help` ends with examples; and every environment variable the
//! source reads is in bqsuite(1).

use std::collections::BTreeSet;
use std::fs;

use serde_json::Value;

use crate::kit::{bqsuite, bundled_version, code, source, stderr, stdout};

/// Roff as a reader sees it: `\-` is a dash, font changes dropped.
fn plain(page: &str) -> String {
    page.replace("\\-", "-")
        .replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "")
}

/// The text of section `name` of a page (up to the next `.SH`).
fn section<'a>(page: &'a str, name: &str) -> Option<&'a str> {
    let start = page
        .find(&format!(".SH \"{name}\"\n"))
        .or_else(|| page.find(&format!(".SH {name}\n")))?;
    let rest = &page[start + 4..];
    Some(rest.find("\n.SH ").map_or(rest, |end| &rest[..end]))
}

/// Every page, written by `bqsuite man --out` into a fresh directory: (file name, text).
fn all_pages() -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = bqsuite(&["man", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut pages: Vec<(String, String)> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    pages.sort();
    pages
}

/// The command words of a page file: `bqsuite-results-check.1` → `["results", "check"]`.
fn command_of(file: &str) -> Vec<String> {
    file.trim_end_matches(".1")
        .split('-')
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// The long options listed in the Options section of `bqsuite WORDS --help`.
fn help_options(words: &[String]) -> BTreeSet<String> {
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.push("--help");
    let out = bqsuite(&args);
    assert_eq!(code(&out), 0, "bqsuite {args:?}");
    let help = stdout(&out);
    let options = help
        .split("Options:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no options in {help}"));
    let options = options.split("\n\n").next().unwrap();
    options
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .find(|w| w.starts_with("--"))
                .map(|w| w.trim_end_matches(',').to_string())
        })
        .collect()
}

#[test]
fn man_prints_the_overview_or_one_command_page() {
    let overview = bqsuite(&["man"]);
    assert_eq!(code(&overview), 0);
    assert!(
        stdout(&overview).contains(".TH bqsuite 1 "),
        "{}",
        stdout(&overview)
    );

    let fetch = bqsuite(&["man", "fetch"]);
    assert_eq!(code(&fetch), 0);
    assert!(stdout(&fetch).contains(".TH bqsuite-fetch 1 "));

    let nested = bqsuite(&["man", "results", "check"]);
    assert_eq!(code(&nested), 0);
    assert!(stdout(&nested).contains(".TH bqsuite-results-check 1 "));
    // The page's own name works too.
    assert_eq!(stdout(&bqsuite(&["man", "results-check"])), stdout(&nested));
    assert_eq!(
        stdout(&bqsuite(&["man", "bqsuite-results-check"])),
        stdout(&nested)
    );
}

#[test]
fn an_unknown_command_has_no_page() {
    let out = bqsuite(&["man", "frob"]);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(err.contains("no command `bqsuite frob`"), "{err}");
    assert!(
        err.contains("results check") && err.contains("`bqsuite man`"),
        "{err}"
    );

    let out = bqsuite(&["man", "results", "frob", "--format", "json"]);
    assert_eq!(code(&out), 2);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["command"], "man");
    assert_eq!(doc["error"]["kind"], "usage");

    // One page or all of them, not both.
    let out = bqsuite(&["man", "fetch", "--out", "x"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn out_writes_every_page_whole_and_again() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("share/man/man1");
    let out = bqsuite(&["man", "--out", target.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["ok"], true);
    let listed: Vec<String> = doc["data"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let mut on_disk: Vec<String> = fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    // Exactly the pages, no temporary file left beside them.
    assert_eq!(on_disk, sorted);
    for name in [
        "bqsuite.1",
        "bqsuite-fetch.1",
        "bqsuite-results.1",
        "bqsuite-results-check.1",
        "bqsuite-man.1",
    ] {
        assert!(listed.iter().any(|p| p == name), "{name} not in {listed:?}");
    }
    // Each file is the page `bqsuite man` prints.
    let fetch = fs::read_to_string(target.join("bqsuite-fetch.1")).unwrap();
    assert_eq!(fetch, stdout(&bqsuite(&["man", "fetch"])));

    // A second run replaces the files with the same bytes (human output names each file).
    let again = bqsuite(&["man", "--out", target.to_str().unwrap()]);
    assert_eq!(code(&again), 0);
    assert!(
        stdout(&again).contains("bqsuite-results-check.1"),
        "{}",
        stdout(&again)
    );
    assert_eq!(
        fs::read_to_string(target.join("bqsuite-fetch.1")).unwrap(),
        fetch
    );
    assert_eq!(fs::read_dir(&target).unwrap().count(), listed.len());
}

#[test]
fn out_refuses_a_file_in_the_way() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("man1");
    fs::write(&file, "mine").unwrap();
    let out = bqsuite(&["man", "--out", file.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("man1: is not a directory; give --out a directory"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn every_page_has_every_option_exit_status_and_environment() {
    let pages = all_pages();
    assert!(pages.len() >= 14, "{pages:?}");
    for (file, text) in &pages {
        let words = command_of(file);
        let plain_text = plain(text);
        let options = section(&plain_text, "OPTIONS").unwrap_or_else(|| panic!("{file}: OPTIONS"));
        for long in help_options(&words) {
            assert!(options.contains(&long), "{file} lacks {long}");
        }
        let status = section(&plain_text, "EXIT STATUS").unwrap_or_else(|| panic!("{file}"));
        for code in ["\n0\n", "\n1\n", "\n2\n"] {
            assert!(status.contains(code), "{file}: exit status {code:?}");
        }
        let env = section(&plain_text, "ENVIRONMENT").unwrap_or_else(|| panic!("{file}"));
        assert!(
            env.contains("NO_COLOR") && env.contains("GITHUB_ACTIONS"),
            "{file}"
        );
        assert!(
            section(&plain_text, "EXAMPLES").is_some(),
            "{file}: EXAMPLES"
        );
    }
}

#[test]
fn every_positional_is_in_its_page() {
    for (words, positionals) in [
        (vec!["fetch"], vec!["VERSION", "DEST"]),
        (vec!["validate"], vec!["SUITE"]),
        (vec!["results", "check"], vec!["FILES"]),
        (vec!["diff"], vec!["OLD", "NEW"]),
        (vec!["completions"], vec!["SHELL"]),
        (vec!["man"], vec!["COMMAND"]),
    ] {
        let mut args = vec!["man"];
        args.extend(&words);
        let page = plain(&stdout(&bqsuite(&args)));
        let options = section(&page, "OPTIONS").unwrap();
        for p in positionals {
            assert!(
                options.contains(&format!("<{p}>")) || options.contains(&format!("[{p}]")),
                "{words:?} lacks {p}"
            );
        }
    }
}

#[test]
fn every_page_bqsuite_1_names_exists() {
    let pages = all_pages();
    let files: BTreeSet<&str> = pages.iter().map(|(f, _)| f.as_str()).collect();
    let overview = &pages.iter().find(|(f, _)| f == "bqsuite.1").unwrap().1;
    let see_also = plain(section(overview, "SEE ALSO").unwrap());
    let named: Vec<&str> = see_also
        .split(", ")
        .map(|s| s.trim().trim_start_matches("\"SEE ALSO\"\n").trim())
        .collect();
    assert!(named.len() + 1 >= files.len(), "{named:?}");
    for name in named {
        let file = format!("{}.1", name.trim_end_matches("(1)"));
        assert!(
            files.contains(file.as_str()),
            "bqsuite(1) names {name}, no {file}"
        );
    }
    // And every page is named there: nothing is left out of the overview.
    for file in &files {
        if *file != "bqsuite.1" {
            let name = format!("{}(1)", file.trim_end_matches(".1"));
            assert!(see_also.contains(&name), "bqsuite(1) does not name {name}");
        }
    }
}

#[test]
fn every_command_help_ends_with_examples() {
    for (file, _) in all_pages() {
        let words = command_of(&file);
        let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
        args.push("--help");
        let out = bqsuite(&args);
        assert_eq!(code(&out), 0);
        let help = stdout(&out);
        let examples = help
            .split("\nExamples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("`bqsuite {}` has no Examples: {help}", args.join(" ")));
        assert!(examples.contains("  bqsuite "), "{file}: {examples}");
    }
}

#[test]
fn bqsuite_1_names_every_variable_the_program_reads() {
    let files: Vec<(String, String)> = ["src", "crates"]
        .iter()
        .flat_map(|dir| source::program_files(dir))
        .collect();
    let read = source::variables_read(files.iter().map(|(_, text)| text.as_str()));
    // The scan finds the ones it must (so that an empty scan cannot pass).
    for name in [
        "BQ_CONFORMANCE_BASE_URL",
        "SOURCE_DATE_EPOCH",
        "GITHUB_ACTIONS",
        "NO_PROXY",
    ] {
        assert!(read.contains(name), "the scan missed {name}: {read:?}");
    }
    let page = plain(&stdout(&bqsuite(&["man"])));
    let env = section(&page, "ENVIRONMENT").unwrap();
    let named = source::capital_words(env);
    for name in &read {
        assert!(
            named.contains(name.as_str()),
            "bqsuite(1) ENVIRONMENT lacks {name}"
        );
    }
}

/// Every page as `man` shows it in an 80-column terminal: the header and footer fields each whole
/// (none runs into another), no line wider than the terminal, and a SYNOPSIS that gives the value
/// of every option that takes one.
#[test]
fn every_page_reads_well_at_80_columns() {
    let version = env!("CARGO_PKG_VERSION");
    for (file, text) in all_pages() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join(&file);
        fs::write(&page, &text).unwrap();
        let out = std::process::Command::new("man")
            .arg("-l")
            .arg(&page)
            .env("MANWIDTH", "80")
            .env("MAN_KEEP_FORMATTING", "0")
            .env_remove("MANPAGER")
            .env("PAGER", "cat")
            .output()
            .expect("`man` is installed (tests/tools.sh installs man-db)");
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        // Bold and underline come as overstrikes (`c\x08c`) when the output is not a terminal.
        let mut shown = String::new();
        for c in String::from_utf8_lossy(&out.stdout).chars() {
            if c == '\u{8}' {
                shown.pop();
            } else {
                shown.push(c);
            }
        }
        let name = file.trim_end_matches(".1");
        let lines: Vec<&str> = shown.lines().filter(|l| !l.trim().is_empty()).collect();
        let footer = lines.last().unwrap().split_whitespace().collect::<Vec<_>>();
        assert_eq!(
            footer,
            [
                "bqsuite",
                version,
                "suite",
                &bundled_version(),
                &format!("{name}(1)")
            ],
            "{file}: footer"
        );
        // The header, and the synopsis as filled (the examples are commands, kept whole).
        let synopsis_lines = lines
            .iter()
            .skip_while(|l| **l != "SYNOPSIS")
            .take_while(|l| **l != "DESCRIPTION");
        for line in lines.iter().take(1).chain(synopsis_lines) {
            assert!(line.chars().count() <= 80, "{file}: {line:?}");
        }
        let synopsis = plain(section(&text, "SYNOPSIS").unwrap());
        for option in ["--format <FORMAT>", "--color <WHEN>"] {
            assert!(synopsis.contains(option), "{file}: {synopsis}");
        }
        if name == "bqsuite-fetch" {
            assert!(synopsis.contains("[--sha256 <HEX>]"), "{synopsis}");
            assert!(synopsis.contains("<VERSION> <DEST>"), "{synopsis}");
        }
    }
}
