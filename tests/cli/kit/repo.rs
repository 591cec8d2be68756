//! A temporary repository root shaped like this one: `suite/` (a copy of the bundled suite, or of
//! another), `proposal/` (a copy of the project's) and `LICENSE-suite` beside them, so that
//! bqsuite runs there with the relative paths a maintainer types, and the suite can be released.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use super::{SUITE_LICENSE, bundled_suite, code, command, copy_tree, json, root, suite_license};

/// The fixture [`Repo::propose_case`] adds, under its proposed name and under the name it is
/// adopted with, and the name of its case in section `job_type`.
pub const PROPOSED_FIXTURE: &str = "fixtures/proposal-adopt-test-null-job.json";
pub const ADOPTED_FIXTURE: &str = "fixtures/adopt-test-null-job.json";
pub const PROPOSED_CASE: &str = "adopt-test-null-job-falls-back";

/// A temporary repository root with `suite/`, `proposal/` and `LICENSE-suite`.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    /// The bundled suite and the project's proposal.
    pub fn new() -> Repo {
        Repo::with_suite(&bundled_suite())
    }

    /// The suite `suite` and the project's proposal.
    pub fn with_suite(suite: &Path) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(suite, &dir.path().join("suite"));
        copy_tree(&root().join("proposal"), &dir.path().join("proposal"));
        fs::copy(suite_license(), dir.path().join(SUITE_LICENSE)).unwrap();
        Repo { dir }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn read_json(&self, rel: &str) -> Value {
        serde_json::from_str(&fs::read_to_string(self.path(rel)).unwrap()).unwrap()
    }

    /// Edits the JSON file `rel` in place.
    pub fn edit(&self, rel: &str, edit: impl FnOnce(&mut Value)) {
        let mut value = self.read_json(rel);
        edit(&mut value);
        fs::write(
            self.path(rel),
            serde_json::to_string_pretty(&value).unwrap() + "\n",
        )
        .unwrap();
    }

    /// Where `pointer` is in the file `rel` (line, column), read independently of bqsuite's
    /// findings.
    pub fn position(&self, rel: &str, pointer: &str) -> (u64, u64) {
        let text = fs::read_to_string(self.path(rel)).unwrap();
        let pos = bqsuite_core::json::position_of(&text, pointer)
            .unwrap_or_else(|| panic!("{pointer} is not in {rel}"));
        (pos.line.into(), pos.column.into())
    }

    /// `bqsuite ARGS` in the root; with `github`, as a GitHub Actions job checked out there.
    pub fn run(&self, args: &[&str], github: bool) -> Output {
        let mut cmd = command();
        cmd.args(args).current_dir(self.dir.path());
        if github {
            cmd.env("GITHUB_WORKSPACE", self.dir.path());
        }
        cmd.output().unwrap()
    }

    /// `bqsuite ARGS --format json` in the root: the exit code and the document.
    pub fn json(&self, args: &[&str]) -> (i32, Value) {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = self.run(&all, false);
        (code(&out), json(&out))
    }

    /// The suite's CONFORMANCE_VERSION.
    pub fn version(&self) -> String {
        fs::read_to_string(self.path("suite/CONFORMANCE_VERSION"))
            .unwrap()
            .trim()
            .to_string()
    }

    /// The suite's version with `bump` applied: `major`, `minor` or `patch`.
    pub fn bumped(&self, bump: &str) -> String {
        let version = self.version();
        let core = version.split(['-', '+']).next().unwrap();
        let n: Vec<u64> = core.split('.').map(|p| p.parse().unwrap()).collect();
        match bump {
            "major" => format!("{}.0.0", n[0] + 1),
            "minor" => format!("{}.{}.0", n[0], n[1] + 1),
            _ => format!("{}.{}.{}", n[0], n[1], n[2] + 1),
        }
    }

    /// Adds to the proposal's `kafka.attempts_reconciliation` a copy of the suite's first case of
    /// that sub-block, named `name`, without its member `member`; returns the case's index among
    /// the proposal's cases of the sub-block.
    pub fn propose_reconciliation_case_without(&self, name: &str, member: &str) -> usize {
        let suite = self.read_json("suite/manifest.json");
        let mut case = suite["kafka"]["attempts_reconciliation"]["cases"][0].clone();
        case["name"] = json!(name);
        case.as_object_mut().unwrap().remove(member);
        let mut at = 0;
        self.edit("proposal/manifest.json", |m| {
            let cases = kafka_reconciliation(m);
            at = cases.len();
            cases.push(case);
        });
        at
    }

    /// Adds to the proposal a case of `job_type` that reads a fixture of its own
    /// ([`PROPOSED_CASE`], [`PROPOSED_FIXTURE`]): a copy of the suite's first `job_type` case and
    /// its fixture, so that a test does not depend on what the project's proposal holds.
    pub fn propose_case(&self) {
        let suite = self.read_json("suite/manifest.json");
        let mut case = suite["job_type"]["cases"][0].clone();
        let source = case["file"].as_str().unwrap().to_string();
        fs::create_dir_all(self.path("proposal/fixtures")).unwrap();
        fs::copy(
            self.path(&format!("suite/{source}")),
            self.path(&format!("proposal/{PROPOSED_FIXTURE}")),
        )
        .unwrap();
        case["name"] = json!(PROPOSED_CASE);
        case["file"] = json!(PROPOSED_FIXTURE);
        self.edit("proposal/manifest.json", |m| {
            let section = m
                .as_object_mut()
                .unwrap()
                .entry("job_type")
                .or_insert_with(|| json!({"cases": []}));
            section["cases"].as_array_mut().unwrap().push(case);
        });
    }
}

/// The cases the proposal adds to the `attempts_reconciliation` sub-block of `kafka`, the
/// sub-block (and the section) created when the proposal has none. Each test adds its own cases,
/// so that none depends on what the project's proposal holds today (`bqsuite adopt` empties it).
pub fn kafka_reconciliation(m: &mut Value) -> &mut Vec<Value> {
    m.as_object_mut()
        .unwrap()
        .entry("kafka")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .unwrap()
        .entry("attempts_reconciliation")
        .or_insert_with(|| json!({"cases": []}))["cases"]
        .as_array_mut()
        .unwrap()
}
