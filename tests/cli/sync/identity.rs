//! Issue 21 item 1: `sync --check` and `fetch --check` say what each copy is (its version, or
//! unversioned; the known release it is, unmodified or with N files edited), and call a copy
//! interrupted only when its manifest names a version but CONFORMANCE_VERSION is missing.
//! The copies are shaped like the real fleet.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::kit;
use crate::kit::{
    bqsuite, code, copy_tree, data, file_url, released, row, stdout, unversioned_copy,
};

struct Fleet {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Fleet {
    fn workspace(&self) -> PathBuf {
        self.root.join("ws")
    }
    fn targets(&self) -> PathBuf {
        self.root.join("targets.txt")
    }
    fn copy(&self, name: &str) -> PathBuf {
        self.workspace().join(name).join("conformance")
    }
}

/// Four copies: unversioned upstream, release 1.7.0 unmodified, 1.7.0 with a hand-edited
/// fixture, and 1.8.0 whose CONFORMANCE_VERSION is missing (really interrupted).
fn fleet() -> Fleet {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let fleet = Fleet { _dir: dir, root };
    unversioned_copy(&fleet.copy("sdk-upstream"));
    copy_tree(&data("real-releases/1.7.0"), &fleet.copy("sdk-release"));
    copy_tree(&data("real-releases/1.7.0"), &fleet.copy("sdk-edited"));
    let fixture = fleet.copy("sdk-edited").join("fixtures/order-created.json");
    let mut text = fs::read_to_string(&fixture).unwrap();
    text.push('\n');
    fs::write(&fixture, text).unwrap();
    copy_tree(&data("real-releases/1.8.0"), &fleet.copy("sdk-interrupted"));
    fs::remove_file(fleet.copy("sdk-interrupted").join("CONFORMANCE_VERSION")).unwrap();
    fs::write(
        fleet.targets(),
        "sdk-upstream/conformance\nsdk-release/conformance\nsdk-edited/conformance\n\
         sdk-interrupted/conformance\n",
    )
    .unwrap();
    fleet
}

fn sync_check(fleet: &Fleet, format: &str) -> std::process::Output {
    bqsuite(&[
        "sync",
        "--check",
        "--suite",
        data("real-releases/1.8.0").to_str().unwrap(),
        "--workspace",
        fleet.workspace().to_str().unwrap(),
        "--targets",
        fleet.targets().to_str().unwrap(),
        "--format",
        format,
    ])
}

#[test]
fn sync_check_json_says_what_each_copy_is() {
    let fleet = fleet();
    let out = sync_check(&fleet, "json");
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();

    let up = row(&doc, "sdk-upstream/conformance");
    assert_eq!(up["version"], Value::Null);
    assert_eq!(up["unversioned"], true);
    assert_eq!(up["interrupted"], false);
    assert_eq!(up["incomplete"], false);
    assert_eq!(up["known_release"], Value::Null);

    let rel = row(&doc, "sdk-release/conformance");
    assert_eq!(rel["version"], "1.7.0");
    assert_eq!(rel["version_source"], "CONFORMANCE_VERSION");
    assert_eq!(rel["unversioned"], false);
    assert_eq!(rel["known_release"], "1.7.0");
    assert_eq!(rel["edited_files"], 0);
    assert_eq!(rel["interrupted"], false);

    let edited = row(&doc, "sdk-edited/conformance");
    assert_eq!(edited["known_release"], "1.7.0");
    assert_eq!(edited["edited_files"], 1);

    let cut = row(&doc, "sdk-interrupted/conformance");
    assert_eq!(cut["version"], "1.8.0");
    assert_eq!(cut["version_source"], "manifest");
    assert_eq!(cut["interrupted"], true);
    assert_eq!(cut["incomplete"], true);
    assert_eq!(cut["known_release"], "1.8.0");
    assert_eq!(cut["edited_files"], 0);
}

#[test]
fn sync_check_human_never_calls_an_unversioned_copy_interrupted() {
    let fleet = fleet();
    let out = sync_check(&fleet, "human");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    // Each copy drifted its own way: one block each, `drift: TARGET, VERSION` then `copy: ...`.
    let block = |target: &str| -> String {
        let start = text
            .find(&format!("\ndrift: {target}, "))
            .unwrap_or_else(|| panic!("no block for {target}:\n{text}"));
        text[start + 1..]
            .lines()
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let up = block("sdk-upstream/conformance");
    assert!(up.contains("copy:  unversioned"), "{up}");
    assert!(up.contains(", unversioned -> 1.8.0\n"), "{up}");
    assert!(!up.contains("interrupted"), "{up}");
    assert!(!up.contains("incomplete"), "{up}");
    let edited = block("sdk-edited/conformance");
    assert!(
        edited.contains("copy:  release 1.7.0 with 1 file edited"),
        "{edited}"
    );
    assert!(edited.contains(", 1.7.0 +1 edited -> 1.8.0\n"), "{edited}");
    let cut = block("sdk-interrupted/conformance");
    assert!(
        cut.contains("interrupted: manifest.json names 1.8.0"),
        "{cut}"
    );
    assert!(cut.contains(", 1.8.0 (interrupted)\n"), "{cut}");
    // The unmodified 1.7.0 copy has drifted from 1.8.0 only because it is an older release.
    let rel = block("sdk-release/conformance");
    assert!(rel.contains("copy:  release 1.7.0 unmodified"), "{rel}");
    // Only the copy that is really interrupted is called so, anywhere in the report: outside
    // its block the word never appears.
    let start = text.find("\ndrift: sdk-interrupted/conformance, ").unwrap();
    let end = start + 1 + text[start + 1..].find("\n\n").unwrap();
    let outside = format!("{}{}", &text[..start], &text[end..]);
    assert!(!outside.contains("interrupted"), "{outside}");
    assert!(!outside.contains("incomplete"), "{outside}");
}

#[test]
fn a_release_copy_without_version_file_or_manifest_version_is_interrupted_only_when_whole() {
    // Unit-level facts through the library: a 1.2.0 copy without its version file.
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&data("real-releases/1.2.0"), dir.path());
    let id = bqsuite_suite::releases::identify(dir.path());
    assert_eq!(id.release.as_deref(), Some("1.2.0"));
    assert_eq!(id.edited, 0);
    fs::remove_file(dir.path().join("CONFORMANCE_VERSION")).unwrap();
    // 1.2.0's manifest names no version, but every other file is 1.2.0's: what a sync or update
    // stopped before it wrote the new manifest leaves. Interrupted, and still unversioned.
    let id = bqsuite_suite::releases::identify(dir.path());
    assert!(id.unversioned());
    assert!(id.interrupted);
    assert_eq!((id.release.as_deref(), id.edited), (Some("1.2.0"), 0));
    assert!(
        id.describe()
            .starts_with("interrupted: every file is release 1.2.0's"),
        "{}",
        id.describe()
    );
    // One file edited as well: nothing says a version, so unversioned and not interrupted.
    let fixture = fs::read_dir(dir.path().join("fixtures"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    fs::write(&fixture, "{}\n").unwrap();
    let id = bqsuite_suite::releases::identify(dir.path());
    assert!(id.unversioned());
    assert!(!id.interrupted);
    assert_eq!(id.release, None);
    assert!(
        id.describe().starts_with("unversioned"),
        "{}",
        id.describe()
    );
}

fn fetch_check(copy: &Path, version: &str) -> std::process::Output {
    let dist = tempfile::tempdir().unwrap();
    // The release the copies are checked against: the real 1.8.0.
    released(&kit::suite_copy_of(&kit::real_1_8_0()).path(), dist.path());
    assert_eq!(version, "1.8.0");
    kit::command()
        .args(["fetch", "--check", version, copy.to_str().unwrap()])
        .args(["--format", "json"])
        .env("BQ_CONFORMANCE_BASE_URL", file_url(dist.path()))
        .env("CI", "true")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run bqsuite")
}

#[test]
fn fetch_check_says_what_the_copy_is() {
    let fleet = fleet();
    let cases = [
        ("sdk-upstream", Value::Null, true, false, Value::Null),
        ("sdk-edited", "1.7.0".into(), false, false, 1.into()),
        ("sdk-interrupted", "1.8.0".into(), false, true, 0.into()),
    ];
    for (name, version, unversioned, interrupted, edited) in cases {
        let out = fetch_check(&fleet.copy(name), "1.8.0");
        let doc: Value = serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", stdout(&out)));
        let copy = &doc["data"]["copy"];
        assert_eq!(copy["version"], version, "{name}: {doc}");
        assert_eq!(copy["unversioned"], unversioned, "{name}");
        assert_eq!(copy["interrupted"], interrupted, "{name}");
        assert_eq!(copy["edited_files"], edited, "{name}");
        let summary = doc["summary"].to_string();
        assert_eq!(
            summary.contains("interrupted"),
            interrupted,
            "{name}: {summary}"
        );
        assert!(!summary.contains("incomplete"), "{name}: {summary}");
    }
}
