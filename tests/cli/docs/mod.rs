//! The documentation keeps up with the program: its report examples are real output, its links
//! resolve, its reference pages list every finding code, command and option.

mod examples;
mod links;
mod reference;
mod shell;
