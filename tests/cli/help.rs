//! `--help` as a user reads it: every command's help fits an 80-column terminal when it goes to a
//! pipe (COLUMNS changes the width; on a terminal, help takes the terminal's width, at most 100);
//! `--color never` leaves help unstyled and `--color always` styles it, wherever the option
//! stands; and `fetch --help` names every environment variable the fetch code reads.

use std::os::unix::fs::PermissionsExt;

use crate::kit::{
    bqsuite, code, help_commands, on_terminal, root, run_in, source, stderr, stdout, strip_styles,
};

/// Every command path (bqsuite itself first), as the help texts list them, walked down from
/// `bqsuite --help`; clap's `help` commands are listed but not walked into.
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut next = 0;
    while next < paths.len() {
        let path: Vec<String> = paths[next].clone();
        next += 1;
        if path.last().is_some_and(|w| w == "help") {
            continue;
        }
        let mut args = path.clone();
        args.push("--help".into());
        let out = bqsuite(&args);
        assert_eq!(code(&out), 0, "bqsuite {args:?}: {}", stderr(&out));
        for name in help_commands(&stdout(&out)) {
            let mut sub = path.clone();
            sub.push(name);
            paths.push(sub);
        }
    }
    paths
}

/// The lines of `text` wider than `columns`.
fn wider_than(text: &str, columns: usize) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > columns)
        .map(|l| format!("{} columns: {l}", l.chars().count()))
        .collect()
}

#[test]
fn every_help_fits_80_columns_in_a_pipe() {
    let paths = command_paths();
    // The walk reaches the nested commands (an empty walk would pass).
    for want in [vec!["fetch"], vec!["results", "check"], vec!["help"]] {
        assert!(
            paths.iter().any(|p| *p == want),
            "the walk missed {want:?}: {paths:?}"
        );
    }
    for path in &paths {
        // clap's `help` command prints bqsuite's help; it takes no flag.
        let flags: &[&str] = if path.last().is_some_and(|w| w == "help") {
            &[""]
        } else {
            &["-h", "--help"]
        };
        for flag in flags {
            let mut args = path.clone();
            if !flag.is_empty() {
                args.push(flag.to_string());
            }
            let help = stdout(&bqsuite(&args));
            assert!(help.lines().count() > 3, "bqsuite {args:?}: {help}");
            let wide = wider_than(&help, 80);
            assert!(
                wide.is_empty(),
                "bqsuite {}:\n{}",
                args.join(" "),
                wide.join("\n")
            );
        }
    }
}

#[test]
fn columns_sets_the_width_of_help_in_a_pipe_up_to_100() {
    let narrow = run_in(root(), &["validate", "--help"], &[("COLUMNS", "60")]);
    let help = stdout(&narrow);
    assert!(help.contains("Examples:"), "{help}");
    assert!(wider_than(&help, 60).is_empty(), "{help}");

    let wide = stdout(&run_in(root(), &["--help"], &[("COLUMNS", "200")]));
    assert!(
        !wider_than(&wide, 80).is_empty(),
        "COLUMNS=200 is ignored:\n{wide}"
    );
    assert!(wider_than(&wide, 100).is_empty(), "{wide}");
}

#[test]
fn on_a_terminal_help_takes_its_width_up_to_100() {
    let narrow = on_terminal(&["validate", "--help"], 64);
    assert!(narrow.contains("Examples:"), "{narrow}");
    assert!(
        wider_than(&strip_styles(&narrow), 64).is_empty(),
        "{narrow}"
    );

    let wide = strip_styles(&on_terminal(&["--help"], 160));
    assert!(!wider_than(&wide, 80).is_empty(), "{wide}");
    assert!(wider_than(&wide, 100).is_empty(), "{wide}");
}

fn styled(text: &str) -> bool {
    text.contains('\u{1b}')
}

