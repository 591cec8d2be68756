//! `bqsuite results check / matrix / diff`, driven through the binary. Every input is the
//! reference model's own results (`bqsuite eval`) on the bundled suite (the real 1.8.0 until the
//! proposal is adopted; counts are read from its manifest) edited in
//! the test, or a results file the real Python SDK's runner wrote (`tests/data/real-results/`).
//!
//! Depends on the `redis_layout` evaluator landing: until it does, `bqsuite eval suite` exits 1
//! (the model does not pass the real `redis_layout` cases), and every test built on the
//! reference results fails in `reference_results()` (tests/cli/kit).

mod inputs;
mod known_gaps;
mod suites;

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::kit;
use crate::kit::{bqsuite, code, json, real_results, reference_results, root, s, stderr, stdout};

/// The scope of every section of the bundled manifest.
fn scopes() -> serde_json::Map<String, Value> {
    let text = fs::read_to_string(kit::bundled_suite().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    manifest["sections"].as_object().unwrap().clone()
}

/// The number of cases of `section` in the bundled suite (counted from the manifest, so that a
/// case added to the suite needs no number changed here).
fn cases_in(section: &str) -> usize {
    let text = fs::read_to_string(kit::bundled_suite().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    bqsuite_core::ids::section_cases(section, &manifest[section]).len()
}

/// The reference results narrowed to an SDK that carries `bindings`.
fn sdk_results(sdk: &str, version: &str, bindings: &[&str]) -> Value {
    let mut doc = reference_results();
    let scopes = scopes();
    doc["sdk"] = json!(sdk);
    doc["version"] = json!(version);
    doc["bindings"] = json!(bindings);
    doc["sections"].as_object_mut().unwrap().retain(|name, _| {
        let scope = scopes[name]["scope"].as_str().unwrap();
        scope == "core" || bindings.contains(&scope)
    });
    doc
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }

    fn write(&self, name: &str, doc: &Value) -> PathBuf {
        let path = self.0.path().join(name);
        fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
        path
    }

    fn write_text(&self, name: &str, text: &[u8]) -> PathBuf {
        let path = self.0.path().join(name);
        fs::write(&path, text).unwrap();
        path
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

/// `results check --format json` on `files`: (exit code, report).
fn check_json(files: &[&Path]) -> (i32, Value) {
    let mut args = vec!["results", "check", "--format", "json"];
    args.extend(files.iter().map(|p| s(p)));
    let out = bqsuite(&args);
    let report = json(&out);
    (code(&out), report)
}

/// `check_json` against the real 1.8.0, the suite the real and the example results files were
/// made against (`suite/` holds it only until the proposal is adopted).
fn check_json_real(files: &[&Path]) -> (i32, Value) {
    let suite = kit::real_1_8_0();
    let mut args = vec!["results", "check", "--suite", s(&suite), "--format", "json"];
    args.extend(files.iter().map(|p| s(p)));
    let out = bqsuite(&args);
    let report = json(&out);
    (code(&out), report)
}

fn diagnostics(report: &Value) -> Vec<Value> {
    report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn codes(report: &Value) -> Vec<String> {
    diagnostics(report)
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Checks one edited document and asserts it is NOT Compatible with (at least) a finding of
/// `code` whose fields equal `fields`; returns that finding.
fn assert_reason(doc: &Value, code_name: &str, fields: &[(&str, Value)]) -> Value {
    let dir = Dir::new();
    let file = dir.write("results.json", doc);
    let (exit, report) = check_json(&[&file]);
    assert_eq!(exit, 1, "expected NOT Compatible: {report:#}");
    assert_eq!(report["ok"], false);
    let found = diagnostics(&report)
        .into_iter()
        .find(|d| d["code"] == code_name && fields.iter().all(|(field, want)| d[*field] == *want));
    let found = found
        .unwrap_or_else(|| panic!("no `{code_name}` finding with {fields:?}; report: {report:#}"));
    assert_eq!(found["severity"], "error");
    assert!(found["line"].as_u64().unwrap() >= 1, "no line: {found:#}");
    assert!(
        found["column"].as_u64().unwrap() >= 1,
        "no column: {found:#}"
    );
    assert!(found["help"].is_string(), "no help: {found:#}");
    assert!(
        found["file"].as_str().unwrap().ends_with("results.json"),
        "{found:#}"
    );
    let summary = report["summary"][0].as_str().unwrap();
    assert!(summary.contains("NOT Compatible ("), "{summary}");
    found
}

// ------------------------------------------------------------------------------------ check

#[test]
fn reference_results_are_compatible() {
    let dir = Dir::new();
    let file = dir.write("reference.json", &reference_results());
    let (exit, report) = check_json(&[&file]);
    assert_eq!(exit, 0, "{report:#}");
    assert_eq!(report["ok"], true);
    assert!(codes(&report).is_empty(), "{report:#}");
    let summary = report["summary"][0].as_str().unwrap();
    assert!(summary.ends_with(": Compatible"), "{summary}");
    assert!(summary.starts_with("bqsuite-reference "), "{summary}");
    // Human output carries the same verdict.
    let out = bqsuite(&["results", "check", s(&file)]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains(": Compatible"), "{}", stdout(&out));
}

#[test]
fn reference_results_list_every_case_of_the_real_suite() {
    // Every case of the bundled suite (the real 1.8.0: 710 cases in 32 sections), every one
    // passed by the reference model.
    let doc = reference_results();
    let text = fs::read_to_string(kit::bundled_suite().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["conformance_version"], manifest["conformance_version"]);
    let index = bqsuite_core::index::CaseIndex::new(&manifest);
    let sections = doc["sections"].as_object().unwrap();
    assert_eq!(sections.len(), index.sections());
    let cases: usize = sections
        .values()
        .map(|c| c.as_object().unwrap().len())
        .sum();
    assert_eq!(cases, index.len());
    for (section, cases) in sections {
        for (id, result) in cases.as_object().unwrap() {
            assert_eq!(result["status"], "pass", "{section}/{id}: {result}");
        }
    }
}

#[test]
fn docs_examples_check_as_documented() {
    // docs/examples (see docs/matrix-screenshot.sh): php-sdk is Compatible; babelqueue-python has
    // one failing trim case (and an ADR-backed skip), so it is NOT Compatible for one reason.
    let examples = root().join("docs/examples");
    let php = examples.join("php-sdk.results.json");
    let python = examples.join("babelqueue-python.results.json");
    let (exit, report) = check_json_real(&[&php, &python]);
    assert_eq!(exit, 1, "{report:#}");
    assert_eq!(
        report["summary"],
        json!([
            "php-sdk 1.9.0: Compatible",
            "babelqueue-python 2.3.0: NOT Compatible (1 reason)"
        ])
    );
    let diags = diagnostics(&report);
    assert_eq!(diags.len(), 1, "{report:#}");
    assert_eq!(diags[0]["code"], "results-case-failed");
    assert_eq!(diags[0]["section"], "trim");
    assert_eq!(diags[0]["case"], "make-keeps-unicode-nbsp-padding");
}

#[test]
fn real_sdk_results_diff_and_matrix() {
    let full = real_results("python-1.24.0.json");
    let partial = real_results("python-1.24.0-no-redis-no-otel.json");
    // The full run passes every case of the real suite.
    let (exit, report) = check_json_real(&[&full]);
    assert_eq!(exit, 0, "{report:#}");
    assert!(codes(&report).is_empty(), "{report:#}");

    // Without Redis and OpenTelemetry, 74 cases regress: redis_layout, redis and traceparent.
    let out = bqsuite(&["results", "diff", s(&full), s(&partial), "--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(code(&out), 1, "{doc:#}");
    let diags = diagnostics(&doc);
    assert_eq!(diags.len(), 74, "{doc:#}");
    let mut sections = std::collections::BTreeSet::new();
    for d in &diags {
        assert_eq!(d["code"], "results-regression", "{d:#}");
        sections.insert(d["section"].as_str().unwrap().to_string());
    }
    assert_eq!(
        sections.into_iter().collect::<Vec<_>>(),
        ["redis", "redis_layout", "traceparent"]
    );
    // Back again: the same 74 cases are fixes, and a fix is no error.
    let out = bqsuite(&["results", "diff", s(&partial), s(&full), "--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(code(&out), 0, "{doc:#}");

    // The matrix of both runs: one column per file, the full run Compatible.
    let real = kit::real_1_8_0();
    let out = bqsuite(&[
        "results",
        "matrix",
        s(&full),
        s(&partial),
        "--suite",
        s(&real),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let md = stdout(&out);
    assert!(md.contains("suite 1.8.0"), "{md}");
    assert!(md.contains("✅ **Compatible**"), "{md}");
    assert!(md.contains("❌ **NOT Compatible ("), "{md}");
}

#[test]
fn narrowed_sdks_with_adr_skips_are_compatible() {
    let dir = Dir::new();
    let mut python = sdk_results("babelqueue-python", "2.3.0", &["sqs", "redis", "otel"]);
    python["sections"]["encode_reject"]["reject-repeated-key"] =
        json!({"status": "skip", "reason": "make(meta=) takes one dict (ADR-0031)"});
    // A php SDK leaves asb out (ADR-0021): its sections are not required.
    let php = sdk_results("php-sdk", "1.9.0", &["sqs"]);
    let (a, b) = (dir.write("py.json", &python), dir.write("php.json", &php));
    let (exit, report) = check_json(&[&a, &b]);
    assert_eq!(exit, 0, "{report:#}");
    assert_eq!(
        report["summary"],
        json!([
            "babelqueue-python 2.3.0: Compatible",
            "php-sdk 1.9.0: Compatible"
        ])
    );
}

#[test]
fn a_missing_case_is_a_reason() {
    let mut doc = reference_results();
    doc["sections"]["trim"]
        .as_object_mut()
        .unwrap()
        .remove("make-keeps-unicode-nbsp-padding");
    assert_reason(
        &doc,
        "results-case-missing",
        &[
            ("section", json!("trim")),
            ("case", json!("make-keeps-unicode-nbsp-padding")),
            (
                "pointer",
                json!("/sections/trim/make-keeps-unicode-nbsp-padding"),
            ),
        ],
    );
}

#[test]
fn an_unknown_case_or_section_is_a_reason() {
    let mut doc = reference_results();
    doc["sections"]["sqs"]["schema_version_gate/value-3"] = json!({"status": "pass"});
    let d = assert_reason(
        &doc,
        "results-case-unknown",
        &[
            ("section", json!("sqs")),
            ("case", json!("schema_version_gate/value-3")),
            (
                "pointer",
                json!("/sections/sqs/schema_version_gate~1value-3"),
            ),
        ],
    );
    assert!(d["message"].as_str().unwrap().contains("value-3"));

    let mut doc = reference_results();
    doc["sections"]["nats"] = json!({"x": {"status": "pass"}});
    assert_reason(
        &doc,
        "results-section-unknown",
        &[("pointer", json!("/sections/nats"))],
    );
}

#[test]
fn a_skip_without_an_adr_is_a_reason() {
    let mut doc = reference_results();
    doc["sections"]["encode_reject"]["reject-repeated-key"] =
        json!({"status": "skip", "reason": "our API takes one dict"});
    let dir = Dir::new();
    let file = dir.write("results.json", &doc);
    let (_, report) = check_json(&[&file]);
    // One reason, under its own code: the schema's pattern does not report it a second time.
    assert_eq!(codes(&report), ["results-skip-without-adr"], "{report:#}");
    assert_reason(
        &doc,
        "results-skip-without-adr",
        &[
            ("section", json!("encode_reject")),
            ("case", json!("reject-repeated-key")),
            (
                "pointer",
                json!("/sections/encode_reject/reject-repeated-key"),
            ),
        ],
    );
    // No reason at all is the same reason.
    doc["sections"]["encode_reject"]["reject-repeated-key"] = json!({"status": "skip"});
    assert_reason(
        &doc,
        "results-skip-without-adr",
        &[("case", json!("reject-repeated-key"))],
    );
}

#[test]
fn a_wrong_conformance_version_is_a_reason() {
    let mut doc = reference_results();
    doc["conformance_version"] = json!("1.4.0");
    let d = assert_reason(
        &doc,
        "results-version",
        &[("pointer", json!("/conformance_version"))],
    );
    assert!(d["message"].as_str().unwrap().contains("1.4.0"), "{d:#}");
}

#[test]
fn a_binding_under_an_exception_is_a_reason() {
    // A php SDK listing asb (excepted for php by ADR-0021), with the asb section.
    let doc = sdk_results("php-sdk", "1.9.0", &["sqs", "asb"]);
    let d = assert_reason(
        &doc,
        "results-binding-excepted",
        &[("pointer", json!("/bindings/1"))],
    );
    assert!(d["message"].as_str().unwrap().contains("ADR-0021"), "{d:#}");
    assert_reason(
        &doc,
        "results-section-out-of-scope",
        &[("pointer", json!("/sections/asb"))],
    );
    // The family comes from the name: the same file from a node SDK lists asb legitimately.
    let mut node = doc.clone();
    node["sdk"] = json!("@babelqueue/azure-service-bus");
    let dir = Dir::new();
    let (exit, report) = check_json(&[&dir.write("node.json", &node)]);
    assert_eq!(exit, 0, "{report:#}");
}

#[test]
fn a_missing_binding_section_is_a_reason() {
    let mut doc = sdk_results("babelqueue-python", "2.3.0", &["sqs", "redis", "otel"]);
    doc["sections"].as_object_mut().unwrap().remove("delay");
    let d = assert_reason(
        &doc,
        "results-section-missing",
        &[("pointer", json!("/sections/delay"))],
    );
    assert!(d["message"].as_str().unwrap().contains("sqs"), "{d:#}");
    // A core section is required of everyone.
    let mut doc = sdk_results("babelqueue-go", "1.0.0", &[]);
    doc["sections"].as_object_mut().unwrap().remove("job_type");
    assert_reason(
        &doc,
        "results-section-missing",
        &[("pointer", json!("/sections/job_type"))],
    );
}

#[test]
fn a_section_out_of_scope_is_a_reason() {
    // The otel section reported without otel in bindings: bindings is incomplete.
    let mut doc = sdk_results("babelqueue-go", "1.0.0", &["sqs"]);
    doc["sections"]["traceparent"] = reference_results()["sections"]["traceparent"].clone();
    let d = assert_reason(
        &doc,
        "results-section-out-of-scope",
        &[("pointer", json!("/sections/traceparent"))],
    );
    assert!(d["help"].as_str().unwrap().contains("bindings"), "{d:#}");
}

#[test]
fn an_unknown_binding_is_a_reason() {
    let mut doc = reference_results();
    doc["bindings"].as_array_mut().unwrap().push(json!("nats"));
    let dir = Dir::new();
    let (_, report) = check_json(&[&dir.write("results.json", &doc)]);
    // The enum violation is not reported a second time as a schema finding.
    assert_eq!(codes(&report), ["results-binding-unknown"], "{report:#}");
    assert_reason(
        &doc,
        "results-binding-unknown",
        &[("pointer", json!("/bindings/8"))],
    );
}

#[test]
fn a_failing_case_is_a_reason() {
    let mut doc = reference_results();
    doc["sections"]["sqs"]["attempts_reconciliation/first-delivery"] =
        json!({"status": "fail", "reason": "attempts stayed 0"});
    let d = assert_reason(
        &doc,
        "results-case-failed",
        &[
            ("section", json!("sqs")),
            ("case", json!("attempts_reconciliation/first-delivery")),
            (
                "pointer",
                json!("/sections/sqs/attempts_reconciliation~1first-delivery"),
            ),
        ],
    );
    assert!(d["message"].as_str().unwrap().contains("attempts stayed 0"));
}

#[test]
fn schema_invalid_is_a_reason() {
    let mut doc = reference_results();
    doc["extra"] = json!(true);
    assert_reason(&doc, "results-schema", &[("pointer", json!(""))]);

    let mut doc = reference_results();
    doc["sections"]["cases"]["order-created"] = json!({"status": "passed"});
    assert_reason(
        &doc,
        "results-schema",
        &[("pointer", json!("/sections/cases/order-created/status"))],
    );

    // generated_at is an RFC 3339 date-time: `format` is asserted.
    let mut doc = reference_results();
    doc["generated_at"] = json!("yesterday");
    assert_reason(
        &doc,
        "results-schema",
        &[("pointer", json!("/generated_at"))],
    );
}

#[test]
fn line_and_column_point_into_the_file() {
    let mut doc = reference_results();
    doc["sections"]["cases"]["order-created"] = json!({"status": "fail"});
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let dir = Dir::new();
    let file = dir.write_text("results.json", text.as_bytes());
    let (_, report) = check_json(&[&file]);
    let d = &diagnostics(&report)[0];
    let line = d["line"].as_u64().unwrap() as usize;
    let column = d["column"].as_u64().unwrap() as usize;
    let at: String = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .chars()
        .skip(column - 1)
        .collect();
    assert!(at.starts_with("\"order-created\""), "{at}");
}

#[test]
fn unreadable_files_are_reasons_not_crashes() {
    let dir = Dir::new();
    let not_json = dir.write_text("a.json", b"{\n  \"sdk\": \"x\",\n  oops\n}");
    let (exit, report) = check_json(&[&not_json]);
    assert_eq!(exit, 1);
    let d = &diagnostics(&report)[0];
    assert_eq!(d["code"], "results-json-syntax");
    assert_eq!(d["line"], 3);
    for (name, bytes) in [
        ("b.json", &b"\xff\xfe"[..]),
        ("c.json", b""),
        ("d.json", b"[1, 2, 3]"),
        ("e.json", b"null"),
        ("f.json", b"{\"sections\": []}"),
        ("g.json", b"{\"sections\": {\"cases\": 5, \"trim\": {\"x\": []}}}"),
        (
            "h.json",
            b"{\"bindings\": [1, null, \"asb\", \"asb\"], \"sdk\": \"php\", \"sections\": {\"cases\": {\"order-created\": {\"status\": \"skip\", \"reason\": 7}}}}",
        ),
    ] {
        let file = dir.write_text(name, bytes);
        let (exit, report) = check_json(&[&file]);
        assert_eq!(exit, 1, "{name}: {report:#}");
        assert!(!codes(&report).is_empty(), "{name}");
    }
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let file = dir.write_text("deep.json", deep.as_bytes());
    assert_eq!(check_json(&[&file]).0, 1);
    // Larger than the cap: refused with a clear finding.
    let big = vec![b' '; 16 * 1024 * 1024 + 1];
    let file = dir.write_text("big.json", &big);
    let (exit, report) = check_json(&[&file]);
    assert_eq!(exit, 1);
    assert_eq!(codes(&report), ["results-too-large"]);
    // A file that does not exist cannot be checked at all.
    let out = bqsuite(&["results", "check", s(&dir.path("none.json"))]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

// ------------------------------------------------------------------------------------ matrix

fn python_with_failure() -> Value {
    let mut doc = sdk_results("babelqueue-python", "2.3.0", &["sqs", "redis", "otel"]);
    doc["sections"]["trim"]["make-keeps-unicode-nbsp-padding"] =
        json!({"status": "fail", "reason": "strip() trims <U+00A0>"});
    doc["sections"]["encode_reject"]["reject-repeated-key"] =
        json!({"status": "skip", "reason": "one dict (ADR-0031)"});
    doc
}

#[test]
fn matrix_shows_both_sdks_with_counts_and_verdicts() {
    let dir = Dir::new();
    let python = dir.write("python.json", &python_with_failure());
    let php = dir.write("php.json", &sdk_results("php-sdk", "1.9.0", &["sqs"]));
    let (html_out, md_out) = (dir.path("m.html"), dir.path("m.md"));

    // Without outputs: the Markdown table on stdout.
    let out = bqsuite(&["results", "matrix", s(&python), s(&php)]);
    assert_eq!(
        code(&out),
        0,
        "a failing SDK is reported, not an error: {}",
        stderr(&out)
    );
    let md = stdout(&out);
    assert!(
        md.contains("| Section | Scope | Cases | babelqueue-python 2.3.0 | php-sdk 1.9.0 |"),
        "{md}"
    );
    assert!(md.contains("❌ **NOT Compatible (1 reason)**"), "{md}");
    assert!(md.contains("✅ **Compatible**"), "{md}");
    // Case counts of the bundled suite (the real 1.8.0: trim 35, encode_reject 13, asb 31,
    // traceparent 14).
    let [trim, reject, asb, trace] = ["trim", "encode_reject", "asb", "traceparent"].map(cases_in);
    for row in [
        format!(
            "| trim | core | {trim} | 🔴 {} pass · 1 fail | 🟢 {trim} pass |",
            trim - 1
        ),
        format!(
            "| encode\\_reject | core | {reject} | 🟡 {} pass · 1 skip | 🟢 {reject} pass |",
            reject - 1
        ),
        format!("| asb | asb | {asb} | — | — (ADR-0021) |"),
        format!("| traceparent | otel | {trace} | 🟢 {trace} pass | — |"),
    ] {
        assert!(md.contains(&row), "{row}\n{md}");
    }
    // Drill-down names the failing case; input text is escaped.
    assert!(
        md.contains("make-keeps-unicode-nbsp-padding (fail: strip() trims \\<U+00A0\\>)"),
        "{md}"
    );
    assert!(
        stderr(&out).contains("results-not-compatible"),
        "{}",
        stderr(&out)
    );

    // With outputs: both files written, a short summary printed.
    let out = bqsuite(&[
        "results",
        "matrix",
        s(&python),
        s(&php),
        "--html",
        s(&html_out),
        "--markdown",
        s(&md_out),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("wrote"), "{}", stdout(&out));
    assert_eq!(fs::read_to_string(&md_out).unwrap(), md);
    let html = fs::read_to_string(&html_out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for want in [
        "<span class=\"sdk\">babelqueue-python</span><span class=\"ver\">2.3.0</span>".to_string(),
        "<span class=\"sdk\">php-sdk</span><span class=\"ver\">1.9.0</span>".to_string(),
        format!("<td class=\"fail\"><details><summary>{} pass · 1 fail</summary>", trim - 1),
        "<code>make-keeps-unicode-nbsp-padding</code><div class=\"reason\">strip() trims &lt;U+00A0&gt;</div>".to_string(),
        format!("<td class=\"skip\"><details><summary>{} pass · 1 skip</summary>", reject - 1),
        format!("<td class=\"pass\">{trim} pass</td>"),
        "✘ NOT Compatible (1 reason)".to_string(),
        "✔ Compatible".to_string(),
    ] {
        assert!(html.contains(&want), "missing {want:?} in the HTML");
    }
    // Self-contained: no script, no external resource.
    for banned in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(banned), "{banned} in the HTML");
    }
    assert!(
        !html.contains("class=\"warning\""),
        "no version warning expected"
    );
}

#[test]
fn matrix_escapes_every_input_string() {
    let dir = Dir::new();
    let mut doc = python_with_failure();
    doc["sdk"] = json!("<script>alert(1)</script>");
    doc["version"] = json!("1.0\" onmouseover=\"x");
    doc["sections"]["trim"]["make-keeps-unicode-nbsp-padding"]["reason"] =
        json!("<img src=x onerror=alert(2)>");
    doc["sections"]["trim"]["<b>bold</b>"] = json!({"status": "pass"});
    let file = dir.write("evil.json", &doc);
    let html_out = dir.path("m.html");
    let out = bqsuite(&["results", "matrix", s(&file), "--html", s(&html_out)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let html = fs::read_to_string(&html_out).unwrap();
    assert!(!html.contains("<script"), "unescaped sdk");
    assert!(!html.contains("<img"), "unescaped reason");
    assert!(!html.contains("<b>bold"), "unescaped id");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("1.0&quot; onmouseover=&quot;x"));
    let md = stdout(&bqsuite(&["results", "matrix", s(&file)]));
    assert!(md.contains("\\<script\\>"), "{md}");
}

#[test]
fn matrix_warns_when_versions_differ() {
    let dir = Dir::new();
    let mut old = sdk_results("php-sdk", "1.8.0", &["sqs"]);
    old["conformance_version"] = json!("1.4.0");
    let a = dir.write("ref.json", &reference_results());
    let b = dir.write("old.json", &old);
    let html_out = dir.path("m.html");
    let out = bqsuite(&["results", "matrix", s(&a), s(&b), "--html", s(&html_out)]);
    assert_eq!(code(&out), 0, "a warning is not an error: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("warning[results-version-mixed]"), "{err}");
    assert!(err.contains("1.4.0 (php-sdk 1.8.0)"), "{err}");
    let html = fs::read_to_string(&html_out).unwrap();
    assert!(
        html.contains("<div class=\"warning\" role=\"alert\">"),
        "{html}"
    );
    let md = stdout(&bqsuite(&["results", "matrix", s(&a), s(&b)]));
    assert!(
        md.contains("> **⚠️ Warning:** The results files pin different suite versions"),
        "{md}"
    );
    // Same version everywhere: no warning.
    let out = bqsuite(&["results", "matrix", s(&a), s(&a)]);
    assert!(!stderr(&out).contains("results-version-mixed"));
    assert!(!stdout(&out).contains("Warning"));
}

// ------------------------------------------------------------------------------------ diff

#[test]
fn diff_finds_regressions_and_fixes() {
    let dir = Dir::new();
    let mut old = sdk_results("babelqueue-python", "2.2.0", &["sqs"]);
    old["sections"]["trim"]["make-keeps-unicode-nbsp-padding"] = json!({"status": "fail"});
    old["sections"]["cases"]
        .as_object_mut()
        .unwrap()
        .remove("order-created");
    let mut new = sdk_results("babelqueue-python", "2.3.0", &["sqs"]);
    new["sections"]["job_type"]["null-job-ignored-falls-back-to-urn"] =
        json!({"status": "fail", "reason": "no warning"});
    new["sections"]["trim"]
        .as_object_mut()
        .unwrap()
        .remove("make-trims-ascii-space");
    let (a, b) = (dir.write("old.json", &old), dir.write("new.json", &new));

    let out = bqsuite(&["results", "diff", s(&a), s(&b), "--format", "json"]);
    assert_eq!(code(&out), 1, "a regression fails: {}", stdout(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let find = |c: &str| {
        diagnostics(&report)
            .into_iter()
            .filter(|d| d["code"] == c)
            .collect::<Vec<_>>()
    };
    let regressions = find("results-regression");
    assert_eq!(regressions.len(), 1, "{report:#}");
    assert_eq!(regressions[0]["severity"], "error");
    assert_eq!(regressions[0]["case"], "null-job-ignored-falls-back-to-urn");
    assert_eq!(regressions[0]["section"], "job_type");
    assert!(
        regressions[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("new.json")
    );
    let fixes = find("results-fix");
    assert_eq!(fixes.len(), 1, "{report:#}");
    assert_eq!(fixes[0]["severity"], "note");
    assert_eq!(fixes[0]["case"], "make-keeps-unicode-nbsp-padding");
    assert_eq!(find("results-case-added")[0]["case"], "order-created");
    assert_eq!(
        find("results-case-removed")[0]["case"],
        "make-trims-ascii-space"
    );
    assert_eq!(report["errors"], 1);

    // Back the other way: the fix is a regression and the regression a fix.
    let out = bqsuite(&["results", "diff", s(&b), s(&a), "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let regression = diagnostics(&report)
        .into_iter()
        .find(|d| d["code"] == "results-regression")
        .unwrap();
    assert_eq!(regression["case"], "make-keeps-unicode-nbsp-padding");

    // No regression: exit 0, the fix is a note.
    let mut fixed = old.clone();
    fixed["sections"]["trim"]["make-keeps-unicode-nbsp-padding"] = json!({"status": "pass"});
    let c = dir.write("fixed.json", &fixed);
    let out = bqsuite(&["results", "diff", s(&a), s(&c)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("note[results-fix]"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("0 regressions, 1 fix"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn diff_refuses_two_different_sdks() {
    let dir = Dir::new();
    let a = dir.write("a.json", &sdk_results("babelqueue-python", "2.3.0", &[]));
    let b = dir.write("b.json", &sdk_results("babelqueue-go", "1.0.0", &[]));
    let out = bqsuite(&["results", "diff", s(&a), s(&b)]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("babelqueue-go"), "{}", stderr(&out));
    let junk = dir.write_text("junk.json", b"not json");
    let out = bqsuite(&["results", "diff", s(&a), s(&junk)]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("not valid JSON"), "{}", stderr(&out));
}
