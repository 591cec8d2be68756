//! Release assets as real tools write them. The published assets of 1.5.0–1.8.0 were packed by
//! the suite repository's old pipeline (GNU tar, sorted, mtime 0, owner 0, then `gzip -n`), not by
//! `bqsuite release`; SDKs also mirror and re-pack assets with whatever tar they have. Every real
//! release is packed here by GNU tar (gnu, ustar and posix formats), bsdtar (its default and pax),
//! busybox tar and Python's tarfile, compressed by `gzip -n` at levels 1, 6 and 9, and must be
//! fetched with exactly the release's files, found in sync by `--check`, applied by `--update`,
//! and read by `diff` as the same suite. Every reader must also extract from each of them exactly
//! what `fetch` wrote.
//!
//! The tools are real: GNU tar, gzip and python3, `bsdtar` (Debian: libarchive-tools) and
//! `busybox`. `.ci/run` installs them; a missing one fails the test with the package to install.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::kit;
use crate::kit::tarball::Mirror;
use crate::kit::{command, copy_tree, real_release, sha256_hex, snapshot, text};

const VERSIONS: [&str; 4] = ["1.5.0", "1.6.0", "1.7.0", "1.8.0"];
const LEVELS: [u32; 3] = [1, 6, 9];

/// A tar writer, as a command line run in the directory holding the release root.
#[derive(Debug, Clone, Copy)]
enum Writer {
    /// The old release pipeline: GNU tar's default (gnu) format.
    GnuTar,
    GnuUstar,
    GnuPosix,
    Bsdtar,
    BsdtarPax,
    Busybox,
    Python,
}

const WRITERS: [Writer; 7] = [
    Writer::GnuTar,
    Writer::GnuUstar,
    Writer::GnuPosix,
    Writer::Bsdtar,
    Writer::BsdtarPax,
    Writer::Busybox,
    Writer::Python,
];

