//! One module per subcommand. A command takes its options and returns a report (or an error
//! that stops the run); it never prints.

pub mod diff;
pub mod eval;
pub mod fetch;
pub mod mutants;
pub mod proposal;
pub mod release;
pub mod results;
pub mod sync;
pub mod validate;
