//! Every report example in README.md and docs/ is bqsuite's real output.
//!
//! A Markdown file marks an example as
//!
//! ````text
//! <!-- example: NAME -->
//! ```text
//! $ bqsuite ...
//! (what it prints)
//! ```
//! <!-- /example -->
//! ````
//!
//! This test builds, in a temporary directory, a workspace shaped like the real BabelQueue fleet
//! (the 25 targets of sync-targets.txt; most copies the unversioned upstream copy, as the real SDK
//! repositories hold it; two on real releases; one hand-edited; three repositories not cloned),
//! an SDK checkout with an old copy and a `file://` mirror made by `bqsuite release`; runs the
//! built binary for each example; replaces the temporary paths with stable placeholders; and
//! compares the result with every block of that NAME. With `BQSUITE_BLESS=1` it rewrites the
//! blocks instead (`docs/examples.sh` does that).
//!
//! Output is deterministic by construction: no timing is printed, the colour and GitHub Actions
//! variables are removed (tests/cli/kit), and the paths are the placeholders below.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::kit;
use crate::kit::fleet::{NOT_CLONED, real_targets, repo_of};
use crate::kit::markdown::*;
use crate::kit::{copy_tree, real_release, root, unversioned_copy, vendor_set};

/// The release mirror as the examples show it (a `file://` directory made by `bqsuite release`).
const MIRROR: &str = "/srv/mirror";
/// Any other temporary path.
const TMP: &str = "/tmp/demo";
/// Copies on a real earlier release (tests/data/real-releases).
const ON_RELEASE: [(&str, &str); 2] = [
    ("babelqueue-node/test/conformance", "1.7.0"),
    (
        "babelqueue-dotnet/tests/BabelQueue.Core.Tests/conformance",
        "1.5.0",
    ),
];
/// A copy of the current release with one fixture edited by hand.
const EDITED: &str = "babelqueue-python/tests/conformance";

/// Replaces `from` by `to` exactly once in `file` (an edit the example needs; the bytes around it
/// stay, so line numbers stay true).
fn edit_once(file: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(file).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{from:?} must occur once in {}",
        file.display()
    );
    fs::write(file, text.replacen(from, to, 1)).unwrap();
}

