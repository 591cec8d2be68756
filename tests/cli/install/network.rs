//! install.sh against servers on 127.0.0.1 (issue 20, item 5): an overall deadline and a
//! minimum speed per download, a signal ends the run with its own message and exit 2 (never a
//! false "tampered with"), a redirect to file:// is refused in plain words.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{TARGET, VERSION};
use crate::kit::installer::install_command;
use crate::kit::server::{Reply, Server};
use crate::kit::text;

fn curl_present() -> bool {
    Command::new("curl").arg("--version").output().is_ok()
}

/// Headers for a large body, then one byte every 100 ms (the server gives up by itself, so that
/// a broken installer fails the test instead of hanging it).
fn trickle() -> Server {
    Server::start(|_, _| Reply::ok(&[b'x'; 60000]).trickle(Duration::from_millis(100)))
}

/// Says nothing until the client goes away (at most a minute).
fn stall() -> Server {
    Server::start(|_, _| Reply::stall(Duration::from_secs(60)))
}

/// A redirect to a local file.
fn to_file() -> Server {
    Server::start(|_, _| Reply {
        body: Vec::new(),
        ..Reply::redirect("file:///etc/passwd")
    })
}

/// install.sh from `base`, its work directory in `tmp`, no proxy in the way.
fn command(base: &str, into: &Path, tmp: &Path) -> Command {
    let mut cmd = install_command(base, VERSION, TARGET, into);
    cmd.env("TMPDIR", tmp)
        .env("no_proxy", "127.0.0.1")
        .env("NO_PROXY", "127.0.0.1");
    for var in [
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn a_trickling_download_meets_the_overall_deadline() {
    if !curl_present() {
        return;
    }
    let server = trickle();
    let base = &server.base;
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    // Each read waits 100 ms only, so no stall limit stops it: the deadline does.
    let out = command(base, &bin, tmp.path())
        .args(["--timeout", "2", "--min-speed", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("took longer than 2 s"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("--timeout"), "{}", text(&out));
    assert!(!bin.exists());
    assert!(empty(tmp.path()), "the work directory was left");
}

#[test]
fn a_download_below_the_minimum_speed_is_stopped() {
    if !curl_present() {
        return;
    }
    let server = trickle();
    let base = &server.base;
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = command(base, &bin, tmp.path())
        .args(["--min-speed", "100000", "--timeout", "120"])
        .env("BQSUITE_SPEED_WINDOW", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("below the minimum of 100000 bytes/s"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("--min-speed"), "{}", text(&out));
    assert!(!bin.exists());
}

#[test]
fn a_signal_ends_the_run_with_its_own_message_and_exit_2() {
    if !curl_present() {
        return;
    }
    for signal in ["TERM", "INT", "HUP"] {
        let server = stall();
        let base = &server.base;
        let home = tempfile::tempdir().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let bin = home.path().join("bin");
        // The timeout only bounds the test if the signal were ignored.
        let child = command(base, &bin, tmp.path())
            .env("BQSUITE_TIMEOUT", "30")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(
            server.wait_for_request(Duration::from_secs(60)),
            "install.sh never connected"
        );
        // Only the shell gets it (as from `kill PID` or a CI runner), not the download.
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "SIG{signal}: {}", text(&out));
        assert!(
            text(&out).contains(&format!(
                "interrupted by SIG{signal}; nothing was installed"
            )),
            "{}",
            text(&out)
        );
        assert!(!text(&out).contains("tampered"), "{}", text(&out));
        assert!(!text(&out).contains("mismatch"), "{}", text(&out));
        assert!(!bin.exists());
        assert!(empty(tmp.path()), "the work directory was left");
    }
}

#[test]
fn a_redirect_to_a_local_file_is_refused_in_plain_words() {
    if !curl_present() {
        return;
    }
    let server = to_file();
    let base = &server.base;
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = command(base, &bin, tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("redirected to file:///etc/passwd"), "{said}");
    assert!(said.contains("only to http:// and https://"), "{said}");
    assert!(said.contains("local file"), "{said}");
    assert!(!said.contains("curl: ("), "{said}");
    assert!(!bin.exists());
}
