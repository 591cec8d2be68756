//! `bqsuite release` holds the suite once, as validation does, and the asset never: the bytes it
//! packages are the loaded ones, and the compressed stream goes to its temporary file chunk by
//! chunk. What packaging adds to validation's own peak is a few chunk buffers per compressing
//! thread, whatever the size of the suite. (It used to read every file a second time and keep
//! them all, and the whole asset: issue #22 measured 567 MB for a 209 MB suite.)
//!
//! Bytes are counted with a counting allocator, not measured as process memory, so the bound is
//! exact and repeatable; the process figures are in bench/README.md. One test in this binary, so
//! the counters see only its own allocations (and it sets BQSUITE_THREADS for itself alone).

mod common;
mod counting_alloc;
mod h22_release_support;

use bqsuite::release::gzip::{CHUNK, WINDOW};
use bqsuite::release::parallel::{IN_FLIGHT_PER_THREAD, THREADS_VAR};
use counting_alloc::peak_of;
use h22_release_support::{grown_suite, tree_bytes};

const MIB: usize = 1 << 20;

#[test]
fn release_holds_the_suite_once_and_the_asset_never() {
    let suite = grown_suite(1400, 9_000);
    let bytes = tree_bytes(&suite.path()) as usize;
    let (report, validated) = peak_of(|| bqsuite::validate::validate(&suite.path()).unwrap());
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert!(
        validated > bytes,
        "validation holds the suite: {validated} < {bytes}"
    );

    for threads in [1usize, 2] {
        // SAFETY: this binary runs this one test, and nothing else reads the environment while
        // it is set.
        unsafe { std::env::set_var(THREADS_VAR, threads.to_string()) };
        let out = tempfile::tempdir().unwrap();
        let options = bqsuite::release::Options {
            suite: suite.path(),
            out: out.path().join("dist"),
            tag: None,
            allow_pre: false,
        };
        let (report, released) = peak_of(|| bqsuite::release::release(&options).unwrap());
        assert!(report.is_clean(), "{:?}", report.diagnostics);
        let asset = std::fs::read_dir(out.path().join("dist"))
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len() as usize)
            .max()
            .unwrap();
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
            "{threads} thread(s): suite {bytes} bytes, asset {asset} bytes; validation peaks at \
             {validated}, release at {released} (bound {})",
            validated + packaging
        );
        assert!(
            released <= validated + packaging,
            "{threads} thread(s): release held {released} bytes at once, validation {validated}: \
             more than {packaging} bytes apart (the suite is {bytes} bytes, the asset {asset})"
        );
    }
    unsafe { std::env::remove_var(THREADS_VAR) };
}
