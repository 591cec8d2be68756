//! The adapter protocol (version 1) and its driver: how bqsuite runs an implementation's adapter
//! as a child process and talks to it in JSON lines. The crate knows no suite: it moves JSON
//! values, and the caller decides what a case's operations are and what their values mean.
//!
//! # The model
//!
//! [`Adapter::start`] runs the adapter command with its stdin, stdout and stderr piped, sends
//! the start request (the suite's name, title and version: [`StartInfo`]) and checks the reply:
//! protocol 1 and an [`Implementation`]. Failing that, it returns a typed [`StartError`] (no
//! such program, not executable, exited, no answer in time, another protocol version, a reply
//! of the wrong shape): the caller cannot run anything.
//!
//! Then [`Adapter::call`] sends one op request at a time (`seq` counts from 1) and waits for its
//! one reply line, which becomes an [`Answer`]: a value, a refusal with a protocol error code, a
//! skip, or `Errored` with a typed [`Fault`] saying what went wrong. Requests are never
//! pipelined. [`Adapter::stop`] sends the stop request, closes the adapter's stdin, waits a
//! bounded time for it to exit, then kills it; dropping an [`Adapter`] kills its process and
//! reaps it.
//!
//! The pure halves of the protocol are public too: [`StartInfo::request_line`],
//! [`OpRequest::write_line`], [`parse_start_reply`] and [`parse_reply`].
//!
//! # Bounds
//!
//! Whatever the adapter does, the driver neither blocks past the time bound nor holds more
//! memory than the bounds allow ([`Bounds`], defaults in [`Bounds::DEFAULT`]):
//!
//! - each request, start included, gets its complete reply line within `timeout` (10 s), or the
//!   adapter is killed ([`Fault::Timeout`]). Writing the request counts against the same bound:
//!   an adapter that stops reading its stdin cannot block the caller. The pipes belong to three
//!   threads per process (writer, reader, stderr keeper); the caller waits on a channel with a
//!   deadline, so even a pipe held open by a process the adapter started cannot block it;
//! - a reply line longer than `max_line` (4 MiB) is read to its newline and dropped as it is
//!   read, never held ([`Fault::TooLong`]; the adapter lives on). One that has no newline within
//!   `max_drain` bytes (64 MiB) is a flood: the adapter is killed ([`Fault::Flood`]);
//! - only the last `stderr_tail` bytes (64 KiB) of the adapter's stderr are kept, to show why
//!   it died ([`Fault::Exited`], [`Adapter::stderr_tail`]); stderr is never parsed;
//! - after the stop request (or after the adapter closed its stdout) it has `stop_grace` (1 s)
//!   to exit before it is killed.
//!
//! # Restart policy
//!
//! A fault that [ends the adapter](Fault::ends_adapter) (it exited, crashed, hung, flooded)
//! errors the request that met it. The next [`Adapter::call`] starts the adapter again, once
//! per session (a new start exchange), and sends its own request; the request that met the
//! death is never sent again. When the restarted adapter dies too, or cannot be restarted,
//! every later call returns `Errored(Fault::Stopped)` at once. [`Adapter::history`] lists the
//! deaths and restarts with the case each happened at. Seqs count on across a restart.
//!
//! # Untrusted text
//!
//! Everything the adapter writes (its implementation's name, a refusal's message, a skip's
//! reason, a value's strings, its stderr) is passed on exactly as written: escape sequences,
//! bidirectional controls and lines that look like GitHub Actions commands (`::error::`) are
//! data here. Escaping them before they are shown is the caller's job (bqsuite: the show
//! helpers of bqsuite-core), as is escaping a [`Fault`]'s or [`StartError`]'s message, which may
//! quote a member name from a reply.

mod adapter;
mod bounds;
mod fault;
mod lines;
mod process;
mod protocol;

/// The unit tests' allocator counts the bytes held (the one bqsuite's memory tests use).
#[cfg(test)]
#[path = "../../../tests/memory/counting_alloc.rs"]
mod counting_alloc;

pub use adapter::{Adapter, Lifecycle, WINDOW};
pub use bounds::Bounds;
pub use fault::{Exit, Fault, Shape, StartError, Stream};
pub use process::Stop;
pub use protocol::{
    Answer, Implementation, OpRequest, PROTOCOL, STOP_LINE, StartInfo, parse_reply,
    parse_start_reply,
};
