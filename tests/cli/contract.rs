//! The output contract every command keeps: with `--format json`, exactly one JSON document on
//! standard output in every case (exit 2 included, clap's usage errors included); messages in
//! words (no `(os error N)`, no Rust debug output); the command line's conventions (`--check`-only
//! options, SOURCE_DATE_EPOCH, --version, completions, man page, colour).
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::kit;
use crate::kit::server::{Reply, Server};
use crate::kit::tarball::{Entry, Mirror, VERSION, gz, release_entries, sums_for, tar};
use crate::kit::{SuiteCopy, bundled_suite, code, run_in, stderr, stdout};

/// Parses standard output as exactly one JSON document (and nothing else).
fn one_document(out: &Output) -> Value {
    let text = stdout(out);
    let mut docs = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    let first = docs
        .next()
        .unwrap_or_else(|| panic!("no JSON document on stdout; stderr: {}", stderr(out)))
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"));
    assert!(docs.next().is_none(), "more than one document: {text}");
    first
}

/// Asserts a could-not-run document: exit 2, `ok: false`, an `error` of `kind`.
fn assert_failure(out: &Output, command_name: &str, kind: &str) -> Value {
    let doc = one_document(out);
    assert_eq!(code(out), 2, "{doc:#}");
    assert_eq!(doc["ok"], false, "{doc:#}");
    assert_eq!(doc["command"], command_name, "{doc:#}");
    assert_eq!(doc["error"]["kind"], kind, "{doc:#}");
    let message = doc["error"]["message"].as_str().unwrap_or("");
    assert!(!message.is_empty(), "{doc:#}");
    for key in [
        "subject",
        "summary",
        "data",
        "diagnostics",
        "errors",
        "warnings",
    ] {
        assert!(doc.get(key).is_some(), "`{key}` missing: {doc:#}");
    }
    assert_plain(&format!("{}{}", stdout(out), stderr(out)));
    doc
}

/// No operating-system error numbers and no Rust debug formatting in what a user sees.
fn assert_plain(text: &str) {
    for bad in [
        "os error",
        "Some(",
        "None",
        "Os {",
        "kind: ",
        "Custom {",
        "Mismatch(",
        "Malformed {",
        "TooLong",
        "NotPlain",
        "Error {",
    ] {
        assert!(!text.contains(bad), "`{bad}` in output:\n{text}");
    }
}

