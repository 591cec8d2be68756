//! What a writer killed with SIGKILL leaves, and the next run: its lock is free and taken over,
//! its staging directory (marked as bqsuite's) is removed, a directory that only looks like one
//! is kept, and a copy killed half-way is never green until one rerun has recovered it.

use std::fs;
use std::path::Path;
use std::time::Duration;

use super::Scene;
use crate::kit::writers::{HeldMirror, finish, lock_file, wait_for_lock};
use crate::kit::*;

/// A pid no process has.
fn dead_pid() -> u32 {
    (1..u32::MAX / 2)
        .map(|i| 4_000_000 + i)
        .find(|p| !Path::new(&format!("/proc/{p}")).exists())
        .unwrap()
}

#[test]
fn a_lock_and_staging_left_by_a_killed_writer_are_recovered_and_look_alikes_kept() {
    let scene = Scene::new();
    scene.old_copy("sdk");
    let rel = Scene::rel("sdk");
    let copy = scene.copy("sdk");
    let parent = copy.parent().unwrap().to_path_buf();
    let held = HeldMirror::of(&scene.next_mirror);
    let mut killed = scene.spawn(&["fetch", "--update", &scene.next, &rel], Some(held.base()));
    wait_for_lock(&copy, killed.id());
    held.wait_for_download();
    let staging = format!(".conformance.fetch-{}-", killed.id());
    killed.kill().unwrap();
    killed.wait().unwrap();
    // What it left: its lock file and its staging directory.
    assert!(lock_file(&copy).exists());
    assert!(
        names(&parent).iter().any(|n| n.starts_with(&staging)),
        "{:?}",
        names(&parent)
    );
    // A user's directory shaped like a staging directory of a dead process, without the marker.
    let look_alike = parent.join(format!(".conformance.fetch-{}-0", dead_pid()));
    fs::create_dir_all(look_alike.join("tree")).unwrap();
    fs::write(look_alike.join("asset.tar.gz"), "mine").unwrap();
    let kept = snapshot(&look_alike);

    // A check is not told the copy is being written: nobody writes it.
    let v = bundled_version();
    let out = scene.run(&["fetch", "--check", &v, &rel], None);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(!stderr(&out).contains("being written"), "{}", stderr(&out));

    // The next writer takes the lock over at once and removes the killed run's staging.
    let out = scene.run(&["fetch", "--update", &v, &rel, "--lock-wait", "0"], None);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let look_alike_name = look_alike
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(
        names(&parent),
        [look_alike_name, "conformance".to_string()],
        "left beside the copy"
    );
    assert_eq!(snapshot(&look_alike), kept, "a look-alike was touched");
    assert_eq!(code(&scene.run(&["fetch", "--check", &v, &rel], None)), 0);
}

#[test]
fn a_write_killed_at_any_moment_is_never_green_and_one_rerun_recovers() {
    let scene = Scene::new();
    let rel = Scene::rel("sdk");
    let copy = scene.copy("sdk");
    let v = bundled_version();
    let old = files(&real_release("1.0.0"));
    let new = files(&bundled_suite());
    for delay_ms in [0, 5, 10, 20, 40, 80, 160] {
        let _ = fs::remove_dir_all(scene.ws().join("sdk"));
        scene.old_copy("sdk");
        let mut writer = scene.spawn(&["fetch", "--update", &v, &rel], None);
        let pid = writer.id();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = writer.kill();
        let _ = finish(writer);
        // Every vendored file is the old one or the new one, never a mix; the SDK's own is kept.
        for (path, bytes) in files(&copy) {
            if path == "ConformanceTest.php" || path.contains(".tmp-") {
                continue;
            }
            assert!(
                old.get(&path) == Some(&bytes) || new.get(&path) == Some(&bytes),
                "{path} is neither old nor new (killed after {delay_ms} ms)"
            );
        }
        assert!(copy.join("ConformanceTest.php").exists());
        // Green only when the copy is the release.
        let check = scene.run(&["fetch", "--check", &v, &rel], None);
        let whole = files(&copy)
            .into_iter()
            .filter(|(p, _)| p != "ConformanceTest.php")
            .eq(new.clone().into_iter().filter(|(p, _)| p != "LICENSE"));
        assert_eq!(
            code(&check) == 0,
            whole,
            "killed after {delay_ms} ms: {}",
            stdout(&check)
        );
        if !copy.join("CONFORMANCE_VERSION").exists() && copy.join("manifest.json").exists() {
            assert!(stdout(&check).contains("interrupted"), "{}", stdout(&check));
        }
        // One rerun recovers, and leaves nothing beside or inside the copy.
        let out = scene.run(&["fetch", "--update", &v, &rel, "--lock-wait", "0"], None);
        assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
        assert_eq!(code(&scene.run(&["fetch", "--check", &v, &rel], None)), 0);
        let parent = copy.parent().unwrap();
        let left: Vec<String> = names(parent)
            .into_iter()
            .filter(|n| n != "conformance")
            .collect();
        assert!(
            left.is_empty(),
            "killed after {delay_ms} ms (pid {pid}), the rerun left {left:?}: {:?}",
            left.iter()
                .map(|n| snapshot(&parent.join(n)))
                .collect::<Vec<_>>()
        );
        assert!(
            files(&copy).keys().all(|p| !p.contains(".tmp-")),
            "{delay_ms} ms"
        );
    }
}
