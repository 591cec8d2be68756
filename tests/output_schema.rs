//! `--format json` of every command and subcommand, in each outcome it has (clean, found a
//! problem, could not run), against the published schema `docs/reference/output.schema.json`;
//! and the facts in `data` checked against the world (the asset on disk, the real suite, the real
//! releases and results files).

mod common;
mod fetch_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use common::*;
use serde_json::{Value, json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn real_release(version: &str) -> PathBuf {
    root().join("tests/data/real-releases").join(version)
}

fn real_results(name: &str) -> PathBuf {
    root().join("tests/data/real-results").join(name)
}

fn example_results(name: &str) -> PathBuf {
    root().join("docs/examples").join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let text = fs::read_to_string(root().join("docs/reference/output.schema.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    })
}

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| jsonschema::draft202012::options().build(schema()).unwrap())
}

/// Why `doc` does not conform to the schema (empty when it does).
fn violations(doc: &Value) -> Vec<String> {
    validator()
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Runs bqsuite in `cwd` with `--format json` appended; asserts the exit code, that standard
/// output is exactly one JSON document of format_version 1 that conforms to the schema, and that
/// `data` is null exactly when the command could not run. Returns the document.
fn run(cwd: &Path, args: &[&str], env: &[(&str, &str)], exit: i32) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = run_in(cwd, &all, env);
    document(&out, args, exit)
}

fn document(out: &Output, args: &[&str], exit: i32) -> Value {
    let text = stdout(out);
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not one JSON document ({e}):\n{text}\n{}",
            stderr(out)
        )
    });
    assert_eq!(code(out), exit, "{args:?}: {doc:#}\n{}", stderr(out));
    assert_eq!(doc["format_version"], 1, "{args:?}");
    let wrong = violations(&doc);
    assert!(wrong.is_empty(), "{args:?}: {wrong:#?}\n{doc:#}");
    if exit == 2 {
        assert!(doc["error"].is_object(), "{args:?}: {doc:#}");
        assert_eq!(doc["data"], Value::Null, "{args:?}");
    } else {
        assert_eq!(doc["error"], Value::Null, "{args:?}");
        assert!(!doc["data"].is_null(), "{args:?}: data is null: {doc:#}");
    }
    doc
}

/// The lowercase hex sha256 of a file.
fn sha256_of(path: &Path) -> String {
    fetch_support::sha256_hex(&fs::read(path).unwrap())
}

/// The findings of `code` in a document.
fn findings<'a>(doc: &'a Value, code: &str) -> Vec<&'a Value> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .collect()
}

// ---------------------------------------------------------------------------------- the schema

/// A change to a document.
type Edit = fn(&mut Value);