fn run(cmd: &mut Command, input: Option<&[u8]>) -> Vec<u8> {
    let shown = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{shown}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.unwrap_or_default().to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{shown} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

impl Writer {
    /// The tar stream of `root` (a directory inside `cwd`).
    fn pack(self, cwd: &Path, root: &str) -> Vec<u8> {
        let gnu = |format: Option<&str>| {
            let mut c = Command::new(kit::need_tool("tar", "tar"));
            c.args(["--sort=name", "--mtime=@0", "--owner=0", "--group=0"])
                .arg("--numeric-owner");
            if let Some(f) = format {
                c.arg(format!("--format={f}"));
            }
            c.args(["-cf", "-", root]);
            c
        };
        let mut cmd = match self {
            Writer::GnuTar => gnu(None),
            Writer::GnuUstar => gnu(Some("ustar")),
            Writer::GnuPosix => gnu(Some("posix")),
            Writer::Bsdtar => {
                let mut c = Command::new(kit::need_tool("bsdtar", "libarchive-tools"));
                c.args(["-cf", "-", root]);
                c
            }
            Writer::BsdtarPax => {
                let mut c = Command::new(kit::need_tool("bsdtar", "libarchive-tools"));
                c.args(["--format", "pax", "-cf", "-", root]);
                c
            }
            Writer::Busybox => {
                let mut c = Command::new(kit::need_tool("busybox", "busybox"));
                c.args(["tar", "-cf", "-", root]);
                c
            }
            Writer::Python => {
                let mut c = Command::new(kit::need_tool("python3", "python3"));
                c.args([
                    "-c",
                    "import sys, tarfile\n\
                     with tarfile.open(fileobj=sys.stdout.buffer, mode='w|') as t:\n\
                     \x20   t.add(sys.argv[1])",
                    root,
                ]);
                c
            }
        };
        run(cmd.current_dir(cwd), None)
    }
}

fn gzip(level: u32, tar: &[u8]) -> Vec<u8> {
    run(
        Command::new(kit::need_tool("gzip", "gzip")).args(["-n", &format!("-{level}"), "-c"]),
        Some(tar),
    )
}

/// The release root of `version` as its asset holds it (the vendored files and LICENSE), in a
/// fresh directory.
fn staged(version: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = format!("babelqueue-conformance-{version}");
    copy_tree(&real_release(version), &dir.path().join(&root));
    fs::copy(
        crate::kit::root().join("LICENSE-suite"),
        dir.path().join(&root).join("LICENSE"),
    )
    .unwrap();
    (dir, root)
}

/// Every path under `dir` with the sha256 of its content (files) or nothing (directories),
/// leaving out the root's LICENSE, which fetch writes but never vendors: short to print when two
/// trees differ.
fn tree(dir: &Path) -> Vec<(String, Option<String>)> {
    snapshot(dir)
        .into_iter()
        .filter(|(rel, _)| rel != "LICENSE")
        .map(|(rel, content)| (rel, content.map(|c| sha256_hex(&c))))
        .collect()
}

fn bq(mirror: &Mirror, args: &[&str]) -> std::process::Output {
    command()
        .env("BQ_CONFORMANCE_BASE_URL", mirror.url())
        .args(args)
        .output()
        .unwrap()
}

/// Fetches, checks, updates and diffs one asset; returns what went wrong, if anything.
fn exercise(version: &str, asset: &[u8], previous: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mirror = Mirror::new();
    mirror.publish(version, asset);
    let work = tempfile::tempdir().unwrap();
    let release = real_release(version);
    let s = |p: &Path| p.to_str().unwrap().to_string();

    let out_dir = work.path().join("fetched");
    let out = bq(&mirror, &["fetch", version, &s(&out_dir)]);
    if out.status.code() != Some(0) {
        problems.push(format!("fetch: {}", text(&out)));
    } else if tree(&out_dir) != tree(&release) {
        problems.push("fetch wrote other files than the release's".into());
    }

    let out = bq(&mirror, &["fetch", "--check", version, &s(&release)]);
    if out.status.code() != Some(0) {
        problems.push(format!("fetch --check: {}", text(&out)));
    }

    let copy = work.path().join("vendored");
    copy_tree(previous, &copy);
    let out = bq(&mirror, &["fetch", "--update", version, &s(&copy)]);
    if out.status.code() != Some(0) {
        problems.push(format!("fetch --update: {}", text(&out)));
    } else if tree(&copy) != tree(&release) {
        problems.push("fetch --update left other files than the release's".into());
    }

    let tarball = work
        .path()
        .join(format!("babelqueue-conformance-{version}.tar.gz"));
    fs::write(&tarball, asset).unwrap();
    let out = bq(
        &mirror,
        &["diff", &s(&tarball), &s(&release), "--format", "json"],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    if out.status.code() != Some(0) || doc["data"]["changes"] != 0 {
        problems.push(format!("diff against the release: {}", text(&out)));
    }
    problems
}

#[test]
fn every_real_writer_and_gzip_level_is_fetched_checked_updated_and_diffed() {
    let mut problems = Vec::new();
    let mut exercised = 0;
    for (i, version) in VERSIONS.iter().enumerate() {
        // An SDK updating its copy moves from the release before (1.4.0 for the first).
        let previous = real_release(if i == 0 { "1.4.0" } else { VERSIONS[i - 1] });
        let (dir, root) = staged(version);
        for writer in WRITERS {
            let tar = writer.pack(dir.path(), &root);
            for level in LEVELS {
                let asset = gzip(level, &tar);
                for p in exercise(version, &asset, &previous) {
                    problems.push(format!("{version} {writer:?} gzip -{level}: {p}"));
                }
                exercised += 1;
            }
        }
    }
    assert_eq!(exercised, VERSIONS.len() * WRITERS.len() * LEVELS.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Extracts `asset` with one reader into a new directory; returns the extracted root.
fn extract(reader: &str, asset: &Path, into: &Path, root: &str) -> PathBuf {
    fs::create_dir_all(into).unwrap();
    let mut cmd = match reader {
        "gnu" => {
            let mut c = Command::new(kit::need_tool("tar", "tar"));
            c.arg("-xzf").arg(asset);
            c
        }
        "bsdtar" => {
            let mut c = Command::new(kit::need_tool("bsdtar", "libarchive-tools"));
            c.arg("-xzf").arg(asset);
            c
        }
        "busybox" => {
            let mut c = Command::new(kit::need_tool("busybox", "busybox"));
            c.args(["tar", "-xzf"]).arg(asset);
            c
        }
        _ => {
            let mut c = Command::new(kit::need_tool("python3", "python3"));
            c.args([
                "-c",
                "import sys, tarfile\n\
                 with tarfile.open(sys.argv[1]) as t:\n\
                 \x20   t.extractall('.', filter='data')",
            ])
            .arg(asset);
            c
        }
    };
    run(cmd.current_dir(into), None);
    into.join(root)
}

#[test]
fn every_reader_extracts_what_fetch_writes() {
    let version = "1.8.0";
    let (dir, root) = staged(version);
    for writer in WRITERS {
        let asset = gzip(9, &writer.pack(dir.path(), &root));
        let mirror = Mirror::new();
        mirror.publish(version, &asset);
        let work = tempfile::tempdir().unwrap();
        let fetched = work.path().join("fetched");
        let out = bq(&mirror, &["fetch", version, fetched.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{writer:?}: {}", text(&out));
        let tarball = work.path().join("asset.tar.gz");
        fs::write(&tarball, &asset).unwrap();
        for reader in ["gnu", "bsdtar", "busybox", "python"] {
            let extracted = extract(reader, &tarball, &work.path().join(reader), &root);
            assert!(
                extracted.join("LICENSE").is_file(),
                "{writer:?} read by {reader}"
            );
            assert_eq!(
                tree(&extracted),
                tree(&fetched),
                "{writer:?} read by {reader}"
            );
        }
    }
}

/// What GNU tar writes for a file with holes (`--sparse`) and for a path longer than a ustar name
/// (a GNU long-name header, in its default format) is refused, naming the entry and the
/// construct: how much of either a reader honours decides the bytes it extracts.
#[test]
fn gnu_tar_sparse_files_and_long_names_are_refused_by_name() {
    let version = "1.8.0";
    let (dir, root) = staged(version);
    let sparse = dir.path().join(&root).join("fixtures/holes.json");
    let file = fs::File::create(&sparse).unwrap();
    file.set_len(1 << 20).unwrap();
    drop(file);
    let mut tar = Command::new(kit::need_tool("tar", "tar"));
    tar.args(["--sparse", "--format=gnu", "-cf", "-", &root]);
    let asset = gzip(6, &run(tar.current_dir(dir.path()), None));
    let refused = |asset: &[u8]| {
        let mirror = Mirror::new();
        mirror.publish(version, asset);
        let work = tempfile::tempdir().unwrap();
        let dest = work.path().join("out");
        let out = bq(
            &mirror,
            &["fetch", version, dest.to_str().unwrap(), "--format", "json"],
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(!dest.exists());
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let d = &doc["diagnostics"][0];
        (
            d["code"].as_str().unwrap().to_string(),
            d["file"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        refused(&asset),
        (
            "archive-sparse".to_string(),
            format!("{root}/fixtures/holes.json")
        )
    );
    fs::remove_file(&sparse).unwrap();
    let long = format!("fixtures/{}.json", "l".repeat(80));
    fs::write(dir.path().join(&root).join(&long), "{}").unwrap();
    let asset = gzip(6, &Writer::GnuTar.pack(dir.path(), &root));
    let (code, _) = refused(&asset);
    assert_eq!(code, "archive-extension-header");
}
