//! install.sh, round 3 of the hardening (issue 20, item 5): bqsuite-SHA256SUMS read as `fetch`
//! reads SHA256SUMS, temporary files that cannot be planted, HOME unset, untrusted text shown
//! escaped. The release here is a tiny shell-script "binary", so these run fast; the network
//! findings are in `network.rs`.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::process::{Command, Output};

use super::{TARGET, TinyRelease as Release, VERSION};
use crate::kit::installer::installer;
use crate::kit::{file_url, text};

fn archive_name() -> String {
    crate::kit::installer::archive_name(VERSION, TARGET)
}

fn other_hash() -> String {
    "f".repeat(64)
}

#[test]
fn disagreeing_lines_for_the_archive_are_refused_whichever_comes_first() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let (good, bad, name) = (release.hash.clone(), other_hash(), archive_name());
    for sums in [
        format!("{good}  {name}\n{bad}  {name}\n"),
        format!("{bad}  {name}\n{good}  {name}\n"),
        format!("{good}  {name}\n{bad} *{name}\n"),
    ] {
        release.sums(&sums);
        let out = release.install(&bin);
        assert_eq!(out.status.code(), Some(1), "{sums}\n{}", text(&out));
        assert!(text(&out).contains("that disagree"), "{}", text(&out));
        assert!(text(&out).contains(&bad), "{}", text(&out));
        assert!(!bin.exists(), "installed from {sums}");
    }
    // The same hash twice (in any case, either mode marker) agrees.
    release.sums(format!(
        "{good}  {name}\n{}  {name}\n{good} *{name}\n",
        good.to_uppercase()
    ));
    let out = release.install(&bin);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(bin.join("bqsuite").is_file());
}

