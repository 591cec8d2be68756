//! A workspace that vendors both suites: each suite has its own targets file
//! (`sync-targets.txt`, `sbp-sync-targets.txt`), and each copy is reported against its own suite.
//! A target holding the other suite's copy is `sync-other-suite`: never compared, never written.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::kit::*;

/// `ws/conformance` holding both suites and their targets files, and two SDK checkouts beside it.
struct Both {
    dir: tempfile::TempDir,
}

impl Both {
    fn new(bq_targets: &str, sbp_targets: &str) -> Both {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("ws/conformance");
        copy_tree(&bundled_suite(), &repo.join("suite"));
        copy_tree(&root().join("sbp-suite"), &repo.join("sbp-suite"));
        fs::write(repo.join("sync-targets.txt"), bq_targets).unwrap();
        fs::write(repo.join("sbp-sync-targets.txt"), sbp_targets).unwrap();
        for sdk in ["bq-sdk", "sbp-sdk"] {
            fs::create_dir_all(dir.path().join("ws").join(sdk)).unwrap();
        }
        Both { dir }
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// `sync --suite conformance/SUITE` (default targets file and workspace), then `extra`, in
    /// JSON: the exit code and the document.
    fn sync(&self, suite: &str, extra: &[&str]) -> (i32, Value) {
        let suite = format!("conformance/{suite}");
        let mut args = vec!["sync", "--suite", &suite, "--format", "json"];
        args.extend_from_slice(extra);
        let out = bqsuite_in(&self.ws(), &args);
        (code(&out), json(&out))
    }
}

fn status<'a>(doc: &'a Value, target: &str) -> &'a str {
    row(doc, target)["status"].as_str().unwrap()
}

fn codes_of(doc: &Value, target: &str) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap_or("").starts_with(target))
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

const BQ: &str = "bq-sdk/tests/conformance";
const SBP: &str = "sbp-sdk/tests/conformance";

fn only_description(copy: &Path) -> Option<Vec<u8>> {
    fs::read(copy.join("suite.json")).ok()
}

#[test]
fn each_suite_syncs_from_its_own_targets_file() {
    let both = Both::new(&format!("{BQ}\n"), &format!("{SBP}\n"));
    let (exit, doc) = both.sync("sbp-suite", &[]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(
        doc["data"]["targets_file"],
        "conformance/sbp-sync-targets.txt"
    );
    assert_eq!(status(&doc, SBP), "synced");
    let copy = both.ws().join(SBP);
    assert_eq!(files(&copy), files(&root().join("sbp-suite")));
    let (exit, doc) = both.sync("suite", &[]);
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(doc["data"]["targets_file"], "conformance/sync-targets.txt");
    assert_eq!(only_description(&both.ws().join(BQ)), None);

    for suite in ["suite", "sbp-suite"] {
        let (exit, doc) = both.sync(suite, &["--check"]);
        assert_eq!(exit, 0, "{suite}: {doc:#}");
        assert_counts(&doc);
    }
}

#[test]
fn a_copy_of_the_other_suite_is_a_finding_neither_compared_nor_written() {
    // Each targets file also lists the other suite's copy by mistake.
    let both = Both::new(&format!("{BQ}\n{SBP}\n"), &format!("{SBP}\n{BQ}\n"));
    vendor_set(&root().join("sbp-suite"), &both.ws().join(SBP));
    vendor_set(&bundled_suite(), &both.ws().join(BQ));
    let before = snapshot(&both.ws());

    // BabelQueue's sync meets the SBP copy: named, not written.
    let (exit, doc) = both.sync("suite", &[]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_counts(&doc);
    assert_eq!(status(&doc, BQ), "unchanged");
    assert_eq!(status(&doc, SBP), "error");
    assert_eq!(codes_of(&doc, SBP), ["sync-other-suite"]);
    let finding = findings(&doc, "sync-other-suite")[0];
    let message = finding["message"].as_str().unwrap();
    for says in [
        "Sideband SBP v1 suite (`sbp`",
        "its suite.json says so",
        "BabelQueue (`babelqueue`)",
    ] {
        assert!(message.contains(says), "{message}");
    }
    let help = finding["help"].as_str().unwrap();
    assert!(help.contains("sbp-sync-targets.txt"), "{help}");
    assert_eq!(
        snapshot(&both.ws()),
        before,
        "a copy of the other suite was written"
    );

    // --check: the finding, not drift.
    let (exit, doc) = both.sync("suite", &["--check"]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_counts(&doc);
    assert_eq!(status(&doc, BQ), "in-sync");
    assert_eq!(codes_of(&doc, SBP), ["sync-other-suite"]);

    // The reverse: a BabelQueue copy (a manifest, no suite.json) met by SBP's check.
    let (exit, doc) = both.sync("sbp-suite", &["--check"]);
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(status(&doc, SBP), "in-sync");
    assert_eq!(codes_of(&doc, BQ), ["sync-other-suite"]);
    let message = findings(&doc, "sync-other-suite")[0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("no suite.json"), "{message}");
    let (exit, _) = both.sync("sbp-suite", &[]);
    assert_eq!(exit, 1);
    assert_eq!(
        snapshot(&both.ws()),
        before,
        "a copy of the other suite was written"
    );
}
