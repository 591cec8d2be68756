//! `install.sh` against a file:// release made from the bqsuite just built: it installs a working
//! binary; a tampered archive or checksum file is refused with nothing installed.
#![cfg(unix)]

mod network;
mod pin;
mod script;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::kit::installer::{archive_name, install_command, installer, tiny_archive, write_sums};
use crate::kit::{bundled_suite, file_url, released, sha256_hex, text};

/// The release every installer test installs, and the platform it is for.
const VERSION: &str = "9.8.7";
const TARGET: &str = "x86_64-unknown-linux-musl";

/// A release directory holding `bqsuite-v<VERSION>-<TARGET>.tar.gz` (the built binary) and
/// `bqsuite-SHA256SUMS` listing it beside another platform's archive.
struct Release {
    dir: tempfile::TempDir,
}

impl Release {
    fn new() -> Release {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("bqsuite-v{VERSION}-{TARGET}");
        let pkg = dir.path().join("pkg").join(&name);
        fs::create_dir_all(&pkg).unwrap();
        fs::copy(env!("CARGO_BIN_EXE_bqsuite"), pkg.join("bqsuite")).unwrap();
        fs::write(pkg.join("LICENSE"), "MIT\n").unwrap();
        let archive = dir.path().join(format!("{name}.tar.gz"));
        let status = Command::new("tar")
            .arg("-czf")
            .arg(&archive)
            .arg("-C")
            .arg(dir.path().join("pkg"))
            .arg(&name)
            .status()
            .unwrap();
        assert!(status.success());
        fs::remove_dir_all(dir.path().join("pkg")).unwrap();
        let release = Release { dir };
        release.write_sums(&sha256_hex(&fs::read(&archive).unwrap()));
        release
    }

    fn archive(&self) -> std::path::PathBuf {
        self.dir.path().join(archive_name(VERSION, TARGET))
    }

    fn write_sums(&self, hash: &str) {
        write_sums(self.dir.path(), VERSION, TARGET, hash);
    }

    fn install(&self, into: &Path, extra: &[&str]) -> Output {
        install_command(&file_url(self.dir.path()), VERSION, TARGET, into)
            .args(extra)
            .output()
            .unwrap()
    }
}

/// A release directory whose archive holds a script that prints `bqsuite 9.8.7` (fast to pack and
/// to run), with no checksum file unless one is written.
struct TinyRelease {
    dir: tempfile::TempDir,
    hash: String,
}

impl TinyRelease {
    fn new() -> TinyRelease {
        let dir = tempfile::tempdir().unwrap();
        let hash = tiny_archive(dir.path(), VERSION, TARGET);
        TinyRelease { dir, hash }
    }

    /// With its bqsuite-SHA256SUMS, as the release workflow publishes it.
    fn published() -> TinyRelease {
        let release = TinyRelease::new();
        write_sums(release.dir.path(), VERSION, TARGET, &release.hash);
        release
    }

    /// Writes bqsuite-SHA256SUMS.
    fn sums(&self, text: impl AsRef<[u8]>) {
        fs::write(self.dir.path().join("bqsuite-SHA256SUMS"), text).unwrap();
    }

    fn command(&self, into: &Path) -> Command {
        install_command(&file_url(self.dir.path()), VERSION, TARGET, into)
    }

    fn install(&self, into: &Path) -> Output {
        self.command(into).output().unwrap()
    }

    /// Installs with more arguments and variables.
    fn install_with(&self, into: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
        self.command(into)
            .args(extra)
            .envs(env.iter().copied())
            .output()
            .unwrap()
    }
}