#[test]
fn the_schema_is_draft_2020_12_and_not_vacuous() {
    assert_eq!(
        schema()["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let good = run(cwd.path(), &["validate", s(&suite)], &[], 0);
    // Each edit breaks one promise of the document; the schema must notice every one.
    let edits: [(&str, Edit); 10] = [
        ("no format_version", |d| {
            d.as_object_mut().unwrap().remove("format_version");
        }),
        ("format_version 2", |d| d["format_version"] = json!(2)),
        ("a count as a sentence", |d| {
            d["data"]["cases"] = json!("710 cases")
        }),
        ("data null although it ran", |d| d["data"] = Value::Null),
        ("an unknown data member", |d| d["data"]["extra"] = json!(1)),
        ("ok with errors", |d| d["errors"] = json!(1)),
        ("an unknown command", |d| d["command"] = json!("frobnicate")),
        (
            "an error object beside data",
            |d| d["error"] = json!({"kind": "io", "message": "m", "path": null, "help": null}),
        ),
        ("a finding without a code", |d| {
            d["diagnostics"] = json!([{"severity": "error", "file": "", "line": null,
                "column": null, "pointer": null, "section": null, "case": null,
                "message": "m", "help": null, "detail": null}])
        }),
        ("evaluator counts as text", |d| {
            d["data"]["evaluator"]["pass"] = json!("all")
        }),
    ];
    for (what, edit) in edits {
        let mut bad = good.clone();
        edit(&mut bad);
        assert!(!violations(&bad).is_empty(), "the schema accepts {what}");
    }
}

// ---------------------------------------------------------------------------------- validate

#[test]
fn validate_counts_the_real_suite() {
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", s(&suite)], &[], 0);
    let data = &doc["data"];
    assert_eq!(data["version"], "1.8.0");
    assert_eq!(data["cases"], 710);
    assert_eq!(data["sections"], 32);
    assert_eq!(data["fixtures"], 56);
    assert_eq!(data["schemas"], 2);
    assert_eq!(
        data["evaluator"],
        json!({"pass": 710, "skip": 0, "fail": 0, "unknown": 0})
    );
    assert_eq!(
        (&data["proposal"], &data["since"]),
        (&Value::Null, &Value::Null)
    );

    // --since: the version rules, as values.
    let old = real_release("1.7.0");
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--since", s(&old)],
        &[],
        0,
    );
    let since = &doc["data"]["since"];
    assert_eq!(since["old"]["version"], "1.7.0");
    assert_eq!(since["new"]["version"], "1.8.0");
    assert_eq!(since["required_bump"], "minor");
    assert_eq!(since["declared_bump"], "minor");
    assert_eq!(since["sufficient"], true);
    assert_eq!(since["counts"]["removed"], 0);
    assert_eq!(
        since["counts"]["added"],
        since["by_code"]["case-added"].as_u64().unwrap()
            + since["by_code"]["section-added"].as_u64().unwrap()
    );
}

#[test]
fn validate_with_the_proposal_names_the_merged_version() {
    let (suite, proposal) = (bundled_suite(), root().join("proposal"));
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--proposal", s(&proposal)],
        &[],
        0,
    );
    let data = &doc["data"];
    assert_eq!(data["version"], "1.9.0-proposal");
    let p = &data["proposal"];
    assert_eq!(p["merged"], true);
    assert_eq!(p["base_version"], "1.8.0");
    assert_eq!(p["additive"], true);
    let added = p["cases_added"].as_u64().unwrap();
    assert!(added > 0);
    assert_eq!(data["cases"].as_u64().unwrap(), 710 + added);
    assert_eq!(data["evaluator"]["pass"], data["cases"]);
}

#[test]
fn validate_that_finds_a_problem_still_says_what_it_counted() {
    let copy = SuiteCopy::new();
    copy.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3)
    });
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", s(&copy.path())], &[], 1);
    assert_eq!(doc["data"]["cases"], 710);
    assert_eq!(doc["data"]["evaluator"]["fail"], 1);
    assert_eq!(doc["data"]["evaluator"]["pass"], 709);
    assert_eq!(findings(&doc, "expectation-mismatch").len(), 1);

    // No manifest: nothing to count or evaluate, and still a document with data.
    fs::remove_file(copy.file("manifest.json")).unwrap();
    let doc = run(cwd.path(), &["validate", s(&copy.path())], &[], 1);
    assert_eq!(doc["data"]["cases"], 0);
    assert_eq!(doc["data"]["evaluator"], Value::Null);
    assert_eq!(doc["data"]["fixtures"], 56);

    // A proposal that changes a released fixture cannot be merged.
    let proposal = tempfile::tempdir().unwrap();
    copy_tree(&root().join("proposal"), proposal.path());
    fs::write(proposal.path().join("fixtures/order-created.json"), "{}\n").unwrap();
    let suite = bundled_suite();
    let doc = run(
        cwd.path(),
        &["validate", s(&suite), "--proposal", s(proposal.path())],
        &[],
        1,
    );
    assert!(!findings(&doc, "proposal-conflict").is_empty(), "{doc:#}");
    assert_eq!(doc["data"]["proposal"]["merged"], false);
}

