//! `bqsuite man`: one page on standard output, or every page into a directory. The pages
//! themselves are made in `cli::man`.

use std::path::{Path, PathBuf};

use bqsuite_core::Error;
use bqsuite_core::diag::Report;
use serde_json::json;

use super::{Page, Run};
use crate::cli::man;
use crate::cli::output::{self, Output};

/// Print a manual page (roff, for `man -l -`): bqsuite(1), or the page of the command named
/// (`bqsuite man fetch`, `bqsuite man results check`); or write every page with --out.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command whose page to print (fetch, results check...) [default: bqsuite(1), the
    /// overview].
    #[arg(value_name = "COMMAND", conflicts_with = "out")]
    page: Vec<String>,
    /// Write every page (bqsuite.1, bqsuite-fetch.1, bqsuite-results-check.1...) into this
    /// directory, created if missing; each file is replaced whole.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub const PAGES: &[Page] = &[Page {
    key: "man",
    found: "not used",
    examples: &[
        ("Read bqsuite(1)", "bqsuite man | man -l -"),
        (
            "Read the page of results check",
            "bqsuite man results check | man -l -",
        ),
        (
            "Install every page for your user",
            "bqsuite man --out ~/.local/share/man/man1",
        ),
    ],
}];

impl Run for Args {
    fn name(&self) -> &'static str {
        "man"
    }

    fn subject(&self) -> String {
        match &self.out {
            Some(dir) => dir.display().to_string(),
            None => self.page.join(" "),
        }
    }

    fn run(&self, out: &Output) -> Result<u8, Error> {
        if let Some(dir) = &self.out {
            return write_all(dir, out);
        }
        // `results check` and `results-check` name the same page.
        let path: Vec<&str> = self.page.iter().flat_map(|w| w.split('-')).collect();
        let path: Vec<&str> = match path.first() {
            Some(&"bqsuite") => path[1..].to_vec(),
            _ => path,
        };
        match man::page(&path) {
            Some(text) => Ok(output::generated(out, &text)),
            None => {
                let known: Vec<String> = man::paths(&man::tree())
                    .iter()
                    .filter(|p| !p.is_empty())
                    .map(|p| p.join(" "))
                    .collect();
                Err(Error::Usage(format!(
                    "there is no command `bqsuite {}`, so no manual page for it; the pages are \
                     bqsuite(1) (`bqsuite man`) and those of {}",
                    self.page.join(" "),
                    known.join(", ")
                )))
            }
        }
    }
}

/// Writes every page into `dir` (created if missing), each through a temporary file renamed into
/// place.
fn write_all(dir: &Path, out: &Output) -> Result<u8, Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::bad_path(
            dir,
            "is not a directory; give --out a directory (it is created if missing)",
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create directory", dir, e))?;
    let mut report = Report::new(dir.display().to_string());
    let mut files = Vec::new();
    for path in man::paths(&man::tree()) {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = man::page(&words).expect("a path of the tree has a page");
        let file = format!("{}.1", man::page_name(&words));
        let target = dir.join(&file);
        bqsuite_core::fsutil::write_atomic(&target, text.as_bytes())?;
        report.summary.push(format!(
            "wrote {}",
            bqsuite_core::error::shown_path(&target)
        ));
        files.push(file);
    }
    report.data = json!({ "out": dir.display().to_string(), "pages": files });
    Ok(out.emit(&report, &format!("holds the {} manual pages", files.len())))
}
