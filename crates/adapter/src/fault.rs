//! What can go wrong: [`Fault`] for one request, [`StartError`] for the start of a session. Each
//! is a typed value the caller matches on; its `Display` says, in plain words, what the adapter
//! did and what to do about it.
//!
//! Some variants carry text that came from the adapter (a member name, the tail of its standard
//! error). The driver passes such text on untouched, and the `Display` of a variant that holds a
//! member name includes it: a caller escapes every message before showing it (bqsuite through
//! its one untrusted-text rule), as it does with any adapter text.

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use crate::bounds::{Size, Span};

/// How an adapter process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status code.
    Code(i32),
    /// A signal ended it (Unix).
    Signal(i32),
    /// The system gave no status.
    Unknown,
}

impl Exit {
    pub(crate) fn of(status: ExitStatus) -> Exit {
        if let Some(code) = status.code() {
            return Exit::Code(code);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Exit::Signal(signal);
            }
        }
        Exit::Unknown
    }
}

impl fmt::Display for Exit {
    /// `exited with status 3`, `was ended by signal 11 (SIGSEGV)`, `exited`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Code(code) => write!(f, "exited with status {code}"),
            Exit::Signal(signal) => {
                write!(f, "was ended by signal {signal}")?;
                match signal_name(signal) {
                    Some(name) => write!(f, " ({name})"),
                    None => Ok(()),
                }
            }
            Exit::Unknown => f.write_str("exited"),
        }
    }
}

/// The names of the signals an adapter commonly dies of (their numbers are the same on every
/// Unix for these).
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => return None,
    })
}

/// One of the adapter's standard streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Its standard input, where requests go.
    Input,
    /// Its standard output, where replies come from.
    Output,
}

/// What is wrong with the shape of a reply that is a JSON object. A member is named by its
/// path, `error.code` for `code` inside `error`; a name that came from the adapter is cut to 64
/// characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A required member is absent.
    Missing(String),
    /// A member that must be a whole number from 0 up is something else.
    NotCount(String),
    /// A member that must be a string is something else.
    NotString(String),
    /// A member that must be an object is something else.
    NotObject(String),
    /// A member the protocol does not define.
    Unknown(String),
    /// An op reply with none of `value`, `error` and `skip`.
    NoOutcome,
    /// An op reply with more than one of `value`, `error` and `skip`.
    SeveralOutcomes,
}

impl fmt::Display for Shape {
    /// A predicate: "the reply " + this.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Missing(m) => write!(f, "has no `{m}` member"),
            Shape::NotCount(m) => write!(f, "has a `{m}` that is not a whole number from 0 up"),
            Shape::NotString(m) => write!(f, "has a `{m}` that is not a string"),
            Shape::NotObject(m) => write!(f, "has a `{m}` that is not an object"),
            Shape::Unknown(m) => write!(f, "has a member `{m}` that protocol 1 does not define"),
            Shape::NoOutcome => f.write_str("has none of `value`, `error` and `skip`"),
            Shape::SeveralOutcomes => {
                f.write_str("has more than one of `value`, `error` and `skip`")
            }
        }
    }
}

/// Why one request got no usable answer. [`Fault::ends_adapter`] says whether the adapter process
/// is gone afterwards (it is then restarted for the next request, at most once per session).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No complete reply within the time bound (or the request could not be written within it:
    /// the adapter stopped reading). The driver killed the adapter.
    Timeout { after: Duration },
    /// The adapter exited before replying. `stderr_tail` is the end of its standard error
    /// (untrusted text, to be escaped before it is shown).
    Exited { status: Exit, stderr_tail: String },
    /// The adapter closed one of its streams but kept running; the driver killed it.
    Closed { stream: Stream, stderr_tail: String },
    /// The reply line is not UTF-8.
    NotUtf8,
    /// The reply line is not JSON; `detail` is the parser's account, with the column.
    NotJson { detail: String },
    /// The reply is JSON but not an object.
    NotAnObject,
    /// The reply carries another request's `seq`.
    WrongSeq { expected: u64, got: u64 },
    /// The reply is an object of the wrong shape.
    BadShape(Shape),
    /// The reply line is longer than `limit` bytes; it was read past and dropped, never held.
    TooLong { limit: usize },
    /// The adapter wrote more than `limit` bytes without a newline; the driver killed it.
    Flood { limit: u64 },
    /// Reading or writing a pipe to the adapter failed (`what` in words); the driver killed it.
    Io { what: String },
    /// The adapter failed twice (it was restarted once): no request is sent to it any more.
    Stopped,
}

