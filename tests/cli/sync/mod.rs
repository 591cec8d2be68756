//! `bqsuite sync` and `sync --check` over a temporary workspace of SDK checkouts.

mod fleet;
mod identity;
mod suites;
mod targets_file;
mod verdict;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::kit::*;

/// Everything under `root` (not following links): path -> (kind, bytes or link target, mtime).
fn snapshot(root: &Path) -> BTreeMap<String, (String, Vec<u8>, Option<SystemTime>)> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(root).follow_links(false) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(root)
            .unwrap()
            .display()
            .to_string();
        let meta = fs::symlink_metadata(entry.path()).unwrap();
        let (kind, content) = if meta.file_type().is_symlink() {
            (
                "link",
                fs::read_link(entry.path())
                    .unwrap()
                    .display()
                    .to_string()
                    .into_bytes(),
            )
        } else if meta.is_dir() {
            ("dir", Vec::new())
        } else {
            ("file", fs::read(entry.path()).unwrap())
        };
        let mtime = (kind == "file").then(|| meta.modified().unwrap());
        out.insert(rel, (kind.to_string(), content, mtime));
    }
    out
}

/// The suite the workspaces are synced with: the real 1.8.0, whose facts (its version, its 61
/// files) the tests state (`suite/` holds it only until the proposal is adopted).
fn canonical() -> PathBuf {
    real_1_8_0()
}

struct Workspace {
    dir: tempfile::TempDir,
    targets: PathBuf,
}

