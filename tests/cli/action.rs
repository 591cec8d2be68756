//! action.yml, its steps run with bash as the runner runs them. The "Resolve" step checks its
//! inputs and BQSUITE_TARGET before anything reaches `$GITHUB_OUTPUT`, so a line break in one
//! cannot add an output, and an error never starts a line with data (issue 20, item 5). Against a
//! file:// release (issue 22, item 2): the default version is the suite in the action's own
//! checkout (so a pin by commit hash works), the `checksum` input pins the archive, `cache-hit`
//! tells whether the archive was downloaded, and on Windows the `bqsuite` output is a native path.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::kit;
use crate::kit::installer::{DEFAULT_INPUTS, StepRun, run_step, tiny_archive, write_sums};
use crate::kit::root;

const VERSION: &str = "9.8.7";
const LINUX: &str = "x86_64-unknown-linux-musl";
const WINDOWS: &str = "x86_64-pc-windows-msvc";

/// The Resolve step with these variables (inputs at their defaults otherwise), its
/// $GITHUB_OUTPUT, $GITHUB_PATH and RUNNER_TEMP in `scratch`.
fn resolve(scratch: &Path, vars: &[(&str, &str)]) -> StepRun {
    let mut all: Vec<(&str, &str)> = DEFAULT_INPUTS.to_vec();
    all.extend_from_slice(vars);
    run_step("resolve", scratch, &all)
}

/// No line of output starts with `::` unless it is the step's own `::error title=bqsuite
/// action::`, and none holds data from the refused input.
fn assert_refused(run: &StepRun, what: &str) {
    assert_eq!(run.out.status.code(), Some(2), "{what}: {}", run.text());
    assert_eq!(run.github_output, "", "{what}: wrote outputs");
    let all = run.text();
    assert!(
        all.contains("::error title=bqsuite action::"),
        "{what}: {all}"
    );
    for line in all.lines() {
        if line.starts_with("::") {
            assert!(
                line.starts_with("::error title=bqsuite action::"),
                "{what}: {line}"
            );
        }
        assert!(!line.contains("forged"), "{what}: {line}");
    }
}

const EVIL: &str = "x\n::warning title=forged::x\nforged=1";

