//! `bqsuite release` and `bqsuite validate` hold a few fixtures at a time, never the suite: each
//! fixture is read once, checked (and packaged) and dropped, and the compressed stream goes to its
//! temporary file chunk by chunk. Issue #22 measured 567 MB for a 209 MB suite, then 345 MB once
//! the files were read once; its bound is the suite's own size.
//!
//! Bytes are counted with a counting allocator, not measured as process memory, so the bound is
//! exact and repeatable; the process figures are in bench/README.md. The test holds
//! [`exclusive`] throughout, so the counters see only its own allocations (and it sets
//! BQSUITE_THREADS for itself alone).

use std::fs;
use std::path::Path;

use bqsuite_suite::release::gzip::{CHUNK, WINDOW};
use bqsuite_suite::release::parallel::{IN_FLIGHT_PER_THREAD, THREADS_VAR};

use crate::counting_alloc::{exclusive, peak_of};
use crate::grown::grown_suite;

const MIB: usize = 1 << 20;

#[test]
fn release_and_validate_hold_a_few_fixtures_not_the_suite() {
    let _alone = exclusive();
    // The same cases over fixtures of two sizes: what is held for the whole run (the manifest,
    // the schemas, the verdicts) is the same in both; the fixtures, ten times larger in the
    // second, must pass through a few at a time.
    let small = grown_suite(600, 5_000);
    let large = grown_suite(600, 50_000);
    let small_bytes = tree_bytes(&small.path()) as usize;
    let bytes = tree_bytes(&large.path()) as usize;
    let grown = bytes - small_bytes;
    for threads in [1usize, 2] {
        // SAFETY: the other tests of this binary wait for `exclusive`, and nothing else reads
        // the environment while it is set.
        unsafe { std::env::set_var(THREADS_VAR, threads.to_string()) };
        let validate = |suite: &std::path::Path| {
            let (report, peak) = peak_of(|| bqsuite::commands::validate::validate(suite).unwrap());
            assert!(report.is_clean(), "{:?}", report.diagnostics);
            peak
        };
        let base = validate(&small.path());
        let validated = validate(&large.path());
        let out = tempfile::tempdir().unwrap();
        let options = bqsuite::commands::release::Options {
            suite: large.path(),
            out: out.path().join("dist"),
            tag: None,
            allow_pre: false,
        };
        let (report, released) = peak_of(|| bqsuite::commands::release::release(&options).unwrap());
        assert!(report.is_clean(), "{:?}", report.diagnostics);
        // Packaging's own: the chunk being filled and a spare one; on one thread, one compressed
        // chunk (at worst as large as its input) and one compressor (zlib-rs's window, chains
        // and buffers: under 1 MiB); on several, per thread the chunks it may have on their way
        // (input and output) and a compressor; and 1 MiB for the tar headers and the rest.
        let chunk = CHUNK + WINDOW;
        let packaging = match threads {
            1 => 3 * chunk + MIB,
            _ => {
                let in_flight = threads * IN_FLIGHT_PER_THREAD;
                (2 * in_flight + 3) * chunk + threads * MIB
            }
        } + MIB;
        eprintln!(
            "{threads} thread(s): suites of {small_bytes} and {bytes} bytes; validation peaks at \
             {base} and {validated}, release of the larger at {released}"
        );
        // Fixtures in flight: a batch queued and one being checked per thread, a few parsed.
        assert!(
            validated <= base + grown / 10,
            "{threads} thread(s): {grown} more bytes of fixtures raised validation's peak from \
             {base} to {validated} bytes"
        );
        assert!(
            released <= validated + packaging && released <= bytes,
            "{threads} thread(s): release held {released} bytes at once, validation {validated} \
             (packaging may add {packaging}); the suite is {bytes} bytes"
        );
    }
    unsafe { std::env::remove_var(THREADS_VAR) };
}

/// Total bytes of the files under `dir`.
fn tree_bytes(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                tree_bytes(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}
