//! `install.sh --sha256 HEX` (issue 22, item 2): the archive must match the hash you pinned as
//! well as the release's bqsuite-SHA256SUMS. A release replaced whole (archive and checksum file
//! agreeing with each other) passes the checksum file but not the pin: exit 1, nothing installed.
#![cfg(unix)]

use std::fs;

use super::{TARGET, TinyRelease, VERSION};
use crate::kit::installer::{archive_name, tiny_archive_of, write_sums};
use crate::kit::text;

#[test]
fn a_matching_pin_installs_in_either_case_and_from_the_environment() {
    let release = TinyRelease::published();
    let home = tempfile::tempdir().unwrap();
    for (extra, env, bin) in [
        (vec!["--sha256", release.hash.as_str()], vec![], "a"),
        (vec![], vec![("BQSUITE_SHA256", release.hash.as_str())], "b"),
    ] {
        let bin = home.path().join(bin);
        let out = release.install_with(&bin, &extra, &env);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(text(&out).contains("--sha256 pins"), "{}", text(&out));
        assert!(bin.join("bqsuite").is_file());
    }
    // The `--sha256=HEX` form, upper case too, is the same option.
    let upper = format!("--sha256={}", release.hash.to_uppercase());
    let out = release.install_with(&home.path().join("c"), &[&upper], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let other = format!("--sha256={}", "ab".repeat(32));
    let out = release.install_with(&home.path().join("d"), &[&other], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!home.path().join("d").exists());
}

#[test]
fn another_pin_is_refused_and_nothing_is_installed() {
    let release = TinyRelease::published();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let other = "c0ffee".repeat(10) + "c0ff";
    let out = release.install_with(&bin, &["--sha256", &other], &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("checksum mismatch"), "{all}");
    assert!(all.contains(&format!("--sha256 pins {other}")), "{all}");
    assert!(all.contains(&release.hash), "{all}");
    assert!(all.contains("nothing was installed"), "{all}");
    assert!(
        all.contains(&format!("grep ' {}$'", archive_name(VERSION, TARGET))),
        "{all}"
    );
    assert!(!bin.exists());
    // An existing install is left as it was.
    fs::create_dir_all(&bin).unwrap();
    fs::write(bin.join("bqsuite"), "old\n").unwrap();
    let out = release.install_with(&bin, &["--sha256", &other], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(fs::read_to_string(bin.join("bqsuite")).unwrap(), "old\n");
    assert_eq!(fs::read_dir(&bin).unwrap().count(), 1);
}

#[test]
fn a_release_replaced_whole_passes_its_checksum_file_but_not_the_pin() {
    let release = TinyRelease::published();
    let pinned = release.hash.clone();
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("cache");
    let cache_arg = cache.to_str().unwrap();
    // Installed once with the pin, so the good archive is in the cache too.
    let out = release.install_with(
        &home.path().join("first"),
        &["--sha256", &pinned, "--cache", cache_arg],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // The release is rebuilt with other bytes and a checksum file that agrees with them.
    let replaced = tiny_archive_of(
        release.dir.path(),
        VERSION,
        TARGET,
        "#!/bin/sh\necho not what you pinned\n",
    );
    assert_ne!(replaced, pinned);
    write_sums(release.dir.path(), VERSION, TARGET, &replaced);
    // Without the pin it would install (the checksum file vouches for what it lists)...
    let out = release.install_with(&home.path().join("unpinned"), &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // ... with it, refused, from the cache or not.
    for extra in [vec![], vec!["--cache", cache_arg]] {
        let bin = home.path().join("pinned");
        let mut args = vec!["--sha256", pinned.as_str()];
        args.extend(extra);
        let out = release.install_with(&bin, &args, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(text(&out).contains("checksum mismatch"), "{}", text(&out));
        assert!(!bin.exists());
    }
}

#[test]
fn a_pin_that_is_not_a_sha256_cannot_run() {
    let release = TinyRelease::published();
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    let short = &release.hash[..63];
    let prefixed = format!("sha256:{}", release.hash);
    let evil = format!("{}\n::warning::forged", release.hash);
    for bad in [short, prefixed.as_str(), "xyz", evil.as_str()] {
        let out = release.install_with(&bin, &["--sha256", bad], &[]);
        let all = text(&out);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {all}");
        assert!(all.contains("is not a sha256 (64 hex digits)"), "{all}");
        assert!(all.contains("bqsuite-SHA256SUMS"), "{all}");
        for line in all.lines() {
            assert!(!line.starts_with("::"), "{line}");
        }
        assert!(!bin.exists());
    }
    let out = release.install_with(&bin, &["--sha256"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}
