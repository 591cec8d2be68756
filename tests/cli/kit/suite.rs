//! A private copy of the bundled suite that a test may break, and JSON edits on it. Also compiled
//! into the memory binary (tests/memory), so everything here is used by both.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The bundled canonical suite.
pub fn bundled_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("suite")
}

/// The suite's own licence, beside `suite/` (what a release of it carries as LICENSE).
pub fn suite_license() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_LICENSE)
}

/// The name of the bundled suite's licence file, beside `suite/`.
pub const SUITE_LICENSE: &str = "LICENSE-suite";

/// Copies a directory tree (regular files and directories only).
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temporary copy of the bundled suite that a test may break. It mirrors the repository's
/// layout: `<dir>/suite/` with the repository's LICENSE beside it, so the copy can be released.
pub struct SuiteCopy {
    pub dir: tempfile::TempDir,
}

impl SuiteCopy {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&bundled_suite(), &dir.path().join("suite"));
        fs::copy(suite_license(), dir.path().join(SUITE_LICENSE)).unwrap();
        SuiteCopy { dir }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("suite")
    }

    pub fn file(&self, rel: &str) -> PathBuf {
        self.path().join(rel)
    }

    pub fn read_json(&self, rel: &str) -> Value {
        serde_json::from_str(&fs::read_to_string(self.file(rel)).unwrap()).unwrap()
    }

    pub fn write_json(&self, rel: &str, value: &Value) {
        let mut text = serde_json::to_string_pretty(value).unwrap();
        text.push('\n');
        fs::write(self.file(rel), text).unwrap();
    }

    /// Edits a JSON file of the copy in place.
    pub fn edit_json(&self, rel: &str, edit: impl FnOnce(&mut Value)) {
        let mut value = self.read_json(rel);
        edit(&mut value);
        self.write_json(rel, &value);
    }

    /// Edits manifest.json in place.
    pub fn edit_manifest(&self, edit: impl FnOnce(&mut Value)) {
        self.edit_json("manifest.json", edit);
    }

    pub fn write(&self, rel: &str, text: &str) {
        fs::write(self.file(rel), text).unwrap();
    }
}