/// The temporary world the examples run in.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn root(&self) -> &Path {
        self.dir.path()
    }
    /// The conformance checkout inside the workspace.
    fn conformance(&self) -> PathBuf {
        self.root().join("ws/conformance")
    }
    fn ws(&self) -> PathBuf {
        self.root().join("ws")
    }

    fn build() -> World {
        let world = World {
            dir: tempfile::tempdir().unwrap(),
        };
        let suite = root().join("suite");
        let conformance = world.conformance();
        copy_tree(&suite, &conformance.join("suite"));
        copy_tree(&root().join("proposal"), &conformance.join("proposal"));
        for file in ["sync-targets.txt", "LICENSE", "LICENSE-suite"] {
            fs::copy(root().join(file), conformance.join(file)).unwrap();
        }
        for target in real_targets() {
            if NOT_CLONED.contains(&repo_of(&target)) {
                continue;
            }
            let dest = world.ws().join(&target);
            if let Some((_, version)) = ON_RELEASE.iter().find(|(t, _)| *t == target) {
                vendor_set(&real_release(version), &dest);
            } else if target == EDITED {
                vendor_set(&suite, &dest);
                fs::write(
                    dest.join("fixtures/order-created.json"),
                    "{\"job\": \"x\"}\n",
                )
                .unwrap();
            } else {
                unversioned_copy(&dest);
            }
        }

        // The release mirror fetch reads (file://), made by `bqsuite release`.
        let made = kit::command()
            .args(["release", "suite", "--out"])
            .arg(world.root().join("mirror"))
            .current_dir(&conformance)
            .output()
            .unwrap();
        assert!(made.status.success(), "{}", kit::stderr(&made));

        // An SDK checkout whose copy is still the unversioned upstream copy, beside its runner.
        let sdk = world.root().join("sdk");
        unversioned_copy(&sdk.join("tests/conformance"));
        fs::write(
            sdk.join("tests/conformance/ConformanceTest.php"),
            "<?php // the SDK's runner\n",
        )
        .unwrap();

        // A copy of the suite with two mistakes: a wrong expectation, a mistyped pointer.
        let broken = world.root().join("broken");
        copy_tree(&suite, &broken.join("suite"));
        let manifest = broken.join("suite/manifest.json");
        edit_once(
            &manifest,
            "\"header_attempts\": 1,    \"expected_attempts\": 1 }",
            "\"header_attempts\": 1,    \"expected_attempts\": 5 }",
        );
        edit_once(
            &manifest,
            "\"forbidden_key\": \"/meta/ts\",",
            "\"forbidden_key\": \"/meta/tss\",",
        );

        // A checkout whose proposal has one more case, which kills no mutant (header and body
        // agree, so every habit of the catalogue derives the same count). Added as JSON, so that
        // the proposal's own cases may change around it.
        let idle = world.root().join("idle");
        copy_tree(&suite, &idle.join("suite"));
        copy_tree(&root().join("proposal"), &idle.join("proposal"));
        let manifest = idle.join("proposal/manifest.json");
        let mut m: Value = serde_json::from_str(&fs::read_to_string(&manifest).unwrap()).unwrap();
        let cases = &mut m["kafka"]["attempts_reconciliation"]["cases"];
        if !cases.is_array() {
            *cases = json!([]);
        }
        cases.as_array_mut().unwrap().push(json!({
            "name": "header-equals-body",
            "body_attempts": 3,
            "header_attempts": 3,
            "expected_attempts": 3
        }));
        fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap() + "\n").unwrap();
        world
    }

    /// Replaces the temporary paths with their placeholders.
    fn normalise(&self, text: &str) -> String {
        let root = self.root().to_str().unwrap();
        let real = fs::canonicalize(self.root()).unwrap();
        let mut out = text.to_string();
        for r in [root, real.to_str().unwrap()] {
            out = out.replace(&format!("{r}/mirror"), MIRROR).replace(r, TMP);
        }
        out
    }
}

/// Where an example runs.
#[derive(Clone, Copy)]
enum Cwd {
    /// This repository (read-only commands).
    Repo,
    /// The conformance checkout of the temporary workspace.
    Conformance,
    /// A checkout of the SDK repository `babelqueue-python` in the workspace.
    Python,
    /// The SDK checkout with the old copy.
    Sdk,
    /// The suite copy with two mistakes.
    Broken,
    /// A checkout whose proposal adds one case that kills no mutant.
    Idle,
}

/// What an example shows.
#[derive(Clone, Copy)]
enum Shows {
    /// Standard output and standard error, interleaved as a terminal shows them.
    Output,
    /// Standard output only (a JSON document, without the message standard error repeats).
    Stdout,
    /// The Markdown `$GITHUB_STEP_SUMMARY` receives (standard output is not shown).
    StepSummary,
    /// The file the command wrote at this path (`{tmp}` is the temporary directory).
    File(&'static str),
}

struct Example {
    name: &'static str,
    cwd: Cwd,
    /// Shown before the command, e.g. `cd tests/data/real-releases && ` (run in that directory).
    cd: Option<&'static str>,
    /// Reads the release mirror: `BQ_CONFORMANCE_BASE_URL=file:///srv/mirror`, shown before
    /// `bqsuite`.
    mirror: bool,
    /// Runs as in a GitHub Actions job whose checkout is the working directory
    /// (`GITHUB_WORKSPACE`; not shown: the runner sets it).
    github: bool,
    /// The arguments; `{tmp}` in one stands for the temporary directory.
    args: &'static [&'static str],
    shows: Shows,
    /// A shell pipe the docs show after the command (`| jq ...`); `filter` does the same.
    pipe: Option<&'static str>,
    /// Keeps the part of the output the docs show (the docs mark every cut with `[…]`).
    filter: fn(&str) -> String,
}

/// What an example is unless it says otherwise.
const BASE: Example = Example {
    name: "",
    cwd: Cwd::Repo,
    cd: None,
    mirror: false,
    github: false,
    args: &[],
    shows: Shows::Output,
    pipe: None,
    filter: all,
};

