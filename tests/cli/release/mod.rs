//! `bqsuite release`: the asset is reproducible whatever the checkout looks like, holds exactly
//! the vendored set plus LICENSE under one root, is what GNU tar and gzip -n would describe, and
//! a refused release writes nothing.
//!
//! These tests use GNU tar, gzip, sha256sum and sh from the system (as CI and fetch.sh do).

mod described;
mod license;
mod sums;
mod threads;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::kit;
use crate::kit::s as p;
use crate::kit::tarball::asset_name;
use crate::kit::*;

/// sha256 of `bqsuite release` of the bundled suite/ (with the repository's LICENSE) and
/// SOURCE_DATE_EPOCH unset. Any change to the suite's files, the LICENSE, or the packaging
/// (headers, order, compression level, the calls made to the compressor, the pinned
/// flate2/zlib-rs/tar versions) changes it, on purpose: such a change must be a conscious one.
/// (The asset fits in one deflate chunk, so it is the single stream it always was; the chunked
/// format of larger assets is pinned in tests/cli/release/threads.rs.) To update after an intended
/// change, run `cargo run -- release suite --out /tmp/dist` in the repository root (debug build;
/// SOURCE_DATE_EPOCH unset), check the new asset (`tar -tzvf`), and copy the printed sha256 here
/// and into README.md.
///
/// Re-pinned when suite/ became the real published 1.8.0 (byte for byte): the asset
/// babelqueue-conformance-1.8.0.tar.gz, 47188 bytes, 65 entries, recomputed with
/// `cargo run -- release suite --out <tmp>` (debug).
const PINNED_SHA256: &str = "fb76e9a5d5a8807c4db3de51ae61a7d129969b67d85e3d28944dd3703727dbde";

fn root_name(version: &str) -> String {
    format!("babelqueue-conformance-{version}")
}

/// Runs `bqsuite release` with `args`, SOURCE_DATE_EPOCH as given (unset when `None`).
fn release_with(args: &[&str], epoch: Option<&str>) -> Output {
    let mut cmd = kit::command();
    cmd.arg("release").args(args).current_dir(root());
    match epoch {
        Some(e) => cmd.env("SOURCE_DATE_EPOCH", e),
        None => cmd.env_remove("SOURCE_DATE_EPOCH"),
    };
    cmd.output().expect("run bqsuite")
}

/// Releases `suite` into `out`; asserts success and returns the asset's bytes.
fn release_ok(suite: &Path, out: &Path) -> Vec<u8> {
    let o = release_with(&[p(suite), "--out", p(out)], None);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    fs::read(out.join(asset_name(&bundled_version()))).unwrap()
}

fn run(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("run command");
    assert!(
        o.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The vendored set of `suite` plus `license`, by relative path.
fn expected_files(suite: &Path, license: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut want = BTreeMap::new();
    for name in ["CONFORMANCE_VERSION", "manifest.json"] {
        want.insert(name.to_string(), fs::read(suite.join(name)).unwrap());
    }
    for dir in ["fixtures", "schema"] {
        for (rel, bytes) in files(&suite.join(dir)) {
            want.insert(format!("{dir}/{rel}"), bytes);
        }
    }
    want.insert("LICENSE".to_string(), fs::read(license).unwrap());
    want
}

/// The listing GNU `tar --sort=name` would give for the vendored set: per directory, names in
/// byte order, each directory (with a trailing `/`) before its contents.
fn expected_listing(suite: &Path, root: &str) -> Vec<String> {
    fn dir(path: &Path, prefix: &str, out: &mut Vec<String>) {
        out.push(format!("{prefix}/"));
        let mut names: Vec<String> = fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        for name in names {
            let child = path.join(&name);
            if child.is_dir() {
                dir(&child, &format!("{prefix}/{name}"), out);
            } else {
                out.push(format!("{prefix}/{name}"));
            }
        }
    }
    let mut out = vec![format!("{root}/")];
    let mut top = vec![
        "CONFORMANCE_VERSION",
        "LICENSE",
        "fixtures",
        "manifest.json",
        "schema",
    ];
    top.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    for name in top {
        match name {
            "fixtures" | "schema" => dir(&suite.join(name), &format!("{root}/{name}"), &mut out),
            _ => out.push(format!("{root}/{name}")),
        }
    }
    out
}

/// Parsed `tar -tzvf` lines: (mode, owner, date time, name).
fn tar_listing(asset: &Path) -> Vec<(String, String, String, String)> {
    let mut cmd = Command::new("tar");
    cmd.args(["--full-time", "-tzvf", p(asset)])
        .env("TZ", "UTC")
        .env("LC_ALL", "C");
    let text = String::from_utf8(run(&mut cmd).stdout).unwrap();
    text.lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 6, "unexpected tar -tv line: {line}");
            (
                f[0].to_string(),
                f[1].to_string(),
                format!("{} {}", f[3], f[4]),
                f[5].to_string(),
            )
        })
        .collect()
}

