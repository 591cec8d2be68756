//! The whole write planned before its first byte: a directory where the release has a file, or a
//! file where it has a directory, anywhere in the copy, refuses the copy with it untouched.

use std::fs;

use serde_json::Value;

use super::Scene;
use crate::kit::writers::assert_unchanged;
use crate::kit::*;

/// Makes `rel` under `copy` something the release does not have there: a directory (holding a
/// file of the user's) where the release has a file, or a file where it has a directory.
fn plant(copy: &std::path::Path, rel: &str, release_has_file: bool) {
    let path = copy.join(rel);
    if release_has_file {
        let _ = fs::remove_file(&path);
        fs::create_dir_all(&path).unwrap();
        fs::write(path.join("mine.txt"), "the user's").unwrap();
    } else {
        let _ = fs::remove_dir_all(&path);
        fs::write(&path, "the user's").unwrap();
    }
}

#[test]
fn a_type_conflict_anywhere_is_refused_before_any_write() {
    let scene = Scene::new();
    let v = bundled_version();
    let rel = Scene::rel("sdk");
    // The last fixture of the release (a write that would come late), its version file (written
    // last) and its schema directory.
    let last_fixture = files(&bundled_suite())
        .into_keys()
        .rfind(|p| p.starts_with("fixtures/"))
        .unwrap();
    for (inside, release_has_file) in [
        (last_fixture.as_str(), true),
        ("CONFORMANCE_VERSION", true),
        ("schema", false),
    ] {
        let _ = fs::remove_dir_all(scene.ws().join("sdk"));
        scene.old_copy("sdk");
        plant(&scene.copy("sdk"), inside, release_has_file);
        let before = snapshot(&scene.ws());

        let out = scene.run(&["fetch", "--update", &v, &rel], None);
        assert_eq!(code(&out), 2, "{inside}: {}{}", stdout(&out), stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{rel}/{inside}")) && err.contains("nothing was written"),
            "{inside}: {err}"
        );
        let after = snapshot(&scene.ws());
        assert_unchanged(&before, &after, &format!("fetch --update wrote ({inside})"));

        let out = bqsuite(&scene.sync_args(&["sdk"], &["--format", "json"]));
        let doc: Value = json(&out);
        assert_eq!(code(&out), 1, "{doc:#}");
        assert_eq!(row(&doc, &rel)["status"], "error", "{doc:#}");
        let found = findings(&doc, "sync-conflict");
        assert_eq!(found.len(), 1, "{doc:#}");
        assert!(
            found[0]["message"].as_str().unwrap().contains(inside),
            "{doc:#}"
        );
        assert_unchanged(
            &before,
            &snapshot(&scene.ws()),
            &format!("sync wrote ({inside})"),
        );
    }
}
