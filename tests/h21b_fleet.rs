//! Issue 21 items 2-5 and bad input, on a workspace shaped like the real fleet: the 25 targets of
//! the repository's sync-targets.txt, babelqueue-java, babelqueue-java-redis and
//! babelqueue-dotnet-redis not cloned, and the 22 others holding the unversioned upstream copy
//! (tests/data/upstream-suite without its CONFORMANCE_VERSION), byte for byte the same.
//!
//! - `sync --check` and `fetch --check` count each copy's cases against the suite's, and the
//!   counts agree with an independent count made here from the manifests (the spec's id rule,
//!   written again in a few lines) for the upstream copy and every real release;
//! - copies that drifted the same way are one block; the human report stays under 60 lines; the
//!   most important files come first; no copy is called interrupted;
//! - annotations stay within GitHub's 10 per level, plus one notice;
//! - `fetch --check` on an old copy is under 40 lines with the fix once;
//! - a manifest that is not JSON, a copy path that is a regular file, a link inside a copy: one
//!   line each, an `error` row each, the rest of the fleet still reported, exit 1.
#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bqsuite_in, code, copy_tree, row, run_in, stderr, stdout};
use serde_json::Value;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// The targets of the repository's sync-targets.txt, in order.
fn real_targets() -> Vec<String> {
    let text =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("sync-targets.txt")).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

const NOT_CLONED: [&str; 3] = [
    "babelqueue-java",
    "babelqueue-java-redis",
    "babelqueue-dotnet-redis",
];

fn repo_of(target: &str) -> &str {
    target.split('/').next().unwrap()
}

/// The upstream copy as the real SDK repositories hold it: no CONFORMANCE_VERSION.
fn upstream_copy(to: &Path) {
    copy_tree(&data("upstream-suite"), to);
    let _ = fs::remove_file(to.join("CONFORMANCE_VERSION"));
}

/// `ws/conformance` (the suite repository: the bundled suite and the real targets file) beside
/// the SDK checkouts.
struct Fleet {
    dir: tempfile::TempDir,
}

impl Fleet {
    fn new() -> Fleet {
        let dir = tempfile::tempdir().unwrap();
        let fleet = Fleet { dir };
        let repo = fleet.repo();
        copy_tree(&common::bundled_suite(), &repo.join("suite"));
        fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("sync-targets.txt"),
            repo.join("sync-targets.txt"),
        )
        .unwrap();
        for target in real_targets() {
            if !NOT_CLONED.contains(&repo_of(&target)) {
                upstream_copy(&fleet.ws().join(&target));
            }
        }
        fleet
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    fn repo(&self) -> PathBuf {
        self.ws().join("conformance")
    }

    fn check(&self, extra: &[&str]) -> Output {
        let mut args = vec!["sync", "--check", "--workspace", ".."];
        args.extend_from_slice(extra);
        bqsuite_in(&self.repo(), &args)
    }
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| {
        panic!(
            "not one JSON document ({e}): {}{}",
            stdout(out),
            stderr(out)
        )
    })
}

// ---------------------------------------------------------------------------------------------
// The independent count: the spec's case-id rule over two manifests, compared by content.

const METADATA: [&str; 5] = [
    "schema_version",
    "conformance_version",
    "description",
    "sections",
    "exceptions",
];

fn without_description(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v
        && m.get("description").is_some_and(Value::is_string)
    {
        m.remove("description");
    }
    v
}

