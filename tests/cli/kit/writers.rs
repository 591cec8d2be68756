//! Writers racing on one copy, with real processes: a mirror whose asset is held back until the
//! test lets it go (so that a `fetch --update` holds its copy's lock for as long as the test
//! wants), bqsuite started in the background, the lock record beside a copy, and a second release
//! of the bundled suite to update to.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::server::{Reply, Server};
use super::{SUITE_LICENSE, bundled_suite, bundled_version, copy_tree, released, suite_license};

/// The longest a test waits for a background run to get somewhere before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// An HTTP mirror on 127.0.0.1 of the release in a directory: SHA256SUMS is served at once, the
/// asset only once [`HeldMirror::release`] is called.
pub struct HeldMirror {
    pub server: Server,
    gate: Arc<AtomicBool>,
}

impl HeldMirror {
    pub fn of(dir: &Path) -> HeldMirror {
        let gate = Arc::new(AtomicBool::new(false));
        let (open, dir) = (gate.clone(), dir.to_path_buf());
        let server = Server::start(move |request, _| {
            let name = request.path.rsplit('/').next().unwrap_or("");
            if name.ends_with(".tar.gz") {
                let until = Instant::now() + PATIENCE;
                while !open.load(Ordering::Relaxed) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            match fs::read(dir.join(name)) {
                Ok(bytes) => Reply::ok(&bytes),
                Err(_) => Reply::status(404),
            }
        });
        HeldMirror { server, gate }
    }

    pub fn base(&self) -> &str {
        &self.server.base
    }

    /// Waits until a download of the asset has begun (and is being held): by then the fetch has
    /// taken its lock and made its staging directory.
    pub fn wait_for_download(&self) {
        let until = Instant::now() + PATIENCE;
        while !self
            .server
            .requests()
            .iter()
            .any(|r| r.path.ends_with(".tar.gz"))
        {
            assert!(Instant::now() < until, "the asset was never asked for");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Lets every held download (and every later one) through.
    pub fn release(&self) {
        self.gate.store(true, Ordering::Relaxed);
    }
}

/// Starts bqsuite with `args` in `cwd` in the background (without the ambient environment),
/// with `env` and its output captured.
pub fn spawn_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = super::command();
    cmd.args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("start bqsuite")
}

/// Waits for a background run to end; what it printed.
pub fn finish(child: Child) -> Output {
    child.wait_with_output().expect("wait for bqsuite")
}

/// The lock file of the copy at `copy` (beside it).
pub fn lock_file(copy: &Path) -> PathBuf {
    let name = copy.file_name().unwrap().to_string_lossy();
    copy.with_file_name(format!(".{name}.bqsuite-lock"))
}

/// Waits until the lock of `copy` is recorded as held by process `pid`.
pub fn wait_for_lock(copy: &Path, pid: u32) {
    let until = Instant::now() + PATIENCE;
    let line = format!("pid {pid}\n");
    while !fs::read_to_string(lock_file(copy)).is_ok_and(|t| t.contains(&line)) {
        assert!(
            Instant::now() < until,
            "process {pid} never took the lock of {}",
            copy.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Fails naming the paths whose presence or bytes differ between two [`super::snapshot`]s.
pub fn assert_unchanged(
    before: &[(String, Option<Vec<u8>>)],
    after: &[(String, Option<Vec<u8>>)],
    what: &str,
) {
    let differ: Vec<&String> = before
        .iter()
        .filter(|entry| !after.contains(entry))
        .chain(after.iter().filter(|entry| !before.contains(entry)))
        .map(|(path, _)| path)
        .collect();
    assert!(differ.is_empty(), "{what}: these changed: {differ:?}");
}

/// The bundled suite with its patch version one higher, released into `dir/mirror-next`: another
/// release to update a copy to. Returns its version and the mirror.
pub fn next_release(dir: &Path) -> (String, PathBuf) {
    let now = semver::Version::parse(&bundled_version()).unwrap();
    let next = semver::Version::new(now.major, now.minor, now.patch + 1).to_string();
    let suite = dir.join("next/suite");
    copy_tree(&bundled_suite(), &suite);
    fs::copy(suite_license(), dir.join("next").join(SUITE_LICENSE)).unwrap();
    fs::write(suite.join("CONFORMANCE_VERSION"), format!("{next}\n")).unwrap();
    let manifest = fs::read_to_string(suite.join("manifest.json")).unwrap();
    let from = format!("\"conformance_version\": \"{now}\"");
    assert!(manifest.contains(&from), "the manifest names no {from}");
    let to = format!("\"conformance_version\": \"{next}\"");
    fs::write(
        suite.join("manifest.json"),
        manifest.replacen(&from, &to, 1),
    )
    .unwrap();
    let mirror = dir.join("mirror-next");
    released(&suite, &mirror);
    (next, mirror)
}
