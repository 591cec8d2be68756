//! bqsuite's ground floor, below every suite and command: the strict position-aware JSON parser
//! ([`json`]), findings and the renderers that print them ([`diag`], [`github`]), errors that stop
//! a run ([`error`]), the one rule for showing untrusted text ([`show`]), pasteable commands
//! ([`shell`]), writes with no half-written file ([`fsutil`]), a manifest's case ids and index
//! ([`ids`], [`index`]), the evaluator's view of a suite's files ([`fixtures`]), threads and
//! timestamps ([`threads`], [`timefmt`]).

pub mod diag;
pub mod error;
pub mod evaluator;
pub mod fixtures;
pub mod fsutil;
pub mod github;
pub mod ids;
pub mod index;
pub mod json;
pub mod shell;
pub mod show;
pub mod threads;
pub mod timefmt;

pub use error::{Error, Result};