impl Workspace {
    fn new(targets: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("ws")).unwrap();
        let targets_path = dir.path().join("targets.txt");
        fs::write(&targets_path, targets).unwrap();
        Workspace {
            dir,
            targets: targets_path,
        }
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.ws().join(rel)
    }

    /// Vendors the canonical suite into `target` by copying it (as an SDK would have done).
    fn vendor(&self, target: &str) {
        vendor_set(&canonical(), &self.path(target));
    }

    /// `sync` over this workspace with the canonical suite, then `extra`.
    fn args(&self, extra: &[&str]) -> Vec<String> {
        sync_args(&canonical(), &self.ws(), &self.targets, extra)
    }

    fn run(&self, extra: &[&str]) -> (i32, Value, String) {
        let mut args = self.args(extra);
        args.extend(["--format".to_string(), "json".to_string()]);
        let out = bqsuite(&args);
        (code(&out), json(&out), stderr(&out))
    }

    /// The human report of `sync` with `extra` arguments, and the exit code.
    fn human(&self, extra: &[&str]) -> (i32, String) {
        let out = bqsuite(&self.args(extra));
        (code(&out), stdout(&out))
    }

    fn status(doc: &Value, target: &str) -> String {
        doc["data"]["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["target"] == target)
            .unwrap_or_else(|| panic!("no row for {target}: {doc:#}"))["status"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

fn files_of<'a>(doc: &'a Value, code_name: &str) -> Vec<&'a str> {
    findings(doc, code_name)
        .iter()
        .map(|d| d["file"].as_str().unwrap())
        .collect()
}

const TARGETS: &str = "\
# a comment
good/tests/conformance
drifted/testdata/conformance
missing-repo/tests/conformance
linked/tests/conformance
linked-fixtures/tests/conformance
fresh/test/conformance
";

/// A workspace with one target in each state the issue names.
fn mixed_workspace() -> Workspace {
    let w = Workspace::new(TARGETS);
    w.vendor("good/tests/conformance");
    fs::write(
        w.path("good/tests/conformance/ConformanceTest.php"),
        "<?php // SDK-owned\n",
    )
    .unwrap();

    w.vendor("drifted/testdata/conformance");
    let d = w.path("drifted/testdata/conformance");
    fs::write(
        d.join("fixtures/order-created.json"),
        "{\"job\": \"changed\"}\n",
    )
    .unwrap();
    fs::remove_file(d.join("fixtures/urn-alias.json")).unwrap();
    fs::write(d.join("fixtures/stale-extra.json"), "{}\n").unwrap();
    fs::write(d.join("manifest.json"), "{\"schema_version\": 1}\n").unwrap();
    fs::remove_file(d.join("CONFORMANCE_VERSION")).unwrap();
    fs::write(
        d.join("conformance_test.go"),
        "package conformance // SDK-owned\n",
    )
    .unwrap();

    // The vendored directory is a link out of the repository.
    fs::create_dir_all(w.path("linked/tests")).unwrap();
    fs::create_dir_all(w.dir.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(
        w.dir.path().join("elsewhere"),
        w.path("linked/tests/conformance"),
    )
    .unwrap();

    // A link inside the vendored set.
    w.vendor("linked-fixtures/tests/conformance");
    let lf = w.path("linked-fixtures/tests/conformance/fixtures");
    fs::remove_dir_all(&lf).unwrap();
    fs::create_dir_all(w.dir.path().join("outside-fixtures")).unwrap();
    std::os::unix::fs::symlink(w.dir.path().join("outside-fixtures"), &lf).unwrap();

    // The repository exists; nothing vendored yet.
    fs::create_dir_all(w.path("fresh")).unwrap();
    w
}

#[test]
fn check_reports_exactly_the_drift_and_writes_nothing() {
    let w = mixed_workspace();
    let before = snapshot(w.dir.path());
    let (exit, doc, _) = w.run(&["--check"]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(snapshot(w.dir.path()), before, "--check wrote something");

    assert_eq!(Workspace::status(&doc, "good/tests/conformance"), "in-sync");
    assert_eq!(
        Workspace::status(&doc, "drifted/testdata/conformance"),
        "drift"
    );
    assert_eq!(
        Workspace::status(&doc, "missing-repo/tests/conformance"),
        "missing-repo"
    );
    assert_eq!(Workspace::status(&doc, "linked/tests/conformance"), "error");
    assert_eq!(
        Workspace::status(&doc, "linked-fixtures/tests/conformance"),
        "error"
    );
    assert_eq!(
        Workspace::status(&doc, "fresh/test/conformance"),
        "not-vendored"
    );

    let p = "drifted/testdata/conformance";
    let mut changed = files_of(&doc, "drift-changed");
    changed.sort();
    assert_eq!(
        changed,
        [
            format!("{p}/fixtures/order-created.json"),
            format!("{p}/manifest.json")
        ]
    );
    let mut missing = files_of(&doc, "drift-missing");
    missing.sort();
    assert_eq!(
        missing,
        [
            format!("{p}/CONFORMANCE_VERSION"),
            format!("{p}/fixtures/urn-alias.json")
        ]
    );
    assert_eq!(
        files_of(&doc, "drift-extra"),
        [format!("{p}/fixtures/stale-extra.json")]
    );
    assert_eq!(
        files_of(&doc, "sync-not-vendored"),
        ["fresh/test/conformance"]
    );
    let mut links = files_of(&doc, "sync-symlink");
    links.sort();
    assert_eq!(
        links,
        [
            "linked-fixtures/tests/conformance",
            "linked/tests/conformance"
        ]
    );
    // SDK-owned files beside the data are listed, not drift.
    let notes: Vec<_> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "note")
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert!(
        notes.contains(&"good/tests/conformance/ConformanceTest.php"),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"drifted/testdata/conformance/conformance_test.go"),
        "{notes:?}"
    );
    // The row shows the vendored version beside the canonical one.
    let row = &doc["data"]["targets"][0];
    assert_eq!(row["vendored_version"], "1.8.0");
    assert_eq!(doc["data"]["canonical_version"], "1.8.0");
    let drifted = doc["data"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["target"] == p)
        .unwrap();
    assert!(drifted["vendored_version"].is_null());
}

#[test]
fn check_diff_shows_a_unified_diff() {
    let w = mixed_workspace();
    let (_, doc, _) = w.run(&["--check", "--diff"]);
    let changed = findings(&doc, "drift-changed");
    let fixture = changed
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("order-created.json"))
        .unwrap();
    let detail = fixture["detail"].as_str().unwrap();
    assert!(
        detail.contains("-  \"job\": \"urn:babel:orders:created\","),
        "{detail}"
    );
    assert!(detail.contains("+{\"job\": \"changed\"}"), "{detail}");
}

