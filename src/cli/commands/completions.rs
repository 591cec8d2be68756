//! `bqsuite completions`.

use bqsuite_core::Error;

use super::{Page, Run};
use crate::cli::args;
use crate::cli::output::{self, Output};

/// Print a shell completion script (bash, zsh, fish, powershell, elvish).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub const PAGES: &[Page] = &[Page {
    key: "completions",
    found: "not used",
    examples: &[
        (
            "Install bash completions for your user",
            "bqsuite completions bash > ~/.local/share/bash-completion/completions/bqsuite",
        ),
        (
            "Install fish completions",
            "bqsuite completions fish > ~/.config/fish/completions/bqsuite.fish",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "completions"
    }

    fn subject(&self) -> String {
        self.shell.to_string()
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut args::command(), "bqsuite", &mut script);
        Ok(output::generated(out, &String::from_utf8_lossy(&script)))
    }
}