fn assert_nothing_written(out: &Path, o: &Output) {
    let left: Vec<_> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.is_empty(),
        "a refused release wrote {left:?}\n{}{}",
        stdout(o),
        stderr(o)
    );
}

/// Runs a release of `suite` into a fresh empty out dir, expecting a refusal (exit 1) with a
/// finding of `code_name`; asserts nothing was written.
fn assert_refused(suite: &Path, extra: &[&str], code_name: &str) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![p(suite), "--out", p(out.path()), "--format", "json"];
    args.extend_from_slice(extra);
    let o = release_with(&args, None);
    assert_eq!(code(&o), 1, "expected exit 1\n{}{}", stdout(&o), stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let codes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&code_name),
        "no `{code_name}` finding: {codes:?}"
    );
    assert_nothing_written(out.path(), &o);
}

/// Rebuilds the suite at `from` into `to` the way a different checkout might look: files created
/// in reverse order, other permissions (as under umask 077, plus an executable bit), scattered
/// mtimes, LICENSE inside the suite directory instead of its parent, and an empty directory.
#[cfg(unix)]
fn scrambled_copy(from: &Path, to: &Path, license: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let files = files(from);
    let mut dirs: Vec<PathBuf> = files
        .keys()
        .filter_map(|rel| Path::new(rel).parent().map(|d| to.join(d)))
        .collect();
    dirs.push(to.to_path_buf());
    dirs.sort();
    dirs.dedup();
    for d in dirs.iter().rev() {
        fs::create_dir_all(d).unwrap();
    }
    fs::create_dir_all(to.join("fixtures/empty-dir")).unwrap();
    for (i, (rel, bytes)) in files.iter().rev().enumerate() {
        let path = to.join(rel);
        fs::write(&path, bytes).unwrap();
        let mode = if i % 3 == 0 { 0o700 } else { 0o600 };
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let when =
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + 7919 * i as u64);
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }
    fs::copy(license, to.join("LICENSE")).unwrap();
    fs::set_permissions(to.join("LICENSE"), fs::Permissions::from_mode(0o640)).unwrap();
    for d in &dirs {
        fs::set_permissions(d, fs::Permissions::from_mode(0o700)).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn identical_bytes_from_differently_made_copies() {
    let a = SuiteCopy::new();
    let out_a = tempfile::tempdir().unwrap();
    let first = release_ok(&a.path(), out_a.path());

    let b = tempfile::tempdir().unwrap();
    let suite_b = b.path().join("checkout").join("suite");
    scrambled_copy(&bundled_suite(), &suite_b, &suite_license());
    let out_b = tempfile::tempdir().unwrap();
    // Run under umask 077, from another working directory.
    let o = run(Command::new("sh")
        .arg("-c")
        .arg("umask 077 && exec \"$0\" release \"$1\" --out \"$2\"")
        .arg(env!("CARGO_BIN_EXE_bqsuite"))
        .arg(&suite_b)
        .arg(out_b.path())
        .current_dir(b.path())
        .env_remove("SOURCE_DATE_EPOCH"));
    assert!(stdout(&o).contains("sha256: "), "{}", stdout(&o));
    let second = fs::read(out_b.path().join(asset_name(&bundled_version()))).unwrap();
    assert!(
        first == second,
        "the two builds differ (sha256 {} vs {})",
        sha256_hex(&first),
        sha256_hex(&second)
    );
    let sums_a = fs::read(out_a.path().join("SHA256SUMS")).unwrap();
    assert_eq!(sums_a, fs::read(out_b.path().join("SHA256SUMS")).unwrap());
}

#[test]
fn listing_is_one_sorted_root_owned_by_0_with_one_mtime() {
    let s = SuiteCopy::new();
    let out = tempfile::tempdir().unwrap();
    release_ok(&s.path(), out.path());
    let v = bundled_version();
    let listing = tar_listing(&out.path().join(asset_name(&v)));
    let names: Vec<&str> = listing.iter().map(|l| l.3.as_str()).collect();
    assert_eq!(names, expected_listing(&s.path(), &root_name(&v)));
    for (mode, owner, when, name) in &listing {
        assert_eq!(owner, "0/0", "{name}");
        assert_eq!(when, "1970-01-01 00:00:00", "{name}");
        let want = if name.ends_with('/') {
            "drwxr-xr-x"
        } else {
            "-rw-r--r--"
        };
        assert_eq!(mode, want, "{name}");
    }
}

#[test]
fn source_date_epoch_sets_every_mtime() {
    let s = SuiteCopy::new();
    let out = tempfile::tempdir().unwrap();
    let o = release_with(&[p(&s.path()), "--out", p(out.path())], Some("1700000000"));
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let asset = out.path().join(asset_name(&bundled_version()));
    for (_, _, when, name) in tar_listing(&asset) {
        assert_eq!(when, "2023-11-14 22:13:20", "{name}");
    }
    let bad = release_with(&[p(&s.path()), "--out", p(out.path())], Some("yesterday"));
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("SOURCE_DATE_EPOCH"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn sha256sum_check_passes_and_summary_names_the_asset() {
    let s = SuiteCopy::new();
    let out = tempfile::tempdir().unwrap();
    let o = release_with(&[p(&s.path()), "--out", p(out.path())], None);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let name = asset_name(&bundled_version());
    let bytes = fs::read(out.path().join(&name)).unwrap();
    let hash = sha256_hex(&bytes);
    let sums = fs::read_to_string(out.path().join("SHA256SUMS")).unwrap();
    assert_eq!(sums, format!("{hash}  {name}\n"));
    run(Command::new("sha256sum")
        .args(["-c", "--strict", "SHA256SUMS"])
        .current_dir(out.path()));
    let text = stdout(&o);
    let asset_line = format!("asset: {}", out.path().join(&name).display());
    assert!(text.contains(&asset_line), "{text}");
    assert!(
        text.contains(&format!("size: {} bytes", bytes.len())),
        "{text}"
    );
    assert!(text.contains(&format!("sha256: {hash}")), "{text}");
    // Exactly the two outputs, no temporaries left behind.
    let mut left: Vec<String> = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["SHA256SUMS".to_string(), name]);
}

#[test]
fn unpacked_tree_is_the_vendored_set_plus_license_and_nothing_else() {
    let s = SuiteCopy::new();
    // Things that live in a suite directory but are never released.
    s.write("sync-targets.txt", "../php-sdk/tests/conformance\n");
    s.write("manifest.json~", "{}");
    s.write(".DS_Store", "x");
    s.write("NOTES.md", "draft");
    fs::create_dir_all(s.file(".git")).unwrap();
    fs::write(s.file(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    fs::create_dir_all(s.file("fixtures/empty/deeper")).unwrap();
    let out = tempfile::tempdir().unwrap();
    release_ok(&s.path(), out.path());

    let unpack = tempfile::tempdir().unwrap();
    run(Command::new("tar")
        .args(["-xzf"])
        .arg(out.path().join(asset_name(&bundled_version())))
        .arg("-C")
        .arg(unpack.path()));
    let top: Vec<String> = fs::read_dir(unpack.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(top, [root_name(&bundled_version())], "one root directory");
    let root = unpack.path().join(root_name(&bundled_version()));
    let got = files(&root);
    fs::remove_dir_all(s.file("fixtures/empty")).unwrap();
    let want = expected_files(&s.path(), &s.dir.path().join(SUITE_LICENSE));
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    assert!(got == want, "file contents differ");
    assert!(
        !root.join("fixtures/empty").exists(),
        "an empty directory is not released"
    );
}

/// The tar stream inside the asset is byte for byte what GNU tar writes in ustar format with the
/// same rules (GNU tar then pads the archive to a 10240-byte record with zeros).
#[cfg(unix)]
#[test]
fn tar_stream_is_what_gnu_tar_ustar_writes() {
    let s = SuiteCopy::new();
    // A fixture whose release path is too long for the 100-byte name field (its own name is 95
    // bytes, the most the layout allows with `.json`): it is split into the ustar prefix exactly
    // where GNU tar splits it.
    let rel = format!("fixtures/long-name-{}.json", "f".repeat(85));
    fs::copy(s.file("fixtures/empty-data-roundtrip.json"), s.file(&rel)).unwrap();
    s.edit_manifest(|m| {
        let cases = m["roundtrip"]["cases"].as_array_mut().unwrap();
        let mut case = cases
            .iter()
            .find(|c| c["file"] == "fixtures/empty-data-roundtrip.json")
            .unwrap()
            .clone();
        case["name"] = "long-path-copy".into();
        case["file"] = rel.clone().into();
        cases.push(case);
    });
    let out = tempfile::tempdir().unwrap();
    release_ok(&s.path(), out.path());
    let v = bundled_version();
    let ours = run(Command::new("gzip")
        .args(["-dc"])
        .arg(out.path().join(asset_name(&v))))
    .stdout;

    let stage = tempfile::tempdir().unwrap();
    let root = stage.path().join(root_name(&v));
    fs::create_dir_all(&root).unwrap();
    for (rel, bytes) in expected_files(&s.path(), &s.dir.path().join(SUITE_LICENSE)) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
    let gnu = run(Command::new("tar")
        .args([
            "--format=ustar",
            "--sort=name",
            "--mtime=@0",
            "--owner=0",
            "--group=0",
            "--numeric-owner",
            "--mode=a=rX,u+w",
            "-cf",
            "-",
        ])
        .arg(root_name(&v))
        .current_dir(stage.path())
        .env("LC_ALL", "C"))
    .stdout;
    assert!(gnu.len() >= ours.len(), "GNU tar wrote less");
    let n = ours.len();
    let first_diff = ours.iter().zip(&gnu).position(|(a, b)| a != b);
    assert_eq!(
        first_diff, None,
        "tar streams differ at byte {first_diff:?}"
    );
    assert!(gnu[n..].iter().all(|&b| b == 0), "GNU tar has more entries");
}

#[test]
fn gzip_header_has_no_name_mtime_zero_os_unix() {
    let s = SuiteCopy::new();
    let out = tempfile::tempdir().unwrap();
    let bytes = release_ok(&s.path(), out.path());
    assert_eq!(
        &bytes[..10],
        &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3],
        "ID, CM=deflate, FLG=0 (no FNAME), MTIME=0, XFL=0 (level 6), OS=3"
    );
    // gzip itself accepts the member and reports no stored name.
    let listing = run(Command::new("gzip")
        .args(["-lvN"])
        .arg(out.path().join(asset_name(&bundled_version()))));
    assert!(
        String::from_utf8_lossy(&listing.stdout).contains("defla"),
        "{}",
        String::from_utf8_lossy(&listing.stdout)
    );
}

#[test]
fn invalid_suite_is_refused_and_nothing_written() {
    let s = SuiteCopy::new();
    s.write("fixtures/order-created.json", "{ not json");
    assert_refused(&s.path(), &[], "json-syntax");

    // An output directory that does not exist yet is not left behind either (packaging starts
    // beside validation, so it was made for the temporary asset, and is removed with it), nor are
    // the parents it needed.
    let parent = tempfile::tempdir().unwrap();
    for out in [parent.path().join("dist"), parent.path().join("a/b/dist")] {
        let o = release_with(&[p(&s.path()), "--out", p(&out)], None);
        assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
        assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0, "{out:?}");
    }
}

#[test]
fn pre_version_needs_allow_pre() {
    let s = SuiteCopy::new();
    s.write("CONFORMANCE_VERSION", "1.9.0-pre\n");
    s.edit_manifest(|m| m["conformance_version"] = "1.9.0-pre".into());
    assert_refused(&s.path(), &[], "pre-release-version");

    let out = tempfile::tempdir().unwrap();
    let o = release_with(&[p(&s.path()), "--out", p(out.path()), "--allow-pre"], None);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        out.path()
            .join("babelqueue-conformance-1.9.0-pre.tar.gz")
            .is_file()
    );
}

#[test]
fn tag_must_be_v_plus_version() {
    let s = SuiteCopy::new();
    let v = bundled_version();
    assert_refused(&s.path(), &["--tag", "v0.0.1"], "tag-mismatch");
    assert_refused(&s.path(), &["--tag", v.as_str()], "tag-mismatch");
    let out = tempfile::tempdir().unwrap();
    let tag = format!("v{v}");
    let o = release_with(&[p(&s.path()), "--out", p(out.path()), "--tag", &tag], None);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[cfg(unix)]
#[test]
fn symlink_in_fixtures_is_refused() {
    let s = SuiteCopy::new();
    std::os::unix::fs::symlink("order-created.json", s.file("fixtures/link.json")).unwrap();
    assert_refused(&s.path(), &[], "symlink");
}

#[test]
fn hidden_file_in_fixtures_is_refused() {
    let s = SuiteCopy::new();
    s.write("fixtures/.order-created.json.swp", "x");
    assert_refused(&s.path(), &[], "hidden-file");
}

#[test]
fn unwritable_output_cannot_run_and_leaves_no_temporaries() {
    let s = SuiteCopy::new();
    let parent = tempfile::tempdir().unwrap();
    let out = parent.path().join("dist");
    fs::write(&out, "a file, not a directory").unwrap();
    let o = release_with(&[p(&s.path()), "--out", p(&out)], None);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 1);
}

/// The bundled suite's release is pinned: see [`PINNED_SHA256`] for how to update it.
#[test]
fn pinned_sha256_of_the_bundled_suite() {
    let out = tempfile::tempdir().unwrap();
    let o = release_with(&["suite", "--out", p(out.path())], None);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let bytes = fs::read(out.path().join(asset_name(&bundled_version()))).unwrap();
    assert_eq!(
        sha256_hex(&bytes),
        PINNED_SHA256,
        "the release asset of suite/ changed; if that is intended, update PINNED_SHA256 (see its comment)"
    );
}