#[test]
fn validate_that_cannot_run() {
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["validate", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
    assert_eq!(doc["command"], "validate");
}

// ---------------------------------------------------------------------------------- eval

#[test]
fn eval_counts_its_verdicts() {
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let epoch = [("SOURCE_DATE_EPOCH", "0")];
    let doc = run(cwd.path(), &["eval", s(&suite)], &epoch, 0);
    let data = &doc["data"];
    assert_eq!(
        (
            &data["version"],
            &data["cases"],
            &data["pass"],
            &data["skip"],
            &data["not_passing"]
        ),
        (
            &json!("1.8.0"),
            &json!(710),
            &json!(710),
            &json!(0),
            &json!(0)
        )
    );
    assert_eq!(data["out"], Value::Null);
    assert_eq!(data["results"]["sections"].as_object().unwrap().len(), 32);

    let file = cwd.path().join("results.json");
    let doc = run(
        cwd.path(),
        &["eval", s(&suite), "--out", s(&file)],
        &epoch,
        0,
    );
    assert_eq!(doc["data"]["out"], s(&file));
    assert_eq!(doc["data"]["results"], Value::Null);
    assert!(file.is_file());

    let copy = SuiteCopy::new();
    copy.edit_manifest(|m| {
        m["sqs"]["attempts_reconciliation"]["cases"][1]["expected_attempts"] = json!(3)
    });
    let doc = run(cwd.path(), &["eval", s(&copy.path())], &epoch, 1);
    assert_eq!(doc["data"]["not_passing"], 1);
    assert_eq!(doc["data"]["pass"], 709);

    let doc = run(cwd.path(), &["eval", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- mutants

#[test]
fn mutants_lists_the_survivors() {
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["mutants", s(&suite)], &[], 1);
    let data = &doc["data"];
    let survivors: Vec<&str> = data["survivors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(survivors.len(), 20);
    assert!(survivors.contains(&"kafka-zero-header-ignored"));
    let surviving: Vec<&str> = data["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["survives"] == true)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(survivors, surviving);
    assert_eq!(data["surviving"], 20);
    assert_eq!(
        data["killed"].as_u64().unwrap() + 20,
        data["mutants"].as_u64().unwrap()
    );
    assert_eq!(findings(&doc, "surviving-mutant").len(), 20);

    let proposal = root().join("proposal");
    let doc = run(
        cwd.path(),
        &["mutants", s(&suite), "--proposal", s(&proposal)],
        &[],
        0,
    );
    assert_eq!(doc["data"]["survivors"], json!([]));
    assert_eq!(doc["data"]["killed"], doc["data"]["mutants"]);

    let doc = run(cwd.path(), &["mutants", "no-such-suite"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- release

#[test]
fn release_says_what_it_wrote() {
    let copy = SuiteCopy::new();
    let cwd = copy.dir.path();
    let epoch = [("SOURCE_DATE_EPOCH", "0")];
    let doc = run(cwd, &["release", "suite", "--out", "dist"], &epoch, 0);
    let data = &doc["data"];
    let name = "babelqueue-conformance-1.8.0.tar.gz";
    let asset = cwd.join("dist").join(name);
    assert_eq!(data["version"], "1.8.0");
    assert_eq!(data["released"], true);
    assert_eq!(data["asset"]["name"], name);
    assert_eq!(data["asset"]["path"], format!("dist/{name}"));
    assert_eq!(data["asset"]["sha256"], sha256_of(&asset));
    assert_eq!(data["asset"]["size"], fs::metadata(&asset).unwrap().len());
    assert_eq!(data["asset"]["entries"], 65);
    assert_eq!(data["sha256sums"], "dist/SHA256SUMS");
    assert_eq!(
        fs::read_to_string(cwd.join("dist/SHA256SUMS")).unwrap(),
        format!("{}  {name}\n", sha256_of(&asset))
    );
    assert_eq!(data["mtime"], 0);
    assert_eq!(data["suite"]["cases"], 710);

    // Refused: a tag that is not the version. Nothing written, no asset.
    let doc = run(
        cwd,
        &["release", "suite", "--out", "dist2", "--tag", "v9.9.9"],
        &epoch,
        1,
    );
    assert_eq!(doc["data"]["released"], false);
    assert_eq!(doc["data"]["asset"], Value::Null);
    assert_eq!(doc["data"]["sha256sums"], Value::Null);
    assert!(!cwd.join("dist2").join(name).exists());

    fs::write(cwd.join("a-file"), "").unwrap();
    let doc = run(cwd, &["release", "suite", "--out", "a-file"], &epoch, 2);
    assert_eq!(doc["error"]["kind"], "bad-path");
}

// ---------------------------------------------------------------------------------- fetch

/// A file:// mirror holding the release of the bundled suite, as `release` writes it.
fn mirror() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = bqsuite(&[
        "release",
        s(&bundled_suite()),
        "--out",
        s(&dir.path().join("mirror")),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let url = format!("file://{}", dir.path().join("mirror").display());
    let sha = sha256_of(
        &dir.path()
            .join("mirror/babelqueue-conformance-1.8.0.tar.gz"),
    );
    (dir, url, sha)
}

#[test]
fn fetch_says_what_it_verified_and_wrote() {
    let (dir, url, sha) = mirror();
    let cwd = dir.path();
    let env = [("BQ_CONFORMANCE_BASE_URL", url.as_str())];
    fs::create_dir_all(cwd.join("sdk/tests")).unwrap();
    let doc = run(cwd, &["fetch", "1.8.0", "sdk/tests/conformance"], &env, 0);
    let data = &doc["data"];
    assert_eq!(data["mode"], "fetch");
    assert_eq!(data["version"], "1.8.0");
    assert_eq!(data["dest"], "sdk/tests/conformance");
    assert_eq!(data["asset"]["sha256"], sha.as_str());
    assert_eq!(
        data["asset"]["url"],
        format!("{url}/babelqueue-conformance-1.8.0.tar.gz")
    );
    assert_eq!(
        data["checksum"],
        json!({"expected": sha, "source": "SHA256SUMS", "url": format!("{url}/SHA256SUMS"),
               "matched": true})
    );
    let written = walkdir::WalkDir::new(cwd.join("sdk/tests/conformance"))
        .into_iter()
        .filter(|e| e.as_ref().unwrap().file_type().is_file())
        .count();
    assert_eq!(data["files"], written);
    assert_eq!(
        (&data["written"], &data["deleted"]),
        (&Value::Null, &Value::Null)
    );

    // --update lists what it wrote and deleted.
    let copy = cwd.join("sdk/tests/conformance");
    fs::write(copy.join("manifest.json"), "{}\n").unwrap();
    fs::write(copy.join("fixtures/gone.json"), "{}\n").unwrap();
    let doc = run(
        cwd,
        &["fetch", "--update", "1.8.0", "sdk/tests/conformance"],
        &env,
        0,
    );
    assert_eq!(doc["data"]["mode"], "update");
    assert_eq!(doc["data"]["written"], json!(["manifest.json"]));
    assert_eq!(doc["data"]["deleted"], json!(["fixtures/gone.json"]));
    assert_eq!(doc["data"]["checksum"]["matched"], true);

    // A pin that does not match: refused, with both hashes as values.
    let pin = "0".repeat(64);
    let doc = run(
        cwd,
        &["fetch", "1.8.0", "elsewhere", "--sha256", &pin],
        &env,
        1,
    );
    assert_eq!(doc["data"]["asset"]["sha256"], sha.as_str());
    assert_eq!(
        doc["data"]["checksum"],
        json!({"expected": pin, "source": "--sha256", "url": null, "matched": false})
    );
    assert_eq!(doc["data"]["files"], Value::Null);
    assert!(!cwd.join("elsewhere").exists());

    let doc = run(cwd, &["fetch", "9.9.9", "other"], &env, 2);
    assert_eq!(doc["error"]["kind"], "not-released");
    let doc = run(cwd, &["fetch", "latest", "other"], &env, 2);
    assert_eq!(doc["error"]["kind"], "usage");
}

#[test]
fn fetch_over_http_names_the_url_it_verified() {
    let (dir, _, sha) = mirror();
    let asset = fs::read(
        dir.path()
            .join("mirror/babelqueue-conformance-1.8.0.tar.gz"),
    )
    .unwrap();
    let sums = fs::read(dir.path().join("mirror/SHA256SUMS")).unwrap();
    let server = fetch_support::Server::start(move |r, _| {
        if r.path.ends_with("SHA256SUMS") {
            fetch_support::Reply::ok(&sums)
        } else {
            fetch_support::Reply::ok(&asset)
        }
    });
    let env = [("BQ_CONFORMANCE_BASE_URL", server.base.as_str())];
    let doc = run(dir.path(), &["fetch", "1.8.0", "dest"], &env, 0);
    assert_eq!(doc["data"]["asset"]["sha256"], sha.as_str());
    assert_eq!(
        doc["data"]["checksum"]["url"],
        format!("{}/SHA256SUMS", server.base)
    );
    assert!(dir.path().join("dest/manifest.json").is_file());
}

#[test]
fn fetch_check_documents_conform() {
    let (dir, url, _) = mirror();
    let cwd = dir.path();
    let env = [("BQ_CONFORMANCE_BASE_URL", url.as_str())];
    let copy = cwd.join("sdk/tests/conformance");
    copy_tree(&bundled_suite(), &copy);
    let doc = run(cwd, &["fetch", "--check", "1.8.0", s(&copy)], &env, 0);
    assert_eq!(doc["data"]["copy"]["known_release"], "1.8.0");
    fs::write(copy.join("fixtures/order-created.json"), "{}\n").unwrap();
    let doc = run(cwd, &["fetch", "--check", "1.8.0", s(&copy)], &env, 1);
    assert!(doc["data"]["fix"].is_string());
    let doc = run(cwd, &["fetch", "--check", "1.8.0", "absent"], &env, 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- sync

/// A workspace holding one SDK checkout (a real target path) and a targets file naming it.
fn workspace(targets: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("ws/php-sdk/tests")).unwrap();
    fs::write(dir.path().join("targets.txt"), targets).unwrap();
    dir
}

fn sync_args<'a>(dir: &'a Path, suite: &'a Path, extra: &[&'a str]) -> Vec<String> {
    let mut args = vec![
        "sync".to_string(),
        "--suite".into(),
        suite.display().to_string(),
        "--workspace".into(),
        dir.join("ws").display().to_string(),
        "--targets".into(),
        dir.join("targets.txt").display().to_string(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

fn run_sync(dir: &Path, extra: &[&str], exit: i32) -> Value {
    let suite = bundled_suite();
    let args = sync_args(dir, &suite, extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(dir, &args, &[], exit)
}

#[test]
fn sync_says_what_it_wrote() {
    let dir = workspace("php-sdk/tests/conformance\n");
    let doc = run_sync(dir.path(), &[], 0);
    let data = &doc["data"];
    assert_eq!(data["mode"], "sync");
    assert_eq!(data["canonical_version"], "1.8.0");
    assert_eq!(data["counts"]["synced"], 1);
    let row = row(&doc, "php-sdk/tests/conformance");
    assert_eq!(row["status"], "synced");
    assert!(row["written"].as_array().unwrap().len() > 50, "{row:#}");

    // Every line refused: nothing written, and still the facts.
    let dir = workspace("/etc/conformance\n");
    let doc = run_sync(dir.path(), &[], 1);
    assert_eq!(doc["data"]["mode"], "sync");
    assert_eq!(doc["data"]["targets"], json!([]));

    let dir = workspace("php-sdk/tests/conformance\n");
    fs::remove_dir_all(dir.path().join("ws")).unwrap();
    let doc = run_sync(dir.path(), &[], 2);
    assert_eq!(doc["command"], "sync");
}

#[test]
fn sync_check_documents_conform() {
    let dir = workspace("php-sdk/tests/conformance\n");
    copy_tree(
        &bundled_suite(),
        &dir.path().join("ws/php-sdk/tests/conformance"),
    );
    let doc = run_sync(dir.path(), &["--check"], 0);
    assert_eq!(doc["data"]["mode"], "check");
    fs::write(
        dir.path()
            .join("ws/php-sdk/tests/conformance/manifest.json"),
        "{}\n",
    )
    .unwrap();
    run_sync(dir.path(), &["--check"], 1);
    fs::remove_dir_all(dir.path().join("ws")).unwrap();
    run_sync(dir.path(), &["--check"], 2);
}

// ---------------------------------------------------------------------------------- results

#[test]
fn results_check_gives_each_sdk_its_counts() {
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let php = example_results("php-sdk.results.json");
    let doc = run(
        cwd.path(),
        &["results", "check", s(&php), "--suite", s(&suite)],
        &[],
        0,
    );
    let data = &doc["data"];
    assert_eq!(data["suite_version"], "1.8.0");
    assert_eq!(data["compatible"], true);
    let file = &data["files"][0];
    assert_eq!(
        (&file["sdk"], &file["version"]),
        (&json!("php-sdk"), &json!("1.9.0"))
    );
    assert_eq!(file["conformance_version"], "1.8.0");
    assert_eq!(file["compatible"], true);
    assert_eq!(file["sections"].as_array().unwrap().len(), 32);
    // The totals are the sum of the sections, and the sections in scope are all reported.
    for key in ["pass", "fail", "skip", "missing", "invalid"] {
        let sum: u64 = file["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[key].as_u64().unwrap())
            .sum();
        assert_eq!(file["totals"][key], sum, "{key}");
    }
    let reported: u64 = file["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["state"] == "reported")
        .map(|s| s["cases"].as_u64().unwrap())
        .sum();
    assert_eq!(file["totals"]["pass"], reported);

    // The real Python run without Redis or OpenTelemetry, with its real known-gaps file.
    let run_file = real_results("python-1.24.0-no-redis-no-otel.json");
    let gaps = real_results("gaps-otel-and-payload.json");
    let doc = run(
        cwd.path(),
        &[
            "results",
            "check",
            s(&run_file),
            "--suite",
            s(&suite),
            "--known-gaps",
            s(&gaps),
        ],
        &[],
        1,
    );
    let data = &doc["data"];
    assert_eq!(data["compatible"], false);
    assert_eq!(data["known_gaps"]["gaps"], 15);
    let file = &data["files"][0];
    assert_eq!(file["sdk"], "babelqueue-python");
    assert_eq!(file["version"], "1.24.0");
    assert_eq!(file["totals"]["fail"], 74);
    assert_eq!(file["known_gaps_accepted"], 15);
    assert_eq!(file["reasons"], 74 - 15);
    assert_eq!(file["reasons"], doc["errors"]);

    let doc = run(
        cwd.path(),
        &["results", "check", "absent.json", "--suite", s(&suite)],
        &[],
        2,
    );
    assert_eq!(doc["command"], "results check");
}

#[test]
fn results_matrix_gives_every_column() {
    let suite = bundled_suite();
    let cwd = tempfile::tempdir().unwrap();
    let (php, python) = (
        example_results("php-sdk.results.json"),
        example_results("babelqueue-python.results.json"),
    );
    let doc = run(
        cwd.path(),
        &[
            "results",
            "matrix",
            s(&php),
            s(&python),
            "--suite",
            s(&suite),
        ],
        &[],
        0,
    );
    let data = &doc["data"];
    assert_eq!(data["files"].as_array().unwrap().len(), 2);
    assert_eq!(data["compatible"], 1);
    assert_eq!(data["versions_mixed"], false);
    assert!(data["markdown"].as_str().unwrap().contains("| Section |"));
    assert_eq!(data["files"][1]["totals"]["fail"], 1);

    let html = cwd.path().join("matrix.html");
    let doc = run(
        cwd.path(),
        &[
            "results",
            "matrix",
            s(&php),
            "--suite",
            s(&suite),
            "--html",
            s(&html),
        ],
        &[],
        0,
    );
    assert_eq!(doc["data"]["html"], s(&html));
    assert_eq!(doc["data"]["markdown"], Value::Null);
    assert!(html.is_file());

    run(
        cwd.path(),
        &["results", "matrix", "absent.json", "--suite", s(&suite)],
        &[],
        2,
    );
}

#[test]
fn results_diff_counts_regressions() {
    let cwd = tempfile::tempdir().unwrap();
    let (full, partial) = (
        real_results("python-1.24.0.json"),
        real_results("python-1.24.0-no-redis-no-otel.json"),
    );
    let doc = run(
        cwd.path(),
        &["results", "diff", s(&full), s(&partial)],
        &[],
        1,
    );
    let data = &doc["data"];
    assert_eq!(data["sdk"], "babelqueue-python");
    assert_eq!(data["old"]["version"], "1.24.0");
    assert_eq!(data["regressions"], 74);
    assert_eq!(data["regressions"], doc["errors"]);
    assert_eq!(data["suite_changed"], false);

    let doc = run(
        cwd.path(),
        &["results", "diff", s(&partial), s(&full)],
        &[],
        0,
    );
    assert_eq!(doc["data"]["regressions"], 0);
    assert_eq!(doc["data"]["fixes"], 74);

    let php = example_results("php-sdk.results.json");
    let doc = run(cwd.path(), &["results", "diff", s(&full), s(&php)], &[], 2);
    assert_eq!(doc["error"]["kind"], "usage");
}

// ---------------------------------------------------------------------------------- diff

#[test]
fn diff_of_real_releases_gives_the_bump_verdict() {
    let cwd = tempfile::tempdir().unwrap();
    let (v15, v16) = (real_release("1.5.0"), real_release("1.6.0"));
    let doc = run(cwd.path(), &["diff", s(&v15), s(&v16)], &[], 1);
    let data = &doc["data"];
    assert_eq!(data["old"]["version"], "1.5.0");
    assert_eq!(data["new"]["version"], "1.6.0");
    // 1.6.0 removed and changed cases, but was released as a minor version.
    assert_eq!(data["required_bump"], "major");
    assert_eq!(data["declared_bump"], "minor");
    assert_eq!(data["sufficient"], false);
    assert_eq!(data["suggested_version"], "2.0.0");
    assert_eq!(data["counts"]["removed"], 1);
    assert_eq!(data["counts"]["changed"], 2);
    assert_eq!(data["by_code"]["case-removed"], 1);
    let counted: u64 = data["by_code"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(data["changes"], counted);
    assert_eq!(findings(&doc, "version-bump-insufficient").len(), 1);

    let notes = cwd.path().join("notes.md");
    let (v17, v18) = (real_release("1.7.0"), real_release("1.8.0"));
    let doc = run(
        cwd.path(),
        &["diff", s(&v17), s(&v18), "--markdown", s(&notes)],
        &[],
        0,
    );
    assert_eq!(doc["data"]["required_bump"], "minor");
    assert_eq!(doc["data"]["sufficient"], true);
    assert_eq!(doc["data"]["release_notes"], s(&notes));
    assert!(notes.is_file());

    let doc = run(cwd.path(), &["diff", s(&v17), "absent"], &[], 2);
    assert_eq!(doc["error"]["kind"], "not-found");
}

// ---------------------------------------------------------------------------------- the rest

#[test]
fn generated_text_and_refused_command_lines_conform() {
    let cwd = tempfile::tempdir().unwrap();
    let doc = run(cwd.path(), &["completions", "bash"], &[], 0);
    assert!(doc["data"]["text"].as_str().unwrap().contains("bqsuite"));
    let doc = run(cwd.path(), &["man"], &[], 0);
    assert!(doc["data"]["text"].as_str().unwrap().contains(".TH"));
    for (args, command) in [
        (vec!["completions", "no-such-shell"], "completions"),
        (vec!["frobnicate"], ""),
        (vec!["results"], "results"),
        (vec!["validate", "--no-such-option"], "validate"),
    ] {
        let doc = run(cwd.path(), &args, &[], 2);
        assert_eq!(doc["command"], command, "{args:?}");
        assert_eq!(doc["error"]["kind"], "usage", "{args:?}");
    }
}