fn entries(dir: &Path) -> Vec<String> {
    match fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn installs_the_verified_binary_and_it_runs() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = release.install(&bin, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("verified"), "{}", text(&out));
    assert_eq!(entries(&bin), vec!["bqsuite".to_string()]);
    let version = Command::new(bin.join("bqsuite"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&version.stdout).starts_with("bqsuite "),
        "{}",
        text(&version)
    );
    // `v9.8.7` is the same release; installing again replaces the binary in place.
    let out = release.install(&bin, &["--version", &format!("v{VERSION}")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(entries(&bin), vec!["bqsuite".to_string()]);
}

#[test]
fn the_suite_option_names_the_command_that_fetches_that_suite() {
    let release = TinyRelease::published();
    let home = tempfile::tempdir().unwrap();
    let hint = "fetch --suite sbp VERSION DIR";
    for (extra, env) in [
        (&["--suite", "sbp"][..], &[][..]),
        (&["--suite=sbp"][..], &[][..]),
        (&[][..], &[("BQSUITE_SUITE", "sbp")][..]),
    ] {
        let bin = home.path().join("bin");
        let out = release.install_with(&bin, extra, env);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", text(&out));
        assert!(text(&out).contains(hint), "{extra:?}: {}", text(&out));
    }
    // BabelQueue's, the default, installs as it always did.
    let out = release.install_with(&home.path().join("bin"), &["--suite", "babelqueue"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("--suite"), "{}", text(&out));
    // A name that is no suite's stops the run before anything is downloaded or installed.
    for bad in ["SBP", "../sbp", "", "sbp\n::warning::x"] {
        let bin = home.path().join("not-installed");
        let out = release.install_with(&bin, &["--suite", bad], &[]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out));
        assert!(text(&out).contains("is not a suite name"), "{}", text(&out));
        assert!(!text(&out).contains("downloading"), "{}", text(&out));
        assert!(entries(&bin).is_empty(), "{bad:?}");
    }
}

#[test]
fn a_tampered_archive_is_refused_and_nothing_is_installed() {
    let release = Release::new();
    let mut bytes = fs::read(release.archive()).unwrap();
    let i = bytes.len() / 2;
    bytes[i] ^= 0x40;
    fs::write(release.archive(), &bytes).unwrap();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = release.install(&bin, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("checksum mismatch"), "{}", text(&out));
    assert!(text(&out).contains("refusing to install"), "{}", text(&out));
    assert!(!bin.exists(), "{:?}", entries(&bin));
    // An existing install directory is left as it was.
    fs::create_dir_all(&bin).unwrap();
    let out = release.install(&bin, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(entries(&bin).is_empty(), "{:?}", entries(&bin));
}

#[test]
fn a_tampered_or_incomplete_checksum_file_is_refused() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    release.write_sums(&"ab".repeat(32));
    let out = release.install(&bin, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("checksum mismatch"), "{}", text(&out));
    assert!(!bin.exists());
    // No line for this platform's archive.
    fs::write(
        release.dir.path().join("bqsuite-SHA256SUMS"),
        format!(
            "{}  bqsuite-v{VERSION}-aarch64-apple-darwin.tar.gz\n",
            "0".repeat(64)
        ),
    )
    .unwrap();
    let out = release.install(&bin, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("has no checksum for"), "{}", text(&out));
    assert!(!bin.exists());
}

#[test]
fn a_version_that_is_not_there_cannot_run() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = release.install(&bin, &["--version", "1.0.0"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cannot download"), "{}", text(&out));
    assert!(
        text(&out).contains("BQ_CONFORMANCE_BASE_URL"),
        "{}",
        text(&out)
    );
    assert!(!bin.exists());
    let out = release.install(&bin, &["--bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn the_platform_target_is_one_the_release_builds() {
    let out = Command::new("sh")
        .arg(installer())
        .arg("--print-target")
        .env_remove("BQSUITE_TARGET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let target = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let workflow =
        fs::read_to_string(crate::kit::root().join(".github/workflows/release.yml")).unwrap();
    assert!(
        workflow.contains(&format!("target: {target}")),
        "install.sh picks {target}, which release.yml does not build"
    );
}

#[test]
fn a_cached_archive_is_verified_on_every_install() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("cache");
    let cache_arg = cache.to_str().unwrap();
    let out = release.install(&home.path().join("a"), &["--cache", cache_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let cached = cache.join(format!("bqsuite-v{VERSION}-{TARGET}.tar.gz"));
    assert_eq!(
        fs::read(&cached).unwrap(),
        fs::read(release.archive()).unwrap()
    );
    // Reused when it matches the published checksum...
    let out = release.install(&home.path().join("b"), &["--cache", cache_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("using "), "{}", text(&out));
    // ... downloaded again when it does not, and replaced in the cache.
    let mut bytes = fs::read(&cached).unwrap();
    bytes[100] ^= 1;
    fs::write(&cached, &bytes).unwrap();
    let out = release.install(&home.path().join("c"), &["--cache", cache_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("does not match"), "{}", text(&out));
    assert_eq!(
        fs::read(&cached).unwrap(),
        fs::read(release.archive()).unwrap()
    );
    // A tampered release is refused even with a good archive in the cache if the published
    // checksum no longer matches it.
    release.write_sums(&"cd".repeat(32));
    let out = release.install(&home.path().join("d"), &["--cache", cache_arg]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!home.path().join("d").exists());
}

/// A mirror made by `bqsuite release` holds the suite and no binary archives: the installer says
/// so and names what to copy, instead of calling the version not released.
#[test]
fn a_mirror_of_the_suite_alone_is_named_as_such() {
    let mirror = tempfile::tempdir().unwrap();
    released(&bundled_suite(), mirror.path());
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let out = install_command(&file_url(mirror.path()), VERSION, TARGET, &bin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("mirror of the suite"), "{said}");
    assert!(said.contains("bqsuite-SHA256SUMS"), "{said}");
    assert!(
        said.contains(&format!("bqsuite-v{VERSION}-{TARGET}.tar.gz")),
        "{said}"
    );
    assert!(!bin.exists());
}