impl Fault {
    /// Whether the adapter process is gone after this fault (dead, or killed by the driver).
    pub fn ends_adapter(&self) -> bool {
        match self {
            Fault::Timeout { .. }
            | Fault::Exited { .. }
            | Fault::Closed { .. }
            | Fault::Flood { .. }
            | Fault::Io { .. }
            | Fault::Stopped => true,
            Fault::NotUtf8
            | Fault::NotJson { .. }
            | Fault::NotAnObject
            | Fault::WrongSeq { .. }
            | Fault::BadShape(_)
            | Fault::TooLong { .. } => false,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout { after } => write!(
                f,
                "the adapter did not answer within {}, so bqsuite killed it; make the adapter \
                 reply to every request, or allow more time with `--timeout`",
                Span(*after)
            ),
            Fault::Exited { status, .. } => write!(
                f,
                "the adapter {status} before answering; fix what made it exit (its standard \
                 error may say)"
            ),
            Fault::Closed {
                stream: Stream::Output,
                ..
            } => f.write_str(
                "the adapter closed its standard output but kept running, so bqsuite killed it; \
                 an adapter writes one reply line per request there until the stop request",
            ),
            Fault::Closed {
                stream: Stream::Input,
                ..
            } => f.write_str(
                "the adapter closed its standard input but kept running, so bqsuite killed it; \
                 an adapter reads requests there until the stop request",
            ),
            Fault::NotUtf8 => f.write_str(
                "the reply line is not UTF-8; an adapter writes each reply as one line of UTF-8 \
                 JSON",
            ),
            Fault::NotJson { detail } => write!(
                f,
                "the reply line is not JSON ({detail}); an adapter writes only replies to its \
                 standard output, one JSON object per line, and its logs to standard error"
            ),
            Fault::NotAnObject => f.write_str(
                "the reply is JSON but not an object; each reply is one object such as \
                 {\"seq\": 1, \"value\": ...}",
            ),
            Fault::WrongSeq { expected, got } => write!(
                f,
                "the reply carries seq {got}, but the request had seq {expected}; an adapter \
                 answers each request once, in order, with the request's seq"
            ),
            Fault::BadShape(shape) => write!(
                f,
                "the reply {shape}; a reply holds `seq` and exactly one of `value`, `error` (an \
                 object with a `code` and an optional `message`) and `skip` (a string)"
            ),
            Fault::TooLong { limit } => write!(
                f,
                "the reply line is longer than {}; bqsuite read past it without keeping it. A \
                 reply holds one operation's result: check what the adapter writes",
                Size(*limit as u64)
            ),
            Fault::Flood { limit } => write!(
                f,
                "the adapter wrote more than {} without a newline, so bqsuite killed it; end \
                 each reply with a newline",
                Size(*limit)
            ),
            Fault::Io { what } => write!(
                f,
                "bqsuite could not talk to the adapter ({what}), so it killed it"
            ),
            Fault::Stopped => f.write_str(
                "the adapter stopped answering: it failed twice (it was restarted once), so \
                 bqsuite sends it no more requests; fix the failure reported for an earlier case",
            ),
        }
    }
}

/// Why a session could not start. The caller cannot run anything: bqsuite exits 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// No program by that name: `program` is the command as given.
    NotFound { program: String },
    /// The program exists but may not be run (a file without execute permission, a directory).
    NotExecutable { program: String },
    /// Starting the program failed otherwise (`what` in words).
    Spawn { program: String, what: String },
    /// The adapter exited before answering the start request.
    Exited { status: Exit, stderr_tail: String },
    /// No answer to the start request within the time bound; the adapter was killed.
    Timeout { after: Duration },
    /// The adapter answered with another protocol version.
    UnknownProtocol(u64),
    /// The start reply is an object of the wrong shape.
    BadShape(Shape),
    /// No usable start reply (not JSON, too long, the adapter closed its output, ...).
    BadReply(Fault),
}

impl StartError {
    /// The start error for a fault met while waiting for the start reply.
    pub(crate) fn from_fault(fault: Fault) -> StartError {
        match fault {
            Fault::Timeout { after } => StartError::Timeout { after },
            Fault::Exited {
                status,
                stderr_tail,
            } => StartError::Exited {
                status,
                stderr_tail,
            },
            Fault::BadShape(shape) => StartError::BadShape(shape),
            other => StartError::BadReply(other),
        }
    }

    pub(crate) fn spawn(program: String, error: &io::Error) -> StartError {
        match error.kind() {
            io::ErrorKind::NotFound => StartError::NotFound { program },
            io::ErrorKind::PermissionDenied => StartError::NotExecutable { program },
            _ => StartError::Spawn {
                program,
                what: io_words(error),
            },
        }
    }
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::NotFound { program } => write!(
                f,
                "could not start the adapter: there is no program `{program}` (as a path, or on \
                 PATH); check the adapter command after `--`"
            ),
            StartError::NotExecutable { program } => write!(
                f,
                "could not start the adapter: `{program}` may not be run (permission denied); \
                 make it executable, or name its interpreter before it (for a Python script: \
                 `python3 {program}`)"
            ),
            StartError::Spawn { program, what } => {
                write!(f, "could not start the adapter `{program}`: {what}")
            }
            StartError::Exited { status, .. } => write!(
                f,
                "the adapter {status} before answering the start request; fix what made it \
                 exit (its standard error may say)"
            ),
            StartError::Timeout { after } => write!(
                f,
                "the adapter did not answer the start request within {}, so bqsuite killed it; \
                 make it reply to the start request, or allow more time with `--timeout`",
                Span(*after)
            ),
            StartError::UnknownProtocol(n) => write!(
                f,
                "the adapter speaks protocol {n}; this bqsuite speaks 1. Use an adapter (or a \
                 version of it) that speaks protocol 1"
            ),
            StartError::BadShape(shape) => write!(
                f,
                "the adapter's reply to the start request {shape}; it should look like \
                 {{\"protocol\": 1, \"implementation\": {{\"name\": \"...\", \"version\": \
                 \"...\", \"language\": \"...\"}}}}"
            ),
            StartError::BadReply(fault) => write!(
                f,
                "the adapter's reply to the start request is not usable: {fault}"
            ),
        }
    }
}

/// An I/O error in plain words: its kind, never the system's error number.
pub(crate) fn io_words(error: &io::Error) -> String {
    error.kind().to_string()
}
