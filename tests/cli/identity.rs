//! One identity for what this repository releases: the release tagged `vX.Y.Z` carries suite
//! X.Y.Z and bqsuite X.Y.Z, built from the same commit. Between releases the source carries the
//! next version with `-dev`, never one behind the suite it holds, and the release workflow stops
//! a tag that is not `v` + bqsuite's own version.

use std::fs;

use semver::Version;

use crate::kit::*;

/// bqsuite's version, as the package declares it.
fn tool_version() -> Version {
    Version::parse(env!("CARGO_PKG_VERSION")).unwrap()
}

#[test]
fn the_binary_says_its_version_and_the_suite_it_carries() {
    let out = bqsuite(&["--version"]);
    assert_eq!(code(&out), 0);
    let suite = bundled_version();
    assert_eq!(
        stdout(&out).trim(),
        format!(
            "bqsuite {} (conformance suite {suite})",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn the_tools_version_is_the_suites_release_or_the_next_one_in_development() {
    let tool = tool_version();
    let suite = Version::parse(&bundled_version()).unwrap();
    let mut released = tool.clone();
    released.pre = semver::Prerelease::EMPTY;
    assert!(
        tool.pre.is_empty() || tool.pre.as_str() == "dev",
        "bqsuite {tool}: between releases the version is the next release's, with `-dev`"
    );
    if tool.pre.is_empty() {
        assert_eq!(
            released, suite,
            "a released bqsuite carries the suite of its own version"
        );
    } else {
        // The suite may already hold the version being prepared (adopted, not yet tagged).
        assert!(
            released >= suite,
            "bqsuite {tool} is behind the suite it carries ({suite}): set the next release's \
             version with -dev under [workspace.package] in Cargo.toml"
        );
    }
}

#[test]
fn the_release_workflow_stops_a_tag_that_is_not_the_tools_version() {
    let release = fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let asset = release
        .split("\n  asset:\n")
        .nth(1)
        .expect("release.yml has an `asset` job");
    let asset = asset.split("\n  binaries:\n").next().unwrap();
    let check = asset
        .find("bqsuite --version")
        .expect("the asset job compares the tag with `bqsuite --version`");
    let release_step = asset
        .find("bqsuite release suite --out dist --tag")
        .expect("the asset job releases the suite with --tag");
    assert!(check < release_step, "the version check comes first");
    assert!(asset[check..release_step].contains("exit 1"), "{asset}");
}
