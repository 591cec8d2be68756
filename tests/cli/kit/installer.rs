//! The installer and the action: a tiny bqsuite release in the exact layout the release workflow
//! makes (`bqsuite-vVERSION-TARGET/bqsuite[.exe]` in a .tar.gz, or a .zip for Windows), whose
//! "binary" is a shell script printing `bqsuite VERSION`; install.sh run against a release; and
//! the scripts of action.yml's steps, run with bash as the runner runs them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{root, sha256_hex, text};

/// The installer script.
pub fn installer() -> PathBuf {
    root().join("install.sh")
}

/// The archive's file name, as install.sh and release.yml name it.
pub fn archive_name(version: &str, target: &str) -> String {
    let ext = if target.contains("windows") {
        "zip"
    } else {
        "tar.gz"
    };
    format!("bqsuite-v{version}-{target}.{ext}")
}

/// The variables install.sh reads besides its options: none of this process's may get in.
pub const INSTALLER_ENV: [&str; 10] = [
    "BQSUITE_VERSION",
    "BQSUITE_SUITE",
    "BQSUITE_INSTALL_DIR",
    "BQSUITE_TARGET",
    "BQSUITE_CACHE_DIR",
    "BQSUITE_SHA256",
    "BQSUITE_TIMEOUT",
    "BQSUITE_MIN_SPEED",
    "BQSUITE_SPEED_WINDOW",
    "BQ_CONFORMANCE_BASE_URL",
];

/// `sh install.sh --version VERSION --target TARGET --dir INTO` from the release at `base` (a
/// URL: `file://…` or `http://…`), with none of INSTALLER_ENV from outside.
pub fn install_command(base: &str, version: &str, target: &str, into: &Path) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg(installer())
        .args(["--version", version, "--target", target, "--dir"])
        .arg(into);
    for name in INSTALLER_ENV {
        cmd.env_remove(name);
    }
    cmd.env("BQ_CONFORMANCE_BASE_URL", base);
    cmd
}

/// Writes the archive into `dir` and returns its sha256.
pub fn tiny_archive(dir: &Path, version: &str, target: &str) -> String {
    tiny_archive_of(
        dir,
        version,
        target,
        &format!("#!/bin/sh\necho bqsuite {version}\n"),
    )
}

/// The same, its binary being `script`.
pub fn tiny_archive_of(dir: &Path, version: &str, target: &str, script: &str) -> String {
    let name = format!("bqsuite-v{version}-{target}");
    let windows = target.contains("windows");
    let staging = tempfile::tempdir().unwrap();
    let pkg = staging.path().join(&name);
    fs::create_dir_all(&pkg).unwrap();
    let exe = if windows { "bqsuite.exe" } else { "bqsuite" };
    fs::write(pkg.join(exe), script).unwrap();
    let archive = dir.join(archive_name(version, target));
    let status = if windows {
        Command::new("zip")
            .current_dir(staging.path())
            .arg("-qr")
            .arg(&archive)
            .arg(&name)
            .status()
            .expect("`zip` is needed to build a Windows release archive")
    } else {
        Command::new("tar")
            .arg("-czf")
            .arg(&archive)
            .arg("-C")
            .arg(staging.path())
            .arg(&name)
            .status()
            .unwrap()
    };
    assert!(status.success(), "could not build {}", archive.display());
    sha256_hex(&fs::read(&archive).unwrap())
}

/// bqsuite-SHA256SUMS giving `hash` for the archive, beside another platform's line.
pub fn write_sums(dir: &Path, version: &str, target: &str, hash: &str) {
    fs::write(
        dir.join("bqsuite-SHA256SUMS"),
        format!(
            "{}  bqsuite-v{version}-aarch64-apple-darwin.tar.gz\n{hash}  {}\n",
            "0".repeat(64),
            archive_name(version, target)
        ),
    )
    .unwrap();
}

