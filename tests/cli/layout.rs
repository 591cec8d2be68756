//! One layout rule everywhere (issue #13): a name outside it is refused by validate, release,
//! sync, diff and fetch (with --check and --update), before anything is written.

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::kit::tarball::{self, Mirror, gz, release_entries, tar};
use crate::kit::*;

/// Names the layout refuses inside `fixtures/`, each with the code the suite loader gives it.
/// Hostile names from the adversarial review, plus the everyday mistakes.
const HOSTILE: [(&str, &str); 16] = [
    (".hidden.json", "hidden-file"),
    ("d/x.json", "nested-path"),
    ("caf\u{e9}.json", "unportable-name"),
    ("cafe\u{301}.json", "unportable-name"),
    ("\u{3c3}.json", "unportable-name"),
    ("\u{3c2}.json", "unportable-name"),
    ("a.json.", "unportable-name"),
    ("a.json ", "unportable-name"),
    ("NUL.json", "unportable-name"),
    ("con", "unportable-name"),
    ("a\u{202e}nosj.json", "unportable-name"),
    ("a\u{85}b.json", "unportable-name"),
    ("a\u{1b}[2Jb.json", "unportable-name"),
    ("-rf.json", "unportable-name"),
    ("notes.txt", "unexpected-file"),
    ("Order-Created.json", "name-case-clash"),
];

/// A copy of the bundled suite with `fixtures/NAME` added.
fn suite_with(name: &str) -> SuiteCopy {
    let s = SuiteCopy::new();
    let path = s.file(&format!("fixtures/{name}"));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, "{}\n").unwrap();
    s
}

/// An error `code` naming `file` (for a case clash, either of the twins).
fn has_finding(doc: &Value, code: &str, file: &str) -> bool {
    let twin = (code == "name-case-clash").then(|| file.to_ascii_lowercase());
    doc["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["code"] == code
            && (d["file"] == file || twin.as_deref().is_some_and(|t| d["file"] == t))
            && d["severity"] == "error"
    })
}

