//! The integration tests of the `bqsuite` command line, in one test binary: one module per
//! subject, and the support kit they share (`kit`). Run one subject with
//! `cargo test --release --locked --test cli SUBJECT::` (for example `fetch::` or `docs::examples`).
//!
//! The tests that count every allocation of their process are in the other binary,
//! tests/memory.

mod kit;

mod action;
mod adopt;
mod archive;
mod contract;
mod diff;
mod dist;
mod docs;
mod eval;
mod fetch;
mod fuzz_regressions;
mod github;
mod help;
mod identity;
mod install;
mod layout;
mod man;
mod mutants;
mod mutation;
mod output_schema;
mod proposal;
mod real_releases;
mod real_writers;
mod release;
mod results;
mod roundtrip;
mod run;
mod suites;
mod supply_chain;
mod sync;
mod tls;
mod untrusted_text;
mod validate;
mod wording;
mod workspace;
mod writers;
