//! Hostile adapters: each misbehaviour is an errored case with a clear message (or, at start, a
//! clear exit 2), the run goes on, bqsuite never hangs, holds no more than its bounds, and shows
//! nothing raw of what the adapter said.
//!
//! The adapter is a Python proxy in front of the bundled adapter: it forwards every request and
//! reply, and misbehaves (as `MODE` says) at the op request numbered `AT`, counted across
//! restarts in a file, so a restarted proxy goes on where the first stopped.

use std::fs;

use serde_json::Value;

use super::{exe, refused_with, run_json, run_raw};
use crate::kit::*;

const PROXY: &str = r#"
import json, subprocess, sys, time
mode, at, counter, bq = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
child = subprocess.Popen([bq, "adapter", "sbp-v1"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
out = sys.stdout
def bump():
    try:
        n = int(open(counter).read() or 0)
    except FileNotFoundError:
        n = 0
    open(counter, "w").write(str(n + 1))
    return n + 1
for line in sys.stdin:
    req = json.loads(line)
    child.stdin.write(line); child.stdin.flush()
    if req.get("cmd") == "stop":
        break
    reply = child.stdout.readline()
    if req.get("cmd") == "start":
        r = json.loads(reply)
        if mode == "protocol-2":
            r["protocol"] = 2
        if mode == "escapes":
            r["implementation"]["name"] = "evil\x1b[2J\n::error::pwned\u202e"
            sys.stderr.write("\x1b[31m::warning::from stderr\n")
        out.write(json.dumps(r) + "\n"); out.flush()
        continue
    if mode == "skip-handshake" and req.get("op") == "handshake":
        out.write(json.dumps({"seq": req["seq"], "skip": "no handshake parser"}) + "\n")
        out.flush()
        continue
    n = bump()
    hit = n == at or (mode.endswith("-always") and n >= at)
    if hit and mode.startswith("crash"):
        sys.exit(3)
    if hit and mode == "hang":
        time.sleep(600)
    if hit and mode == "not-json":
        reply = "this is not json\n"
    if hit and mode == "wrong-seq":
        reply = json.dumps({"seq": req["seq"] + 100, "value": 1}) + "\n"
    if hit and mode == "flood":
        chunk = "x" * (1 << 20)
        for _ in range(1024):
            out.write(chunk)
        out.flush()
        time.sleep(600)
    if hit and mode == "escapes":
        reply = json.dumps({"seq": req["seq"], "error": {"code": 9, "message": "\x1b[2J\n::error::pwned"}}) + "\n"
    out.write(reply); out.flush()
"#;

/// Runs the SBP suite's handshake section (or what `extra` selects) through the proxy in `mode`,
/// misbehaving at op `at`.
fn hostile(mode: &str, at: u32, extra: &[&str]) -> (i32, Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("proxy.py");
    fs::write(&script, PROXY).unwrap();
    let counter = dir.path().join("count");
    let at = at.to_string();
    let adapter = ["python3", s(&script), mode, &at, s(&counter), exe()];
    // The handshake section, unless `extra` selects.
    let mut args = match extra.is_empty() {
        true => vec!["--section", "handshake"],
        false => extra.to_vec(),
    };
    args.extend_from_slice(&["--timeout", "2"]);
    let (exit, doc) = run_json(&sbp_suite(), &args, &adapter, dir.path());
    (exit, doc, dir)
}

fn errored_messages(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "run-case-errored")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

fn count(doc: &Value, key: &str) -> u64 {
    doc["data"][key].as_u64().unwrap()
}

/// One misbehaviour at the third request: that case errors with `words` in its message, the
/// adapter is restarted when it stopped, and every other case still passes.
fn one_errored_case(mode: &str, words: &str, restarted: bool) {
    let (exit, doc, _dir) = hostile(mode, 3, &[]);
    assert_eq!(exit, 1, "{mode}: {doc:#}");
    let messages = errored_messages(&doc);
    assert_eq!(messages.len(), 1, "{mode}: {doc:#}");
    assert!(messages[0].contains(words), "{mode}: {}", messages[0]);
    assert_eq!(count(&doc, "fail"), 0, "{mode}: {doc:#}");
    assert_eq!(
        count(&doc, "pass"),
        count(&doc, "cases") - 1,
        "{mode}: {doc:#}"
    );
    assert_eq!(doc["data"]["restarted"], restarted, "{mode}: {doc:#}");
}

#[test]
fn an_adapter_that_crashes_is_restarted_once_and_the_run_goes_on() {
    one_errored_case("crash", "exit", true);
}

#[test]
fn an_adapter_that_hangs_is_stopped_at_the_time_bound() {
    one_errored_case("hang", "2 s", true);
}

#[test]
fn a_reply_that_is_not_json_errors_its_case() {
    one_errored_case("not-json", "JSON", false);
}

#[test]
fn a_reply_with_the_wrong_seq_errors_its_case() {
    one_errored_case("wrong-seq", "seq", false);
}

/// A reply line of 1 GB (without its newline) is never held: bqsuite runs under an address
/// space of 1.5 GB, drops the line as it reads it, and kills the adapter once it has drained
/// its bound.
#[cfg(unix)]
#[test]
fn a_flood_of_output_is_dropped_not_held() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("proxy.py");
    fs::write(&script, PROXY).unwrap();
    let counter = dir.path().join("count");
    let results = dir.path().join("results.json");
    let line = format!(
        "ulimit -v 1500000; exec '{}' run '{}' --section handshake --timeout 20 --out '{}' \
         --format json -- python3 '{}' flood 3 '{}' '{}'",
        exe(),
        sbp_suite().display(),
        results.display(),
        script.display(),
        counter.display(),
        exe()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &line])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    assert_eq!(code(&out), 1, "{doc:#}");
    let messages = errored_messages(&doc);
    assert_eq!(messages.len(), 1, "{doc:#}");
    assert!(messages[0].contains("MiB"), "{}", messages[0]);
    assert_eq!(count(&doc, "pass"), count(&doc, "cases") - 1, "{doc:#}");
}

