//! Replays, on stable, every seed of the fuzz corpora and every input that ever made a fuzz target
//! crash or hang (`fuzz/regressions/TARGET/`), through the same harness libFuzzer runs
//! (`fuzz/harness.rs`). A regression panics here exactly as it did under the fuzzer.

#[path = "../../fuzz/harness.rs"]
mod harness;

use std::fs;

use crate::kit::root;

fn replay(target: &str, run: fn(&[u8])) {
    let root = root().join("fuzz");
    let mut replayed = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = fs::read(&path).unwrap();
            eprintln!("replaying {}", path.display());
            run(&data);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no inputs for fuzz target {target}");
}

#[test]
fn archive() {
    replay("archive", harness::archive);
}

#[test]
fn json() {
    replay("json", harness::json);
}

#[test]
fn suite() {
    replay("suite", harness::suite);
}

#[test]
fn results() {
    replay("results", harness::results);
}

#[test]
fn sums() {
    replay("sums", harness::sums);
}

#[test]
fn targets() {
    replay("targets", harness::targets);
}

#[test]
fn diff() {
    replay("diff", harness::diff);
}

#[test]
fn sbp_decode() {
    replay("sbp_decode", harness::sbp_decode);
}

#[test]
fn adapter() {
    replay("adapter", harness::adapter);
}
