//! Why verification stops ([`Fault`]): a refused archive or a job that could not be done, how a
//! fault travels through `io::Error`, the two refusals every reader can give (a corrupt or a
//! truncated stream), and how an entry path is shown in a refusal ([`show_path`]).

use std::fmt;
use std::io;

use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::Error;

/// Why verification (or a sink) stopped.
#[derive(Debug)]
pub enum Fault {
    /// The archive is refused (exit 1); the diagnostic names the entry and the rule.
    Refused(Box<Diagnostic>),
    /// The job could not be done: network, local I/O (exit 2).
    Failed(Error),
}

impl Fault {
    /// Wraps the fault into an `io::Error`, so it can travel through `Read` implementations and
    /// be recovered intact by [`Fault::from_io`].
    pub fn into_io(self) -> io::Error {
        io::Error::other(Carried(self))
    }

    /// Recovers a fault carried by `e`; any other I/O error becomes `otherwise(e)`.
    pub fn from_io(e: io::Error, otherwise: impl FnOnce(io::Error) -> Fault) -> Fault {
        if e.get_ref().is_some_and(|inner| inner.is::<Carried>()) {
            match e.downcast::<Carried>() {
                Ok(carried) => carried.0,
                Err(e) => otherwise(e),
            }
        } else {
            otherwise(e)
        }
    }

    /// The diagnostic of a refusal.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            Fault::Refused(d) => Some(d),
            Fault::Failed(_) => None,
        }
    }
}

impl From<Diagnostic> for Fault {
    /// A refusal: the diagnostic names the entry and the rule.
    fn from(d: Diagnostic) -> Self {
        Fault::Refused(Box::new(d))
    }
}

impl From<Error> for Fault {
    fn from(e: Error) -> Self {
        Fault::Failed(e)
    }
}

/// A [`Fault`] travelling inside an `io::Error`.
#[derive(Debug)]
struct Carried(Fault);

impl fmt::Display for Carried {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Fault::Refused(d) => write!(f, "[{}] {}", d.code, d.message),
            Fault::Failed(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Carried {}

/// How an entry path is shown in a message: UTF-8 with control and bidi characters escaped, or
/// every non-ASCII byte escaped when it is not UTF-8.
pub fn show_path(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => bqsuite_core::shell::escape(s),
        Err(_) => bytes.escape_ascii().to_string(),
    }
}
