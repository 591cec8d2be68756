//! `bqsuite adapter`.

use std::io::{BufReader, BufWriter};

use bqsuite::commands::adapter;
use bqsuite_core::Error;

use super::{Page, Run};
use crate::cli::output::{CLEAN, Output};

/// Serve a reference model over the adapter protocol on standard input and output, as an
/// implementation that `bqsuite run` grades.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to serve, by the name suites' descriptions give it (sbp-v1).
    #[arg(value_name = "MODEL")]
    model: String,
    /// Serve the model with this mistake of its catalogue (`bqsuite mutants` lists them): an
    /// implementation with one known bug, which fails exactly the cases that bug breaks.
    #[arg(long, value_name = "ID")]
    mistake: Option<String>,
}

pub const PAGES: &[Page] = &[Page {
    key: "adapter",
    found: "not used",
    examples: &[
        (
            "Serve the SBP model (as `bqsuite run sbp-suite -- bqsuite adapter sbp-v1` starts it)",
            "bqsuite adapter sbp-v1",
        ),
        (
            "An implementation with one known bug: lengths read big-endian",
            "bqsuite adapter sbp-v1 --mistake lengths-big-endian",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "adapter"
    }

    fn subject(&self) -> String {
        self.model.clone()
    }

    /// Serves requests until `stop` or the end of standard input. Its standard output is the
    /// protocol's, so `--format` does not apply; a model it cannot serve is exit 2.
    fn run(&self, _out: &Output) -> Result<u8, Error> {
        let mut server = adapter::Server::new(&self.model, self.mistake.as_deref())?;
        let stdin = BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
        let stdout = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
        adapter::serve(&mut server, stdin, stdout)?;
        Ok(CLEAN)
    }
}
