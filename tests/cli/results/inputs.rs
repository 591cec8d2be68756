//! `results` inputs are bounded: only regular files are read (a FIFO would hang), and names,
//! texts and case counts are capped, so a 15 MiB sdk name is refused instead of costing a
//! gigabyte in `results matrix`.

use std::fs;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::kit;
use crate::kit::{code, real_results, root, stderr, stdout};

/// Waits for `child`, killing it (and failing) if it hangs: a FIFO must never block.
fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("bqsuite hung on the input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Output {
    let child = kit::command()
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    finish(child)
}

#[test]
fn a_huge_sdk_name_is_refused_not_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc: Value =
        serde_json::from_str(&fs::read_to_string(real_results("python-1.24.0.json")).unwrap())
            .unwrap();
    doc["sdk"] = Value::String("p".repeat(15 * 1024 * 1024));
    let hostile = dir.path().join("hostile.json");
    fs::write(&hostile, serde_json::to_vec(&doc).unwrap()).unwrap();
    let good = real_results("python-1.24.0.json");
    let (g, h) = (good.to_str().unwrap(), hostile.to_str().unwrap());
    let out = run(&["results", "check", g, h, "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.len() < 1024 * 1024, "{} bytes", text.len());
    let report: Value = serde_json::from_str(&text).unwrap();
    let found = report["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["code"] == "results-too-large" && d["message"].as_str().unwrap().contains("`sdk`")
    });
    assert!(found, "{report:#}");
    // The matrix is a report (exit 0): the file is listed as not compatible, its name not shown.
    for format in ["json", "human"] {
        let out = run(&["results", "matrix", g, h, "--format", format]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out) + &stderr(&out);
        assert!(text.len() < 1024 * 1024, "{format}: {} bytes", text.len());
        assert!(!text.contains(&"p".repeat(300)), "{format}");
        assert!(text.contains("NOT Compatible"), "{format}: {text}");
    }
    let out = run(&[
        "results",
        "diff",
        good.to_str().unwrap(),
        hostile.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stderr(&out).len() < 64 * 1024);
}

#[cfg(unix)]
#[test]
fn a_fifo_or_device_is_refused_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("results.json");
    kit::mkfifo(&fifo);
    let good = real_results("python-1.24.0.json");
    let (f, g) = (fifo.to_str().unwrap(), good.to_str().unwrap());
    for args in [
        vec!["results", "check", f],
        vec!["results", "matrix", f],
        vec!["results", "diff", g, f],
        vec!["results", "check", g, "--known-gaps", f],
        vec!["results", "check", "/dev/zero"],
    ] {
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains("not a results file"), "{args:?}: {err}");
        assert!(!err.contains("os error"), "{err}");
    }
}

/// `results check` without `--suite` in an SDK repository (a vendored copy in
/// `tests/conformance`, no `suite/`) names the copy: a command with this run's arguments and
/// `--suite tests/conformance`, which works when pasted.
#[test]
fn without_a_suite_in_an_sdk_repository_the_vendored_copy_is_named() {
    let repo = tempfile::tempdir().unwrap();
    kit::vendor_set(
        &kit::bundled_suite(),
        &repo.path().join("tests/conformance"),
    );
    fs::copy(
        real_results("python-1.24.0.json"),
        repo.path().join("results.json"),
    )
    .unwrap();
    let out = kit::run_in(repo.path(), &["results", "check", "results.json"], &[]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let text = stderr(&out);
    let command = "bqsuite results check results.json --suite tests/conformance";
    assert!(text.contains(&format!("`{command}`")), "{text}");
    let pasted = kit::paste(repo.path(), command);
    assert_eq!(code(&pasted), 0, "{}{}", stdout(&pasted), stderr(&pasted));
}
