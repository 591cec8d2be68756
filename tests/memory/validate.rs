//! Validation holds a large fixture about once, and one large fixture at a time on each thread
//! that checks fixtures: issue #13's
//! "wide" suite (a data object of a million keys) needed several copies of it at a time (loader,
//! schema check, decode, the retry hop's clone, the re-encoded output) and hundreds of megabytes,
//! and every fixture's copies were held until the end. Bytes are counted with a
//! counting allocator, not measured as process memory, so the bound is exact and repeatable; the
//! process figures are in bench/amplification.sh and the README.
//!
//! The test holds [`exclusive`] throughout, so the counters see only its own allocations.
//!
//! Measured on the real 1.8.0 (debug build): the bundled suite alone peaks at about 3.7 MB; one
//! wide fixture is 2.4 MB of text and one parsed copy of it about 24.6 MB; validating the suite
//! with both wide fixtures peaks at about 32.4 MB against a bound of about 39.3 MB. A second
//! copy of one document (24.6 MB) would exceed the bound by far. The bundled suite must validate
//! clean: this needs the redis_layout evaluator.

use std::fs;

use serde_json::{Map, Value, json};

use crate::SuiteCopy;
use crate::counting_alloc::{exclusive, peak_of};

#[test]
fn wide_fixtures_are_held_about_once_and_one_at_a_time() {
    let _alone = exclusive();
    let s = SuiteCopy::new();
    let (report, bundled) = peak_of(|| bqsuite::commands::validate::validate(&s.path()).unwrap());
    assert!(report.is_clean(), "{:?}", report.diagnostics);

    // Two wide fixtures, each named by one roundtrip case: held one after the other.
    let mut envelope = s.read_json("fixtures/empty-data-roundtrip.json");
    let data: Map<String, Value> = (0..200_000)
        .map(|i| (format!("k{i:06}"), json!(0)))
        .collect();
    envelope["data"] = Value::Object(data);
    let text = envelope.to_string();
    drop(envelope);
    for name in ["wide-a", "wide-b"] {
        fs::write(s.file(&format!("fixtures/{name}.json")), &text).unwrap();
        s.edit_manifest(|m| {
            m["roundtrip"]["cases"].as_array_mut().unwrap().push(json!({
                "name": name,
                "file": format!("fixtures/{name}.json"),
                "description": "A data object of two hundred thousand keys.",
                "expect_attempts": 1,
                "expect_preserved": {"/data/k000000": 0, "/data/k199999": 0},
            }));
        });
    }
    // What one copy of the document costs.
    let (value, one_copy) = peak_of(|| bqsuite_core::json::parse_value(&text).unwrap());
    drop(value);
    // The bound below is meaningful only while a second copy cannot hide in what the bundled
    // suite needs anyway (and in the quarter copy of slack): the wide fixture must dominate.
    assert!(
        bundled + one_copy / 4 < one_copy / 2,
        "the bundled suite peaks at {bundled} bytes, one copy of the wide fixture is {one_copy}: \
         make the fixture wider"
    );

    // Fixtures are checked on BQSUITE_THREADS threads, one at a time on each: on one thread the
    // two wide ones are held one after the other, on two they may be held together.
    for threads in [1usize, 2] {
        // SAFETY: the other tests of this binary wait for `exclusive`, and nothing else reads
        // the environment while it is set.
        unsafe { std::env::set_var(bqsuite_core::threads::THREADS_VAR, threads.to_string()) };
        let (report, peak) = peak_of(|| bqsuite::commands::validate::validate(&s.path()).unwrap());
        assert!(report.is_clean(), "{:?}", report.diagnostics);
        // Every case ran and passed: the real 1.8.0's 710 and the two wide ones.
        assert_eq!(
            report.summary,
            ["712 cases in 32 sections, 58 fixtures; reference evaluator: 712 pass, 0 skip"]
        );
        // Per thread, the text being checked and one copy of its document; what the bundled
        // suite needs anyway. Holding a second copy of a document anywhere breaks the bound.
        let bound = bundled + threads * (text.len() + one_copy) + one_copy / 4;
        assert!(
            peak <= bound,
            "validating on {threads} thread(s) held {peak} bytes at its peak: more than {bound} \
             (one copy of the {} byte fixture is {one_copy} bytes; the bundled suite alone peaks \
             at {bundled})",
            text.len()
        );
    }
    unsafe { std::env::remove_var(bqsuite_core::threads::THREADS_VAR) };
}