#[test]
fn validate_release_sync_and_diff_refuse_every_hostile_name_before_writing() {
    let mut failures = Vec::new();
    for (name, want) in HOSTILE {
        let s = suite_with(name);
        let rel = format!("fixtures/{name}");
        let suite = s.path();
        let suite = suite.to_str().unwrap();

        let out = bqsuite(&["validate", suite, "--format", "json"]);
        let doc = json(&out);
        if code(&out) != 1 || !has_finding(&doc, want, &rel) {
            failures.push(format!("validate {name:?}: exit {}, {doc}", code(&out)));
        }
        // The human text never carries the raw control or bidi characters of the name.
        let human =
            stderr(&bqsuite(&["validate", suite])) + &stdout(&bqsuite(&["validate", suite]));
        if human
            .chars()
            .any(|c| c.is_control() && c != '\n' || ('\u{202a}'..='\u{202e}').contains(&c))
        {
            failures.push(format!(
                "validate {name:?}: raw control characters in {human:?}"
            ));
        }

        let work = tempfile::tempdir().unwrap();
        let dist = work.path().join("dist");
        let out = bqsuite(&[
            "release",
            suite,
            "--out",
            dist.to_str().unwrap(),
            "--format",
            "json",
        ]);
        if code(&out) != 1 || !has_finding(&json(&out), want, &rel) || dist.exists() {
            failures.push(format!(
                "release {name:?}: exit {}, {}",
                code(&out),
                stdout(&out)
            ));
        }

        let ws = work.path().join("ws");
        fs::create_dir_all(ws.join("sdk")).unwrap();
        let targets = work.path().join("targets.txt");
        fs::write(&targets, "sdk/conformance\n").unwrap();
        let before = snapshot(work.path());
        let out = bqsuite(&[
            "sync",
            "--suite",
            suite,
            "--workspace",
            ws.to_str().unwrap(),
            "--targets",
            targets.to_str().unwrap(),
            "--format",
            "json",
        ]);
        if code(&out) != 1 || !has_finding(&json(&out), want, &rel) {
            failures.push(format!(
                "sync {name:?}: exit {}, {}",
                code(&out),
                stdout(&out)
            ));
        }
        if snapshot(work.path()) != before {
            failures.push(format!("sync {name:?}: the workspace changed"));
        }

        let bundled = bundled_suite();
        let out = bqsuite(&["diff", bundled.to_str().unwrap(), suite, "--format", "json"]);
        if code(&out) != 1 || !has_finding(&json(&out), want, &rel) {
            failures.push(format!(
                "diff {name:?}: exit {}, {}",
                code(&out),
                stdout(&out)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A mirror publishing a release of the bundled suite's version with one extra entry at `path`.
fn hostile_mirror(path: &str) -> Mirror {
    let mirror = Mirror::new();
    mirror.publish(&bundled_version(), &hostile_release(path));
    mirror
}

/// `bqsuite fetch ARGS` in `cwd` against `mirror`.
fn fetch_from(mirror: &Mirror, cwd: &Path, args: &[&str]) -> Output {
    let mut all = vec!["fetch"];
    all.extend_from_slice(args);
    run_in(
        cwd,
        &all,
        &[("BQ_CONFORMANCE_BASE_URL", mirror.url().as_str())],
    )
}

/// A release of the bundled suite's version that carries one extra entry.
fn hostile_release(path: &str) -> Vec<u8> {
    let version = bundled_version();
    let mut entries = release_entries(&version);
    entries.push(tarball::file(
        &format!("babelqueue-conformance-{version}/{path}"),
        b"[core]\n\tfsmonitor = \"touch pwned\"\n",
    ));
    gz(&tar(&entries))
}

#[test]
fn fetch_check_and_update_refuse_a_release_with_a_name_outside_the_layout() {
    let version = bundled_version();
    for path in [
        ".git/config",
        "Makefile",
        "fixtures/d/x.json",
        "fixtures/NUL.json",
    ] {
        let mirror = hostile_mirror(path);
        let work = tempfile::tempdir().unwrap();
        let copy = work.path().join("conformance");
        // The bundled suite is byte for byte the release (its targets file sits at the
        // repository root), so a copy of it is exactly a vendored copy.
        copy_tree(&bundled_suite(), &copy);
        let before = snapshot(work.path());
        for mode in ["--check", "--update"] {
            let copy = copy.to_str().unwrap();
            let out = fetch_from(
                &mirror,
                work.path(),
                &[mode, &version, copy, "--format", "json"],
            );
            let doc = json(&out);
            let codes: Vec<&str> = doc["diagnostics"]
                .as_array()
                .map(|d| d.iter().filter_map(|d| d["code"].as_str()).collect())
                .unwrap_or_default();
            assert_eq!(code(&out), 1, "{path} {mode}: {doc}");
            assert!(codes.contains(&"archive-layout"), "{path} {mode}: {doc}");
            assert_eq!(
                snapshot(work.path()),
                before,
                "{path} {mode} wrote something"
            );
        }
        assert!(!Path::new(&work.path().join("conformance/.git")).exists());
    }
}

#[test]
fn fetch_never_prints_the_raw_characters_of_a_hostile_entry_name() {
    let version = bundled_version();
    for path in [
        "fixtures/a\u{202e}nosj.json",
        "fixtures/a\u{1b}[2Jb.json",
        "fixtures/a\u{85}b.json",
        "fixtures/a\u{9b}31mb.json",
    ] {
        let mirror = hostile_mirror(path);
        let work = tempfile::tempdir().unwrap();
        let dest = work.path().join("dest");
        for format in ["human", "github"] {
            let dest = dest.to_str().unwrap();
            let out = fetch_from(&mirror, work.path(), &[&version, dest, "--format", format]);
            assert_eq!(code(&out), 1, "{path:?}");
            let text = stdout(&out) + &stderr(&out);
            assert!(
                !text.chars().any(
                    |c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c)
                ),
                "{path:?} ({format}): {text:?}"
            );
        }
        assert!(!dest.exists());
    }
}
