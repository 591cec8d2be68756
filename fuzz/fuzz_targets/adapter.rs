#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bqsuite_fuzz::adapter(data));
