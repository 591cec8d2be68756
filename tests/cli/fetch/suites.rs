//! fetch of either suite: a vendored copy says which suite it is (its suite.json, else
//! BabelQueue's), `--suite` names the suite where nothing on disk does, and the asset's name and
//! location come from the suite's description. The SBP suite round-trips through a file://
//! mirror made by `bqsuite release sbp-suite`; the other suite's asset is refused, nothing written.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::setup::Setup;
use crate::kit::*;

fn sbp_suite() -> PathBuf {
    root().join("sbp-suite")
}

fn sbp_version() -> String {
    fs::read_to_string(sbp_suite().join("CONFORMANCE_VERSION"))
        .unwrap()
        .trim()
        .to_string()
}

/// The SBP asset's file name at `version`.
fn sbp_asset(version: &str) -> String {
    format!("sbp-conformance-{version}.tar.gz")
}

/// A file:// mirror holding what `bqsuite release sbp-suite` writes, and an SDK checkout.
struct Sbp {
    dir: tempfile::TempDir,
}

impl Sbp {
    fn new() -> Sbp {
        let dir = tempfile::tempdir().unwrap();
        let mirror = dir.path().join("mirror");
        let out = bqsuite(&["release", s(&sbp_suite()), "--out", s(&mirror)]);
        assert_eq!(code(&out), 0, "{}", text(&out));
        assert!(mirror.join(sbp_asset(&sbp_version())).is_file());
        fs::create_dir_all(dir.path().join("sdk")).unwrap();
        Sbp { dir }
    }

    fn mirror(&self) -> PathBuf {
        self.dir.path().join("mirror")
    }

    fn sdk(&self) -> PathBuf {
        self.dir.path().join("sdk")
    }

    fn copy(&self) -> PathBuf {
        self.sdk().join("tests/conformance")
    }

    /// `bqsuite ARGS --format json` in the SDK checkout with the mirror as the release location.
    fn json(&self, args: &[&str]) -> (i32, Value) {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let url = file_url(&self.mirror());
        let out = run_in(&self.sdk(), &all, &[("BQ_CONFORMANCE_BASE_URL", &url)]);
        (code(&out), json(&out))
    }
}

/// The vendored set of a suite directory (its files but LICENSE).
fn vendored(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = files(dir);
    files.remove("LICENSE");
    files
}

