//! fetch leaves nothing behind and writes nowhere else: stale staging beside a bare-named DIR is
//! cleaned, a file-size limit is a clean error (not a silent SIGXFSZ death) with no staging left,
//! and a DIR swapped for a symbolic link while the release downloads is refused, not written
//! through.
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::kit::server::{Reply, Server, range_reply};
use crate::kit::writers::{HeldMirror, spawn_in, wait_for_lock};
use crate::kit::{bundled_suite, bundled_version, code, names, released, run_in, stderr, stdout};

/// The bundled suite released into `<dir>/mirror`; returns the asset's bytes.
fn release_into(dir: &Path) -> Vec<u8> {
    fs::read(released(&bundled_suite(), &dir.join("mirror"))).unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn stale_staging_beside_a_bare_named_dir_is_removed() {
    let work = tempfile::tempdir().unwrap();
    release_into(work.path());
    let base = format!("file://{}", work.path().join("mirror").display());
    let sdk = work.path().join("sdk");
    fs::create_dir(&sdk).unwrap();
    let v = bundled_version();
    for (args, dest) in [
        (vec!["fetch", "--update", &v, "conformance"], "conformance"),
        (vec!["fetch", &v, "fresh"], "fresh"),
    ] {
        // A fetch killed while it downloads leaves its staging directory beside the bare name.
        let held = HeldMirror::of(&work.path().join("mirror"));
        let mut killed = spawn_in(&sdk, &args, &[("BQ_CONFORMANCE_BASE_URL", held.base())]);
        wait_for_lock(&sdk.join(dest), killed.id());
        held.wait_for_download();
        killed.kill().unwrap();
        killed.wait().unwrap();
        let staging = format!(".{dest}.fetch-{}-", killed.id());
        assert!(names(&sdk).iter().any(|n| n.starts_with(&staging)));
        // The next fetch of the same DIR removes it.
        let out = run_in(&sdk, &args, &[("BQ_CONFORMANCE_BASE_URL", &base)]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            names(&sdk).iter().all(|n| !n.starts_with('.')),
            "left: {:?}",
            names(&sdk)
        );
    }
    assert_eq!(names(&sdk), ["conformance", "fresh"]);
}

#[test]
fn a_file_size_limit_is_a_clean_error_and_leaves_no_staging() {
    let work = tempfile::tempdir().unwrap();
    let asset = release_into(work.path());
    let sums = fs::read(work.path().join("mirror/SHA256SUMS")).unwrap();
    // Over HTTP the asset's private copy is what hits the limit; from file:// an unpacked file.
    let server = Server::start(move |r, _| {
        if r.path.ends_with("/SHA256SUMS") {
            Reply::ok(&sums)
        } else if r.path.ends_with(".tar.gz") {
            range_reply(&asset, r)
        } else {
            Reply::status(404)
        }
    });
    for base in [
        format!("file://{}", work.path().join("mirror").display()),
        format!("{}/v{{version}}", server.base),
    ] {
        let sdk = work.path().join("sdk");
        fs::create_dir(&sdk).unwrap();
        // `ulimit -f 4`: at most 2 KiB (dash) or 4 KiB (bash) per file; the suite has larger
        // files.
        let out = Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 4 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_bqsuite"))
            .args(["fetch", &bundled_version(), "conformance"])
            .current_dir(&sdk)
            .env("BQ_CONFORMANCE_BASE_URL", &base)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{base}: {:?} {}",
            out.status,
            stderr(&out)
        );
        let err = stderr(&out);
        assert!(err.contains("the file is too large"), "{base}: {err}");
        assert!(err.contains("free some space"), "{base}: {err}");
        assert!(!err.contains("os error"), "{err}");
        assert!(names(&sdk).is_empty(), "{base}: {:?}", names(&sdk));
        fs::remove_dir(&sdk).unwrap();
    }
}

#[test]
fn a_dir_swapped_for_a_link_during_the_download_is_not_written_through() {
    let work = tempfile::tempdir().unwrap();
    let asset = release_into(work.path());
    let base = format!("file://{}", work.path().join("mirror").display());
    let sdk = work.path().join("sdk");
    fs::create_dir(&sdk).unwrap();
    let v = bundled_version();
    let out = run_in(
        &sdk,
        &["fetch", &v, "conformance"],
        &[("BQ_CONFORMANCE_BASE_URL", &base)],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The copy is stale (so --update writes), and a directory elsewhere looks like a copy.
    fs::remove_file(sdk.join("conformance/CONFORMANCE_VERSION")).unwrap();
    let elsewhere = work.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::write(elsewhere.join("manifest.json"), "{}").unwrap();

    let copy = sdk.join("conformance");
    let moved = sdk.join("moved");
    let sums = fs::read(work.path().join("mirror/SHA256SUMS")).unwrap();
    let (to_move, link_to, moved_to) = (copy.clone(), elsewhere.clone(), moved.clone());
    let server = Server::start(move |r, _| {
        if r.path.ends_with("/SHA256SUMS") {
            return Reply::ok(&sums);
        }
        if r.path.ends_with(".tar.gz") {
            // DIR is swapped while the release downloads.
            if to_move.is_dir() && !moved_to.exists() {
                fs::rename(&to_move, &moved_to).unwrap();
                std::os::unix::fs::symlink(&link_to, &to_move).unwrap();
            }
            return range_reply(&asset, r);
        }
        Reply::status(404)
    });
    let http = format!("{}/v{{version}}", server.base);
    let out = run_in(
        &sdk,
        &["fetch", "--update", &v, "conformance"],
        &[("BQ_CONFORMANCE_BASE_URL", &http)],
    );
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("conformance") && err.contains("changed while") && err.contains("link"),
        "{err}"
    );
    assert_eq!(
        names(&elsewhere),
        ["manifest.json"],
        "written through the link"
    );
    assert_eq!(
        fs::read_to_string(elsewhere.join("manifest.json")).unwrap(),
        "{}"
    );
    assert!(!moved.join("CONFORMANCE_VERSION").exists());
    assert_eq!(names(&sdk), ["conformance", "moved"], "no staging left");

    // The same for a plain fetch into a new directory: a link that appears there is refused.
    let fresh = sdk.join("fresh");
    let (appear, link_to) = (fresh.clone(), elsewhere.clone());
    let asset = fs::read(
        work.path()
            .join(format!("mirror/babelqueue-conformance-{v}.tar.gz")),
    )
    .unwrap();
    let sums = fs::read(work.path().join("mirror/SHA256SUMS")).unwrap();
    let server = Server::start(move |r, _| {
        if r.path.ends_with("/SHA256SUMS") {
            return Reply::ok(&sums);
        }
        if r.path.ends_with(".tar.gz") {
            if fs::symlink_metadata(&appear).is_err() {
                std::os::unix::fs::symlink(&link_to, &appear).unwrap();
            }
            return range_reply(&asset, r);
        }
        Reply::status(404)
    });
    let http = format!("{}/v{{version}}", server.base);
    let out = run_in(
        &sdk,
        &["fetch", &v, "fresh"],
        &[("BQ_CONFORMANCE_BASE_URL", &http)],
    );
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    assert!(stderr(&out).contains("changed while"), "{}", stderr(&out));
    assert_eq!(names(&elsewhere), ["manifest.json"]);
    assert_eq!(names(&sdk), ["conformance", "fresh", "moved"]);
}
