//! `bqsuite fetch --update VERSION DIR`: re-vendoring an SDK's copy from a release, and the fix
//! that a red `fetch --check` names.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::setup::Setup;
use crate::kit::*;

/// Every file under `dir` with its bytes and mtime.
fn files_with_mtimes(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).min_depth(1) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let m = fs::metadata(e.path()).unwrap();
            out.insert(rel, (fs::read(e.path()).unwrap(), m.modified().unwrap()));
        }
    }
    out
}

#[test]
fn a_red_check_names_the_update_that_makes_it_green_and_keeps_sdk_files() {
    let s = Setup::new();
    s.old_copy();
    let v = bundled_version();
    let out = s.run(&["fetch", "--check", &v, "tests/conformance"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let fix = fix_command(&text);
    assert_eq!(
        fix,
        format!(
            "BQ_CONFORMANCE_BASE_URL={} bqsuite fetch --update {v} tests/conformance",
            s.mirror_url()
        )
    );
    // JSON carries it too.
    let doc: Value = serde_json::from_str(&stdout(&s.run(&[
        "fetch",
        "--check",
        &v,
        "tests/conformance",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(doc["data"]["fix"], fix.as_str());

    let pasted = paste(&s.sdk(), &fix);
    assert_eq!(code(&pasted), 0, "{}{}", stdout(&pasted), stderr(&pasted));
    assert!(
        stdout(&pasted).contains(&format!("to release {v}")),
        "{}",
        stdout(&pasted)
    );
    let out = s.run(&["fetch", "--check", &v, "tests/conformance"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let copy = s.copy();
    assert_eq!(
        fs::read_to_string(copy.join("ConformanceTest.php")).unwrap(),
        "<?php // the SDK's runner\n"
    );
    assert_eq!(
        fs::read_to_string(copy.join("LICENSE")).unwrap(),
        "the SDK's copy of the licence\n"
    );
    // No staging or temporary files are left beside or inside the copy.
    let names: Vec<_> = fs::read_dir(copy.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["conformance"]);
    assert!(
        files_with_mtimes(&copy)
            .keys()
            .all(|k| !k.contains(".tmp-"))
    );
}

#[test]
fn update_leaves_identical_files_untouched_and_reports_what_it_wrote() {
    let s = Setup::new();
    s.old_copy();
    let v = bundled_version();
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Age every file, edit one, then update again: only that one is rewritten.
    let old = SystemTime::now() - Duration::from_secs(86_400);
    for e in walkdir::WalkDir::new(s.copy()).min_depth(1) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            fs::File::options()
                .write(true)
                .open(e.path())
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
    }
    fs::write(s.copy().join("fixtures/order-created.json"), "{}").unwrap();
    fs::write(s.copy().join("fixtures/stray.json"), "{}").unwrap();
    let before = files_with_mtimes(&s.copy());
    let out = s.run(&[
        "fetch",
        "--update",
        &v,
        "tests/conformance",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["data"]["written"],
        serde_json::json!(["fixtures/order-created.json"])
    );
    assert_eq!(
        doc["data"]["deleted"],
        serde_json::json!(["fixtures/stray.json"])
    );
    let after = files_with_mtimes(&s.copy());
    for (rel, (bytes, mtime)) in &after {
        if rel != "fixtures/order-created.json" {
            assert_eq!(Some(&(bytes.clone(), *mtime)), before.get(rel), "{rel}");
        }
    }
    // A third run writes nothing.
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    assert!(stdout(&out).contains("nothing written"), "{}", stdout(&out));
}

#[test]
fn update_of_a_new_or_empty_directory_is_a_plain_fetch() {
    let s = Setup::new();
    let v = bundled_version();
    // As for a plain fetch, a missing parent (`tests/`) is made.
    assert!(!s.sdk().join("tests").exists());
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(s.copy().join("manifest.json").is_file());
    fs::create_dir_all(s.sdk().join("empty")).unwrap();
    let out = s.run(&["fetch", "--update", &v, "empty"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(s.sdk().join("empty/manifest.json").is_file());
}

#[test]
fn update_refuses_what_is_not_a_vendored_copy_and_writes_nothing() {
    let s = Setup::new();
    let v = bundled_version();
    // A directory of the SDK's own that holds no manifest.json.
    fs::create_dir_all(s.sdk().join("src")).unwrap();
    fs::write(s.sdk().join("src/main.go"), "package main\n").unwrap();
    let before = files_with_mtimes(s.dir.path());
    let out = s.run(&["fetch", "--update", &v, "src"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("no manifest.json"),
        "{}",
        stderr(&out)
    );
    assert_eq!(files_with_mtimes(s.dir.path()), before);

    #[cfg(unix)]
    {
        // DIR is a link, or holds one.
        s.old_copy();
        std::os::unix::fs::symlink(s.copy(), s.sdk().join("link")).unwrap();
        let before = files_with_mtimes(s.dir.path());
        let out = s.run(&["fetch", "--update", &v, "link"]);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        let outside = s.dir.path().join("outside");
        fs::create_dir_all(&outside).unwrap();
        fs::remove_dir_all(s.copy().join("schema")).unwrap();
        std::os::unix::fs::symlink(&outside, s.copy().join("schema")).unwrap();
        let before_links = files_with_mtimes(s.dir.path());
        let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("`schema`"), "{}", stderr(&out));
        assert_eq!(files_with_mtimes(s.dir.path()), before_links);
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
        drop(before);
    }
}

#[test]
fn update_refuses_an_archive_the_checks_refuse() {
    let s = Setup::new();
    s.old_copy();
    let v = bundled_version();
    // Tamper with the asset: the checksum no longer matches.
    let asset = s
        .dir
        .path()
        .join(format!("mirror/babelqueue-conformance-{v}.tar.gz"));
    let mut bytes = fs::read(&asset).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 1;
    fs::write(&asset, bytes).unwrap();
    let before = files_with_mtimes(s.dir.path());
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("checksum-mismatch"),
        "{}",
        stdout(&out)
    );
    assert_eq!(files_with_mtimes(s.dir.path()), before);
}

#[cfg(unix)]
#[test]
fn update_of_a_read_only_copy_is_refused_naming_the_directory_before_anything_is_written() {
    let s = Setup::new();
    s.old_copy();
    let v = bundled_version();
    let fixtures = s.copy().join("fixtures");
    if !make_read_only(&fixtures) {
        eprintln!("skipped: this file system lets this user write into a read-only directory");
        make_writable(&fixtures);
        return;
    }
    let before = files_with_mtimes(&s.copy());
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    make_writable(&fixtures);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("tests/conformance/fixtures") && err.contains("nothing was written"),
        "{err}"
    );
    assert!(!err.contains(".tmp-") && !err.contains("/proc/"), "{err}");
    // The plan found it before the first write: every file as it was, the old version kept.
    assert_eq!(files_with_mtimes(&s.copy()), before);
    let out = s.run(&["fetch", "--check", &v, "tests/conformance"]);
    assert_eq!(code(&out), 1);
    assert!(!stdout(&out).contains("interrupted"), "{}", stdout(&out));
    let leftovers: Vec<_> = fs::read_dir(s.copy().parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn options_that_need_check_or_conflict_are_usage_errors() {
    let s = Setup::new();
    let v = bundled_version();
    for args in [
        vec!["fetch", "--diff", &v, "x"],
        vec!["fetch", "--check", "--update", &v, "x"],
    ] {
        let out = s.run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
    }
}

#[test]
fn conflicting_checksum_lines_are_refused() {
    let s = Setup::new();
    let v = bundled_version();
    let sums = s.dir.path().join("mirror/SHA256SUMS");
    let good = fs::read_to_string(&sums).unwrap();
    let name = format!("babelqueue-conformance-{v}.tar.gz");
    // A good line first, a bad one after it: `sha256sum -c` fails, so must fetch.
    fs::write(&sums, format!("{good}{}  {name}\n", "0".repeat(64))).unwrap();
    for args in [
        vec!["fetch", &v, "fresh"],
        vec!["fetch", "--check", &v, "fresh"],
    ] {
        fs::create_dir_all(s.sdk().join("fresh")).unwrap();
        let out = s.run(&args);
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("checksum-ambiguous"),
            "{}",
            stdout(&out)
        );
        assert_eq!(fs::read_dir(s.sdk().join("fresh")).unwrap().count(), 0);
    }
}

/// Issue 21, item 8: a newcomer could not tell what `--update` deleted.
#[test]
fn fetch_update_names_every_file_it_deletes() {
    let work = tempfile::tempdir().unwrap();
    let dist = work.path().join("dist");
    released(&bundled_suite(), &dist);
    let copy = work.path().join("sdk/conformance");
    copy_tree(&real_release("1.7.0"), &copy);
    fs::write(copy.join("fixtures/local-one.json"), "{}").unwrap();
    fs::write(copy.join("schema/local-two.json"), "{}").unwrap();
    let version = bundled_version();
    let run = |format: &str| {
        command()
            .args(["fetch", "--update", &version, copy.to_str().unwrap()])
            .args(["--format", format])
            .env("BQ_CONFORMANCE_BASE_URL", file_url(&dist))
            .env("CI", "true")
            .env_remove("SOURCE_DATE_EPOCH")
            .output()
            .unwrap()
    };
    let out = run("human");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    for rel in ["fixtures/local-one.json", "schema/local-two.json"] {
        let line = format!("deleted {}", copy.join(rel).display());
        assert!(text.contains(&line), "{line} not in:\n{text}");
    }
    assert!(text.contains(", 2 deleted;"), "{text}");
    // JSON: the same names (recreate them and update again).
    fs::write(copy.join("fixtures/local-one.json"), "{}").unwrap();
    let out = run("json");
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["data"]["deleted"],
        serde_json::json!(["fixtures/local-one.json"])
    );
    assert!(
        doc["summary"].as_array().unwrap().iter().any(|l| l
            .as_str()
            .unwrap()
            .starts_with("deleted ")
            && l.as_str()
                .unwrap()
                .ends_with(&format!("local-one.json (not in release {version})"))),
        "{doc:#}"
    );
}

/// `--update` names what it wrote as `sync` does: each file added, changed and deleted, in the
/// human report (the first ten written) and in `--format json` (every one).
#[test]
fn fetch_update_names_the_files_it_added_changed_and_deleted() {
    let s = Setup::vendored();
    let v = bundled_version();
    fs::write(s.copy().join("fixtures/order-created.json"), "{}").unwrap();
    fs::remove_file(s.copy().join("fixtures/urn-alias.json")).unwrap();
    fs::write(s.copy().join("fixtures/stray.json"), "{}").unwrap();
    let out = s.run(&["fetch", "--update", &v, "tests/conformance"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "1 file added, 1 changed, 1 deleted;",
        "\nadded tests/conformance/fixtures/urn-alias.json\n",
        "\nchanged tests/conformance/fixtures/order-created.json\n",
        "\ndeleted tests/conformance/fixtures/stray.json (not in release",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
    // An old copy: every file written is in JSON, the human report names ten and counts the rest.
    let old_copy = || {
        fs::remove_dir_all(s.copy()).unwrap();
        s.old_copy();
    };
    old_copy();
    let text = stdout(&s.run(&["fetch", "--update", &v, "tests/conformance"]));
    old_copy();
    let doc = json(&s.run(&[
        "fetch",
        "--update",
        &v,
        "tests/conformance",
        "--format",
        "json",
    ]));
    let list = |key: &str| -> Vec<String> {
        doc["data"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect()
    };
    let (written, added, changed) = (list("written"), list("added"), list("changed"));
    let mut both = [added.clone(), changed.clone()].concat();
    both.sort();
    assert_eq!(both, written);
    assert!(written.len() > 10, "{written:?}");
    let named = |what: &str, rels: &[String]| {
        rels.iter()
            .filter(|rel| text.contains(&format!("\n{what} tests/conformance/{rel}\n")))
            .count()
    };
    assert_eq!(
        named("added", &added) + named("changed", &changed),
        10,
        "{text}"
    );
    assert!(
        text.contains(&format!("\n... and {} more (", written.len() - 10)),
        "{text}"
    );
}

/// A plain fetch into a directory that holds a vendored copy says what to run instead: the
/// `--check` and `--update` of this version and DEST, which work when pasted.
#[test]
fn fetch_into_an_occupied_dest_names_check_and_update() {
    let s = Setup::vendored();
    let v = bundled_version();
    let out = s.run(&["fetch", &v, "tests/conformance"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let text = stderr(&out);
    let commands: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    let url = s.mirror_url();
    assert_eq!(
        commands,
        [
            format!("BQ_CONFORMANCE_BASE_URL={url} bqsuite fetch --check {v} tests/conformance"),
            format!("BQ_CONFORMANCE_BASE_URL={url} bqsuite fetch --update {v} tests/conformance"),
        ],
        "{text}"
    );
    for command in commands {
        let pasted = paste(&s.sdk(), command);
        assert_eq!(code(&pasted), 0, "{command}: {}", stderr(&pasted));
    }
    // JSON carries the same help.
    let doc = json(&s.run(&["fetch", &v, "tests/conformance", "--format", "json"]));
    assert!(
        doc["error"]["help"]
            .as_str()
            .unwrap()
            .contains("fetch --update"),
        "{doc:#}"
    );
}