#[test]
fn color_never_leaves_help_unstyled_wherever_it_stands() {
    let forced = [("CLICOLOR_FORCE", "1")];
    // Forcing colour styles help (so the runs below show --color never winning over it).
    let plain_run = run_in(root(), &["fetch", "--help"], &forced);
    assert!(styled(&stdout(&plain_run)), "{}", stdout(&plain_run));

    for args in [
        &["--color", "never", "--help"][..],
        &["fetch", "--help", "--color", "never"],
        &["results", "check", "--color=never", "-h"],
    ] {
        let out = run_in(root(), args, &forced);
        assert_eq!(code(&out), 0, "{args:?}");
        assert!(stdout(&out).contains("Usage:"), "{args:?}");
        assert!(!styled(&stdout(&out)), "{args:?}: {:?}", stdout(&out));
    }
    // A refused command line too.
    let refused = run_in(root(), &["--color", "never", "frob"], &forced);
    assert_eq!(code(&refused), 2);
    assert!(!styled(&stderr(&refused)), "{:?}", stderr(&refused));

    // On a terminal, where colour is on by default.
    assert!(styled(&on_terminal(&["fetch", "--help"], 80)));
    let never = on_terminal(&["fetch", "--help", "--color", "never"], 80);
    assert!(never.contains("Usage:") && !styled(&never), "{never:?}");
}

#[test]
fn color_always_styles_help_in_a_pipe() {
    for args in [
        &["--color", "always", "--help"][..],
        &["fetch", "-h", "--color=always"],
    ] {
        let out = bqsuite(args);
        assert_eq!(code(&out), 0, "{args:?}");
        let help = stdout(&out);
        assert!(styled(&help), "{args:?}: {help}");
        // The sections bqsuite adds are styled like clap's own headings.
        let bold_examples =
            help.contains("Examples:\u{1b}[0m") || help.contains("\u{1b}[1mExamples:");
        assert!(bold_examples, "{args:?}: {help:?}");
    }
    // Without a terminal and without --color, help is plain.
    assert!(!styled(&stdout(&bqsuite(&["--help"]))));
}

#[test]
fn fetch_help_names_every_variable_the_fetch_code_reads() {
    // The library's fetch, and the subcommand's file: its arguments, and the runner that turns
    // them and the environment into the library's options.
    let texts: Vec<String> = source::program_files("src/commands/fetch")
        .into_iter()
        .chain(source::program_files("src/cli/commands/fetch.rs"))
        .map(|(_, text)| text)
        .collect();
    let read = source::variables_read(texts.iter().map(String::as_str));
    // The scan finds what it must (an empty scan would pass).
    for name in ["BQ_CONFORMANCE_BASE_URL", "HTTPS_PROXY", "NO_PROXY", "CI"] {
        assert!(read.contains(name), "the scan missed {name}: {read:?}");
    }

    let help = stdout(&bqsuite(&["fetch", "--help"]));
    let environment = help
        .split("\nEnvironment:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("`fetch --help` has no Environment section: {help}"));
    let environment = environment.split("\nExamples:\n").next().unwrap();
    let named = source::capital_words(environment);
    for name in &read {
        assert!(
            named.contains(name.as_str()),
            "`bqsuite fetch --help` does not name {name}:\n{environment}"
        );
    }
    // And the variables every command reads, named once.
    for name in ["NO_COLOR", "GITHUB_ACTIONS", "COLUMNS"] {
        assert!(named.contains(name), "{name}:\n{environment}");
    }
}

#[test]
fn a_long_example_is_continued_and_pastes_as_one_command() {
    let help = stdout(&bqsuite(&["fetch", "--help"]));
    let examples = help.split("\nExamples:\n").nth(1).unwrap();
    let lines: Vec<&str> = examples.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("BQ_CONFORMANCE_BASE_URL="))
        .unwrap_or_else(|| panic!("no mirror example: {examples}"));
    assert!(lines[at].ends_with(" \\"), "{examples}");
    let pasted = format!("{}\n{}\n", lines[at], lines[at + 1]);

    // Pasted into sh, with a stand-in bqsuite that prints what it was given.
    let dir = tempfile::tempdir().unwrap();
    let stand_in = dir.path().join("bqsuite");
    std::fs::write(
        &stand_in,
        "#!/bin/sh\nprintf '%s\\n' \"$BQ_CONFORMANCE_BASE_URL\" \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(&pasted)
        .env("PATH", path)
        .env_remove("BQ_CONFORMANCE_BASE_URL")
        .output()
        .unwrap();
    assert_eq!(
        stdout(&out),
        "https://mirror.example/conformance/v{version}\nfetch\n1.8.0\n/tmp/conformance\n",
        "{pasted}{}",
        stderr(&out)
    );
}
