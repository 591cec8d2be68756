//! What the reference evaluator says about one case: the types every model shares.

pub use bqsuite_core::evaluator::outcome::*;