#[test]
fn sync_fixes_drift_without_touching_sdk_files_or_identical_files() {
    let w = mixed_workspace();
    let old = SystemTime::now() - Duration::from_secs(86_400);
    let identical = w.path("good/tests/conformance/fixtures/urn-alias.json");
    fs::File::options()
        .write(true)
        .open(&identical)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let outside_before = snapshot(&w.dir.path().join("elsewhere"));

    let (exit, doc, _) = w.run(&[]);
    // The two linked targets are refused, so the run fails...
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(Workspace::status(&doc, "linked/tests/conformance"), "error");
    assert_eq!(
        Workspace::status(&doc, "linked-fixtures/tests/conformance"),
        "error"
    );
    // ...and nothing was written through the links.
    assert_eq!(snapshot(&w.dir.path().join("elsewhere")), outside_before);
    assert!(
        fs::read_dir(w.dir.path().join("outside-fixtures"))
            .unwrap()
            .next()
            .is_none()
    );

    // The others were fixed.
    assert_eq!(
        Workspace::status(&doc, "good/tests/conformance"),
        "unchanged"
    );
    assert_eq!(
        Workspace::status(&doc, "drifted/testdata/conformance"),
        "synced"
    );
    assert_eq!(Workspace::status(&doc, "fresh/test/conformance"), "synced");
    assert_eq!(
        Workspace::status(&doc, "missing-repo/tests/conformance"),
        "missing-repo"
    );
    assert!(
        !w.path("missing-repo").exists(),
        "a missing repository was created"
    );
    let d = w.path("drifted/testdata/conformance");
    assert!(!d.join("fixtures/stale-extra.json").exists());
    assert_eq!(
        fs::read(d.join("manifest.json")).unwrap(),
        fs::read(canonical().join("manifest.json")).unwrap()
    );
    assert_eq!(
        fs::read_to_string(d.join("conformance_test.go")).unwrap(),
        "package conformance // SDK-owned\n"
    );
    assert_eq!(
        fs::read_to_string(w.path("good/tests/conformance/ConformanceTest.php")).unwrap(),
        "<?php // SDK-owned\n"
    );
    // An identical file keeps its mtime (no churn).
    assert_eq!(fs::metadata(&identical).unwrap().modified().unwrap(), old);
    // No temporary files are left anywhere.
    assert!(
        snapshot(&w.ws()).keys().all(|k| !k.contains(".tmp-")),
        "temporary file left behind"
    );

    // Without the linked targets, --check is now clean.
    fs::write(
        &w.targets,
        "good/tests/conformance\ndrifted/testdata/conformance\nmissing-repo/tests/conformance\nfresh/test/conformance\n",
    )
    .unwrap();
    let (exit, doc, _) = w.run(&["--check"]);
    assert_eq!(exit, 0, "{doc:#}");
    // And syncing again changes nothing.
    let before = snapshot(w.dir.path());
    let (exit, doc, _) = w.run(&[]);
    assert_eq!(exit, 0);
    assert_eq!(
        Workspace::status(&doc, "drifted/testdata/conformance"),
        "unchanged"
    );
    assert_eq!(snapshot(w.dir.path()), before);
}

#[test]
fn strict_makes_a_missing_repository_a_failure() {
    let w = Workspace::new("good/tests/conformance\nmissing-repo/tests/conformance\n");
    w.vendor("good/tests/conformance");
    let (exit, _, _) = w.run(&["--check"]);
    assert_eq!(exit, 0);
    let (exit, doc, _) = w.run(&["--check", "--strict"]);
    assert_eq!(exit, 1);
    assert_eq!(
        files_of(&doc, "sync-missing-repo"),
        ["missing-repo/tests/conformance"]
    );
}

#[test]
fn unsafe_target_paths_are_refused() {
    let w = Workspace::new("../escape/conformance\n/abs/conformance\nrepo-only\n");
    let before = snapshot(w.dir.path());
    let (exit, doc, _) = w.run(&[]);
    assert_eq!(exit, 1);
    assert_eq!(findings(&doc, "sync-bad-target").len(), 3, "{doc:#}");
    assert_eq!(snapshot(w.dir.path()), before);
}