const EXAMPLES: &[Example] = &[
    Example {
        name: "version",
        args: &["--version"],
        ..BASE
    },
    Example {
        name: "validate",
        cwd: Cwd::Conformance,
        args: &["validate"],
        ..BASE
    },
    Example {
        name: "validate-broken",
        cwd: Cwd::Broken,
        args: &["validate"],
        ..BASE
    },
    Example {
        name: "validate-broken-github",
        cwd: Cwd::Broken,
        github: true,
        args: &["validate", "--format", "github"],
        filter: annotations,
        ..BASE
    },
    Example {
        name: "validate-proposal",
        cwd: Cwd::Conformance,
        args: &["validate", "suite", "--proposal", "proposal"],
        ..BASE
    },
    Example {
        name: "mutants-proposal",
        cwd: Cwd::Conformance,
        args: &["mutants", "suite", "--proposal", "proposal"],
        filter: |t| head_tail(t, 0, 5),
        ..BASE
    },
    Example {
        name: "mutants-proposal-kills-none",
        cwd: Cwd::Idle,
        args: &["mutants", "suite", "--proposal", "proposal"],
        filter: idle_case,
        ..BASE
    },
    Example {
        name: "mutants-thin",
        cwd: Cwd::Conformance,
        args: &["mutants", "suite"],
        filter: |t| thin_lines(t, 4),
        ..BASE
    },
    Example {
        name: "mutants-survivor",
        cwd: Cwd::Conformance,
        args: &["mutants", "suite"],
        filter: |t| paragraphs(t, &["`kafka-zero-header-ignored`"], Some(2)),
        ..BASE
    },
    Example {
        name: "sync-check",
        cwd: Cwd::Conformance,
        args: &["sync", "--check", "--workspace", ".."],
        ..BASE
    },
    Example {
        name: "sync-check-short",
        cwd: Cwd::Conformance,
        args: &["sync", "--check", "--workspace", ".."],
        filter: sync_table,
        ..BASE
    },
    Example {
        name: "sync-check-json",
        cwd: Cwd::Conformance,
        args: &["sync", "--check", "--workspace", "..", "--format", "json"],
        pipe: Some(
            "jq '.data | .targets |= map(select(.repo == \"babelqueue-python\") | .affected_cases |= .[:2])'",
        ),
        filter: sync_data_python_row,
        ..BASE
    },
    Example {
        name: "fetch-check",
        cwd: Cwd::Sdk,
        mirror: true,
        args: &["fetch", "--check", "1.8.0", "tests/conformance"],
        ..BASE
    },
    Example {
        name: "fetch-check-edited",
        cwd: Cwd::Python,
        mirror: true,
        args: &["fetch", "--check", "1.8.0", "tests/conformance"],
        ..BASE
    },
    Example {
        name: "fetch-check-edited-github",
        cwd: Cwd::Python,
        mirror: true,
        github: true,
        args: &[
            "fetch",
            "--check",
            "1.8.0",
            "tests/conformance",
            "--format",
            "github",
        ],
        ..BASE
    },
    Example {
        name: "fetch-check-edited-json",
        cwd: Cwd::Python,
        mirror: true,
        args: &[
            "fetch",
            "--check",
            "1.8.0",
            "tests/conformance",
            "--format",
            "json",
        ],
        pipe: Some("jq '.data.copy.affected_cases |= .[:2]'"),
        filter: fetch_check_first_affected,
        ..BASE
    },
    Example {
        name: "fetch-check-edited-summary",
        cwd: Cwd::Python,
        mirror: true,
        github: true,
        args: &["fetch", "--check", "1.8.0", "tests/conformance"],
        shows: Shows::StepSummary,
        ..BASE
    },
    Example {
        name: "fetch-not-released-json",
        cwd: Cwd::Python,
        mirror: true,
        args: &[
            "fetch",
            "--check",
            "9.9.9",
            "tests/conformance",
            "--format",
            "json",
        ],
        shows: Shows::Stdout,
        ..BASE
    },
    Example {
        name: "diff-1.5.0-1.6.0",
        cd: Some("tests/data/real-releases"),
        args: &["diff", "1.5.0", "1.6.0"],
        filter: |t| {
            paragraphs(
                t,
                &[
                    "retry_republish/first-retry`",
                    "case-removed",
                    "section `kafka_poison` added",
                    "version-bump-insufficient",
                ],
                None,
            )
        },
        ..BASE
    },
    Example {
        name: "diff-1.7.0-1.8.0",
        cd: Some("tests/data/real-releases"),
        args: &["diff", "1.7.0", "1.8.0"],
        filter: |t| paragraphs(t, &[], None),
        ..BASE
    },
    Example {
        name: "diff-markdown",
        cd: Some("tests/data/real-releases"),
        args: &["diff", "1.7.0", "1.8.0", "--markdown", "{tmp}/NOTES.md"],
        shows: Shows::File("{tmp}/NOTES.md"),
        filter: |t| head_tail(t, 22, 0),
        ..BASE
    },
    Example {
        name: "results-check",
        args: &[
            "results",
            "check",
            "docs/examples/php-sdk.results.json",
            "docs/examples/babelqueue-python.results.json",
        ],
        ..BASE
    },
    Example {
        name: "results-check-gaps",
        args: &[
            "results",
            "check",
            "tests/data/real-results/python-1.24.0-no-redis-no-otel.json",
            "--known-gaps",
            "tests/data/real-results/gaps-otel-and-payload.json",
        ],
        filter: |t| {
            paragraphs(
                t,
                &[
                    "case `payload_identity` of `redis`",
                    "case `simple-queue` of `redis_layout`",
                ],
                None,
            )
        },
        ..BASE
    },
    // The examples that write come last: every example runs in this order, in one world.
    Example {
        name: "release",
        cwd: Cwd::Conformance,
        args: &["release"],
        ..BASE
    },
    Example {
        name: "sha256sums",
        cwd: Cwd::Conformance,
        args: &["release", "--out", "{tmp}/sums"],
        shows: Shows::File("{tmp}/sums/SHA256SUMS"),
        ..BASE
    },
    Example {
        name: "fetch-update",
        cwd: Cwd::Sdk,
        mirror: true,
        args: &["fetch", "--update", "1.8.0", "tests/conformance"],
        filter: |t| paragraphs(t, &[], None),
        ..BASE
    },
];