fn sandbox() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn every_subcommand_prints_one_json_document_when_it_cannot_run() {
    let dir = sandbox();
    let cwd = dir.path();
    let suite = bundled_suite();
    let suite = suite.to_str().unwrap();
    let missing = cwd.join("nope");
    let missing = missing.to_str().unwrap();
    let file = cwd.join("a-file");
    fs::write(&file, "x").unwrap();
    let file = file.to_str().unwrap();
    let j = ["--format", "json"];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(j.iter()).map(|s| s.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (with(&["validate"]), "validate", "not-found"),
        (with(&["validate", missing]), "validate", "not-found"),
        (with(&["eval", missing]), "eval", "not-found"),
        (
            with(&["release", suite, "--out", file, "--allow-pre"]),
            "release",
            "bad-path",
        ),
        (with(&["fetch", "latest", missing]), "fetch", "usage"),
        (with(&["sync", "--suite", missing]), "sync", "not-found"),
        (
            with(&["results", "check", missing, "--suite", suite]),
            "results check",
            "not-found",
        ),
        (
            with(&["results", "matrix", missing, "--suite", suite]),
            "results matrix",
            "not-found",
        ),
        (
            with(&["results", "diff", missing, missing]),
            "results diff",
            "not-found",
        ),
        (with(&["diff", missing, suite]), "diff", "not-found"),
        // Clap's usage errors too.
        (with(&["completions", "tcsh"]), "completions", "usage"),
        (with(&["man", "--bogus"]), "man", "usage"),
        (with(&["validate", "--bogus"]), "validate", "usage"),
        (with(&["results", "matrix"]), "results matrix", "usage"),
        (
            vec!["--format=json".into(), "no-such-command".into()],
            "",
            "usage",
        ),
        (
            with(&["fetch", "--diff", "1.5.0", missing]),
            "fetch",
            "usage",
        ),
    ];
    for (args, name, kind) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_in(cwd, &args, &[]);
        let doc = assert_failure(&out, name, kind);
        // The message is on standard error for people reading the log.
        assert!(stderr(&out).contains("error"), "{args:?}: {}", stderr(&out));
        if let Some(path) = doc["error"]["path"].as_str() {
            assert!(!path.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn a_missing_default_suite_says_how_to_pass_another() {
    let dir = sandbox();
    for (args, hint) in [
        (vec!["validate"], "`bqsuite validate path/to/suite`"),
        (vec!["eval"], "`bqsuite eval path/to/suite`"),
        (
            vec!["release", "--allow-pre"],
            "`bqsuite release --allow-pre path/to/suite`",
        ),
        (
            vec!["sync", "--check"],
            "`bqsuite sync --check --suite path/to/suite`",
        ),
    ] {
        let out = run_in(dir.path(), &args, &[]);
        assert_eq!(code(&out), 2, "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("SUITE defaults to ./suite"), "{err}");
        assert!(err.contains(hint), "{err}");
        assert_plain(&err);
    }
}

/// Every document carries these keys, success or not.
const DOCUMENT_KEYS: [&str; 10] = [
    "format_version",
    "command",
    "subject",
    "ok",
    "errors",
    "warnings",
    "summary",
    "data",
    "diagnostics",
    "error",
];

/// The real release 1.8.0 (what `suite/` holds until the proposal is adopted): its validation and
/// evaluation are clean once the redis_layout evaluator lands (until then validate and eval exit
/// 1 with `case-shape` findings in redis_layout only, and this test fails).
#[test]
fn success_documents_have_the_documented_shape() {
    let suite = crate::kit::real_1_8_0();
    let cwd = sandbox();
    for args in [
        vec!["validate", suite.to_str().unwrap()],
        vec!["eval", suite.to_str().unwrap()],
        vec!["completions", "bash"],
    ] {
        let mut all = args.clone();
        all.extend(["--format", "json"]);
        let out = run_in(cwd.path(), &all, &[("SOURCE_DATE_EPOCH", "0")]);
        let doc = one_document(&out);
        assert_eq!(code(&out), 0, "{doc:#}");
        for key in DOCUMENT_KEYS {
            assert!(doc.get(key).is_some(), "`{key}` missing: {doc:#}");
        }
        assert_eq!(doc["ok"], true);
        assert_eq!(doc["error"], Value::Null);
        assert_eq!(doc["command"], args[0]);
        assert_eq!((&doc["errors"], &doc["warnings"]), (&0.into(), &0.into()));
    }
    let out = run_in(
        cwd.path(),
        &["validate", suite.to_str().unwrap(), "--format", "json"],
        &[],
    );
    let doc = one_document(&out);
    // The real 1.8.0: 710 cases in 32 sections and 56 fixtures, every case evaluated.
    assert_eq!(
        doc["summary"],
        serde_json::json!([
            "710 cases in 32 sections, 56 fixtures; reference evaluator: 710 pass, 0 skip"
        ]),
        "{doc:#}"
    );
    assert_eq!(doc["diagnostics"], serde_json::json!([]), "{doc:#}");
    let out = run_in(
        cwd.path(),
        &["eval", suite.to_str().unwrap(), "--format", "json"],
        &[("SOURCE_DATE_EPOCH", "0")],
    );
    let doc = one_document(&out);
    let results = &doc["data"]["results"];
    assert_eq!(results["sdk"], "bqsuite-reference");
    assert_eq!(results["conformance_version"], "1.8.0");
    assert_eq!(results["generated_at"], "1970-01-01T00:00:00Z");
    assert_eq!(results["sections"].as_object().unwrap().len(), 32);
}

#[test]
fn eval_findings_are_words_not_debug_structs() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = serde_json::json!(3)
    });
    let cwd = sandbox();
    let out = run_in(cwd.path(), &["eval", s.path().to_str().unwrap()], &[]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("expectation-mismatch"), "{err}");
    assert!(
        err.contains("expected 3 but the reference model derives"),
        "{err}"
    );
    assert_plain(&err);
    let out = run_in(
        cwd.path(),
        &["eval", s.path().to_str().unwrap(), "--format", "json"],
        &[],
    );
    let doc = one_document(&out);
    assert_eq!(code(&out), 1);
    assert_eq!(doc["diagnostics"][0]["code"], "expectation-mismatch");
    assert_eq!(doc["diagnostics"][0]["section"], "sqs");
}

#[test]
fn a_name_release_cannot_store_is_a_validate_finding() {
    let s = SuiteCopy::new();
    let long = format!("fixtures/{}.json", "x".repeat(140));
    // An orphan fixture is a finding of its own; the name is what matters here.
    fs::write(s.file(&long), "{}\n").unwrap();
    let found = kit::assert_finding(&s.path(), "name-too-long", &[("file", &long)]);
    assert!(
        found["message"].as_str().unwrap().contains("100 bytes"),
        "{found}"
    );
    fs::write(s.file("fixtures/.editor-backup.json"), "{}\n").unwrap();
    kit::assert_finding(
        &s.path(),
        "hidden-file",
        &[("file", "fixtures/.editor-backup.json")],
    );
    // So release refuses with a finding (exit 1), not a packaging failure.
    let out_dir = sandbox();
    let out = run_in(
        out_dir.path(),
        &[
            "release",
            s.path().to_str().unwrap(),
            "--out",
            "dist",
            "--allow-pre",
        ],
        &[],
    );
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("name-too-long"), "{}", stdout(&out));
    assert!(!out_dir.path().join("dist").exists());
}

