#![no_main]

// The SBP model's invariants on any input (bqsuite_sbp::fuzzing::check), under the default
// limits and under small ones that inputs of a few KiB can exceed.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    use bqsuite_sbp::{Limits, fuzzing};
    for limits in [&Limits::DEFAULT, &fuzzing::FUZZ_LIMITS] {
        if let Err(broken) = fuzzing::check(data, limits) {
            panic!("{broken}");
        }
    }
});