#[test]
fn checksum_lines_are_read_as_fetch_reads_them() {
    let release = Release::new();
    let home = tempfile::tempdir().unwrap();
    let (good, name) = (release.hash.clone(), archive_name());
    // CRLF line ends, as a file edited on Windows has, are read.
    release.sums(format!(
        "{}  other.tar.gz\r\n{good}  {name}\r\n",
        "0".repeat(64)
    ));
    let out = release.install(&home.path().join("crlf"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Lines fetch does not read are not read here either: other spacing, a lone CR at the end
    // (not a line end), a name with something after it, a short hash.
    for sums in [
        format!("{good}   {name}\n"),
        format!("{good}\t{name}\n"),
        format!(" {good}  {name}\n"),
        format!("{good}  {name}\r"),
        format!("{good}  {name} \n"),
        format!("{}  {name}\n", &good[..63]),
    ] {
        release.sums(&sums);
        let bin = home.path().join("refused");
        let out = release.install(&bin);
        assert_eq!(out.status.code(), Some(1), "{sums:?}\n{}", text(&out));
        assert!(text(&out).contains("has no checksum for"), "{}", text(&out));
        assert!(!bin.exists(), "installed from {sums:?}");
    }
    // Not UTF-8, a NUL byte, more than 64 KiB: refused as fetch refuses them.
    let line = format!("{good}  {name}\n");
    let mut latin1 = line.clone().into_bytes();
    latin1.extend_from_slice(b"caf\xe9\n");
    let mut nul = line.clone().into_bytes();
    nul.extend_from_slice(b"x\0y\n");
    let big = format!("{line}{}\n", "#".repeat(64 * 1024));
    for (sums, why) in [
        (latin1, "is not text"),
        (nul, "is not text"),
        (big.into_bytes(), "larger than 65536 bytes"),
    ] {
        release.sums(&sums);
        let bin = home.path().join("refused");
        let out = release.install(&bin);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(text(&out).contains(why), "{why}: {}", text(&out));
        assert!(!bin.exists());
    }
}

#[test]
fn a_planted_temporary_name_is_never_written_through() {
    let release = Release::new();
    release.sums(format!("{}  {}\n", release.hash, archive_name()));
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let cache = home.path().join("cache");
    fs::create_dir_all(&bin).unwrap();
    fs::create_dir_all(&cache).unwrap();
    let victim = home.path().join("victim");
    fs::write(&victim, "precious\n").unwrap();
    // The names the installer used to pick (the shell's PID, which `exec` keeps), planted as
    // symlinks to the victim before it starts.
    let script = format!(
        "ln -s \"$VICTIM\" \"$BIN/.bqsuite.install-$$\" && \
         ln -s \"$VICTIM\" \"$CACHE/.{}.$$\" && exec sh \"$@\"",
        archive_name()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg("sh")
        .arg(installer())
        .args(["--version", VERSION, "--target", TARGET, "--dir"])
        .arg(&bin)
        .arg("--cache")
        .arg(&cache)
        .env("BQ_CONFORMANCE_BASE_URL", file_url(release.dir.path()))
        .env("VICTIM", &victim)
        .env("BIN", &bin)
        .env("CACHE", &cache)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    let installed = bin.join("bqsuite");
    assert!(
        fs::symlink_metadata(&installed).unwrap().is_file(),
        "bqsuite is not a regular file"
    );
    let cached = cache.join(archive_name());
    assert!(fs::symlink_metadata(&cached).unwrap().is_file());
    // Nothing of the installer's own is left beside them: only the planted links.
    for dir in [&bin, &cache] {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names.iter().any(|n| n.starts_with('.')), "{names:?}");
    }
    // An existing symlink at the final name is replaced, never written through.
    fs::remove_file(&installed).unwrap();
    symlink(&victim, &installed).unwrap();
    let out = release.install(&bin);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(fs::symlink_metadata(&installed).unwrap().is_file());
}

#[test]
fn home_unset_without_dir_cannot_run() {
    let release = Release::new();
    release.sums(format!("{}  {}\n", release.hash, archive_name()));
    // Under dash and under bash (macOS's sh): `${HOME:?}` exits 2 in one and 1 in the other.
    for shell in ["sh", "bash"] {
        if Command::new(shell).arg("-c").arg(":").status().is_err() {
            continue;
        }
        let out = Command::new(shell)
            .arg(installer())
            .args(["--version", VERSION, "--target", TARGET])
            .env("BQ_CONFORMANCE_BASE_URL", file_url(release.dir.path()))
            .env_remove("HOME")
            .env_remove("BQSUITE_INSTALL_DIR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{shell}: {}", text(&out));
        assert!(text(&out).contains("HOME is not set"), "{}", text(&out));
        assert!(text(&out).contains("--dir"), "{}", text(&out));
    }
}

/// Every line install.sh printed, checked: none starts with `::` (a workflow command in GitHub
/// Actions) and none holds a raw control or bidi character.
fn assert_inert(out: &Output) {
    for stream in [&out.stdout, &out.stderr] {
        let s = String::from_utf8_lossy(stream);
        for line in s.lines() {
            assert!(!line.trim_start().starts_with("::"), "{s}");
            assert!(
                !line.chars().any(|c| c.is_control()
                    || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')),
                "{line:?}"
            );
        }
    }
}

#[test]
fn untrusted_text_cannot_forge_a_workflow_command() {
    let evil = "x\n::warning title=forged::owned\r\u{202e}\u{1b}[31m\u{85}";
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str], envs: &[(&str, &str)]| {
        let mut cmd = Command::new("sh");
        cmd.arg(installer())
            .args(args)
            .env_remove("BQSUITE_TARGET")
            .env_remove("BQSUITE_VERSION")
            .env("HOME", home.path());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    // A target with a line break (the action writes --print-target to $GITHUB_OUTPUT).
    let out = run(&["--print-target"], &[("BQSUITE_TARGET", evil)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));
    assert!(
        text(&out).contains("is not a target triple"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("x\\n::warning"), "{}", text(&out));
    assert_inert(&out);
    for (args, envs) in [
        (vec!["--version", evil], vec![]),
        (vec![evil], vec![]),
        (vec!["--version", VERSION, "--target", evil], vec![]),
        (vec!["--version", VERSION, "--timeout", evil], vec![]),
        (
            vec!["--version", VERSION, "--target", TARGET],
            vec![("BQ_CONFORMANCE_BASE_URL", evil)],
        ),
        (
            vec!["--version", VERSION, "--target", TARGET],
            vec![(
                "BQ_CONFORMANCE_BASE_URL",
                "file:///nowhere/\n::error::x\u{2066}",
            )],
        ),
    ] {
        let out = run(&args, &envs);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert_inert(&out);
    }
}

#[test]
fn numbers_are_whole_and_never_octal() {
    let release = Release::new();
    release.sums(format!("{}  {}\n", release.hash, archive_name()));
    let home = tempfile::tempdir().unwrap();
    // 0600 is six hundred seconds, not octal (and 09 no arithmetic error).
    for ok in ["0600", "09"] {
        let out = release
            .command(&home.path().join(ok))
            .args(["--timeout", ok])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    for bad in ["0", "-1", "1e3", "9999999999", ""] {
        let out = release
            .command(&home.path().join("bad"))
            .args(["--timeout", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
        assert!(text(&out).contains("--timeout"), "{}", text(&out));
    }
}

#[test]
fn a_missing_tool_cannot_run_and_is_never_taken_for_tampering() {
    let release = Release::new();
    release.sums(format!("{}  {}\n", release.hash, archive_name()));
    let home = tempfile::tempdir().unwrap();
    // A PATH with what install.sh uses, gzip left out.
    let tools = home.path().join("tools");
    fs::create_dir_all(&tools).unwrap();
    for tool in [
        "sh",
        "awk",
        "sed",
        "mktemp",
        "cut",
        "tr",
        "wc",
        "tail",
        "head",
        "date",
        "cp",
        "mv",
        "rm",
        "mkdir",
        "chmod",
        "cat",
        "tar",
        "uname",
        "sha256sum",
    ] {
        let found = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool}"))
            .output()
            .unwrap();
        let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
        if path.starts_with('/') {
            symlink(path, tools.join(tool)).unwrap();
        }
    }
    let bin = home.path().join("bin");
    let out = release.command(&bin).env("PATH", &tools).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`gzip` is not installed"),
        "{}",
        text(&out)
    );
    assert!(!bin.exists());
}
