//! bqsuite: validate, evaluate, release and distribute the BabelQueue conformance suite.
//!
//! The library holds all the logic and never prints; the `bqsuite` binary parses arguments,
//! calls into it, renders the returned reports and picks the exit code.

pub mod archive;
pub mod diag;
pub mod diff;
pub mod error;
pub mod eval;
pub mod fetch;
pub mod fsutil;
pub mod github;
pub mod json;
pub mod mutants;
pub mod proposal;
pub mod reference;
pub mod release;
pub mod results;
pub mod shell;
pub mod show;
pub mod suite;
pub mod sync;
pub mod threads;
pub mod timefmt;
pub mod validate;

pub use error::{Error, Result};
