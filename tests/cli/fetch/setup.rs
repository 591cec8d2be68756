//! The fixture the fetch tests share: a file:// mirror holding the release of the bundled
//! suite, and an SDK checkout beside it, where bqsuite runs.

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use crate::kit::*;

/// A file:// mirror holding the release of the bundled suite, and an SDK checkout beside it.
pub struct Setup {
    pub dir: tempfile::TempDir,
}

impl Setup {
    pub fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        released(&bundled_suite(), &dir.path().join("mirror"));
        fs::create_dir_all(dir.path().join("sdk")).unwrap();
        Setup { dir }
    }

    /// [`Setup::new`], with `tests/conformance` a copy of the bundled suite's vendored set.
    pub fn vendored() -> Setup {
        let setup = Setup::new();
        vendor_set(&bundled_suite(), &setup.copy());
        setup
    }

    pub fn mirror_url(&self) -> String {
        file_url(&self.dir.path().join("mirror"))
    }

    pub fn sdk(&self) -> PathBuf {
        self.dir.path().join("sdk")
    }

    pub fn copy(&self) -> PathBuf {
        self.sdk().join("tests/conformance")
    }

    /// Vendors the real published 1.0.0 (tests/data/real-releases/1.0.0) with the SDK's own
    /// files beside it.
    pub fn old_copy(&self) {
        let copy = self.copy();
        copy_tree(&real_release("1.0.0"), &copy);
        fs::write(
            copy.join("ConformanceTest.php"),
            "<?php // the SDK's runner\n",
        )
        .unwrap();
        fs::write(copy.join("LICENSE"), "the SDK's copy of the licence\n").unwrap();
    }

    /// Runs bqsuite in the SDK checkout with the mirror as the release location.
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    /// [`Setup::run`], with more environment variables.
    pub fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let url = self.mirror_url();
        let mut all_env = vec![("BQ_CONFORMANCE_BASE_URL", url.as_str())];
        all_env.extend_from_slice(env);
        run_in(&self.sdk(), args, &all_env)
    }

    /// `fetch --check VERSION tests/conformance` in the SDK checkout, then `extra`.
    pub fn check(&self, extra: &[&str], env: &[(&str, &str)]) -> Output {
        let version = bundled_version();
        let mut args = vec!["fetch", "--check", &version, "tests/conformance"];
        args.extend_from_slice(extra);
        self.run_with(&args, env)
    }
}
