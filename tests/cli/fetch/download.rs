//! `bqsuite fetch` over HTTP: downloads, redirects, retries, resumes and bounds, from a server on
//! 127.0.0.1 started by the test; and the helpers the other fetch tests share (their archives
//! are built here and served from file:// or that server).
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use bqsuite::commands::fetch::{self, Network};
use serde_json::Value;

use super::corpus::corpus;
use crate::kit;
use crate::kit::server::*;
use crate::kit::tarball::*;

/// Runs the binary with `BQ_CONFORMANCE_BASE_URL=base`.
pub(super) fn run(base: &str, args: &[&str]) -> Output {
    kit::command()
        .args(args)
        .env("BQ_CONFORMANCE_BASE_URL", base)
        .env("CI", "true")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run bqsuite")
}

/// `fetch ... --format json`: (exit code, the JSON document or Null when none was printed).
pub(super) fn fetch_json(base: &str, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["fetch"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = run(base, &all);
    let doc = serde_json::from_str(&kit::stdout(&out)).unwrap_or(Value::Null);
    (kit::code(&out), doc, kit::stderr(&out))
}

pub(super) fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn control() -> Vec<u8> {
    gz(&tar(&release_entries(VERSION)))
}

/// Options for a library call against `base`.
pub(super) fn options(base: &str, dest: &Path) -> fetch::Options {
    fetch::Options {
        version: VERSION.into(),
        dest: dest.to_path_buf(),
        base_url: Some(base.into()),
        network: fast_network(),
        ..fetch::Options::default()
    }
}

pub(super) fn fast_network() -> Network {
    Network {
        attempts: 4,
        backoff: Duration::from_millis(10),
        max_wait: Duration::from_millis(100),
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(2),
        ..Network::default()
    }
}

pub(super) fn root(rel: &str) -> String {
    format!("{ROOT}/{rel}")
}

/// The control entries with `extra` inserted before the LICENSE entry (index 2).
pub(super) fn with(extra: Vec<Entry>) -> Vec<u8> {
    let mut entries = release_entries(VERSION);
    let tail = entries.split_off(2);
    entries.extend(extra);
    entries.extend(tail);
    tar(&entries)
}

/// The control archive with `extra` entries at its end.
pub(super) fn with_last(extra: Vec<Entry>) -> Vec<u8> {
    let mut entries = release_entries(VERSION);
    entries.extend(extra);
    tar(&entries)
}

fn http_assets(request: &Request, asset: &[u8]) -> Reply {
    if request.path.ends_with("/SHA256SUMS") {
        Reply::ok(&sums_for(VERSION, asset))
    } else if request.path.ends_with(&asset_name(VERSION)) {
        range_reply(asset, request)
    } else {
        Reply::status(404)
    }
}

#[test]
fn downloads_over_http_with_content_length_and_redirects() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| {
        if let Some(rest) = r.path.strip_prefix("/moved/") {
            return Reply::redirect(&format!("/v1.0.0/{rest}"));
        }
        http_assets(r, &served)
    });
    let work = tempfile::tempdir().unwrap();
    // Plain 200 responses, through the binary.
    let dest = work.path().join("a");
    let base = format!("{}/v{{version}}", server.base);
    let (code, doc, stderr) = fetch_json(&base, &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    assert!(dest.join("fixtures/order-created.json").is_file());
    let asset_request = server
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with(".tar.gz"))
        .unwrap();
    assert!(
        asset_request
            .headers
            .to_ascii_lowercase()
            .contains("accept-encoding: identity"),
        "{}",
        asset_request.headers
    );
    // 302 redirects (as GitHub release assets do), with a progress sink.
    let dest = work.path().join("b");
    let mut calls: Vec<(u64, Option<u64>)> = Vec::new();
    let report = fetch::fetch_with_progress(
        &options(&format!("{}/moved", server.base), &dest),
        &mut |done, total| calls.push((done, total)),
    )
    .unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert!(dest.join("manifest.json").is_file());
    assert_eq!(
        server.count("/moved/babelqueue-conformance-1.0.0.tar.gz"),
        1
    );
    let size = asset.len() as u64;
    assert_eq!(calls.last(), Some(&(size, Some(size))), "{calls:?}");
}

