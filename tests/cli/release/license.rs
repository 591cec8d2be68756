//! Where a release's LICENSE comes from: the suite's own licence (LICENSE in the suite
//! directory, else LICENSE-<name> beside it), never the repository's (the tool's) LICENSE.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{assert_refused, release_ok, release_with, root_name, run};
use crate::kit::s as p;
use crate::kit::tarball::asset_name;
use crate::kit::*;

#[test]
fn missing_license_is_refused() {
    // Neither the suite directory's LICENSE nor LICENSE-suite beside it.
    let s = SuiteCopy::new();
    fs::remove_file(s.dir.path().join(SUITE_LICENSE)).unwrap();
    assert_refused(&s.path(), &[], "missing-license");
}

/// The repository's LICENSE: the tool's, never packed into a suite's release.
fn tool_license() -> PathBuf {
    root().join("LICENSE")
}

/// The LICENSE in an unpacked asset of `suite`.
fn packed_license(suite: &Path) -> Vec<u8> {
    let out = tempfile::tempdir().unwrap();
    release_ok(suite, out.path());
    let unpack = tempfile::tempdir().unwrap();
    run(Command::new("tar")
        .arg("-xzf")
        .arg(out.path().join(asset_name(&bundled_version())))
        .arg("-C")
        .arg(unpack.path()));
    fs::read(
        unpack
            .path()
            .join(root_name(&bundled_version()))
            .join("LICENSE"),
    )
    .unwrap()
}

#[test]
fn the_bundled_suites_asset_carries_the_suites_licence_as_the_real_releases_do() {
    // Released from the repository itself: suite/ with LICENSE-suite and the tool's LICENSE beside.
    let license = packed_license(Path::new("suite"));
    assert_eq!(license, fs::read(suite_license()).unwrap());
    assert_ne!(license, fs::read(tool_license()).unwrap());
    // The licence the published assets carry (the babelqueue package's).
    let real = data("real-releases/LICENSE-babelqueue-python");
    assert_eq!(license, fs::read(real).unwrap());
}

#[test]
fn the_tools_licence_beside_a_suite_is_never_packed() {
    let s = SuiteCopy::new();
    fs::remove_file(s.dir.path().join(SUITE_LICENSE)).unwrap();
    fs::copy(tool_license(), s.dir.path().join("LICENSE")).unwrap();
    assert_refused(&s.path(), &[], "missing-license");
    let out = tempfile::tempdir().unwrap();
    let o = release_with(&[p(&s.path()), "--out", p(out.path())], None);
    let text = stdout(&o);
    assert!(
        text.contains("neither LICENSE nor ../LICENSE-suite exists"),
        "{text}"
    );
    assert!(text.contains("or as LICENSE-suite beside it"), "{text}");
}

#[test]
fn a_suite_directory_of_another_name_takes_its_licence_from_beside_it() {
    let s = SuiteCopy::new();
    let other = s.dir.path().join("sbp");
    fs::rename(s.path(), &other).unwrap();
    fs::write(
        s.dir.path().join("LICENSE-sbp"),
        "the sbp suite's licence\n",
    )
    .unwrap();
    assert_eq!(packed_license(&other), b"the sbp suite's licence\n");
}

#[test]
fn license_in_the_suite_directory_is_used() {
    let s = SuiteCopy::new();
    s.write("LICENSE", "Custom license text\n");
    assert_eq!(packed_license(&s.path()), b"Custom license text\n");
}