/// The members of a block a case inherits: everything but its description, its `cases` array
/// and (for a section) its object sub-keys other than `schema`.
fn params(block: &Value, section_level: bool) -> Value {
    let Value::Object(m) = block else {
        return Value::Null;
    };
    let inherited = |k: &str, v: &Value| match k {
        "description" => !v.is_string(),
        "cases" => !v.is_array(),
        "schema" => true,
        _ => !(section_level && v.is_object()),
    };
    Value::Object(
        m.iter()
            .filter(|(k, v)| inherited(k, v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// Every case of a manifest, by (section, id, occurrence): what a runner reads for it (the case
/// without its description, and the parameters of its blocks); and the sections, in order.
#[derive(Default)]
struct Cases {
    cases: BTreeMap<(String, String, usize), Value>,
    sections: Vec<String>,
}

impl Cases {
    fn add(&mut self, section: &str, id: String, content: Value) {
        let mut n = 0;
        while self
            .cases
            .contains_key(&(section.to_string(), id.clone(), n))
        {
            n += 1;
        }
        self.cases.insert((section.to_string(), id, n), content);
    }

    /// The cases of a `cases` array: `prefix` + name, or `unnamed` + index.
    fn listed(
        &mut self,
        section: &str,
        items: &[Value],
        prefix: &str,
        unnamed: &str,
        inherited: &Value,
    ) {
        for (i, item) in items.iter().enumerate() {
            let id = match item.get("name").and_then(Value::as_str) {
                Some(name) => format!("{prefix}{name}"),
                None => format!("{unnamed}{i}"),
            };
            self.add(
                section,
                id,
                serde_json::json!([without_description(item), inherited]),
            );
        }
    }

    fn of(manifest: &Value) -> Cases {
        let mut out = Cases::default();
        for (section, block) in manifest.as_object().unwrap() {
            if METADATA.contains(&section.as_str()) {
                continue;
            }
            out.sections.push(section.clone());
            let unnamed = format!("{section}#");
            match block {
                Value::Array(items) => out.listed(section, items, "", &unnamed, &Value::Null),
                Value::Object(m) => {
                    let own = params(block, true);
                    for (key, value) in m {
                        match (key.as_str(), value) {
                            ("description" | "schema", _) => {}
                            ("cases", Value::Array(items)) => {
                                let inherited = serde_json::json!([own]);
                                out.listed(section, items, "", &unnamed, &inherited);
                            }
                            ("cases", _) => {}
                            (_, Value::Object(sub)) => match sub.get("cases") {
                                Some(Value::Array(items)) => {
                                    let inherited = serde_json::json!([own, params(value, false)]);
                                    let prefix = format!("{key}/");
                                    out.listed(section, items, &prefix, &prefix, &inherited);
                                }
                                _ => {
                                    let content =
                                        serde_json::json!([without_description(value), [own]]);
                                    out.add(section, key.clone(), content);
                                }
                            },
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// (missing, changed, extra, expected, missing sections) of `copy` against `suite`.
fn independent(copy: &Path, suite: &Path) -> (u64, u64, u64, u64, Vec<String>) {
    let read = |p: &Path| -> Value {
        serde_json::from_str(&fs::read_to_string(p.join("manifest.json")).unwrap()).unwrap()
    };
    let have = Cases::of(&read(copy));
    let want = Cases::of(&read(suite));
    let missing = want
        .cases
        .keys()
        .filter(|k| !have.cases.contains_key(*k))
        .count();
    let extra = have
        .cases
        .keys()
        .filter(|k| !want.cases.contains_key(*k))
        .count();
    let changed = want
        .cases
        .iter()
        .filter(|(k, v)| have.cases.get(*k).is_some_and(|h| h != *v))
        .count();
    let lacking = want
        .sections
        .into_iter()
        .filter(|s| !have.sections.contains(s))
        .collect();
    (
        missing as u64,
        changed as u64,
        extra as u64,
        want.cases.len() as u64,
        lacking,
    )
}

fn counted(r: &Value) -> (u64, u64, u64, u64, Vec<String>) {
    let c = &r["cases"];
    let n = |k: &str| {
        c[k].as_u64()
            .unwrap_or_else(|| panic!("no cases.{k} in {r:#}"))
    };
    let sections = r["missing_sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (
        n("missing"),
        n("changed"),
        n("extra"),
        n("expected"),
        sections,
    )
}

/// Every real release and the upstream copy (as the fleet holds it), by name.
fn old_copies(into: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let upstream = into.join("upstream");
    upstream_copy(&upstream);
    out.push(("upstream".to_string(), upstream));
    for entry in fs::read_dir(data("real-releases")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            out.push((name.clone(), entry.path()));
        }
    }
    out.sort();
    out
}

#[test]
fn the_independent_count_is_not_trivial() {
    // Guards the guard: the releases differ from 1.8.0 in every way the counts report.
    let suite = data("real-releases/1.8.0");
    let dir = tempfile::tempdir().unwrap();
    let all: Vec<_> = old_copies(dir.path())
        .into_iter()
        .map(|(name, path)| (name, independent(&path, &suite)))
        .collect();
    let by = |name: &str| all.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!(by("1.8.0").0 + by("1.8.0").1 + by("1.8.0").2, 0);
    assert!(by("upstream").0 > 600, "{:?}", by("upstream"));
    assert!(
        all.iter().any(|(_, c)| c.1 > 0),
        "no release changes a case: {all:?}"
    );
    assert!(
        all.iter().any(|(_, c)| c.2 > 0),
        "no release has a case 1.8.0 lacks: {all:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// sync --check.

#[test]
fn the_real_fleet_is_one_short_block_that_names_every_copy_once() {
    let fleet = Fleet::new();
    let out = fleet.check(&[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 60, "{} lines:\n{text}", lines.len());
    // Never interrupted, never incomplete: the copies name no version anywhere.
    assert!(
        !text.contains("interrupted") && !text.contains("incomplete"),
        "{text}"
    );
    // One block for the 22 identical copies, which says they are unversioned and counts cases.
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.starts_with("drift: "))
        .collect();
    assert_eq!(blocks.len(), 1, "{text}");
    let block: Vec<&str> = blocks[0].lines().collect();
    assert!(
        block[0].starts_with("drift: 22 copies, unversioned -> 1.8.0"),
        "{text}"
    );
    assert!(block[1].starts_with("    copy:  unversioned"), "{text}");
    assert!(
        block[2].starts_with(
            "    cases: 654 of 710 missing, 0 changed, 0 extra; 22 of 32 sections missing ("
        ),
        "{text}"
    );
    // The two real differences first, not behind "... and N more".
    let files: Vec<&str> = block
        .iter()
        .filter(|l| l.starts_with("      missing ") || l.starts_with("      changed "))
        .copied()
        .collect();
    assert_eq!(files[0], "      changed  manifest.json", "{text}");
    assert_eq!(files[1], "      missing  CONFORMANCE_VERSION", "{text}");
    assert!(files[2].ends_with("schema/results.example.json"), "{text}");
    assert!(files[3].ends_with("schema/results.schema.json"), "{text}");
    assert!(files.len() <= 10, "{text}");
    // Every target named exactly once; the three absent repositories in one block.
    for target in real_targets() {
        let named = lines
            .iter()
            .filter(|l| l.trim() == target || l.contains(&format!(" {target}, ")))
            .count();
        assert_eq!(named, 1, "{target}:\n{text}");
    }
    assert!(
        text.contains(
            "\nmissing-repo: 3 targets whose SDK repository is not in the workspace ..\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("bqsuite sync --suite suite --workspace ..")
            .count(),
        1,
        "{text}"
    );
    // --verbose lists every file (and stays one block).
    let verbose = stdout(&fleet.check(&["--verbose"]));
    assert!(
        verbose.contains("      missing  fixtures/wrong-case-keys-roundtrip.json"),
        "{verbose}"
    );
    assert!(!verbose.contains("more (`--verbose`"), "{verbose}");
}

#[test]
fn the_real_fleet_json_counts_cases_and_groups_the_copies() {
    let fleet = Fleet::new();
    let out = fleet.check(&["--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let want = independent(&data("upstream-suite"), &common::bundled_suite());
    let drifted: Vec<String> = real_targets()
        .into_iter()
        .filter(|t| !NOT_CLONED.contains(&repo_of(t)))
        .collect();
    assert_eq!(drifted.len(), 22);
    for target in &drifted {
        let r = row(&doc, target);
        assert_eq!(r["status"], "drift", "{r:#}");
        assert_eq!(r["unversioned"], true);
        assert_eq!(r["interrupted"], false);
        assert_eq!(r["incomplete"], false);
        assert_eq!(counted(r), want, "{target}");
        assert_eq!(r["cases_not_counted"], Value::Null);
        assert_eq!(
            (r["missing"].as_u64(), r["changed"].as_u64()),
            (Some(53), Some(1))
        );
        assert_eq!(r["files"][0]["path"], "manifest.json");
        assert_eq!(r["group"], 0);
    }
    let groups = doc["data"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:#?}");
    assert_eq!(groups[0]["status"], "drift");
    assert_eq!(groups[0]["targets"].as_array().unwrap().len(), 22);
    for repo in NOT_CLONED {
        let r = doc["data"]["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["repo"] == repo)
            .unwrap();
        assert_eq!(r["status"], "missing-repo");
        assert_eq!(r["group"], Value::Null);
    }
    // Every file finding is still there, and one summary finding for the group comes first.
    let diags = doc["diagnostics"].as_array().unwrap();
    assert_eq!(
        diags
            .iter()
            .filter(|d| d["code"] == "drift-missing")
            .count(),
        22 * 53
    );
    assert_eq!(diags[0]["code"], "copy-drift");
    assert_eq!(
        diags.iter().filter(|d| d["code"] == "copy-drift").count(),
        1
    );
}

#[test]
fn every_real_release_is_counted_like_the_independent_count() {
    // One target per real release (and the upstream copy), against the real 1.8.0.
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let mut targets = String::new();
    let copies = old_copies(&dir.path().join("copies"));
    for (name, path) in &copies {
        let target = format!("sdk-{name}/tests/conformance");
        copy_tree(path, &ws.join(&target));
        if name == "upstream" {
            let _ = fs::remove_file(ws.join(&target).join("CONFORMANCE_VERSION"));
        }
        targets.push_str(&target);
        targets.push('\n');
    }
    fs::write(dir.path().join("targets.txt"), targets).unwrap();
    let suite = data("real-releases/1.8.0");
    let out = run_in(
        dir.path(),
        &[
            "sync",
            "--check",
            "--suite",
            suite.to_str().unwrap(),
            "--workspace",
            "ws",
            "--targets",
            "targets.txt",
            "--format",
            "json",
        ],
        &[],
    );
    let doc = json(&out);
    for (name, path) in &copies {
        let r = row(&doc, &format!("sdk-{name}/tests/conformance"));
        assert_eq!(counted(r), independent(path, &suite), "{name}");
    }
    assert_eq!(
        row(&doc, "sdk-1.8.0/tests/conformance")["status"],
        "in-sync"
    );
}

#[test]
fn sync_check_annotations_stay_within_what_github_shows() {
    let fleet = Fleet::new();
    let out = fleet.check(&["--format", "github"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let level = |l: &str| {
        text.lines()
            .filter(|x| x.starts_with(&format!("::{l} ")))
            .count()
    };
    assert!(level("error") <= 10 && level("warning") <= 10, "{text}");
    // One annotation for the 22 copies, with the counts and the fix; then one notice.
    assert_eq!(level("error"), 1, "{text}");
    let group = text.lines().find(|l| l.starts_with("::error ")).unwrap();
    assert!(
        group.contains(
            "title=copy-drift::22 copies (unversioned) differ from the canonical suite 1.8.0"
        ),
        "{group}"
    );
    assert!(group.contains("cases: 654 of 710 missing"), "{group}");
    assert!(
        group.contains("first: manifest.json changed, CONFORMANCE_VERSION missing"),
        "{group}"
    );
    assert!(
        group.contains("help: `bqsuite sync --suite suite --workspace ..` re-vendors them"),
        "{group}"
    );
    assert_eq!(level("notice"), 1, "{text}");
    let notice = text.lines().last().unwrap();
    assert!(
        notice.starts_with(&format!(
            "::notice title=bqsuite%3A more findings::{} more findings",
            22 * 54
        )),
        "{notice}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_copies_are_one_line_and_an_error_row_each_and_the_rest_is_still_reported() {
    let fleet = Fleet::new();
    let ws = fleet.ws();
    let targets = real_targets();
    let (not_json, is_file, linked) = (&targets[0], &targets[1], &targets[2]);
    fs::write(
        ws.join(not_json).join("manifest.json"),
        "{\"schema_version\": 1,\n",
    )
    .unwrap();
    fs::remove_dir_all(ws.join(is_file)).unwrap();
    fs::write(ws.join(is_file), "not a directory\n").unwrap();
    std::os::unix::fs::symlink(
        "/etc/hostname",
        ws.join(linked).join("fixtures/linked.json"),
    )
    .unwrap();

    let out = fleet.check(&[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 3, "{text}");
    let line = |needle: &str| {
        *errors
            .iter()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line for {needle}:\n{text}"))
    };
    let bad = line(&format!(
        "`{not_json}/manifest.json` is not JSON (line 2, column 1"
    ));
    assert!(
        bad.contains("`bqsuite sync --suite suite --workspace ..` re-vendors it"),
        "{bad}"
    );
    let file = line(&format!("`{is_file}` is a regular file, not a directory"));
    assert!(
        file.contains("move it out of the way")
            && file.contains("then run `bqsuite sync --suite suite --workspace ..`"),
        "{file}"
    );
    let link = line(&format!(
        "`{linked}/fixtures/linked.json` is a symbolic link"
    ));
    assert!(
        link.contains("replace it with a regular file or delete it"),
        "{link}"
    );
    // The rest of the fleet: the 19 others, one block.
    assert!(
        text.contains("\ndrift: 19 copies, unversioned -> 1.8.0"),
        "{text}"
    );
    assert!(text.lines().count() <= 60, "{text}");

    let doc = json(&fleet.check(&["--format", "json"]));
    for (target, code_name) in [
        (not_json, "sync-bad-manifest"),
        (is_file, "sync-not-a-directory"),
        (linked, "sync-symlink"),
    ] {
        let r = row(&doc, target);
        assert_eq!(r["status"], "error", "{r:#}");
        assert_eq!(r["error"]["code"], code_name, "{r:#}");
        assert_eq!(r["cases"], Value::Null);
    }
    assert!(
        row(&doc, not_json)["cases_not_counted"]
            .as_str()
            .unwrap()
            .contains("not JSON")
    );
    assert_eq!(doc["data"]["counts"]["error"], 3);
    assert_eq!(doc["data"]["counts"]["drift"], 19);
}

#[test]
fn a_manifest_that_is_json_but_no_suite_is_drift_without_counts() {
    let fleet = Fleet::new();
    let target = &real_targets()[0];
    fs::write(fleet.ws().join(target).join("manifest.json"), "[1, 2]\n").unwrap();
    let out = fleet.check(&["--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let r = row(&doc, target);
    assert_eq!(r["status"], "drift");
    assert_eq!(r["cases"], Value::Null);
    assert_eq!(r["cases_not_counted"], "manifest.json is not a JSON object");
    let text = stdout(&fleet.check(&[]));
    assert!(
        text.contains("    cases: not counted: manifest.json is not a JSON object\n"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// fetch --check.

/// A release of the bundled suite on a file:// mirror.
fn mirror() -> tempfile::TempDir {
    let dist = tempfile::tempdir().unwrap();
    let out = common::bqsuite(&[
        "release",
        common::bundled_suite().to_str().unwrap(),
        "--out",
        dist.path().to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    dist
}

fn fetch_check(mirror: &Path, cwd: &Path, copy: &str, format: &str) -> Output {
    let version = common::bundled_version();
    let url = format!("file://{}", mirror.display());
    run_in(
        cwd,
        &["fetch", "--check", &version, copy, "--format", format],
        &[("BQ_CONFORMANCE_BASE_URL", url.as_str()), ("CI", "true")],
    )
}

/// An SDK checkout holding the upstream copy and its own test file beside it.
fn old_sdk() -> tempfile::TempDir {
    let sdk = tempfile::tempdir().unwrap();
    upstream_copy(&sdk.path().join("tests/conformance"));
    fs::write(
        sdk.path().join("tests/conformance/ConformanceTest.php"),
        "<?php\n",
    )
    .unwrap();
    sdk
}

#[test]
fn fetch_check_on_an_old_copy_is_short_with_the_fix_once() {
    let dist = mirror();
    let sdk = old_sdk();
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "human");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().count() <= 40, "{text}");
    let fix = "bqsuite fetch --update 1.8.0 tests/conformance";
    assert_eq!(text.matches(fix).count(), 1, "{text}");
    assert!(text.lines().last().unwrap().starts_with("fix: `"), "{text}");
    assert!(
        !text.contains("interrupted") && !text.contains("incomplete"),
        "{text}"
    );
    assert!(text.contains("\n  copy:  unversioned"), "{text}");
    assert!(
        text.contains(
            "\n  cases: 654 of 710 missing, 0 changed, 0 extra; 22 of 32 sections missing"
        ),
        "{text}"
    );
    let files: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("    missing ") || l.starts_with("    changed "))
        .collect();
    assert_eq!(files[0], "    changed  manifest.json", "{text}");
    assert!(files.len() <= 10, "{text}");
    assert!(
        text.contains(
            "left alone (the SDK's own, not part of the vendored set): ConformanceTest.php"
        ),
        "{text}"
    );

    // The github format: the fix once in the whole log (the copy's annotation carries it), one
    // annotation, one notice.
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "github");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(text.matches(fix).count(), 1, "{text}");
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 2, "{text}");
    assert!(
        annotations[0].starts_with("::error ") && annotations[0].contains("title=copy-drift::"),
        "{text}"
    );
    assert!(annotations[0].contains(fix), "{text}");
    assert!(
        annotations[1].starts_with("::notice title=bqsuite%3A more findings::54 more findings"),
        "{text}"
    );
}

#[test]
fn fetch_check_json_carries_the_release_and_the_drift_object_of_a_sync_target() {
    let dist = mirror();
    let sdk = old_sdk();
    let out = fetch_check(dist.path(), sdk.path(), "tests/conformance", "json");
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let d = &doc["data"];
    let asset = fs::read(dist.path().join("babelqueue-conformance-1.8.0.tar.gz")).unwrap();
    use sha2::Digest;
    let sha: String = sha2::Sha256::digest(&asset)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(d["version"], "1.8.0");
    assert_eq!(d["sha256"], sha);
    assert_eq!(d["bytes"], asset.len());
    assert_eq!(d["destination"], "tests/conformance");
    assert_eq!(d["status"], "drift");
    assert!(
        d["fix"]
            .as_str()
            .unwrap()
            .ends_with("bqsuite fetch --update 1.8.0 tests/conformance")
    );
    let copy = &d["copy"];
    assert_eq!(
        counted(copy),
        independent(&data("upstream-suite"), &common::bundled_suite())
    );
    assert_eq!(copy["unversioned"], true);
    assert_eq!(copy["interrupted"], false);
    assert_eq!(
        (
            copy["missing"].as_u64(),
            copy["changed"].as_u64(),
            copy["extra"].as_u64()
        ),
        (Some(53), Some(1), Some(0))
    );
    assert_eq!(copy["files"][0]["path"], "manifest.json");
    assert_eq!(
        copy["unmanaged"],
        serde_json::json!(["ConformanceTest.php"])
    );

    // The same keys as a sync --check row.
    let fleet = Fleet::new();
    let sync = json(&fleet.check(&["--format", "json"]));
    let sync_row = row(&sync, &real_targets()[0]);
    let keys = |v: &Value| {
        v.as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    let missing: Vec<String> = keys(copy)
        .difference(&keys(sync_row))
        .filter(|k| !["matched", "unmanaged"].contains(&k.as_str()))
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "fetch's copy has keys a sync row lacks: {missing:?}"
    );
    for key in [
        "cases",
        "missing_sections",
        "files",
        "version",
        "unversioned",
        "known_release",
    ] {
        assert_eq!(copy[key], sync_row[key], "{key}");
    }
}

#[test]
fn fetch_check_counts_every_real_release_like_the_independent_count() {
    let dist = mirror();
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in old_copies(&dir.path().join("copies")) {
        let copy = dir.path().join(format!("sdk-{name}"));
        copy_tree(&path, &copy);
        if name == "upstream" {
            let _ = fs::remove_file(copy.join("CONFORMANCE_VERSION"));
        }
        let out = fetch_check(dist.path(), dir.path(), &format!("sdk-{name}"), "json");
        let doc = json(&out);
        assert_eq!(
            counted(&doc["data"]["copy"]),
            independent(&path, &common::bundled_suite()),
            "{name}"
        );
    }
}