#[test]
fn a_404_says_the_version_is_not_released() {
    let server = Server::start(|_, _| Reply::status(404));
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, stderr) = fetch_json(&server.base, &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2, "{doc:#}");
    assert!(
        stderr.contains("version 9.9.9 is not released at") && stderr.contains(&server.base),
        "{stderr}"
    );
    assert_eq!(server.requests().len(), 1, "a 404 is not retried");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
    // The same for a file:// mirror without the version.
    let empty = Mirror::new();
    let (code, _, stderr) = fetch_json(&empty.url(), &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("version 9.9.9 is not released at file://"),
        "{stderr}"
    );
}

#[test]
fn a_flat_http_mirror_without_the_version_says_it_is_not_released() {
    // SHA256SUMS is served (it lists another version only); the asset of 9.9.9 is a 404.
    let server = Server::start(|r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(
                format!("{}  babelqueue-conformance-1.0.0.tar.gz\n", "a".repeat(64)).as_bytes(),
            )
        } else {
            Reply::status(404)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, stderr) = fetch_json(&server.base, &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "not-released", "{doc:#}");
    assert!(
        stderr.contains("version 9.9.9 is not released at"),
        "{stderr}"
    );
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_trickling_server_fails_in_bounded_time_with_a_clear_message() {
    // One byte every 50 ms: no read ever waits long, so only the overall limits end it.
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| {
        if r.path.ends_with(".tar.gz") {
            Reply::ok(&served).trickle(Duration::from_millis(50))
        } else {
            http_assets(r, &served)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    // The overall deadline (--timeout), through the command line.
    let (code, doc, stderr) = fetch_json(
        &server.base,
        &["--timeout", "1", VERSION, dest.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "network");
    assert!(stderr.contains("--timeout SECONDS"), "{stderr}");
    // The minimum speed, through the library with a short window.
    let mut o = options(&server.base, &dest);
    o.network.min_speed = 10_000;
    o.network.speed_window = Duration::from_millis(300);
    let err = fetch::fetch(&o).unwrap_err().to_string();
    assert!(err.contains("below the minimum of 10000 bytes/s"), "{err}");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn server_errors_and_throttling_are_retried() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, n| match (r.path.ends_with(".tar.gz"), n) {
        (true, 0) => Reply::status(503),
        (true, 1) => Reply::status(429).header("Retry-After", "3600"),
        _ => http_assets(r, &served),
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    // Retry-After (an hour) is honoured only up to the cap (100 ms here), or this would hang.
    let report = fetch::fetch(&options(&server.base, &dest)).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert_eq!(server.count("/babelqueue-conformance-1.0.0.tar.gz"), 3);
    assert!(dest.join("manifest.json").is_file());
}

#[test]
fn retries_give_up_with_exit_2_and_nothing_written() {
    let server = Server::start(|r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(&sums_for(VERSION, b"x"))
        } else {
            Reply::status(503)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let err = fetch::fetch(&options(&server.base, &dest)).unwrap_err();
    assert!(
        err.to_string().contains("gave up after 4 attempts"),
        "{err}"
    );
    assert_eq!(server.count("/babelqueue-conformance-1.0.0.tar.gz"), 4);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
    // A 4xx other than 404/408/429 is not retried.
    let forbidden = Server::start(|_, _| Reply::status(403));
    assert!(fetch::fetch(&options(&forbidden.base, &dest)).is_err());
    assert_eq!(forbidden.requests().len(), 1);
}

#[test]
fn connection_failures_and_stalls_are_bounded() {
    // Nothing listens on this port once the listener is dropped.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let err = fetch::fetch(&options(&format!("http://127.0.0.1:{port}"), &dest)).unwrap_err();
    assert!(
        err.to_string().contains("gave up after 4 attempts"),
        "{err}"
    );
    // A server that accepts and never answers: the read timeout ends each try.
    let server = Server::start(|_, _| Reply::stall(Duration::from_secs(30)));
    let mut o = options(&server.base, &dest);
    o.network.read_timeout = Duration::from_millis(300);
    o.network.attempts = 2;
    assert!(fetch::fetch(&o).is_err());
    assert_eq!(server.requests().len(), 2);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_dropped_transfer_resumes_with_a_range_request() {
    // Big enough that the cut happens mid-body.
    let mut entries = release_entries(VERSION);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..300_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    entries.insert(4, file(&root("fixtures/noise.json"), &noise)); // in release order
    let asset = gz(&tar(&entries));
    assert!(asset.len() > 200_000);
    let served = asset.clone();
    let server = Server::start(move |r, n| {
        if r.path.ends_with(".tar.gz") && n == 0 {
            Reply::ok(&served).header("ETag", "\"v1\"").cut(100_000)
        } else {
            http_assets(r, &served)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let report = fetch::fetch(&options(&server.base, &dest)).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert_eq!(fs::read(dest.join("fixtures/noise.json")).unwrap(), noise);
    let tries: Vec<Request> = server
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with(".tar.gz"))
        .collect();
    assert_eq!(tries.len(), 2);
    assert_eq!(tries[1].range, Some(100_000));
    assert!(
        tries[1].headers.contains("\"v1\""),
        "If-Range: {}",
        tries[1].headers
    );

    // A server that ignores Range cannot resume: exit 2, nothing written.
    let served = asset.clone();
    let stubborn = Server::start(move |r, n| {
        if r.path.ends_with(".tar.gz") {
            if n == 0 {
                Reply::ok(&served).cut(100_000)
            } else {
                Reply::ok(&served)
            }
        } else {
            http_assets(r, &served)
        }
    });
    let dest = work.path().join("dest2");
    let err = fetch::fetch(&options(&stubborn.base, &dest)).unwrap_err();
    assert!(err.to_string().contains("cannot resume"), "{err}");
    assert!(!dest.exists());
}

#[test]
fn content_length_over_the_cap_is_refused_before_reading() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| http_assets(r, &served));
    let work = tempfile::tempdir().unwrap();
    let mut o = options(&server.base, &work.path().join("dest"));
    o.limits.max_archive_bytes = 100;
    let report = fetch::fetch(&o).unwrap();
    let got: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(got, ["archive-too-large"]);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

/// The first vendoring into a new SDK repository: DEST's missing parents are made as `mkdir -p`
/// would, never through a link, and removed again when the fetch writes nothing.
#[test]
fn fetch_makes_the_missing_parents_of_dest_and_leaves_none_behind_on_failure() {
    let work = tempfile::tempdir().unwrap();
    let good = Mirror::new();
    good.publish(VERSION, &control());
    let dest = work.path().join("sdk/tests/conformance");
    let (code, doc, stderr) = fetch_json(&good.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}\n{stderr}");
    assert!(dest.join("manifest.json").is_file());
    for made in ["sdk", "sdk/tests"] {
        let meta = fs::symlink_metadata(work.path().join(made)).unwrap();
        assert!(meta.is_dir(), "{made}");
    }

    // A refused asset: nothing written, not even the parents.
    let (_, bad, _) = corpus().into_iter().next().unwrap();
    let refused = Mirror::new();
    refused.publish(VERSION, &bad);
    let dest = work.path().join("other/tests/conformance");
    let (code, doc, _) = fetch_json(&refused.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 1, "{doc:#}");
    assert!(!work.path().join("other").exists());

    // A parent that is a file, or a link to nowhere: exit 2, nothing made through them.
    fs::write(work.path().join("file"), "x").unwrap();
    std::os::unix::fs::symlink(work.path().join("nowhere"), work.path().join("dangling")).unwrap();
    for parent in ["file/sub", "dangling/sub"] {
        let dest = work.path().join(parent).join("conformance");
        let (code, doc, _) = fetch_json(&good.url(), &[VERSION, dest.to_str().unwrap()]);
        assert_eq!(code, 2, "{parent}: {doc:#}");
        let message = doc["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(message.contains("is not a directory"), "{parent}: {doc:#}");
    }
    assert!(!work.path().join("nowhere").exists());
}