/// The `run: |` script of the step with `id: <id>` in action.yml (a comment may follow the `|`).
pub fn step_script(id: &str) -> String {
    let action = fs::read_to_string(root().join("action.yml")).unwrap();
    let lines: Vec<&str> = action.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == format!("id: {id}"))
        .unwrap_or_else(|| panic!("no step `{id}` in action.yml"));
    let run = start
        + lines[start..]
            .iter()
            .position(|l| {
                let l = l.trim();
                l == "run: |" || l.starts_with("run: | #")
            })
            .expect("the step has no `run: |`");
    let indent = lines[run].len() - lines[run].trim_start().len() + 2;
    let mut script = String::new();
    for line in &lines[run + 1..] {
        if !line.trim().is_empty() && line.len() - line.trim_start().len() < indent {
            break;
        }
        script.push_str(line.get(indent..).unwrap_or(""));
        script.push('\n');
    }
    script
}

/// One run of a step's script.
pub struct StepRun {
    pub out: std::process::Output,
    /// What it wrote to $GITHUB_OUTPUT and $GITHUB_PATH.
    pub github_output: String,
    pub github_path: String,
}

impl StepRun {
    pub fn text(&self) -> String {
        text(&self.out)
    }

    /// The `key=value` lines of $GITHUB_OUTPUT, in order.
    pub fn outputs(&self) -> Vec<(String, String)> {
        self.github_output
            .lines()
            .map(|l| {
                let (k, v) = l.split_once('=').expect("key=value");
                (k.to_string(), v.to_string())
            })
            .collect()
    }

    pub fn output(&self, key: &str) -> Option<String> {
        self.outputs()
            .into_iter()
            .find_map(|(k, v)| (k == key).then_some(v))
    }
}

/// The action's inputs as the runner passes them to the Resolve step when a workflow gives none.
pub const DEFAULT_INPUTS: [(&str, &str); 7] = [
    ("INPUT_SUITE", "babelqueue"),
    ("INPUT_VERSION", ""),
    ("INPUT_CHECK", ""),
    ("INPUT_DIFF", "false"),
    ("INPUT_BASE_URL", ""),
    ("INPUT_CACHE", "true"),
    ("INPUT_CHECKSUM", ""),
];

/// Runs the step `id` of action.yml with bash as the runner would: $GITHUB_OUTPUT and
/// $GITHUB_PATH fresh files in `scratch`, which is also RUNNER_TEMP and holds the tool cache;
/// the action checked out at this repository (GITHUB_ACTION_PATH) on Linux, as if pinned by a
/// commit hash (GITHUB_ACTION_REF). Nothing of this process's BQSUITE_* or
/// BQ_CONFORMANCE_BASE_URL gets in; `vars` are set last and may override any of it.
pub fn run_step(id: &str, scratch: &Path, vars: &[(&str, &str)]) -> StepRun {
    let github_output = scratch.join("github_output");
    let github_path = scratch.join("github_path");
    fs::write(&github_output, "").unwrap();
    fs::write(&github_path, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(step_script(id))
        .env("GITHUB_OUTPUT", &github_output)
        .env("GITHUB_PATH", &github_path)
        .env("RUNNER_TEMP", scratch)
        .env("RUNNER_OS", "Linux")
        .env("GITHUB_ACTION_PATH", root())
        .env(
            "GITHUB_ACTION_REF",
            "0f3c1a2b4d5e6f708192a3b4c5d6e7f8091a2b3c",
        )
        .env("TOOL_CACHE", scratch.join("toolcache"));
    for name in INSTALLER_ENV {
        cmd.env_remove(name);
    }
    for (name, value) in vars {
        cmd.env(name, value);
    }
    let out = cmd.output().unwrap();
    StepRun {
        out,
        github_output: fs::read_to_string(&github_output).unwrap_or_default(),
        github_path: fs::read_to_string(&github_path).unwrap_or_default(),
    }
}
