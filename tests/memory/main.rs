//! The tests that bound memory exactly: a counting allocator ([`counting_alloc`]) is this
//! binary's global allocator and counts every allocation of the process, so these tests cannot
//! share a process with others. They take [`counting_alloc::exclusive`] in turn, so that the
//! counters see one test's allocations at a time (and each sets BQSUITE_THREADS for itself
//! alone).
//!
//! The suites they measure come from the CLI tests' kit (tests/cli/kit), the same files.

mod counting_alloc;
#[path = "../cli/kit/grown.rs"]
mod grown;
// The CLI tests' whole kit file, of which these tests use a part (not tool_license, say).
#[allow(dead_code)]
#[path = "../cli/kit/suite.rs"]
mod suite;

mod release;
mod validate;

use suite::SuiteCopy;