#[test]
fn an_invalid_suite_is_never_vendored() {
    let w = Workspace::new("good/tests/conformance\n");
    fs::create_dir_all(w.path("good")).unwrap();
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["schema_version"] = serde_json::json!(9));
    let out = bqsuite(&[
        "sync",
        "--suite",
        s.path().to_str().unwrap(),
        "--workspace",
        w.ws().to_str().unwrap(),
        "--targets",
        w.targets.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("sync-invalid-suite"),
        "{}",
        stdout(&out)
    );
    assert!(!w.path("good/tests").exists());
}

#[test]
fn shipped_targets_file_on_a_full_workspace() {
    // Every SDK repository of the shipped targets file is present (25+ targets). The shipped
    // file sits at the repository root, beside suite/ (which is byte for byte the release).
    assert!(!bundled_suite().join("sync-targets.txt").exists());
    let shipped = fs::read_to_string(repo_targets()).unwrap();
    let targets: Vec<&str> = shipped
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .collect();
    assert!(targets.len() >= 25, "{}", targets.len());
    let w = Workspace::new(&shipped);
    for t in &targets {
        fs::create_dir_all(w.path(t.split('/').next().unwrap())).unwrap();
    }
    let (exit, doc, _) = w.run(&["--check"]);
    assert_eq!(exit, 1);
    assert_eq!(findings(&doc, "sync-not-vendored").len(), targets.len());

    let (exit, doc, _) = w.run(&[]);
    assert_eq!(exit, 0, "{doc:#}");
    for t in &targets {
        assert_eq!(Workspace::status(&doc, t), "synced");
    }
    let (exit, doc, _) = w.run(&["--check", "--strict"]);
    assert_eq!(exit, 0, "{doc:#}");
    for t in &targets {
        assert_eq!(Workspace::status(&doc, t), "in-sync");
    }
    // One drifted copy among them is found and named.
    fs::write(w.path(targets[7]).join("fixtures/order-created.json"), "{}").unwrap();
    let (exit, doc, _) = w.run(&["--check"]);
    assert_eq!(exit, 1);
    assert_eq!(
        files_of(&doc, "drift-changed"),
        [format!("{}/fixtures/order-created.json", targets[7])]
    );
}

