//! `--format json` of the commands an SDK repository runs (fetch, fetch --check, sync,
//! sync --check, results check, matrix and diff), in each outcome each has, against the
//! published schema `docs/reference/output.schema.json`; and the facts in `data` checked against
//! the world (the files written, a file:// mirror and a 127.0.0.1 server, the real results files
//! of the Python SDK).

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::kit::schema::*;
use crate::kit::server::{Reply, Server};
use crate::kit::*;

// ---------------------------------------------------------------------------------- fetch

/// A file:// mirror holding the real release 1.8.0, as `release` writes it.
fn mirror() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    released(
        &suite_copy_of(&real_1_8_0()).path(),
        &dir.path().join("mirror"),
    );
    let url = file_url(&dir.path().join("mirror"));
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
    let server = Server::start(move |r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(&sums)
        } else {
            Reply::ok(&asset)
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
    copy_tree(&real_1_8_0(), &copy);
    let doc = run(cwd, &["fetch", "--check", "1.8.0", s(&copy)], &env, 0);
    assert_eq!(doc["data"]["copy"]["known_release"], "1.8.0");
    fs::write(copy.join("fixtures/order-created.json"), "{}\n").unwrap();
    let doc = run(cwd, &["fetch", "--check", "1.8.0", s(&copy)], &env, 1);
    assert!(doc["data"]["fix"].is_string());
    assert_eq!(doc["data"]["mode"], "check");
    assert_eq!(doc["data"]["copy"]["changed"], 1);
    // A refused asset: the release facts are there, the comparison is not.
    let pin = "0".repeat(64);
    let doc = run(
        cwd,
        &["fetch", "--check", "1.8.0", s(&copy), "--sha256", &pin],
        &env,
        1,
    );
    assert_eq!(doc["data"]["checksum"]["matched"], false);
    assert_eq!(doc["data"]["copy"], Value::Null);
    assert_eq!(doc["data"]["status"], Value::Null);
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

/// `sync` with the real 1.8.0 as the canonical suite.
fn run_sync(dir: &Path, extra: &[&str], exit: i32) -> Value {
    let suite = real_1_8_0();
    let args = sync_args(&suite, &dir.join("ws"), &dir.join("targets.txt"), extra);
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
        &real_1_8_0(),
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
    let doc = run_sync(dir.path(), &["--check"], 1);
    let row = row(&doc, "php-sdk/tests/conformance");
    assert_eq!(row["status"], "drift");
    assert_eq!(row["group"], 0);
    assert_eq!(doc["data"]["groups"][0]["status"], "drift");
    // The row's shape is closed: the schema refuses a field it does not describe, and a count
    // that is not a number.
    let mut wrong = doc.clone();
    wrong["data"]["targets"][0]["surprise"] = json!(1);
    assert!(!violations(&wrong).is_empty());
    let mut wrong = doc.clone();
    wrong["data"]["targets"][0]["cases"]["missing"] = json!("many");
    assert!(!violations(&wrong).is_empty());

    // Every line refused: nothing compared, and still the facts.
    let refused = workspace("/etc/conformance\n");
    let doc = run_sync(refused.path(), &["--check"], 1);
    assert_eq!(doc["data"]["mode"], "check");
    assert_eq!(doc["data"]["targets"], json!([]));
    assert_eq!(doc["data"]["groups"], json!([]));

    fs::remove_dir_all(dir.path().join("ws")).unwrap();
    run_sync(dir.path(), &["--check"], 2);
}

// ---------------------------------------------------------------------------------- results

#[test]
fn results_check_gives_each_sdk_its_counts() {
    // The example results were made against the real 1.8.0.
    let suite = real_1_8_0();
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
    let suite = real_1_8_0();
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
