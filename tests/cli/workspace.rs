//! `bqsuite sync --check` and `sync` on a workspace shaped like the real BabelQueue one: the 25
//! vendored copies where the SDK repositories keep them today, some on an old release, some in
//! sync, some hand-edited, some SDK repositories not cloned, SDK-owned files beside the data.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::kit::*;

/// Where the SDK repositories vendor the suite today (the old sync script's list).
const REAL_TARGETS: [&str; 25] = [
    "php-sdk/tests/conformance",
    "babelqueue-python/tests/conformance",
    "babelqueue-go/testdata/conformance",
    "babelqueue-node/test/conformance",
    "babelqueue-java/src/test/resources/conformance",
    "babelqueue-dotnet/tests/BabelQueue.Core.Tests/conformance",
    "babelqueue-node-adapters/packages/sqs/test/conformance",
    "babelqueue-node-adapters/packages/azure-service-bus/test/conformance",
    "babelqueue-node-adapters/packages/pulsar/test/conformance",
    "babelqueue-node-adapters/packages/kafka/test/conformance",
    "babelqueue-node-adapters/packages/artemis/test/conformance",
    "babelqueue-node-adapters/packages/redis/test/conformance",
    "babelqueue-node-adapters/packages/rabbitmq/test/conformance",
    "babelqueue-java-sqs/src/test/resources/conformance",
    "babelqueue-java-azureservicebus/src/test/resources/conformance",
    "babelqueue-java-pulsar/src/test/resources/conformance",
    "babelqueue-java-kafka/src/test/resources/conformance",
    "babelqueue-java-artemis/src/test/resources/conformance",
    "babelqueue-java-redis/src/test/resources/conformance",
    "babelqueue-dotnet-sqs/tests/BabelQueue.Sqs.Tests/conformance",
    "babelqueue-dotnet-azureservicebus/tests/BabelQueue.AzureServiceBus.Tests/conformance",
    "babelqueue-dotnet-pulsar/tests/BabelQueue.Pulsar.Tests/conformance",
    "babelqueue-dotnet-kafka/tests/BabelQueue.Kafka.Tests/conformance",
    "babelqueue-dotnet-artemis/tests/BabelQueue.Artemis.Tests/conformance",
    "babelqueue-dotnet-redis/tests/BabelQueue.Redis.Tests/conformance",
];

/// SDK repositories that are not cloned in the test workspace.
const NOT_CLONED: [&str; 3] = [
    "babelqueue-java",
    "babelqueue-java-redis",
    "babelqueue-dotnet-redis",
];

/// Copies on the published earlier release (the real 1.0.0, tests/data/real-releases/1.0.0).
const OLD: [&str; 5] = [
    "php-sdk/tests/conformance",
    "babelqueue-go/testdata/conformance",
    "babelqueue-node-adapters/packages/sqs/test/conformance",
    "babelqueue-java-kafka/src/test/resources/conformance",
    "babelqueue-dotnet-sqs/tests/BabelQueue.Sqs.Tests/conformance",
];

/// A current copy with a hand-edited fixture and a stray one.
const EDITED: &str = "babelqueue-python/tests/conformance";
/// A package whose copy was never vendored.
const FRESH: &str = "babelqueue-node-adapters/packages/rabbitmq/test/conformance";

/// The vendored set of a suite directory: relative path -> bytes.
fn vendored_set(suite: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(suite).min_depth(1) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(suite)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let top = rel.split('/').next().unwrap();
        if ["CONFORMANCE_VERSION", "manifest.json"].contains(&rel.as_str())
            || ["fixtures", "schema"].contains(&top)
        {
            out.insert(rel, fs::read(entry.path()).unwrap());
        }
    }
    out
}

