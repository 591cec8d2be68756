//! The arguments of `run` and `adapter`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

/// `bqsuite run [SUITE] [OPTIONS] -- ADAPTER [ARGS...]`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The suite directory [default: suite, in the current directory].
    #[arg(value_name = "SUITE")]
    pub suite: Option<PathBuf>,
    /// Run only this section (repeatable; with --case, either selects a case).
    #[arg(long = "section", value_name = "SECTION")]
    pub sections: Vec<String>,
    /// Run only this case, named `section/name` as results files name it (repeatable).
    #[arg(long = "case", value_name = "SECTION/NAME")]
    pub cases: Vec<String>,
    /// How long the adapter may take to answer one request, in seconds (a decimal: 0.5);
    /// past it the adapter is stopped, the case errors and the adapter starts again once.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub timeout: Duration,
    /// Where to write the implementation's results.json (a new or regular file).
    #[arg(long, short, value_name = "FILE", default_value = "results.json")]
    pub out: PathBuf,
    /// The adapter command and its arguments, after `--`: it speaks the adapter protocol on
    /// its standard input and output.
    #[arg(last = true, required = true, value_name = "ADAPTER")]
    pub adapter: Vec<OsString>,
}

/// `bqsuite adapter MODEL [--mistake ID]`.
#[derive(Debug, Args)]
pub struct AdapterArgs {
    /// The model to serve, by the name suites' descriptions give it (sbp-v1).
    #[arg(value_name = "MODEL")]
    pub model: String,
    /// Serve the model with this mistake of its catalogue (`bqsuite mutants` lists them): an
    /// implementation with one known bug, which must fail exactly the cases that bug breaks.
    #[arg(long, value_name = "ID")]
    pub mistake: Option<String>,
}

/// A time bound in seconds: a positive decimal of at most an hour.
fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err("a number of seconds above 0 and at most 3600, e.g. 10 or 0.5".into()),
    }
}