impl Example {
    fn cwd(&self, world: &World) -> PathBuf {
        let base = match self.cwd {
            Cwd::Repo => root().to_path_buf(),
            Cwd::Conformance => world.conformance(),
            Cwd::Python => world.ws().join("babelqueue-python"),
            Cwd::Sdk => world.root().join("sdk"),
            Cwd::Broken => world.root().join("broken"),
            Cwd::Idle => world.root().join("idle"),
        };
        match self.cd {
            Some(dir) => base.join(dir),
            None => base,
        }
    }

    /// The command line as the docs show it (after `$ `).
    fn shown(&self) -> String {
        let mut line = String::new();
        if let Some(dir) = self.cd {
            line.push_str(&format!("cd {dir} && "));
        }
        if self.mirror {
            line.push_str(&format!("BQ_CONFORMANCE_BASE_URL=file://{MIRROR} "));
        }
        line.push_str("bqsuite");
        for arg in self.args {
            line.push(' ');
            line.push_str(&arg.replace("{tmp}", TMP));
        }
        if let Some(pipe) = self.pipe {
            line.push_str(" | ");
            line.push_str(pipe);
        }
        line
    }

    /// Runs the example and returns the block's content, normalised.
    fn run(&self, world: &World) -> String {
        let tmp = world.root().to_str().unwrap();
        let mut cmd = kit::command();
        cmd.args(self.args.iter().map(|a| a.replace("{tmp}", tmp)))
            .current_dir(self.cwd(world));
        if self.mirror {
            cmd.env(
                "BQ_CONFORMANCE_BASE_URL",
                format!("file://{}", world.root().join("mirror").display()),
            );
        }
        if self.github {
            cmd.env("GITHUB_WORKSPACE", self.cwd(world));
        }
        // One file for both streams keeps them in the order they were written.
        let log = world.root().join(format!("{}.log", self.name));
        let file = fs::File::create(&log).unwrap();
        cmd.stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file));
        let summary = world.root().join(format!("{}.summary.md", self.name));
        match self.shows {
            Shows::Output | Shows::File(_) => {}
            Shows::Stdout => {
                cmd.stderr(Stdio::null());
            }
            Shows::StepSummary => {
                fs::write(&summary, "").unwrap();
                cmd.env("GITHUB_STEP_SUMMARY", &summary)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null());
            }
        }
        let status = cmd.status().expect("run bqsuite");
        assert!(
            status.code().is_some_and(|c| c <= 2),
            "{}: bqsuite ended with {status}",
            self.name
        );
        let printed = match self.shows {
            Shows::Output | Shows::Stdout => fs::read_to_string(&log).unwrap(),
            Shows::StepSummary => fs::read_to_string(&summary).unwrap(),
            Shows::File(path) => fs::read_to_string(path.replace("{tmp}", tmp)).unwrap(),
        };
        let printed = world.normalise(&printed);
        let shown = (self.filter)(&printed);
        let body: String = shown
            .lines()
            .map(|l| l.trim_end().to_string() + "\n")
            .collect();
        match self.shows {
            Shows::Output | Shows::Stdout => format!("$ {}\n{body}", self.shown()),
            Shows::StepSummary | Shows::File(_) => body,
        }
    }
}