#[test]
fn errors_in_the_readme_tables_are_plain_words() {
    let dir = sandbox();
    let cwd = dir.path();
    let suite = bundled_suite();
    let suite = suite.to_str().unwrap();
    let file = cwd.join("a-file");
    fs::write(&file, "x").unwrap();
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = format!("http://127.0.0.1:{closed_port}");
    // A flat file:// mirror holding another version only.
    let mirror = Mirror::new();
    mirror.publish(VERSION, &gz(&tar(&release_entries(VERSION))));
    let flat = mirror.url();
    let dest = cwd.join("dest");
    let dest = dest.to_str().unwrap();
    let full = cwd.join("full");
    fs::create_dir_all(&full).unwrap();
    fs::write(full.join("x"), "x").unwrap();
    let full_dir = full.to_str().unwrap();
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (vec!["validate"], vec![], "SUITE defaults"),
        (
            vec![
                "release",
                suite,
                "--out",
                file.to_str().unwrap(),
                "--allow-pre",
            ],
            vec![],
            "is not a directory",
        ),
        (
            vec!["release", suite, "--out", "d", "--allow-pre"],
            vec![("SOURCE_DATE_EPOCH", "yesterday")],
            "SOURCE_DATE_EPOCH",
        ),
        (
            vec!["eval", suite],
            vec![("SOURCE_DATE_EPOCH", "1e9")],
            "SOURCE_DATE_EPOCH",
        ),
        (
            vec!["fetch", "1.0.0", dest],
            vec![("BQ_CONFORMANCE_BASE_URL", &closed)],
            "the connection was refused",
        ),
        (
            vec!["fetch", "9.9.9", dest],
            vec![("BQ_CONFORMANCE_BASE_URL", &flat)],
            "version 9.9.9 is not released at file://",
        ),
        (vec!["fetch", "v1.5.0", dest], vec![], "without the `v`"),
        (vec!["diff", "nope", suite], vec![], "nope"),
        (
            vec!["results", "check", "nope.json", "--suite", suite],
            vec![],
            "nope.json",
        ),
        (
            vec!["results", "check", full_dir, "--suite", suite],
            vec![],
            "full",
        ),
        (
            vec!["results", "check", "nope.json", "--suite", full_dir],
            vec![],
            "manifest.json",
        ),
        (
            vec!["fetch", "1.0.0", dest, "--sha256", "abc"],
            vec![("BQ_CONFORMANCE_BASE_URL", &flat)],
            "sha256",
        ),
        (
            vec!["fetch", "1.0.0", full_dir],
            vec![("BQ_CONFORMANCE_BASE_URL", &flat)],
            "full",
        ),
        (
            vec!["fetch", "1.0.0", dest],
            vec![("BQ_CONFORMANCE_BASE_URL", "ftp://example.org/x")],
            "ftp",
        ),
        (
            vec!["sync", "--check", "--suite", suite, "--targets", "nope.txt"],
            vec![],
            "nope.txt",
        ),
    ];
    for (args, env, want) in cases {
        let out = run_in(cwd, &args, &env);
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(code(&out), 2, "{args:?}: {all}");
        assert!(all.contains(want), "{args:?}: want `{want}` in {all}");
        assert_plain(&all);
    }
    // The network failure names BQ_CONFORMANCE_BASE_URL; nothing was created.
    let out = run_in(
        cwd,
        &["fetch", "1.0.0", dest],
        &[("BQ_CONFORMANCE_BASE_URL", &closed)],
    );
    assert!(stderr(&out).contains("BQ_CONFORMANCE_BASE_URL"));
    assert!(stderr(&out).contains(&closed), "{}", stderr(&out));
    // ... with the same command against a mirror, ready to paste.
    assert!(
        stderr(&out).contains(&format!(
            "BQ_CONFORMANCE_BASE_URL='https://mirror.example/conformance/v{{version}}' bqsuite fetch 1.0.0 {dest}`"
        )),
        "{}",
        stderr(&out)
    );
    // A --check of a directory that does not exist says how to vendor it.
    let out = run_in(
        cwd,
        &["fetch", "--check", "1.0.0", "tests/conformance"],
        &[],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("`bqsuite fetch 1.0.0 tests/conformance`"),
        "{}",
        stderr(&out)
    );
    assert!(!Path::new(dest).exists());
    // Not released is exit 2 with its own kind, flat mirror or not.
    let out = run_in(
        cwd,
        &["fetch", "9.9.9", dest, "--format", "json"],
        &[("BQ_CONFORMANCE_BASE_URL", &flat)],
    );
    assert_failure(&out, "fetch", "not-released");
}

