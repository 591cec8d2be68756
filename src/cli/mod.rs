//! The binary's side of bqsuite: the command line ([`args`]), the runner of each subcommand
//! ([`run`]), what happens before one runs or when none can ([`usage`]), printing ([`output`]),
//! and the manual pages ([`man`]).

pub mod args;
pub mod man;
pub mod output;
pub mod progress;
pub mod run;
pub mod usage;