/// An adapter that dies on every request after the second: restarted once, then every case
/// after that errors at once, and the run ends.
#[test]
fn an_adapter_that_keeps_dying_errors_the_rest_of_the_run() {
    let (exit, doc, _dir) = hostile("crash-always", 3, &[]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(count(&doc, "pass"), 2, "{doc:#}");
    assert_eq!(count(&doc, "errored"), count(&doc, "cases") - 2, "{doc:#}");
    assert_eq!(doc["data"]["restarted"], true, "{doc:#}");
}

/// Escape sequences, bidi controls and `::` command lines from the adapter (its name, an error
/// message, its stderr) never reach the output raw, in any format.
#[test]
fn what_the_adapter_says_is_escaped_in_every_format() {
    for format in ["human", "json", "github"] {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("proxy.py");
        fs::write(&script, PROXY).unwrap();
        let counter = dir.path().join("count");
        let adapter = ["python3", s(&script), "escapes", "3", s(&counter), exe()];
        let out = run_raw(
            &sbp_suite(),
            &["--section", "handshake"],
            &adapter,
            dir.path(),
            format,
        );
        let text = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!text.contains('\x1b'), "{format}: raw ESC: {text}");
        assert!(
            !text.contains('\u{202e}'),
            "{format}: raw bidi control: {text}"
        );
        assert!(
            !text
                .lines()
                .any(|l| l.trim_start().starts_with("::error::pwned")
                    || l.trim_start().starts_with("::warning::from")),
            "{format}: a command line from the adapter: {text}"
        );
        assert_eq!(code(&out), 1, "{format}: {text}");
    }
}

/// An adapter that skips an operation: each case needing it is a skip (a note, and `skip` with
/// the adapter's reason in the results), the others are graded; when it skips every case given,
/// nothing was checked and the run is not green.
#[test]
fn skipped_operations_are_skips_and_skipping_everything_is_not_green() {
    let (exit, doc, dir) = hostile("skip-handshake", 0, &[]);
    let handshakes = handshake_op_cases();
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(count(&doc, "skip"), handshakes.len() as u64, "{doc:#}");
    assert_eq!(
        count(&doc, "pass"),
        count(&doc, "cases") - handshakes.len() as u64
    );
    let results: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("results.json")).unwrap())
            .unwrap();
    let (section, name) = handshakes[0].split_once('/').unwrap();
    let entry = &results["sections"][section][name];
    assert_eq!(entry["status"], "skip", "{results:#}");
    assert!(
        entry["reason"]
            .as_str()
            .unwrap()
            .contains("no handshake parser")
    );

    let only = format!("--case={}", handshakes[0]);
    let (exit, doc, _dir) = hostile("skip-handshake", 0, &[&only]);
    assert_eq!(exit, 1, "{doc:#}");
    assert!(!findings(&doc, "run-nothing-checked").is_empty(), "{doc:#}");
}

/// The cases of the handshake section whose op is `handshake`, as `section/name`.
fn handshake_op_cases() -> Vec<String> {
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(sbp_suite().join("manifest.json")).unwrap())
            .unwrap();
    manifest["handshake"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["op"] == "handshake")
        .map(|c| format!("handshake/{}", c["name"].as_str().unwrap()))
        .collect()
}

#[test]
fn an_adapter_speaking_another_protocol_version_is_refused() {
    let (exit, doc, dir) = hostile("protocol-2", 1, &[]);
    refused_with(exit, &doc, &["protocol 2"]);
    assert!(!dir.path().join("results.json").exists());
}

/// A program that does not exist, a file that may not be run, and a program that exits before
/// answering the start request: exit 2, naming the command as given.
#[test]
fn an_adapter_that_cannot_start_is_exit_2_with_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-adapter");
    let plain = dir.path().join("adapter.py");
    fs::write(&plain, "print('hi')\n").unwrap();
    for (adapter, words) in [
        (vec![s(&missing)], "no program"),
        (vec![s(&plain)], "may not be run"),
        (vec!["sh", "-c", "exit 0"], "before answering"),
    ] {
        let (exit, doc) = run_json(&sbp_suite(), &[], &adapter, dir.path());
        let message = refused_with(exit, &doc, &[words]);
        assert!(
            message.contains(&shell_quoted(adapter[0])),
            "{adapter:?}: {message}"
        );
    }
}

/// How bqsuite quotes one word of a command it shows.
fn shell_quoted(word: &str) -> String {
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
    {
        word.to_string()
    } else {
        format!("'{word}'")
    }
}