#[test]
fn the_sbp_suite_round_trips_fetch_check_and_update() {
    let sbp = Sbp::new();
    let version = sbp_version();
    let (exit, doc) = sbp.json(&["fetch", "--suite", "sbp", &version, "tests/conformance"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["asset"]["name"], sbp_asset(&version));
    assert_eq!(vendored(&sbp.copy()), vendored(&sbp_suite()));

    // The copy says which suite it is: no --suite needed from now on.
    let (exit, doc) = sbp.json(&["fetch", "--check", &version, "tests/conformance"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_counts(&doc);

    // A changed fixture is drift, and the fix the check names makes it green again.
    let manifest = sbp.copy().join("manifest.json");
    let mut text = fs::read_to_string(&manifest).unwrap();
    text.push('\n');
    fs::write(&manifest, text).unwrap();
    let (exit, doc) = sbp.json(&["fetch", "--check", &version, "tests/conformance"]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_counts(&doc);
    let fix = doc["data"]["fix"].as_str().unwrap().to_string();
    assert!(!fix.contains("--suite"), "{fix}");
    let (exit, doc) = sbp.json(&["fetch", "--update", &version, "tests/conformance"]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["changed"], serde_json::json!(["manifest.json"]));
    assert_eq!(vendored(&sbp.copy()), vendored(&sbp_suite()));
    let (exit, _) = sbp.json(&["fetch", "--check", &version, "tests/conformance"]);
    assert_eq!(exit, 0);
}

#[test]
fn the_other_suites_asset_is_refused_and_nothing_is_written() {
    let sbp = Sbp::new();
    let version = sbp_version();
    let asset = fs::read(sbp.mirror().join(sbp_asset(&version))).unwrap();
    // The SBP asset published under BabelQueue's name, fetched as BabelQueue's (the default).
    let mirror = tarball::Mirror::new();
    mirror.publish(&version, &asset);
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let out = run_in(
        work.path(),
        &["fetch", &version, s(&dest), "--format", "json"],
        &[("BQ_CONFORMANCE_BASE_URL", &mirror.url())],
    );
    let doc = json(&out);
    assert_eq!(code(&out), 1, "{doc:#}");
    assert_eq!(findings(&doc, "archive-wrong-suite").len(), 1, "{doc:#}");
    assert!(!dest.exists());
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);

    // BabelQueue's asset published under SBP's name, fetched as SBP's.
    let s_bq = Setup::new();
    let bq_version = bundled_version();
    let bq_asset = s_bq
        .dir
        .path()
        .join(format!("mirror/babelqueue-conformance-{bq_version}.tar.gz"));
    let bytes = fs::read(bq_asset).unwrap();
    let mirror = sbp.dir.path().join("reverse");
    fs::create_dir_all(&mirror).unwrap();
    fs::write(mirror.join(sbp_asset(&bq_version)), &bytes).unwrap();
    fs::write(
        mirror.join("SHA256SUMS"),
        format!("{}  {}\n", sha256_hex(&bytes), sbp_asset(&bq_version)),
    )
    .unwrap();
    let out = run_in(
        work.path(),
        &[
            "fetch",
            "--suite",
            "sbp",
            &bq_version,
            s(&dest),
            "--format",
            "json",
        ],
        &[("BQ_CONFORMANCE_BASE_URL", &file_url(&mirror))],
    );
    let doc = json(&out);
    assert_eq!(code(&out), 1, "{doc:#}");
    assert_eq!(findings(&doc, "archive-wrong-suite").len(), 1, "{doc:#}");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn suite_naming_another_suite_than_the_copy_cannot_run_and_writes_nothing() {
    let setup = Setup::vendored();
    let version = bundled_version();
    let before = snapshot(&setup.sdk());
    for mode in ["--check", "--update"] {
        let out = setup.run(&[
            "fetch",
            mode,
            "--suite",
            "sbp",
            &version,
            "tests/conformance",
            "--format",
            "json",
        ]);
        let doc = json(&out);
        assert_eq!(code(&out), 2, "{mode}: {doc:#}");
        let message = doc["error"]["message"].as_str().unwrap();
        for says in [
            "copy of the BabelQueue suite",
            "it has no suite.json",
            "expects `sbp`",
        ] {
            assert!(message.contains(says), "{mode}: {message}");
        }
        assert_eq!(snapshot(&setup.sdk()), before, "{mode} wrote");
    }
    // Naming the copy's own suite is the same as naming none.
    let out = setup.run(&[
        "fetch",
        "--check",
        "--suite",
        "babelqueue",
        &version,
        "tests/conformance",
    ]);
    assert_eq!(code(&out), 0, "{}", text(&out));

    // An SBP copy checked as BabelQueue's: its description says which it is.
    let sbp = tempfile::tempdir().unwrap();
    vendor_set(&sbp_suite(), &sbp.path().join("copy"));
    let out = bqsuite(&[
        "fetch",
        "--check",
        "--suite",
        "babelqueue",
        &version,
        s(&sbp.path().join("copy")),
    ]);
    assert_eq!(code(&out), 2, "{}", text(&out));
    assert!(
        text(&out).contains("copy of the Sideband SBP v1 suite (`sbp`: its suite.json says so)"),
        "{}",
        text(&out)
    );
}

#[test]
fn an_unknown_suite_or_an_unreadable_description_cannot_run() {
    let setup = Setup::vendored();
    let version = bundled_version();
    let out = setup.run(&[
        "fetch", "--suite", "nosuch", &version, "new", "--format", "json",
    ]);
    let doc = json(&out);
    assert_eq!(code(&out), 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "usage");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains("babelqueue, sbp"), "{message}");
    assert!(!setup.sdk().join("new").exists());

    fs::write(setup.copy().join("suite.json"), "{").unwrap();
    let out = setup.run(&[
        "fetch",
        "--check",
        &version,
        "tests/conformance",
        "--format",
        "json",
    ]);
    let doc = json(&out);
    assert_eq!(code(&out), 2, "{doc:#}");
    assert!(
        doc["error"]["path"]
            .as_str()
            .unwrap()
            .ends_with("tests/conformance/suite.json"),
        "{doc:#}"
    );
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not say which suite"),
        "{doc:#}"
    );
}

#[test]
fn a_first_fetch_of_sbp_looks_for_sbps_asset() {
    let work = tempfile::tempdir().unwrap();
    let mirror = work.path().join("empty-mirror");
    fs::create_dir_all(&mirror).unwrap();
    let out = run_in(
        work.path(),
        &[
            "fetch", "--suite", "sbp", "0.9.0", "dest", "--format", "json",
        ],
        &[("BQ_CONFORMANCE_BASE_URL", &file_url(&mirror))],
    );
    let doc = json(&out);
    assert_eq!(code(&out), 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "not-released");
    let path = doc["error"]["path"].as_str().unwrap();
    assert!(path.ends_with("/sbp-conformance-0.9.0.tar.gz"), "{path}");
    // The retry line is this run's command, --suite included.
    let help = doc["error"]["help"].as_str().unwrap();
    assert!(
        help.contains("bqsuite fetch --suite sbp 0.9.0 dest"),
        "{help}"
    );
    assert!(!work.path().join("dest").exists());
}
