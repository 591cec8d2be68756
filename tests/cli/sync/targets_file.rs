//! The sync targets file is untrusted input: a BOM does not hide the first target, only a bounded
//! regular file is read, bidirectional characters and targets inside the canonical suite are
//! refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::kit;
use crate::kit::*;

/// A workspace `<tmp>/ws` with SDK repository `sdk` and the canonical suite copied to
/// `<tmp>/ws/conformance/suite`.
struct Ws {
    dir: tempfile::TempDir,
}

impl Ws {
    fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("ws/sdk/tests")).unwrap();
        copy_tree(&bundled_suite(), &dir.path().join("ws/conformance/suite"));
        Ws { dir }
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    fn suite(&self) -> PathBuf {
        self.ws().join("conformance/suite")
    }

    fn targets(&self, bytes: &[u8]) -> PathBuf {
        let path = self.dir.path().join("targets.txt");
        fs::write(&path, bytes).unwrap();
        path
    }

    fn sync(&self, targets: &Path, extra: &[&str]) -> Output {
        bqsuite(&sync_args(&self.suite(), &self.ws(), targets, extra))
    }
}

#[test]
fn a_byte_order_mark_does_not_hide_the_first_target() {
    let w = Ws::new();
    // The only target is not vendored: the check must be red, not green.
    let targets = w.targets(b"\xef\xbb\xbfsdk/tests/conformance\n");
    let out = w.sync(&targets, &["--check"]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("not-vendored"), "{}", stdout(&out));
    // And sync writes it.
    let out = w.sync(&targets, &[]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(w.ws().join("sdk/tests/conformance/manifest.json").is_file());
}

#[cfg(unix)]
#[test]
fn only_a_bounded_regular_targets_file_is_read() {
    let w = Ws::new();
    for special in ["/dev/zero", "/dev/null"] {
        let out = w.sync(Path::new(special), &["--check"]);
        assert_eq!(code(&out), 2, "{special}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
    }
    let fifo = w.dir.path().join("fifo");
    kit::mkfifo(&fifo);
    let out = w.sync(&fifo, &["--check", "--format", "json"]);
    assert_eq!(code(&out), 2);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        doc["error"]["message"].as_str().unwrap().contains("FIFO"),
        "{doc}"
    );
    let big = w.targets(&vec![b'#'; 2 * 1024 * 1024]);
    let out = w.sync(&big, &["--check"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("larger than"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
}

#[test]
fn bidirectional_characters_in_a_target_are_refused() {
    let w = Ws::new();
    let targets = w.targets("sdk/tests/conf\u{202e}ecnamro\n".as_bytes());
    let out = w.sync(&targets, &["--check", "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("sync-bad-target"), "{text}");
    assert!(!text.contains('\u{202e}'), "{text}");
    let out = w.sync(&targets, &[]);
    assert_eq!(code(&out), 1);
    assert_eq!(fs::read_dir(w.ws().join("sdk/tests")).unwrap().count(), 0);
}

#[test]
fn a_target_inside_the_canonical_suite_is_refused_and_not_written() {
    let w = Ws::new();
    let before: Vec<_> = walkdir::WalkDir::new(w.suite())
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    let targets = w.targets(b"conformance/suite/fixtures/copy\nsdk/tests/conformance\n");
    let out = w.sync(&targets, &[]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("sync-bad-target") && text.contains("inside the canonical suite"),
        "{text}"
    );
    let after: Vec<_> = walkdir::WalkDir::new(w.suite())
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    assert_eq!(before, after, "the suite was written into");
    // The other target was still synced.
    assert!(w.ws().join("sdk/tests/conformance/manifest.json").is_file());
}
