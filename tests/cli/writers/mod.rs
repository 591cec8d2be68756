//! Writing a vendored copy, with real processes: one writer per copy (`fetch`'s writing modes and
//! `sync` take a lock beside the copy; a second writer waits or is turned away naming the first; a
//! check gives no verdict on a copy being written), the whole write planned before its first byte
//! (anything in the way leaves the copy untouched), and what a killed writer leaves behind (its
//! lock and its marked staging directory, taken over and removed by the next run; a look-alike
//! directory is never touched).
#![cfg(target_os = "linux")]

mod killed;
mod locks;
mod plan;

use std::fs;
use std::path::PathBuf;
use std::process::{Child, Output};

use crate::kit::writers::{self, next_release};
use crate::kit::*;

/// A workspace of SDK checkouts (`ws/<sdk>/tests/conformance`), a file:// mirror of the bundled
/// suite's release, and one of the next release (the bundled suite one patch version on).
struct Scene {
    dir: tempfile::TempDir,
    mirror: String,
    next: String,
    next_mirror: PathBuf,
}

impl Scene {
    fn new() -> Scene {
        let dir = tempfile::tempdir().unwrap();
        released(&bundled_suite(), &dir.path().join("mirror"));
        let (next, next_mirror) = next_release(dir.path());
        fs::create_dir_all(dir.path().join("ws")).unwrap();
        Scene {
            mirror: file_url(&dir.path().join("mirror")),
            dir,
            next,
            next_mirror,
        }
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// The copy of SDK `sdk`, as a path from the workspace.
    fn rel(sdk: &str) -> String {
        format!("{sdk}/tests/conformance")
    }

    fn copy(&self, sdk: &str) -> PathBuf {
        self.ws().join(Scene::rel(sdk))
    }

    /// Vendors the real published 1.0.0 into `sdk`, with a file of the SDK's own beside it.
    fn old_copy(&self, sdk: &str) {
        let copy = self.copy(sdk);
        copy_tree(&real_release("1.0.0"), &copy);
        fs::write(copy.join("ConformanceTest.php"), "<?php // the SDK's\n").unwrap();
    }

    /// The version a copy claims (its CONFORMANCE_VERSION), `None` without one.
    fn version_of(&self, sdk: &str) -> Option<String> {
        fs::read_to_string(self.copy(sdk).join("CONFORMANCE_VERSION"))
            .ok()
            .map(|v| v.trim().to_string())
    }

    /// bqsuite in the workspace, with the bundled release's mirror (or `base`).
    fn run(&self, args: &[&str], base: Option<&str>) -> Output {
        run_in(
            &self.ws(),
            args,
            &[("BQ_CONFORMANCE_BASE_URL", base.unwrap_or(&self.mirror))],
        )
    }

    /// [`Scene::run`] in the background.
    fn spawn(&self, args: &[&str], base: Option<&str>) -> Child {
        writers::spawn_in(
            &self.ws(),
            args,
            &[("BQ_CONFORMANCE_BASE_URL", base.unwrap_or(&self.mirror))],
        )
    }

    /// `sync` of the bundled suite into the copies of `sdks`, then `extra`.
    fn sync_args(&self, sdks: &[&str], extra: &[&str]) -> Vec<String> {
        let targets = self.dir.path().join("targets.txt");
        let lines: Vec<String> = sdks.iter().map(|s| Scene::rel(s) + "\n").collect();
        fs::write(&targets, lines.concat()).unwrap();
        sync_args(&bundled_suite(), &self.ws(), &targets, extra)
    }
}