#[test]
fn default_workspace_is_the_parent_of_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("conformance");
    copy_tree(&bundled_suite(), &repo.join("suite"));
    // As in this repository: the targets file at the root, beside suite/.
    fs::write(repo.join("sync-targets.txt"), "sdk/tests/conformance\n").unwrap();
    fs::create_dir_all(dir.path().join("sdk")).unwrap();
    let out = bqsuite_in(&repo, &["sync"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        dir.path()
            .join("sdk/tests/conformance/manifest.json")
            .is_file()
    );
    let out = bqsuite_in(&repo, &["sync", "--check"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.contains("in-sync"), "{text}");
    assert!(text.contains("sdk/tests/conformance"), "{text}");
    // The report names the workspace it looked in: the parent of the repository.
    let ws = fs::canonicalize(dir.path()).unwrap();
    assert!(
        text.contains(&format!("in workspace {}", ws.display())),
        "{text}"
    );
}

/// The targets (by their `target` field) of a `sync --check --format json` run in `repo` with
/// no `--suite` and no `--targets`, and the targets file it reports.
fn default_run_targets(repo: &Path) -> (i32, Vec<String>, String) {
    let out = bqsuite_in(repo, &["sync", "--check", "--format", "json"]);
    let doc = json(&out);
    let targets = doc["data"]["targets"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc:#}"))
        .iter()
        .map(|t| t["target"].as_str().unwrap().to_string())
        .collect();
    let file = doc["data"]["targets_file"].as_str().unwrap().to_string();
    (code(&out), targets, file)
}

#[test]
fn default_targets_file_is_the_one_inside_the_suite_if_any_else_the_one_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("conformance");
    copy_tree(&bundled_suite(), &repo.join("suite"));
    for sdk in ["beside-sdk", "inside-sdk"] {
        fs::create_dir_all(dir.path().join(sdk)).unwrap();
    }

    // Neither file: sync cannot run, and names the one beside the suite directory.
    let out = bqsuite_in(&repo, &["sync", "--check"]);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stderr(&out).contains("sync-targets.txt"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stderr(&out).contains("suite/sync-targets.txt"),
        "{}",
        stderr(&out)
    );

    // Only the one beside suite/: it is read.
    fs::write(
        repo.join("sync-targets.txt"),
        "beside-sdk/tests/conformance\n",
    )
    .unwrap();
    let (exit, targets, file) = default_run_targets(&repo);
    assert_eq!(exit, 1, "nothing is vendored yet");
    assert_eq!(targets, ["beside-sdk/tests/conformance"]);
    assert_eq!(file, "sync-targets.txt");

    // One inside suite/ too: the inside one wins, the one beside is not read at all.
    fs::write(
        repo.join("suite/sync-targets.txt"),
        "inside-sdk/tests/conformance\n",
    )
    .unwrap();
    let (exit, targets, file) = default_run_targets(&repo);
    assert_eq!(exit, 1, "nothing is vendored yet");
    assert_eq!(targets, ["inside-sdk/tests/conformance"]);
    assert_eq!(file, "suite/sync-targets.txt");

    // The same rule for an explicit --suite run from elsewhere: the inside one, then (once it
    // is gone) the one beside that suite directory, never one in the working directory.
    let elsewhere = tempfile::tempdir().unwrap();
    fs::write(
        elsewhere.path().join("sync-targets.txt"),
        "cwd-sdk/tests/conformance\n",
    )
    .unwrap();
    let suite = repo.join("suite");
    let ws = dir.path();
    for (want, remove_inside) in [
        ("inside-sdk/tests/conformance", false),
        ("beside-sdk/tests/conformance", true),
    ] {
        if remove_inside {
            fs::remove_file(suite.join("sync-targets.txt")).unwrap();
        }
        let out = bqsuite_in(
            elsewhere.path(),
            &[
                "sync",
                "--check",
                "--suite",
                suite.to_str().unwrap(),
                "--workspace",
                ws.to_str().unwrap(),
                "--format",
                "json",
            ],
        );
        let doc: Value = serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
        let rows = doc["data"]["targets"].as_array().unwrap();
        assert_eq!(rows.len(), 1, "{doc:#}");
        assert_eq!(rows[0]["target"], want, "{doc:#}");
    }
    // A vendored copy never carries the targets file, wherever it was read from.
    let out = bqsuite_in(&repo, &["sync"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        dir.path()
            .join("beside-sdk/tests/conformance/manifest.json")
            .is_file()
    );
    assert!(
        !dir.path()
            .join("beside-sdk/tests/conformance/sync-targets.txt")
            .exists()
    );
}

#[test]
fn missing_targets_file_cannot_run() {
    let w = Workspace::new("");
    let out = bqsuite(&[
        "sync",
        "--workspace",
        w.ws().to_str().unwrap(),
        "--targets",
        "/nonexistent/targets.txt",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("/nonexistent/targets.txt"));
}

/// Vendors the bundled suite into `target` with the first `dropped` cases of the `trim` section
/// left out of its manifest: the copy differs from the suite in manifest.json alone, and lacks
/// that many cases.
fn vendor_without_cases(w: &Workspace, target: &str, dropped: usize) {
    w.vendor(target);
    let path = w.path(target).join("manifest.json");
    let mut manifest: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let cases = manifest["trim"]["cases"].as_array_mut().unwrap();
    cases.drain(..dropped);
    fs::write(
        &path,
        serde_json::to_string_pretty(&manifest).unwrap() + "\n",
    )
    .unwrap();
}

#[test]
fn groups_that_differ_only_in_their_cases_share_one_file_list() {
    // Two groups of copies: a/ and again/ hold the same bytes, other/ lacks one case more. All
    // three differ from the suite in manifest.json alone, so their file list is printed once.
    let w =
        Workspace::new("a/tests/conformance\nagain/tests/conformance\nother/tests/conformance\n");
    vendor_without_cases(&w, "a/tests/conformance", 1);
    vendor_without_cases(&w, "again/tests/conformance", 1);
    vendor_without_cases(&w, "other/tests/conformance", 2);
    let (exit, text) = w.human(&["--check"]);
    assert_eq!(exit, 1, "{text}");
    assert_eq!(text.matches("changed  manifest.json").count(), 1, "{text}");
    assert_eq!(
        text.matches("files: 1 changed, 60 match").count(),
        1,
        "{text}"
    );
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.starts_with("drift: "))
        .collect();
    assert_eq!(blocks.len(), 1, "{text}");
    let block: Vec<&str> = blocks[0].lines().collect();
    assert_eq!(
        block,
        [
            "drift: 3 copies, 1.8.0 +1 edited, with the same files differing",
            "    files: 1 changed, 60 match",
            "      changed  manifest.json",
            "    copies:",
            "      2 copies with the same bytes: release 1.8.0 with 1 file edited; cases: 1 of 710 \
             missing, 0 changed, 0 extra",
            "        a/tests/conformance",
            "        again/tests/conformance",
            "      other/tests/conformance: release 1.8.0 with 1 file edited; cases: 2 of 710 \
             missing, 0 changed, 0 extra",
        ],
        "{text}"
    );

    // Every fact stays in JSON: two groups (the same bytes), each copy's own cases.
    let (_, doc, _) = w.run(&["--check"]);
    let groups = doc["data"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{groups:#?}");
    for (target, missing, group) in [
        ("a/tests/conformance", 1, 0),
        ("again/tests/conformance", 1, 0),
        ("other/tests/conformance", 2, 1),
    ] {
        let r = row(&doc, target);
        assert_eq!(r["cases"]["missing"], missing, "{r:#}");
        assert_eq!(r["group"], group, "{r:#}");
        assert_eq!(
            r["files"],
            serde_json::json!([{"path": "manifest.json", "change": "changed"}])
        );
    }
    assert_eq!(findings(&doc, "copy-drift").len(), 2);

    // With --diff each group's manifest.json has its own diff, so each lists its own files.
    let (_, text) = w.human(&["--check", "--diff"]);
    assert_eq!(text.matches("changed  manifest.json").count(), 2, "{text}");
    assert!(!text.contains("with the same files differing"), "{text}");
}

#[test]
fn a_copy_in_sync_is_what_its_canonical_suite_is() {
    // A copy equal to the canonical suite is told from the suite's bytes, never read again:
    // what it is must be what reading it would say, for a versioned, an unversioned and an
    // interrupted suite.
    let data = root().join("tests/data");
    let dir = tempfile::tempdir().unwrap();
    let interrupted = dir.path().join("interrupted");
    copy_tree(&data.join("real-releases/1.8.0"), &interrupted);
    fs::remove_file(interrupted.join("CONFORMANCE_VERSION")).unwrap();
    for (name, suite) in [
        ("1.7.0", data.join("real-releases/1.7.0")),
        ("upstream", data.join("upstream-suite")),
        ("interrupted", interrupted),
    ] {
        let ws = dir.path().join(format!("ws-{name}"));
        let copy = ws.join("sdk/tests/conformance");
        copy_tree(&suite, &copy);
        let targets = dir.path().join(format!("targets-{name}.txt"));
        fs::write(&targets, "sdk/tests/conformance\n").unwrap();
        let out = bqsuite(&[
            "sync",
            "--check",
            "--suite",
            suite.to_str().unwrap(),
            "--workspace",
            ws.to_str().unwrap(),
            "--targets",
            targets.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 0, "{name}: {}{}", stdout(&out), stderr(&out));
        let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let r = row(&doc, "sdk/tests/conformance");
        assert_eq!(r["status"], "in-sync");
        let read = bqsuite_suite::releases::identify(&copy).json();
        for (key, value) in read.as_object().unwrap() {
            assert_eq!(&r[key], value, "{name}: {key} in {r:#}");
        }
        assert_eq!(r["incomplete"], r["interrupted"]);
        let version_file = fs::read_to_string(copy.join("CONFORMANCE_VERSION")).ok();
        assert_eq!(
            r["vendored_version"].as_str(),
            version_file.as_deref().map(str::trim),
            "{name}"
        );
    }
}

#[cfg(unix)]
#[test]
fn check_refuses_a_link_or_fifo_standing_for_a_file_with_the_same_bytes() {
    // The link leads to the very bytes of the suite's file, and the FIFO would hang a reader:
    // --check must refuse both copies, never find them in sync.
    let w = Workspace::new("linked/tests/conformance\nfifo/tests/conformance\n");
    let outside = w.dir.path().join("order-created.json");
    fs::copy(canonical().join("fixtures/order-created.json"), &outside).unwrap();
    w.vendor("linked/tests/conformance");
    let linked = w.path("linked/tests/conformance/fixtures/order-created.json");
    fs::remove_file(&linked).unwrap();
    std::os::unix::fs::symlink(&outside, &linked).unwrap();
    w.vendor("fifo/tests/conformance");
    let fifo = w.path("fifo/tests/conformance/fixtures/order-created.json");
    fs::remove_file(&fifo).unwrap();
    mkfifo(&fifo);

    let (exit, doc, _) = w.run(&["--check"]);
    assert_eq!(exit, 1, "{doc:#}");
    for (target, code_name) in [
        ("linked/tests/conformance", "sync-symlink"),
        ("fifo/tests/conformance", "sync-special-file"),
    ] {
        let r = row(&doc, target);
        assert_eq!(r["status"], "error", "{r:#}");
        assert_eq!(r["error"]["code"], code_name, "{r:#}");
        assert_eq!(
            r["error"]["file"], target,
            "the refusal is filed under the target: {r:#}"
        );
    }
    assert!(
        findings(&doc, "sync-symlink")[0]["message"]
            .as_str()
            .unwrap()
            .contains("fixtures/order-created.json` is a symbolic link"),
        "{doc:#}"
    );
}

/// A developer's workspace holds 3 of the 25 SDK repositories: both modes report the three, in
/// blocks of one shape, and sum up the targets whose repository is absent in one line (the list
/// with `--verbose`).
#[test]
fn a_partial_workspace_reports_its_copies_and_one_line_for_the_absent_repositories() {
    let shipped = fs::read_to_string(repo_targets()).unwrap();
    let w = Workspace::new(&shipped);
    w.vendor("php-sdk/tests/conformance");
    fs::write(
        w.path("php-sdk/tests/conformance/fixtures/order-created.json"),
        "{}",
    )
    .unwrap();
    w.vendor("babelqueue-python/tests/conformance");
    fs::create_dir_all(w.path("babelqueue-go")).unwrap();
    let absent = "babelqueue-dotnet-redis/tests/BabelQueue.Redis.Tests/conformance";
    for (mode, block_heads) in [
        (
            &["--check"][..],
            [
                "drift: php-sdk",
                "not-vendored: babelqueue-go",
                "in-sync: babelqueue-python",
            ],
        ),
        (
            &[][..],
            [
                "synced: php-sdk",
                "synced: babelqueue-go",
                "unchanged: babelqueue-python",
            ],
        ),
    ] {
        let (_, text) = w.human(mode);
        let missing: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("missing-repo:"))
            .collect();
        assert_eq!(missing.len(), 1, "{mode:?}:\n{text}");
        assert!(
            missing[0].contains("22 targets of 16 SDK repositories")
                && missing[0].contains("(`--verbose` lists them)"),
            "{mode:?}:\n{text}"
        );
        assert!(!text.contains(absent), "{mode:?}:\n{text}");
        assert!(
            !text.contains("STATUS"),
            "one shape, blocks: {mode:?}:\n{text}"
        );
        for head in block_heads {
            assert!(
                text.lines().any(|l| l.starts_with(head)),
                "{head}: {mode:?}:\n{text}"
            );
        }
        assert!(text.lines().count() <= 30, "{mode:?}:\n{text}");
        if mode.is_empty() {
            // Written; the next run checks again.
            let (code, _) = w.human(&["--check", "--verbose"]);
            assert_eq!(code, 0);
        }
    }
    let (_, text) = w.human(&["--check", "--verbose"]);
    assert!(text.contains(absent), "{text}");
    assert!(!text.contains("(`--verbose` lists them)"), "{text}");
}
