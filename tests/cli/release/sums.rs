//! `release --out DIR` into a directory that already has a SHA256SUMS (a flat mirror, a `dist/`
//! that collects releases): the release adds its line, keeps the other assets' lines, replaces
//! its own older one; a SHA256SUMS that is not one stops the release before anything is written.

use std::fs;

use super::{release_ok, release_with};
use crate::kit::s as p;
use crate::kit::tarball::asset_name;
use crate::kit::*;

#[test]
fn a_release_adds_its_line_to_the_checksums_already_there() {
    let out = tempfile::tempdir().unwrap();
    let name = asset_name(&bundled_version());
    let older = format!("{}  babelqueue-conformance-1.7.0.tar.gz\n", "a".repeat(64));
    let newer = format!("{} *babelqueue-conformance-9.0.0.tar.gz\n", "b".repeat(64));
    let stale = format!("{}  {name}\n", "c".repeat(64));
    fs::write(
        out.path().join("SHA256SUMS"),
        format!("{newer}{stale}{older}"),
    )
    .unwrap();

    let asset = release_ok(&bundled_suite(), out.path());
    let ours = format!("{}  {name}\n", sha256_hex(&asset));
    let mut want = [older, ours, newer];
    want.sort_by_key(|l| l.split_at(66).1.to_string());
    let sums = fs::read_to_string(out.path().join("SHA256SUMS")).unwrap();
    assert_eq!(sums, want.concat());

    // Released again: still one line for the asset, the others untouched.
    release_ok(&bundled_suite(), out.path());
    assert_eq!(
        fs::read_to_string(out.path().join("SHA256SUMS")).unwrap(),
        sums
    );
}

#[test]
fn a_checksums_file_that_is_not_one_stops_the_release_and_nothing_is_written() {
    let out = tempfile::tempdir().unwrap();
    let sums = out.path().join("SHA256SUMS");
    let mine = format!(
        "{}  babelqueue-conformance-1.7.0.tar.gz\nthese are my notes\n",
        "a".repeat(64)
    );
    fs::write(&sums, &mine).unwrap();
    let o = release_with(&[p(&bundled_suite()), "--out", p(out.path())], None);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    let said = text(&o);
    assert!(said.contains("line 2 is not a checksum line"), "{said}");
    let fix = format!("mv {}", p(&sums));
    assert!(said.contains(&fix), "{said}");
    assert_eq!(fs::read_to_string(&sums).unwrap(), mine);
    let names: Vec<String> = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["SHA256SUMS"]);

    let o = release_with(
        &[
            p(&bundled_suite()),
            "--out",
            p(out.path()),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code(&o), 2);
    let doc = json(&o);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 2 is not a checksum line"),
        "{doc:#}"
    );
}
