//! `eval --out` writes only a new or regular file, or standard output for `-`: never through a
//! symbolic link, into a FIFO or over a device.

use std::fs;

use crate::kit;
use crate::kit::{bqsuite, code, stderr, stdout};

#[test]
fn out_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = kit::bqsuite_in(
        dir.path(),
        &["eval", kit::bundled_suite().to_str().unwrap(), "--out", "-"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(doc.get("sections").is_some());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no file `-`");
}

#[test]
fn out_regular_file_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("results.json");
    fs::write(&target, "old").unwrap();
    let out = bqsuite(&["eval", "--out", target.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains("\"sections\"")
    );
}

#[cfg(unix)]
#[test]
fn out_refuses_a_symbolic_link_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    fs::write(&victim, "keep").unwrap();
    let link = dir.path().join("results.json");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let out = bqsuite(&["eval", "--out", link.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let message = doc["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("symbolic link"), "{doc}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary left"
    );
}

#[cfg(unix)]
#[test]
fn out_refuses_a_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("results.json");
    kit::mkfifo(&fifo);
    let out = bqsuite(&["eval", "--out", fifo.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("FIFO"), "{err}");
    assert!(!err.contains("os error"), "{err}");
    assert!(
        !fs::symlink_metadata(&fifo).unwrap().is_file(),
        "the FIFO stays"
    );
}

#[cfg(unix)]
#[test]
fn out_refuses_a_device() {
    let out = bqsuite(&["eval", "--out", "/dev/null"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("/dev/null") && err.contains("device"), "{err}");
    let kind = fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(!kind.is_file());
}
