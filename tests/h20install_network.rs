//! install.sh against servers on 127.0.0.1 (issue 20, item 5): an overall deadline and a
//! minimum speed per download, a signal ends the run with its own message and exit 2 (never a
//! false "tampered with"), a redirect to file:// is refused in plain words.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

const VERSION: &str = "9.8.7";
const TARGET: &str = "x86_64-unknown-linux-musl";

fn installer() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("install.sh")
}

fn curl_present() -> bool {
    Command::new("curl").arg("--version").output().is_ok()
}

/// A server on 127.0.0.1 that answers every connection with `answer` (after reading the request
/// head) and tells `connected` when one arrives. Returns its base URL.
fn serve(answer: fn(&mut TcpStream), connected: Option<mpsc::Sender<()>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let connected = connected.clone();
            thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                    line.clear();
                }
                if let Some(tx) = connected {
                    let _ = tx.send(());
                }
                answer(&mut stream);
            });
        }
    });
    url
}

/// Headers for a large body, then one byte every 100 ms (for at most a minute, so that a broken
/// installer fails the test instead of hanging it).
fn trickle(stream: &mut TcpStream) {
    let head = "HTTP/1.1 200 OK\r\nContent-Length: 60000\r\nConnection: close\r\n\r\n";
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    for _ in 0..600 {
        if stream.write_all(b"x").and_then(|_| stream.flush()).is_err() {
            return;
        }
        thread::sleep(Duration::from_millis(100));
    }
}

/// Says nothing until the client goes away (at most a minute).
fn stall(stream: &mut TcpStream) {
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut buf = [0u8; 64];
    while matches!(stream.read(&mut buf), Ok(n) if n > 0) {}
}

fn to_file(stream: &mut TcpStream) {
    let _ = stream.write_all(
        b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
}

fn command(base: &str, into: &Path, tmp: &Path) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg(installer())
        .args(["--version", VERSION, "--target", TARGET, "--dir"])
        .arg(into)
        .env("BQ_CONFORMANCE_BASE_URL", base)
        .env("TMPDIR", tmp)
        .env("no_proxy", "127.0.0.1")
        .env("NO_PROXY", "127.0.0.1");
    for var in [
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
        "BQSUITE_VERSION",
        "BQSUITE_INSTALL_DIR",
        "BQSUITE_TARGET",
        "BQSUITE_CACHE_DIR",
        "BQSUITE_TIMEOUT",
        "BQSUITE_MIN_SPEED",
        "BQSUITE_SPEED_WINDOW",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn a_trickling_download_meets_the_overall_deadline() {
    if !curl_present() {
        return;
    }
    let base = serve(trickle, None);
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    // Each read waits 100 ms only, so no stall limit stops it: the deadline does.
    let out = command(&base, &bin, tmp.path())
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
    let base = serve(trickle, None);
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = command(&base, &bin, tmp.path())
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
        let (tx, rx) = mpsc::channel();
        let base = serve(stall, Some(tx));
        let home = tempfile::tempdir().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let bin = home.path().join("bin");
        // The timeout only bounds the test if the signal were ignored.
        let child = command(&base, &bin, tmp.path())
            .env("BQSUITE_TIMEOUT", "30")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        rx.recv_timeout(Duration::from_secs(60))
            .expect("install.sh never connected");
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
    let base = serve(to_file, None);
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = command(&base, &bin, tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("redirected to file:///etc/passwd"), "{said}");
    assert!(said.contains("only to http:// and https://"), "{said}");
    assert!(said.contains("local file"), "{said}");
    assert!(!said.contains("curl: ("), "{said}");
    assert!(!bin.exists());
}
