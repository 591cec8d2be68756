//! One writer per copy: two writers on one copy in both orders, `sync` as either, and checks that
//! give no verdict on a copy being written.

use std::process::Child;

use serde_json::Value;

use super::Scene;
use crate::kit::writers::{HeldMirror, assert_unchanged, finish, lock_file, wait_for_lock};
use crate::kit::*;

/// `fetch --update` of the next release into `sdk`'s copy from `held`, started in the background
/// and waited for until it holds the copy's lock (its download is held back until released).
fn holding(scene: &Scene, held: &HeldMirror, sdk: &str) -> Child {
    let rel = Scene::rel(sdk);
    let child = scene.spawn(&["fetch", "--update", &scene.next, &rel], Some(held.base()));
    wait_for_lock(&scene.copy(sdk), child.id());
    held.wait_for_download();
    child
}

fn all_text(out: &std::process::Output) -> String {
    format!("{}{}", stdout(out), stderr(out))
}

#[test]
fn a_second_writer_is_turned_away_naming_the_first_and_writes_nothing() {
    let scene = Scene::new();
    scene.old_copy("sdk");
    let held = HeldMirror::of(&scene.next_mirror);
    let first = holding(&scene, &held, "sdk");
    let named = format!("PID {}", first.id());
    let before = snapshot(&scene.ws());
    let v = bundled_version();
    let rel = Scene::rel("sdk");
    let update: Vec<String> = ["fetch", "--update", &v, &rel, "--lock-wait", "0"]
        .map(String::from)
        .to_vec();
    for args in [update, scene.sync_args(&["sdk"], &["--lock-wait", "0"])] {
        let shown = args.join(" ");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = scene.run(&args, None);
        assert_eq!(code(&out), 2, "{shown}: {}", all_text(&out));
        let text = all_text(&out);
        assert!(
            text.contains(&named) && text.contains("fetch --update") && text.contains("nothing"),
            "{shown}: {text}"
        );
        assert_unchanged(&before, &snapshot(&scene.ws()), &format!("{shown} wrote"));
        // The same in one JSON document.
        let mut json_args = args.clone();
        json_args.extend(["--format", "json"]);
        let doc = json(&scene.run(&json_args, None));
        assert_eq!(doc["error"]["kind"], "bad-path", "{doc:#}");
        assert!(doc["error"]["message"].as_str().unwrap().contains(&named));
    }

    // Read-only: no verdict on a copy being written.
    let out = scene.run(&["fetch", "--check", &v, &rel], None);
    assert_eq!(code(&out), 2, "{}", all_text(&out));
    assert!(
        all_text(&out).contains("being written") && all_text(&out).contains(&named),
        "{}",
        all_text(&out)
    );
    let args = scene.sync_args(&["sdk"], &["--check", "--format", "json"]);
    let out = bqsuite(&args);
    assert_eq!(code(&out), 1, "{}", all_text(&out));
    let doc: Value = json(&out);
    assert_eq!(row(&doc, &rel)["status"], "error", "{doc:#}");
    let found = findings(&doc, "sync-being-written");
    assert_eq!(found.len(), 1, "{doc:#}");
    assert!(found[0]["message"].as_str().unwrap().contains(&named));
    assert_counts(&doc);
    assert_unchanged(&before, &snapshot(&scene.ws()), "the copy");

    held.release();
    let out = finish(first);
    assert_eq!(code(&out), 0, "{}", all_text(&out));
    assert!(stdout(&out).contains(&format!("to release {}", scene.next)));
    assert_eq!(
        scene.version_of("sdk").as_deref(),
        Some(scene.next.as_str())
    );
    assert!(!lock_file(&scene.copy("sdk")).exists(), "the lock was left");
}

#[test]
fn a_waiting_writer_goes_after_the_first_and_reports_what_it_did() {
    let scene = Scene::new();
    scene.old_copy("sdk");
    let rel = Scene::rel("sdk");
    let next_url = file_url(&scene.next_mirror);

    // fetch --update after fetch --update: the second judges the copy the first has written.
    let held = HeldMirror::of(&scene.next_mirror);
    let first = holding(&scene, &held, "sdk");
    let second = scene.spawn(&["fetch", "--update", &scene.next, &rel], Some(&next_url));
    held.release();
    let (first, second) = (finish(first), finish(second));
    assert_eq!(code(&first), 0, "{}", all_text(&first));
    assert!(stdout(&first).contains(&format!("to release {}", scene.next)));
    assert_eq!(code(&second), 0, "{}", all_text(&second));
    assert!(
        stdout(&second).contains(&format!("already matches release {}", scene.next)),
        "the second writer judged the copy before the first was done: {}",
        stdout(&second)
    );

    // sync after fetch --update: sync's state is the last, and it says so.
    let held = HeldMirror::of(&scene.next_mirror);
    let first = holding(&scene, &held, "sdk");
    let args = scene.sync_args(&["sdk"], &["--format", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sync = scene.spawn(&args, None);
    held.release();
    let (first, sync) = (finish(first), finish(sync));
    assert_eq!(code(&first), 0, "{}", all_text(&first));
    assert_eq!(code(&sync), 0, "{}", all_text(&sync));
    assert_eq!(row(&json(&sync), &rel)["status"], "synced");
    assert_eq!(scene.version_of("sdk"), Some(bundled_version()));
    assert!(!lock_file(&scene.copy("sdk")).exists(), "a lock was left");
}

#[test]
fn sync_holds_every_copy_it_writes_until_it_is_done() {
    // sync takes the locks in one order: a-sdk's, then b-sdk's, which a fetch holds. While it
    // waits for b-sdk, a-sdk is still its: a fetch --update of a-sdk is turned away naming sync.
    let scene = Scene::new();
    scene.old_copy("a-sdk");
    scene.old_copy("b-sdk");
    let held = HeldMirror::of(&scene.next_mirror);
    let first = holding(&scene, &held, "b-sdk");
    let args = scene.sync_args(&["a-sdk", "b-sdk"], &["--format", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sync = scene.spawn(&args, None);
    wait_for_lock(&scene.copy("a-sdk"), sync.id());
    let before = snapshot(&scene.copy("a-sdk"));
    let out = scene.run(
        &[
            "fetch",
            "--update",
            &scene.next,
            &Scene::rel("a-sdk"),
            "--lock-wait",
            "0",
        ],
        Some(&file_url(&scene.next_mirror)),
    );
    assert_eq!(code(&out), 2, "{}", all_text(&out));
    let text = all_text(&out);
    assert!(
        text.contains(&format!("PID {}", sync.id())) && text.contains("bqsuite sync"),
        "{text}"
    );
    assert_unchanged(&before, &snapshot(&scene.copy("a-sdk")), "the copy");

    held.release();
    let (first, sync) = (finish(first), finish(sync));
    assert_eq!(code(&first), 0, "{}", all_text(&first));
    assert_eq!(code(&sync), 0, "{}", all_text(&sync));
    let doc = json(&sync);
    for sdk in ["a-sdk", "b-sdk"] {
        assert_eq!(row(&doc, &Scene::rel(sdk))["status"], "synced", "{doc:#}");
        assert_eq!(scene.version_of(sdk), Some(bundled_version()));
        assert!(
            !lock_file(&scene.copy(sdk)).exists(),
            "{sdk}'s lock was left"
        );
    }
}