#[test]
fn proxies_in_the_environment_do_not_affect_loopback_downloads() {
    let asset = gz(&tar(&release_entries(VERSION)));
    let sums = sums_for(VERSION, &asset);
    let server = Server::start(move |r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(&sums)
        } else {
            Reply::ok(&asset)
        }
    });
    let dir = sandbox();
    let dest = dir.path().join("dest");
    let dead = "http://127.0.0.1:9";
    let out = run_in(
        dir.path(),
        &["fetch", VERSION, dest.to_str().unwrap()],
        &[
            ("BQ_CONFORMANCE_BASE_URL", &server.base),
            ("HTTP_PROXY", dead),
            ("http_proxy", dead),
            ("HTTPS_PROXY", dead),
            ("ALL_PROXY", dead),
            ("all_proxy", dead),
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(dest.join("manifest.json").is_file());
}

#[test]
fn check_only_options_need_check() {
    let dir = sandbox();
    for args in [
        vec!["fetch", "--diff", "1.5.0", "x"],
        vec!["sync", "--diff"],
    ] {
        let out = run_in(dir.path(), &args, &[]);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains("--check"), "{}", stderr(&out));
    }
}

#[test]
fn version_completions_and_man_page() {
    let dir = sandbox();
    let out = run_in(dir.path(), &["--version"], &[]);
    assert_eq!(code(&out), 0);
    let suite_version = fs::read_to_string(bundled_suite().join("CONFORMANCE_VERSION")).unwrap();
    assert_eq!(
        stdout(&out).trim(),
        format!(
            "bqsuite {} (conformance suite {})",
            env!("CARGO_PKG_VERSION"),
            suite_version.trim()
        )
    );
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = run_in(dir.path(), &["completions", shell], &[]);
        assert_eq!(code(&out), 0, "{shell}");
        let script = stdout(&out);
        assert!(
            script.contains("bqsuite") && script.contains("validate") && script.len() > 500,
            "{shell}: {script}"
        );
    }
    let out = run_in(dir.path(), &["man"], &[]);
    assert_eq!(code(&out), 0);
    let page = stdout(&out);
    assert!(
        page.starts_with(".ie") || page.contains(".TH bqsuite"),
        "{page}"
    );
    assert!(
        page.contains("fetch") && page.contains("completions"),
        "{page}"
    );
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let dir = sandbox();
    let suite = bundled_suite();
    let s = suite.to_str().unwrap();
    let has_ansi = |out: &Output| stdout(out).contains("\u{1b}[");
    // Not a terminal: no colour by default.
    assert!(!has_ansi(&run_in(dir.path(), &["validate", s], &[])));
    assert!(has_ansi(&run_in(
        dir.path(),
        &["validate", s, "--color", "always"],
        &[]
    )));
    assert!(has_ansi(&run_in(
        dir.path(),
        &["validate", s],
        &[("CLICOLOR_FORCE", "1")]
    )));
    assert!(!has_ansi(&run_in(
        dir.path(),
        &["validate", s],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!has_ansi(&run_in(
        dir.path(),
        &["validate", s, "--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    // JSON is never coloured.
    let out = run_in(
        dir.path(),
        &["validate", s, "--format", "json", "--color", "always"],
        &[],
    );
    assert!(!has_ansi(&out));
    one_document(&out);
}

#[test]
fn findings_of_the_readme_tables_are_plain_words() {
    let dir = sandbox();
    let cwd = dir.path();
    let mut outputs = Vec::new();
    // validate: syntax, a duplicate key, a missing schema, a link and a control character in a
    // file name.
    let s = SuiteCopy::new();
    fs::write(s.file("fixtures/broken.json"), "{\"a\": 1,,}\n").unwrap();
    let manifest = fs::read_to_string(s.file("manifest.json")).unwrap();
    fs::write(
        s.file("manifest.json"),
        manifest.replacen('{', "{\"schema_version\": 1,", 1),
    )
    .unwrap();
    fs::remove_file(s.file("schema/results.example.json")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", s.file("fixtures/link.json")).unwrap();
    fs::write(s.file("fixtures/evil\u{1b}[31m.json"), "{}\n").unwrap();
    let suite = s.path();
    let suite = suite.to_str().unwrap();
    for format in ["human", "json", "github"] {
        let out = run_in(cwd, &["validate", suite, "--format", format], &[]);
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        outputs.push(out);
    }
    // fetch: a checksum mismatch, and an archive holding a link.
    let mirror = Mirror::new();
    let mut entries = release_entries(VERSION);
    entries.push(
        Entry::new(b'2', b"babelqueue-conformance-1.0.0/fixtures/x.json", b"").link("/etc/passwd"),
    );
    mirror.publish(VERSION, &gz(&tar(&entries)));
    let dest = cwd.join("dest");
    let env = [("BQ_CONFORMANCE_BASE_URL", mirror.url())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = run_in(cwd, &["fetch", VERSION, dest.to_str().unwrap()], &env);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    outputs.push(out);
    let pin = "0".repeat(64);
    let out = run_in(
        cwd,
        &["fetch", VERSION, dest.to_str().unwrap(), "--sha256", &pin],
        &env,
    );
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    outputs.push(out);
    // results check of a file that is not JSON; diff against a file that is not a release.
    let garbage = cwd.join("garbage.json");
    fs::write(&garbage, "\u{feff}not json\u{0}").unwrap();
    let bundled = bundled_suite();
    let out = run_in(
        cwd,
        &[
            "results",
            "check",
            garbage.to_str().unwrap(),
            "--suite",
            bundled.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    outputs.push(out);
    let out = run_in(
        cwd,
        &["diff", bundled.to_str().unwrap(), garbage.to_str().unwrap()],
        &[],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    outputs.push(out);
    for out in &outputs {
        let all = format!("{}{}", stdout(out), stderr(out));
        assert_plain(&all);
        assert!(!all.contains('\u{1b}'), "a raw escape character: {all}");
        assert!(!all.contains('\u{0}'), "a raw NUL: {all}");
    }
}
