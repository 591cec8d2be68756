//! The binary's side of bqsuite: the command line ([`args`]), the subcommands, one file each
//! ([`commands`]), what happens before one runs or when none can ([`usage`]), printing
//! ([`output`]), and the manual pages ([`man`]).

pub mod args;
pub mod commands;
pub mod man;
pub mod output;
pub mod progress;
pub mod usage;
