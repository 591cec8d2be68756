//! bqsuite: validate, evaluate, release and distribute conformance suites.
//!
//! This library holds the commands ([`commands`]), each a function that takes its options and
//! returns a report; it never prints. The layers below it are crates of their own:
//! `bqsuite-core` (JSON, findings, errors, untrusted text), `bqsuite-eval` (the reference model)
//! and `bqsuite-suite` (a suite on disk and in its release asset). The `bqsuite` binary parses
//! arguments, calls a command, renders its report and picks the exit code.

pub mod commands;