#[test]
fn report_examples_are_real_output() {
    let bless = std::env::var_os("BQSUITE_BLESS").is_some();
    let world = World::build();
    // Every example runs, in the order of EXAMPLES (those that write come last), whichever
    // Markdown file shows it first.
    let outputs: BTreeMap<&str, String> =
        EXAMPLES.iter().map(|e| (e.name, e.run(&world))).collect();
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut failures = Vec::new();

    for file in doc_files() {
        let text = fs::read_to_string(&file).unwrap();
        let found = blocks(&text, &rel(&file));
        for line in unmarked_reports(&text, &found) {
            failures.push(format!(
                "{}:{line}: a report example outside <!-- example: NAME --> … <!-- /example -->; \
                 add it to tests/cli/docs/examples.rs and mark it, so it is generated",
                rel(&file)
            ));
        }
        let mut rewritten = text.clone();
        // Back to front, so earlier ranges stay valid while rewriting.
        for block in found.iter().rev() {
            used.insert(block.name.clone());
            let Some(example) = EXAMPLES.iter().find(|e| e.name == block.name) else {
                failures.push(format!(
                    "{}: unknown example `{}` (tests/cli/docs/examples.rs defines: {})",
                    rel(&file),
                    block.name,
                    EXAMPLES
                        .iter()
                        .map(|e| e.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                continue;
            };
            let want = &outputs[example.name];
            assert!(
                !want.contains(&block.fence),
                "example `{}` prints {}: use a longer fence",
                example.name,
                block.fence
            );
            let have = &text[block.content.clone()];
            if have != want {
                if bless {
                    rewritten.replace_range(block.content.clone(), want);
                } else {
                    let diff = similar::TextDiff::from_lines(have, want.as_str())
                        .unified_diff()
                        .header("in the docs", "bqsuite prints")
                        .to_string();
                    failures.push(format!(
                        "{}: example `{}` is not what bqsuite prints:\n{diff}",
                        rel(&file),
                        example.name
                    ));
                }
            }
        }
        if bless && rewritten != text {
            fs::write(&file, rewritten).unwrap();
        }
    }
    for example in EXAMPLES {
        if !used.contains(example.name) {
            failures.push(format!(
                "example `{}` is shown in no Markdown file: mark a block with <!-- example: {} -->, \
                 or drop it from tests/cli/docs/examples.rs",
                example.name, example.name
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nregenerate the examples with `docs/examples.sh` \
         (`BQSUITE_BLESS=1 cargo test --release --locked --test cli docs::examples`), then review \
         the rewritten blocks with `git diff`",
        failures.join("\n\n")
    );
}
