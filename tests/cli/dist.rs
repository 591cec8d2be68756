//! What the release binaries are built with, checked without building them: the `dist` profile
//! (`cargo build --profile dist --locked`) keeps its size settings; the lock file holds no aws-lc
//! (rustls runs on ring, so building needs no CMake); and the size budget is checked by one
//! script, .github/scripts/binary-size.sh, which ci.yml runs on every push and release.yml on
//! every Linux binary it publishes.

use std::fs;

use crate::kit::root;

fn read(name: &str) -> String {
    fs::read_to_string(root().join(name)).unwrap()
}

/// The `key = value` lines of the `[name]` table of a TOML file (comments dropped).
fn table(toml: &str, name: &str) -> Vec<(String, String)> {
    let header = format!("[{name}]");
    let mut lines = toml.lines().skip_while(|l| l.trim() != header);
    assert!(lines.next().is_some(), "no {header}");
    lines
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter_map(|l| {
            let l = l.split('#').next().unwrap().trim();
            let (k, v) = l.split_once('=')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

#[test]
fn the_dist_profile_keeps_its_size_settings() {
    let profile = table(&read("Cargo.toml"), "profile.dist");
    for (key, value) in [
        ("inherits", "\"release\""),
        ("lto", "\"fat\""),
        ("codegen-units", "1"),
        ("strip", "true"),
        ("panic", "\"abort\""),
        // Fat LTO optimises the whole program at this level: "s" here costs release ~15%.
        ("opt-level", "3"),
    ] {
        assert!(
            profile.iter().any(|(k, v)| k == key && v == value),
            "[profile.dist] must set {key} = {value}: {profile:?}"
        );
    }
}

#[test]
fn the_dist_profile_sizes_the_dependencies_off_the_hot_path() {
    let toml = read("Cargo.toml");
    // What keeps the Linux binaries within 9.5 MiB (10.8 MiB with every crate of ours at 3 and
    // jsonschema instantiated twice).
    assert_eq!(
        table(&toml, "profile.dist.package.\"*\""),
        [("opt-level".to_string(), "\"z\"".to_string())]
    );
    // The crate that instantiates jsonschema's validators: about 1 MiB less at "s".
    assert_eq!(
        table(&toml, "profile.dist.package.bqsuite-eval"),
        [("opt-level".to_string(), "\"s\"".to_string())]
    );
    // The crates release and validate spend their time in stay at full speed.
    for hot in ["zlib-rs", "serde_json", "indexmap", "hashbrown", "sha2"] {
        assert_eq!(
            table(&toml, &format!("profile.dist.package.{hot}")),
            [("opt-level".to_string(), "3".to_string())],
            "{hot}"
        );
    }
    // Fat LTO optimises the whole program at the level of the binary's package: set lower, it
    // would take the vector code out of deflate (release ~18% slower).
    for package in ["bqsuite", "\"bqsuite\""] {
        assert!(
            !toml.contains(&format!("[profile.dist.package.{package}]")),
            "the bqsuite package must stay at the profile's opt-level 3"
        );
    }
}

#[test]
fn jsonschema_validators_are_built_in_one_place() {
    // Generic code is compiled into every crate that instantiates it: a second place that builds
    // a validator adds a copy of all of jsonschema's validators to the binary (about 1 MiB).
    let mut users = Vec::new();
    for dir in ["src", "crates"] {
        for (path, text) in crate::kit::source::program_files(dir) {
            if text.contains("jsonschema::") || text.contains("use jsonschema") {
                users.push(path);
            }
        }
    }
    assert_eq!(
        users,
        ["crates/eval/src/schema.rs"],
        "compile schemas through bqsuite_eval::schema::compile"
    );
}

/// The `name = "..."` of every package in Cargo.lock.
fn locked_packages() -> Vec<String> {
    read("Cargo.lock")
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .map(|n| n.trim_end_matches('"').to_string())
        .collect()
}

#[test]
fn the_lock_file_has_no_aws_lc_and_no_cmake() {
    let packages = locked_packages();
    assert!(packages.len() > 50, "{packages:?}");
    // The scan reads the file right: what must be there is.
    for present in ["rustls", "ring", "reqwest"] {
        assert!(
            packages.iter().any(|p| p == present),
            "{present} not locked"
        );
    }
    for absent in ["aws-lc-sys", "aws-lc-rs", "cmake"] {
        assert!(
            !packages.iter().any(|p| p == absent),
            "{absent} is in Cargo.lock; reqwest must use `rustls-no-provider` with rustls on ring"
        );
    }
}

/// The jobs of a workflow: (name, its lines), for the jobs under `jobs:` (two-space keys).
fn jobs(workflow: &str) -> Vec<(String, Vec<&str>)> {
    let mut jobs: Vec<(String, Vec<&str>)> = Vec::new();
    let mut inside = false;
    for line in workflow.lines() {
        if line == "jobs:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        let key = line
            .strip_prefix("  ")
            .filter(|rest| !rest.starts_with(' ') && !rest.starts_with('#'))
            .and_then(|rest| rest.strip_suffix(':'));
        match key {
            Some(name) => jobs.push((name.to_string(), Vec::new())),
            None => {
                if let Some((_, lines)) = jobs.last_mut() {
                    lines.push(line);
                }
            }
        }
    }
    jobs
}

const SIZE_SCRIPT: &str = ".github/scripts/binary-size.sh";

#[test]
fn ci_checks_the_dist_binary_size_on_every_push() {
    let ci = read(".github/workflows/ci.yml");
    let triggers: Vec<&str> = ci
        .lines()
        .skip_while(|l| *l != "on:")
        .skip(1)
        .take_while(|l| l.starts_with(' ') || l.is_empty())
        .collect();
    assert!(
        triggers.iter().any(|l| l.trim() == "push:"),
        "ci.yml does not run on push: {triggers:?}"
    );
    let all = jobs(&ci);
    assert!(
        all.len() >= 5,
        "{:?}",
        all.iter().map(|j| &j.0).collect::<Vec<_>>()
    );
    let (name, lines) = all
        .iter()
        .find(|(_, lines)| lines.iter().any(|l| l.contains(SIZE_SCRIPT)))
        .unwrap_or_else(|| panic!("no job of ci.yml runs {SIZE_SCRIPT}"));
    // The job runs on every push: no condition of its own.
    assert!(
        !lines.iter().any(|l| l.starts_with("    if:")),
        "ci.yml's {name} job has a condition: {lines:#?}"
    );
    let build = lines
        .iter()
        .position(|l| l.contains("cargo build --profile dist --locked"))
        .unwrap_or_else(|| panic!("ci.yml's {name} job does not build the dist profile"));
    let check = lines
        .iter()
        .position(|l| l.contains(&format!("bash {SIZE_SCRIPT} target/dist/bqsuite")))
        .unwrap_or_else(|| panic!("ci.yml's {name} job does not check target/dist/bqsuite"));
    assert!(
        build < check,
        "{name}: the size is checked before the build"
    );
}

#[test]
fn release_checks_each_linux_binary_with_the_same_script() {
    let release = read(".github/workflows/release.yml");
    let step = release
        .split("\n      - name: ")
        .find(|step| step.contains(SIZE_SCRIPT))
        .unwrap_or_else(|| panic!("release.yml does not run {SIZE_SCRIPT}"));
    assert!(step.contains("if: runner.os == 'Linux'"), "{step}");
    assert!(
        step.contains(&format!(
            "bash {SIZE_SCRIPT} \"target/$TARGET/dist/bqsuite\""
        )),
        "{step}"
    );
    // No second, inline budget that could drift from the script's.
    assert!(
        !release.contains("stat -c %s"),
        "release.yml measures a size itself"
    );
}

/// Runs the size script on a file of `bytes` bytes, with `budget` if given.
fn size_check(bytes: u64, budget: Option<&str>) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("bqsuite");
    fs::File::create(&binary).unwrap().set_len(bytes).unwrap();
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(root().join(SIZE_SCRIPT))
        .arg(&binary)
        .env_remove("GITHUB_ACTIONS");
    if let Some(budget) = budget {
        cmd.arg(budget);
    }
    cmd.output().unwrap()
}

#[test]
fn the_size_script_passes_within_fails_over_and_cannot_run_without_a_file() {
    use crate::kit::{code, stderr, stdout};
    // The default budget is 9.5 MiB: 9,961,472 bytes pass, one more fails.
    let at = size_check(9_961_472, None);
    assert_eq!(code(&at), 0, "{}{}", stdout(&at), stderr(&at));
    assert!(
        stdout(&at).contains("9961472 bytes (9.50 MiB); budget: 9961472 bytes (9.50 MiB)"),
        "{}",
        stdout(&at)
    );
    let over = size_check(9_961_473, None);
    assert_eq!(code(&over), 1, "{}{}", stdout(&over), stderr(&over));
    assert!(
        stderr(&over).contains("1 bytes over its budget of 9961472 bytes")
            && stderr(&over).contains("[profile.dist] in Cargo.toml"),
        "{}",
        stderr(&over)
    );
    // A budget given on the command line.
    assert_eq!(code(&size_check(2000, Some("1999"))), 1);
    assert_eq!(code(&size_check(2000, Some("2000"))), 0);
    let bad = size_check(2000, Some("9.5MiB"));
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("is not a number of bytes"),
        "{}",
        stderr(&bad)
    );
    // No such file: it could not check (2), and says how to build one.
    let missing = std::process::Command::new("bash")
        .arg(root().join(SIZE_SCRIPT))
        .arg("target/no-such-profile/bqsuite")
        .output()
        .unwrap();
    assert_eq!(code(&missing), 2);
    assert!(
        stderr(&missing).contains("`cargo build --profile dist --locked`"),
        "{}",
        stderr(&missing)
    );
}
