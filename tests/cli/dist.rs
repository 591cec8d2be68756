//! What the release binaries are built with, checked without building them: the `dist` profile
//! (`cargo build --profile dist --locked`) keeps its size settings, and the lock file holds no
//! aws-lc (rustls runs on ring, so building needs no CMake).

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
