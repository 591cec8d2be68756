//! The `sbp_decode` fuzz target's seeds (`fuzz/seeds/sbp_decode/`): they are the golden
//! vectors, and each keeps the invariants the target checks.

use std::fs;
use std::path::PathBuf;

use super::bytes;
use super::golden::vectors;
use crate::Limits;
use crate::fuzzing::{FUZZ_LIMITS, check};

fn seeds_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/sbp_decode")
}

#[test]
fn every_golden_vector_is_a_seed() {
    for (id, _, hex, _) in vectors() {
        let path = seeds_dir().join(id.to_lowercase());
        let seed = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(seed, bytes(&hex), "{id}");
    }
}

#[test]
fn every_seed_keeps_the_invariants() {
    let mut seen = 0;
    for entry in fs::read_dir(seeds_dir()).expect("the seeds directory") {
        let path = entry.expect("a seed").path();
        let seed = fs::read(&path).expect("a readable seed");
        for limits in [&Limits::DEFAULT, &FUZZ_LIMITS] {
            assert_eq!(check(&seed, limits), Ok(()), "{}", path.display());
        }
        seen += 1;
    }
    assert!(seen >= vectors().len());
}
