//! What the driver's tests share: adapters written as Python scripts into a temporary directory
//! (run as `python3 -S SCRIPT`, so no test executes a file it has just written), the start request's
//! suite, and a guard against a test that would hang.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use bqsuite_adapter::{Adapter, Bounds, StartError, StartInfo};

/// Helpers every script starts with.
const PRELUDE: &str = r#"
import json, os, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

def raw(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()

def hello(**extra):
    start = json.loads(sys.stdin.readline())
    implementation = {"name": "test-adapter", "version": "1.0.0", "language": "python"}
    implementation.update(extra)
    send({"protocol": 1, "implementation": implementation})
    return start

def requests():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)
        if request["cmd"] == "stop":
            return
        yield request
"#;

/// An adapter that does what each request's op says: `echo` (the default) replies with the
/// request, how many requests this process has had, and its process id; the others are the
/// well-behaved and hostile behaviours the tests need.
pub const VERSATILE: &str = r#"
start = sys.stdin.readline()
send({"protocol": 1, "implementation": {
    "name": "versatile", "version": "1.0.0", "language": "python",
    "homepage": "https://example.org/adapter", "start": start.rstrip("\n")}})
count = 0
deaf = False
for r in requests():
    count += 1
    seq, op, input = r["seq"], r["op"], r["input"]
    if op == "refuse":
        send({"seq": seq, "error": {"code": 1002, "message": "frame too big"}})
    elif op == "refuse-bare":
        send({"seq": seq, "error": {"code": 7}})
    elif op == "skip":
        send({"seq": seq, "skip": "no encoder"})
    elif op == "crash":
        sys.stderr.write(input["stderr"])
        sys.stderr.flush()
        os._exit(3)
    elif op == "hang":
        time.sleep(3600)
    elif op == "deaf":
        send({"seq": seq, "value": None})
        time.sleep(3600)
    elif op == "text":
        raw(input["bytes"].encode("latin-1"))
    elif op == "long":
        raw(b"x" * input["size"] + b"\n")
    elif op == "flood":
        chunk = b"x" * 65536
        while True:
            raw(chunk)
    elif op == "gigabyte":
        chunk = b"x" * (1 << 20)
        for _ in range(1024):
            raw(chunk)
        raw(b"\n")
    elif op == "close-output":
        os.close(1)
        time.sleep(3600)
    elif op == "escapes":
        sys.stderr.write(input["text"] + "\n")
        sys.stderr.flush()
        send({"seq": seq, "value": input["text"]})
    elif op == "batch":
        act = input.get("do")
        if act == "wrong-seq":
            send({"seq": seq + 1000, "value": None})
        elif act == "crash":
            os._exit(3)
        else:
            send({"seq": seq, "value": input})
    elif op == "refuse-escapes":
        send({"seq": seq, "error": {"code": 1, "message": input["text"]}})
    else:
        send({"seq": seq, "value": {"request": r, "count": count, "pid": os.getpid()}})
"#;

/// A script in a temporary directory (deleted with it).
pub struct Script {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

/// `body` after the prelude, as a Python script.
pub fn python(body: &str) -> Script {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("adapter.py");
    fs::write(&path, format!("{PRELUDE}\n{body}")).unwrap();
    Script { _dir: dir, path }
}

/// The suite the tests' start requests name.
pub fn info() -> StartInfo {
    StartInfo {
        name: "sbp".into(),
        title: "Sideband SBP v1".into(),
        version: "0.1.0".into(),
    }
}

/// The time bound of tests that wait for a hang: short, so that they finish soon, yet long
/// enough for Python to start on a busy machine (the start request has the same bound).
pub const SHORT: Duration = Duration::from_secs(5);

/// Bounds for tests that wait on a misbehaving adapter.
pub fn short() -> Bounds {
    Bounds {
        timeout: SHORT,
        ..Bounds::DEFAULT
    }
}

/// Starts `python3 -S SCRIPT`.
pub fn start(script: &Script, bounds: &Bounds) -> Result<Adapter, StartError> {
    // -S: without the site module, Python starts in half the time.
    Adapter::start(
        "python3",
        ["-S".as_ref(), script.path.as_os_str()],
        &info(),
        bounds,
    )
}

/// Runs `f` on a thread of its own and returns its result; fails the test if it has not
/// returned after a minute (a driver that blocks would otherwise hang the test run).
pub fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("the driver did not return: it hangs"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the test's thread panicked"),
    }
}

/// Whether process `pid` is gone, reaped and all (a zombie still has its /proc entry). Where
/// there is no /proc, it cannot tell and says yes.
pub fn gone(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || !Path::new(&format!("/proc/{pid}")).exists()
}