#[test]
fn good_inputs_make_exactly_the_outputs() {
    let scratch = tempfile::tempdir().unwrap();
    let run = resolve(
        scratch.path(),
        &[
            ("INPUT_VERSION", "v1.5.0"),
            ("INPUT_CHECK", "tests/conformance"),
            ("INPUT_BASE_URL", "file:///srv/mirror/v{version}"),
            ("BQSUITE_TARGET", "aarch64-apple-darwin"),
        ],
    );
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let keys: Vec<&str> = run
        .github_output
        .lines()
        .map(|l| l.split_once('=').expect("key=value").0)
        .collect();
    assert_eq!(
        keys,
        [
            "version", "target", "source", "dir", "archives", "checksum", "suite", "tool"
        ]
    );
    assert!(run.github_output.contains("version=1.5.0\n"));
    // BabelQueue's version is also the bqsuite release installed.
    assert!(run.github_output.contains("suite=babelqueue\n"));
    assert!(run.github_output.contains("tool=1.5.0\n"));
    assert!(run.github_output.contains("bqsuite-archives/1.5.0/"));
    assert!(run.github_output.contains("target=aarch64-apple-darwin\n"));
    // The mirror enters the cache key as a number (a key holds no commas).
    let source = run
        .github_output
        .lines()
        .find_map(|l| l.strip_prefix("source="))
        .unwrap();
    assert!(source.bytes().all(|b| b.is_ascii_digit()), "{source}");
    // Without BQSUITE_TARGET: this machine's, from install.sh; without `version`: the suite's
    // in the action's checkout.
    let scratch = tempfile::tempdir().unwrap();
    let run = resolve(scratch.path(), &[]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let version = kit::bundled_version();
    assert!(run.github_output.contains(&format!("version={version}\n")));
}

#[test]
fn a_target_with_a_line_break_never_reaches_github_output() {
    let scratch = tempfile::tempdir().unwrap();
    let run = resolve(scratch.path(), &[("BQSUITE_TARGET", EVIL)]);
    assert_eq!(run.out.status.code(), Some(2), "{}", run.text());
    assert_eq!(run.github_output, "");
    assert!(
        run.text().contains("is not a target triple"),
        "{}",
        run.text()
    );
    for line in run.text().lines() {
        assert!(!line.starts_with("::"), "{line}");
    }
    for bad in ["../../x", "-x", "x y", "x\u{202e}y"] {
        let scratch = tempfile::tempdir().unwrap();
        let run = resolve(scratch.path(), &[("BQSUITE_TARGET", bad)]);
        assert_eq!(run.out.status.code(), Some(2), "{bad}: {}", run.text());
        assert_eq!(run.github_output, "", "{bad}");
    }
}

#[test]
fn every_input_is_checked_before_it_is_used() {
    for (input, value) in [
        ("INPUT_VERSION", EVIL),
        ("INPUT_VERSION", "1.5.0\nforged=1"),
        ("INPUT_DIFF", "yes"),
        ("INPUT_DIFF", EVIL),
        ("INPUT_CACHE", "maybe"),
        ("INPUT_BASE_URL", "https://mirror.example/\nforged=1"),
        ("INPUT_BASE_URL", "https://mirror.example/a b"),
        ("INPUT_BASE_URL", "ftp://mirror.example/"),
        ("INPUT_BASE_URL", "https://mirror.example/\u{202e}"),
        ("INPUT_CHECK", "tests/conformance\nforged"),
        ("INPUT_CHECK", "--update"),
        ("INPUT_SUITE", EVIL),
        ("INPUT_SUITE", "SBP"),
        ("INPUT_SUITE", "../sbp"),
    ] {
        let scratch = tempfile::tempdir().unwrap();
        let run = resolve(scratch.path(), &[(input, value)]);
        assert_refused(&run, &format!("{input}={value:?}"));
    }
    // The checksum input is the archive's sha256, nothing else (not even with a prefix).
    for value in [
        "sha256:".to_string() + &"a".repeat(64),
        "a".repeat(63),
        "g".repeat(64),
        format!("{}\nforged=1", "a".repeat(64)),
        EVIL.to_string(),
    ] {
        let scratch = tempfile::tempdir().unwrap();
        let run = resolve(scratch.path(), &[("INPUT_CHECKSUM", &value)]);
        assert_refused(&run, &format!("INPUT_CHECKSUM={value:?}"));
    }
}

/// An action checkout holding install.sh and a suite/CONFORMANCE_VERSION with these bytes.
fn action_checkout(stamp: Option<&[u8]>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(root().join("install.sh"), dir.path().join("install.sh")).unwrap();
    if let Some(bytes) = stamp {
        fs::create_dir_all(dir.path().join("suite")).unwrap();
        fs::write(dir.path().join("suite/CONFORMANCE_VERSION"), bytes).unwrap();
    }
    dir
}

#[test]
fn the_default_version_is_the_suite_in_the_action_checkout_even_when_pinned_by_hash() {
    let scratch = tempfile::tempdir().unwrap();
    let hash = "8e8c483db84b4bee98b60c0593521ed34d9990e8";
    // Pinned by commit hash, or nested in another action: the ref is no version, and is not read.
    let run = resolve(
        scratch.path(),
        &[("GITHUB_ACTION_REF", hash), ("ACTION_REF", hash)],
    );
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert_eq!(run.output("version"), Some(kit::bundled_version()));
    let action = fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(!action.contains("action_ref"), "action.yml reads the ref");

    // A checkout with another version (CRLF, as a Windows checkout could have it).
    let other = action_checkout(Some(b"2.3.4\r\n"));
    let path = other.path().to_str().unwrap();
    let run = resolve(scratch.path(), &[("GITHUB_ACTION_PATH", path)]);
    assert_eq!(
        run.output("version").as_deref(),
        Some("2.3.4"),
        "{}",
        run.text()
    );
    // `with: version:` overrides it.
    let run = resolve(
        scratch.path(),
        &[("GITHUB_ACTION_PATH", path), ("INPUT_VERSION", "v1.5.0")],
    );
    assert_eq!(
        run.output("version").as_deref(),
        Some("1.5.0"),
        "{}",
        run.text()
    );
}

#[test]
fn another_suite_is_checked_at_its_own_version_by_the_bqsuite_of_the_action_checkout() {
    let scratch = tempfile::tempdir().unwrap();
    let sbp_version = fs::read_to_string(root().join("sbp-suite/CONFORMANCE_VERSION")).unwrap();
    let run = resolve(scratch.path(), &[("INPUT_SUITE", "sbp")]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert_eq!(run.output("suite").as_deref(), Some("sbp"));
    assert_eq!(run.output("version").as_deref(), Some(sbp_version.trim()));
    let tool = kit::bundled_version();
    assert_eq!(run.output("tool"), Some(tool.clone()));
    assert!(
        run.output("dir")
            .unwrap()
            .ends_with(&format!("bqsuite-{tool}"))
    );
    // `with: version:` is the suite's version; bqsuite stays the checkout's.
    let run = resolve(
        scratch.path(),
        &[("INPUT_SUITE", "sbp"), ("INPUT_VERSION", "0.2.0")],
    );
    assert_eq!(run.output("version").as_deref(), Some("0.2.0"));
    assert_eq!(run.output("tool"), Some(tool));
    // A suite the checkout does not hold cannot default its version, and says where it looked.
    let run = resolve(scratch.path(), &[("INPUT_SUITE", "nosuch")]);
    assert_refused(&run, "INPUT_SUITE=nosuch");
    assert!(
        run.text()
            .contains("has no nosuch-suite/CONFORMANCE_VERSION"),
        "{}",
        run.text()
    );
}

#[test]
fn a_checkout_without_a_usable_version_is_refused_in_plain_words() {
    let scratch = tempfile::tempdir().unwrap();
    for (stamp, says) in [
        (None, "has no suite/CONFORMANCE_VERSION"),
        (Some(&b""[..]), "does not hold a suite version"),
        (
            Some(&b"1.8.0\n::warning title=forged::x\nforged=1\n"[..]),
            "",
        ),
        (
            Some(&b"x\n::warning title=forged::x\n"[..]),
            "does not hold",
        ),
    ] {
        let checkout = action_checkout(stamp);
        let path = checkout.path().to_str().unwrap();
        let run = resolve(scratch.path(), &[("GITHUB_ACTION_PATH", path)]);
        let all = run.text();
        if says.is_empty() {
            // Only its first line is read: a version, and nothing after it gets anywhere.
            assert_eq!(run.output("version").as_deref(), Some("1.8.0"), "{all}");
            assert!(
                !run.github_output.contains("forged"),
                "{}",
                run.github_output
            );
            continue;
        }
        assert_eq!(run.out.status.code(), Some(2), "{stamp:?}: {all}");
        assert_eq!(run.github_output, "", "{stamp:?}");
        assert!(all.contains(says), "{stamp:?}: {all}");
        assert!(all.contains("with: { version: 1.5.0 }"), "{all}");
        assert_eq!(all.lines().count(), 1, "{all}");
        assert!(!all.contains("forged"), "{all}");
    }
}

#[test]
fn the_checksum_input_reaches_install_sh_in_lower_case() {
    let scratch = tempfile::tempdir().unwrap();
    let pin = "AbCdEf0123456789".repeat(4);
    let run = resolve(scratch.path(), &[("INPUT_CHECKSUM", &pin)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert_eq!(run.output("checksum"), Some(pin.to_lowercase()));
    let run = resolve(scratch.path(), &[]);
    assert_eq!(run.output("checksum").as_deref(), Some(""));
}

/// A release on file:// and a runner's RUNNER_TEMP, with Resolve then Install run in it.
struct Runner {
    release: tempfile::TempDir,
    scratch: tempfile::TempDir,
    target: &'static str,
    hash: String,
    /// Prepended to PATH (the fake cygpath).
    path_dir: Option<PathBuf>,
    os: &'static str,
}

impl Runner {
    fn new(target: &'static str) -> Runner {
        let release = tempfile::tempdir().unwrap();
        let hash = tiny_archive(release.path(), VERSION, target);
        write_sums(release.path(), VERSION, target, &hash);
        Runner {
            release,
            scratch: tempfile::tempdir().unwrap(),
            target,
            hash,
            path_dir: None,
            os: "Linux",
        }
    }

    /// Resolve, then (if it passed) Install, with these inputs.
    fn run(&self, inputs: &[(&str, &str)]) -> StepRun {
        let url = format!("file://{}", self.release.path().display());
        let path = match &self.path_dir {
            Some(dir) => format!("{}:{}", dir.display(), std::env::var("PATH").unwrap()),
            None => std::env::var("PATH").unwrap(),
        };
        let mut vars = vec![
            ("INPUT_BASE_URL", url.as_str()),
            ("BQSUITE_TARGET", self.target),
            ("RUNNER_OS", self.os),
            ("PATH", path.as_str()),
        ];
        vars.extend_from_slice(inputs);
        let resolved = resolve(self.scratch.path(), &vars);
        assert_eq!(resolved.out.status.code(), Some(0), "{}", resolved.text());
        let o = |key: &str| resolved.output(key).unwrap();
        let (version, dir, archives, checksum) =
            (o("version"), o("dir"), o("archives"), o("checksum"));
        let mut vars = vec![
            ("VERSION", version.as_str()),
            ("DIR", dir.as_str()),
            ("ARCHIVES", archives.as_str()),
            ("CHECKSUM", checksum.as_str()),
            ("BASE_URL", url.as_str()),
            ("BQSUITE_TARGET", self.target),
            ("RUNNER_OS", self.os),
            ("PATH", path.as_str()),
        ];
        vars.extend_from_slice(inputs);
        run_step("install", self.scratch.path(), &vars)
    }

    fn install_dir(&self) -> PathBuf {
        self.scratch.path().join(format!("bqsuite-{VERSION}"))
    }
}

#[test]
fn outputs_path_and_cache_hit() {
    let runner = Runner::new(LINUX);
    let run = runner.run(&[("INPUT_VERSION", VERSION)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let binary = runner.install_dir().join("bqsuite");
    let keys: Vec<String> = run.outputs().into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["bqsuite", "posix", "cache-hit"], "{}", run.text());
    assert_eq!(run.output("bqsuite"), Some(binary.display().to_string()));
    assert_eq!(run.output("cache-hit").as_deref(), Some("false"));
    // The install directory is on PATH for the later steps; the binary runs.
    assert_eq!(
        run.github_path,
        format!("{}\n", runner.install_dir().display())
    );
    assert!(
        run.text().contains(&format!("bqsuite {VERSION}")),
        "{}",
        run.text()
    );

    // The archive is in the tool cache now (as actions/cache restores it): no download.
    let run = runner.run(&[("INPUT_VERSION", VERSION)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert_eq!(
        run.output("cache-hit").as_deref(),
        Some("true"),
        "{}",
        run.text()
    );

    // A cached archive that no longer matches is downloaded again: no hit.
    let cached = runner
        .scratch
        .path()
        .join(format!("toolcache/bqsuite-archives/{VERSION}/{LINUX}"))
        .join(format!("bqsuite-v{VERSION}-{LINUX}.tar.gz"));
    let mut bytes = fs::read(&cached).unwrap();
    bytes[20] ^= 1;
    fs::write(&cached, &bytes).unwrap();
    let run = runner.run(&[("INPUT_VERSION", VERSION)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert_eq!(
        run.output("cache-hit").as_deref(),
        Some("false"),
        "{}",
        run.text()
    );
}

#[test]
fn the_checksum_input_must_match_the_archive() {
    let runner = Runner::new(LINUX);
    let upper = runner.hash.to_uppercase();
    let run = runner.run(&[("INPUT_VERSION", VERSION), ("INPUT_CHECKSUM", &upper)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    assert!(run.text().contains("--sha256 pins"), "{}", run.text());

    // Another pin: the step fails (1, as install.sh), nothing installed or put on PATH, even
    // with a matching archive in the cache.
    let runner = Runner::new(LINUX);
    let other = "ab".repeat(32);
    let run = runner.run(&[("INPUT_VERSION", VERSION), ("INPUT_CHECKSUM", &other)]);
    assert_eq!(run.out.status.code(), Some(1), "{}", run.text());
    assert!(run.text().contains("checksum mismatch"), "{}", run.text());
    assert!(run.text().contains(&other), "{}", run.text());
    assert_eq!(run.github_output, "");
    assert_eq!(run.github_path, "");
    assert!(!runner.install_dir().join("bqsuite").exists());
    let run = runner.run(&[("INPUT_VERSION", VERSION)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    fs::remove_dir_all(runner.install_dir()).unwrap();
    let run = runner.run(&[("INPUT_VERSION", VERSION), ("INPUT_CHECKSUM", &other)]);
    assert_eq!(run.out.status.code(), Some(1), "{}", run.text());
    assert_eq!(run.output("cache-hit"), None);
    assert!(!runner.install_dir().join("bqsuite").exists());
}

#[test]
fn on_windows_the_bqsuite_output_is_a_native_path() {
    let mut runner = Runner::new(WINDOWS);
    runner.os = "Windows";
    // Git Bash's cygpath, as far as the action uses it: -u gives the path bash uses (here the
    // same), -w the native one (here C:\fake plus the path with backslashes).
    let bin = tempfile::tempdir().unwrap();
    let cygpath = bin.path().join("cygpath");
    fs::write(
        &cygpath,
        r#"#!/bin/sh
case $1 in
  -u) printf '%s\n' "$2" ;;
  -w) printf 'C:\\fake%s\n' "$(printf '%s' "$2" | tr / '\\')" ;;
  *) exit 64 ;;
esac
"#,
    )
    .unwrap();
    fs::set_permissions(&cygpath, fs::Permissions::from_mode(0o755)).unwrap();
    runner.path_dir = Some(bin.path().to_path_buf());

    let run = runner.run(&[("INPUT_VERSION", VERSION)]);
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    let posix = runner.install_dir().join("bqsuite.exe");
    let native = format!("C:\\fake{}", posix.display().to_string().replace('/', "\\"));
    assert_eq!(run.output("bqsuite"), Some(native), "{}", run.text());
    // The later steps of the action run it through Git Bash, with the path bash reads.
    assert_eq!(run.output("posix"), Some(posix.display().to_string()));
    assert!(posix.is_file());
}

#[test]
fn the_check_step_passes_the_suite_input_to_fetch() {
    let scratch = tempfile::tempdir().unwrap();
    let sbp = root().join("sbp-suite");
    let mirror = scratch.path().join("mirror");
    kit::released(&sbp, &mirror);
    let copy = scratch.path().join("sdk/tests/conformance");
    kit::vendor_set(&sbp, &copy);
    let version = fs::read_to_string(sbp.join("CONFORMANCE_VERSION")).unwrap();
    let url = kit::file_url(&mirror);
    let check = |suite: &str| {
        run_step(
            "check",
            scratch.path(),
            &[
                ("BQSUITE", env!("CARGO_BIN_EXE_bqsuite")),
                ("VERSION", version.trim()),
                ("SUITE", suite),
                ("CHECK", copy.to_str().unwrap()),
                ("DIFF", "false"),
                ("BASE_URL", &url),
            ],
        )
    };
    let run = check("sbp");
    assert_eq!(run.out.status.code(), Some(0), "{}", run.text());
    // The default input against an SBP copy: fetch says which suite the copy is.
    let run = check("babelqueue");
    assert_eq!(run.out.status.code(), Some(2), "{}", run.text());
    assert!(
        run.text().contains("expects `babelqueue`"),
        "{}",
        run.text()
    );
}
