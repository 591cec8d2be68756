//! `bqsuite fetch`'s arguments.

use std::path::PathBuf;

use clap::Args;

// The subcommand's own help text is the doc comment of `Command::Fetch`.
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// The suite version to fetch (SemVer, e.g. 1.5.0).
    pub version: String,
    /// Where to unpack (must not exist or be empty), or with --check / --update the vendored
    /// directory.
    pub dest: PathBuf,
    /// Compare DEST with the release instead of unpacking; writes nothing.
    #[arg(long, conflicts_with = "update")]
    pub check: bool,
    /// Make DEST's vendored set (CONFORMANCE_VERSION, manifest.json, suite.json if any,
    /// fixtures/, schema/) equal to the release's, keeping the SDK's own files; what to run when --check is red.
    #[arg(long)]
    pub update: bool,
    /// The suite to fetch when DEST holds no vendored copy: babelqueue or sbp [default:
    /// babelqueue]. A vendored copy says which suite it is (its suite.json, else BabelQueue's);
    /// naming another suite is an error.
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// Pin the asset's sha256 (authenticity); SHA256SUMS is then not needed.
    #[arg(long, value_name = "HEX")]
    pub sha256: Option<String>,
    /// With --check: show unified diffs of changed text files.
    #[arg(long, requires = "check")]
    pub diff: bool,
    /// Give up on a download that takes longer than this many seconds in all, retries
    /// included [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Give up on a download that averages fewer bytes per second than this once 30 seconds
    /// have passed; 0 turns the rule off [default: 1024].
    #[arg(long, value_name = "BYTES")]
    pub min_speed: Option<u64>,
}