fn write_set(dir: &Path, set: &BTreeMap<String, Vec<u8>>) {
    for (rel, bytes) in set {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
}

/// Files outside the 25 vendored sets (SDK sources, project files, notes beside the data).
fn outside_vendored_sets(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files(root)
        .into_iter()
        .filter(|(rel, _)| {
            !REAL_TARGETS.iter().any(|t| {
                rel.strip_prefix(&format!("{t}/")).is_some_and(|inner| {
                    let top = inner.split('/').next().unwrap();
                    ["CONFORMANCE_VERSION", "manifest.json"].contains(&inner)
                        || ["fixtures", "schema"].contains(&top)
                })
            })
        })
        .collect()
}

struct RealWorkspace {
    dir: tempfile::TempDir,
}

impl RealWorkspace {
    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// Where the canonical repository (with its suite/ and, beside it, the shipped
    /// sync-targets.txt) sits: `ws/conformance`.
    fn repo(&self) -> PathBuf {
        self.ws().join("conformance")
    }

    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let w = RealWorkspace { dir };
        let ws = w.ws();
        copy_tree(&bundled_suite(), &w.repo().join("suite"));
        fs::copy(repo_targets(), w.repo().join("sync-targets.txt")).unwrap();
        let current = vendored_set(&bundled_suite());
        let old = vendored_set(&real_release("1.0.0"));
        for target in REAL_TARGETS {
            let repo = target.split('/').next().unwrap();
            if NOT_CLONED.contains(&repo) {
                continue;
            }
            let copy = ws.join(target);
            // The SDK's own files: a project file at the root, a test beside the copy, a note
            // inside the copy.
            fs::create_dir_all(ws.join(repo)).unwrap();
            fs::write(ws.join(repo).join("README.md"), format!("# {repo}\n")).unwrap();
            let parent = copy.parent().unwrap();
            fs::create_dir_all(parent).unwrap();
            fs::write(parent.join("ConformanceTest.src"), "// runs the suite\n").unwrap();
            if target == FRESH {
                continue;
            }
            if OLD.contains(&target) {
                write_set(&copy, &old);
            } else {
                write_set(&copy, &current);
            }
            fs::write(copy.join("VENDORED.md"), "Do not edit; run the sync.\n").unwrap();
        }
        let edited = ws.join(EDITED);
        fs::write(
            edited.join("fixtures/order-created.json"),
            "{\"job\": \"x\"}\n",
        )
        .unwrap();
        fs::write(edited.join("fixtures/local-only.json"), "{}\n").unwrap();
        w
    }

    /// Runs bqsuite from the canonical repository's directory, as a maintainer would.
    fn run(&self, args: &[&str]) -> Output {
        bqsuite_in(&self.repo(), args)
    }
}

/// The drift a copy holding `have` shows against `want`: (path, change), sorted.
fn expected_drift(
    have: &BTreeMap<String, Vec<u8>>,
    want: &BTreeMap<String, Vec<u8>>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (rel, bytes) in want {
        match have.get(rel) {
            None => out.push((rel.clone(), "missing".to_string())),
            Some(b) if b != bytes => out.push((rel.clone(), "changed".to_string())),
            _ => {}
        }
    }
    for rel in have.keys() {
        if !want.contains_key(rel) {
            out.push((rel.clone(), "extra".to_string()));
        }
    }
    out.sort();
    out
}

#[test]
fn the_shipped_targets_are_the_real_ones() {
    // Not inside suite/, which is byte for byte the release.
    assert!(!bundled_suite().join("sync-targets.txt").exists());
    let shipped = fs::read_to_string(repo_targets()).unwrap();
    let lines: Vec<&str> = shipped
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines, REAL_TARGETS);
}

#[test]
fn check_reports_every_targets_true_status_and_exact_files() {
    let w = RealWorkspace::new();
    let before = files(w.dir.path());
    let out = w.run(&["sync", "--check", "--workspace", "..", "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(files(w.dir.path()), before, "--check wrote something");
    let doc = json(&out);
    let current = vendored_set(&bundled_suite());
    let old = vendored_set(&real_release("1.0.0"));
    let mut edited = current.clone();
    edited.insert(
        "fixtures/order-created.json".into(),
        b"{\"job\": \"x\"}\n".to_vec(),
    );
    edited.insert("fixtures/local-only.json".into(), b"{}\n".to_vec());

    assert_eq!(doc["data"]["targets"].as_array().unwrap().len(), 25);
    for target in REAL_TARGETS {
        let r = row(&doc, target);
        let repo = target.split('/').next().unwrap();
        let (status, have) = if NOT_CLONED.contains(&repo) {
            ("missing-repo", None)
        } else if target == FRESH {
            ("not-vendored", Some(BTreeMap::new()))
        } else if OLD.contains(&target) {
            ("drift", Some(old.clone()))
        } else if target == EDITED {
            ("drift", Some(edited.clone()))
        } else {
            ("in-sync", Some(current.clone()))
        };
        assert_eq!(r["status"], status, "{target}: {r:#}");
        let files: Vec<(String, String)> = r["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["path"].as_str().unwrap().to_string(),
                    f["change"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want = have
            .map(|h| expected_drift(&h, &current))
            .unwrap_or_default();
        // Listed most important first: manifest.json when it differs.
        if want.iter().any(|(p, _)| p == "manifest.json") {
            assert_eq!(files[0].0, "manifest.json", "{target}");
        }
        let mut files = files;
        files.sort();
        assert_eq!(files, want, "{target}");
        for change in ["missing", "changed", "extra"] {
            let n = want.iter().filter(|(_, c)| c == change).count();
            assert_eq!(r[change], n, "{target} {change}");
        }
        if OLD.contains(&target) {
            assert_eq!(r["vendored_version"], "1.0.0");
        }
    }
    // The SDK's note inside a copy is not drift.
    assert!(
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "unmanaged-file" && d["file"] == format!("{EDITED}/VENDORED.md"))
    );
    assert_eq!(doc["data"]["counts"]["missing-repo"], 3);
    assert_eq!(doc["data"]["counts"]["drift"], 6);
    assert_eq!(doc["data"]["counts"]["in-sync"], 15);
}

#[test]
fn human_report_fits_a_screen_per_target_and_its_fix_works_when_pasted() {
    let w = RealWorkspace::new();
    let outside = outside_vendored_sets(&w.ws());
    let out = w.run(&["sync", "--check", "--workspace", ".."]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);

    // Each target present named once (a block's head, or a line of the block that lists it);
    // those whose repository is not cloned too, with --verbose (one line sums them up without);
    // the workspace named, a verdict about the copies.
    let verbose = stdout(&w.run(&["sync", "--check", "--workspace", "..", "--verbose"]));
    for target in REAL_TARGETS {
        let named = |text: &str| {
            text.lines()
                .filter(|l| {
                    l.trim_end().ends_with(&format!(" {target}"))
                        || l.contains(&format!(" {target}, "))
                })
                .count()
        };
        let cloned = !NOT_CLONED.contains(&target.split('/').next().unwrap());
        assert_eq!(named(&text), usize::from(cloned), "{target}:\n{text}");
        assert_eq!(named(&verbose), 1, "{target}:\n{verbose}");
    }
    assert!(text.contains("in workspace .."), "{text}");
    assert!(
        text.contains("FAILED: 6 of 22 copies checked drifted, 1 of 22 not vendored yet (3 SDK repos not in ..)"),
        "{text}"
    );
    assert!(
        !text.contains("has 402 errors") && !text.contains("suite has"),
        "{text}"
    );
    // The five old copies drifted the same way: one block, at most 10 files, then how many more,
    // then the copies.
    let old_block: Vec<&str> = text
        .split("\n\n")
        .find(|b| b.contains("\n      php-sdk/tests/conformance\n"))
        .unwrap()
        .lines()
        .collect();
    assert!(
        old_block[0].starts_with(&format!("drift: 5 copies, 1.0.0 -> {}", bundled_version())),
        "{old_block:#?}"
    );
    let files = old_block
        .iter()
        .filter(|l| {
            ["      changed ", "      missing ", "      extra "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .count();
    assert_eq!(files, 10, "{old_block:#?}");
    assert!(
        old_block
            .iter()
            .any(|l| l.contains("more (`--verbose` lists every file)")),
        "{old_block:#?}"
    );
    for target in OLD {
        assert!(
            old_block.contains(&format!("      {target}").as_str()),
            "{old_block:#?}"
        );
    }
    assert!(text.lines().count() <= 60, "{text}");
    // --verbose lists them all.
    let verbose = stdout(&w.run(&["sync", "--check", "--workspace", "..", "--verbose"]));
    assert!(!verbose.contains("more (`--verbose`"), "{verbose}");

    // The fix names this run's flags and, pasted in the same directory, makes the check green.
    let fix = fix_command(&text);
    assert_eq!(fix, "bqsuite sync --suite suite --workspace ..");
    let pasted = paste(&w.repo(), &fix);
    assert_eq!(code(&pasted), 0, "{}{}", stdout(&pasted), stderr(&pasted));
    let again = w.run(&["sync", "--check", "--workspace", ".."]);
    assert_eq!(code(&again), 0, "{}", stdout(&again));
    assert!(
        stdout(&again).contains("ok: all 22 vendored copies match the canonical suite"),
        "{}",
        stdout(&again)
    );
    // Nothing outside the 25 vendored sets changed; the missing repositories were not created.
    let after = outside_vendored_sets(&w.ws());
    let changed: Vec<&String> = after
        .keys()
        .chain(outside.keys())
        .filter(|k| after.get(*k) != outside.get(*k))
        .collect();
    assert!(
        changed.is_empty(),
        "changed outside the vendored sets: {changed:?}"
    );
    assert!(outside.keys().any(|k| k.ends_with("VENDORED.md")));
    for repo in NOT_CLONED {
        assert!(!w.ws().join(repo).exists(), "{repo} was created");
    }
}

#[test]
fn sync_lists_the_files_it_wrote_and_deleted() {
    let w = RealWorkspace::new();
    let out = w.run(&["sync", "--workspace", "..", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc = json(&out);
    let r = row(&doc, EDITED);
    assert_eq!(r["status"], "synced");
    assert_eq!(
        r["written"],
        serde_json::json!(["fixtures/order-created.json"])
    );
    assert_eq!(
        r["deleted"],
        serde_json::json!(["fixtures/local-only.json"])
    );
    assert_eq!(row(&doc, REAL_TARGETS[3])["status"], "unchanged");
    assert_eq!(row(&doc, FRESH)["status"], "synced");
    let human = stdout(&w.run(&["sync", "--workspace", ".."]));
    assert!(human.contains("ok: 0 copies synced"), "{human}");
}

/// `sync --check` with every flag given, relative to the test directory.
const CHECK_WITH_EVERY_FLAG: [&str; 8] = [
    "sync",
    "--check",
    "--suite",
    "ws/conformance/suite",
    "--workspace",
    "ws",
    "--targets",
    "my targets.txt",
];

#[test]
fn the_fix_keeps_every_flag_of_the_run() {
    let w = RealWorkspace::new();
    let targets = w.dir.path().join("my targets.txt");
    fs::write(&targets, format!("{EDITED}\n{}\n", REAL_TARGETS[0])).unwrap();
    let out = bqsuite_in(w.dir.path(), &CHECK_WITH_EVERY_FLAG);
    assert_eq!(code(&out), 1);
    let fix = fix_command(&stdout(&out));
    assert_eq!(
        fix,
        "bqsuite sync --suite ws/conformance/suite --workspace ws --targets 'my targets.txt'"
    );
    assert_eq!(code(&paste(w.dir.path(), &fix)), 0);
    let again = bqsuite_in(w.dir.path(), &CHECK_WITH_EVERY_FLAG);
    assert_eq!(code(&again), 0, "{}", stdout(&again));
}

#[test]
fn nothing_checked_is_not_green() {
    // Run from the wrong place: the default workspace holds none of the SDK repositories.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("somewhere/conformance");
    copy_tree(&bundled_suite(), &repo.join("suite"));
    fs::copy(repo_targets(), repo.join("sync-targets.txt")).unwrap();
    for args in [&["sync", "--check"][..], &["sync"][..]] {
        let out = bqsuite_in(&repo, args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        let ws = fs::canonicalize(dir.path().join("somewhere")).unwrap();
        assert!(err.contains(&ws.display().to_string()), "{err}");
        // The targets file it read: the default, beside suite/.
        assert!(
            err.contains("listed in sync-targets.txt (e.g. `php-sdk`)"),
            "{err}"
        );
        assert!(err.contains("--workspace"), "{err}");
        // With --format json, the one document says so too.
        let mut json_args = args.to_vec();
        json_args.extend(["--format", "json"]);
        let out = bqsuite_in(&repo, &json_args);
        assert_eq!(code(&out), 2);
        let doc = json(&out);
        assert_eq!(doc["ok"], false);
        assert_eq!(doc["error"]["kind"], "bad-path", "{doc:#}");
    }
    assert_eq!(
        fs::read_dir(dir.path().join("somewhere")).unwrap().count(),
        1,
        "something was created"
    );
    // A workspace that is a file cannot run either.
    let file = dir.path().join("file");
    fs::write(&file, "").unwrap();
    let out = bqsuite_in(
        &repo,
        &["sync", "--check", "--workspace", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_target_through_a_link_is_refused_with_its_line() {
    let w = RealWorkspace::new();
    // babelqueue-go's testdata is a link to a directory outside the repository.
    let outside = w.dir.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    let testdata = w.ws().join("babelqueue-go/testdata");
    fs::remove_dir_all(&testdata).unwrap();
    std::os::unix::fs::symlink(&outside, &testdata).unwrap();
    for mode in [&["--check"][..], &[][..]] {
        let mut args = vec!["sync", "--workspace", "..", "--format", "json"];
        args.extend_from_slice(mode);
        let out = w.run(&args);
        assert_eq!(code(&out), 1);
        let doc = json(&out);
        let r = row(&doc, "babelqueue-go/testdata/conformance");
        assert_eq!(r["status"], "error");
        let d = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "sync-symlink")
            .unwrap();
        let message = d["message"].as_str().unwrap();
        let shipped = fs::read_to_string(repo_targets()).unwrap();
        let line = 1 + shipped
            .lines()
            .position(|l| l == "babelqueue-go/testdata/conformance")
            .unwrap();
        assert!(
            message.contains("`babelqueue-go/testdata`")
                && message.contains(&format!("targets file line {line})")),
            "{message}"
        );
    }
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_copy_sync_cannot_write_is_refused_before_anything_in_it_changes() {
    let w = RealWorkspace::new();
    let copy = w.ws().join(OLD[0]);
    let fixtures = copy.join("fixtures");
    if !make_read_only(&fixtures) {
        eprintln!("skipped: this file system lets this user write into a read-only directory");
        make_writable(&fixtures);
        return;
    }
    let before = snapshot(&copy);
    let out = w.run(&["sync", "--workspace", "..", "--format", "json"]);
    make_writable(&fixtures);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    assert_eq!(row(&doc, OLD[0])["status"], "error");
    let found = findings(&doc, "sync-conflict");
    assert_eq!(found.len(), 1, "{doc:#}");
    assert!(
        found[0]["message"].as_str().unwrap().contains("fixtures"),
        "{doc:#}"
    );
    assert!(snapshot(&copy) == before, "the copy changed");
    let doc = json(&w.run(&["sync", "--check", "--workspace", "..", "--format", "json"]));
    let r = row(&doc, OLD[0]);
    assert_eq!(r["status"], "drift");
    assert_eq!(r["incomplete"], false);
}

#[test]
fn an_interrupted_sync_is_reported_incomplete_never_as_the_new_version() {
    // What a write stopped half-way leaves (crates/suite's vendor tests make one): the old
    // version removed first, the new manifest written next, the rest not yet.
    let w = RealWorkspace::new();
    let copy = w.ws().join(OLD[0]);
    fs::remove_file(copy.join("CONFORMANCE_VERSION")).unwrap();
    // Stopped before the new manifest: the old release's files, its manifest naming no version.
    let doc = json(&w.run(&["sync", "--check", "--workspace", "..", "--format", "json"]));
    let r = row(&doc, OLD[0]);
    assert_eq!(r["status"], "drift");
    assert_eq!(r["incomplete"], true);
    let human = stdout(&w.run(&["sync", "--check", "--workspace", ".."]));
    assert!(
        human.contains("interrupted: every file is release 1.0.0's"),
        "{human}"
    );
    fs::copy(
        bundled_suite().join("manifest.json"),
        copy.join("manifest.json"),
    )
    .unwrap();
    let doc = json(&w.run(&["sync", "--check", "--workspace", "..", "--format", "json"]));
    let r = row(&doc, OLD[0]);
    assert_eq!(r["status"], "drift");
    assert_eq!(r["incomplete"], true);
    assert!(r["vendored_version"].is_null(), "{r:#}");
    let human = stdout(&w.run(&["sync", "--check", "--workspace", ".."]));
    assert!(
        human.contains("interrupted: manifest.json names"),
        "{human}"
    );
    // Syncing again completes it.
    assert_eq!(code(&w.run(&["sync", "--workspace", ".."])), 0);
    let doc = json(&w.run(&["sync", "--check", "--workspace", "..", "--format", "json"]));
    assert_eq!(row(&doc, OLD[0])["status"], "in-sync");
}
