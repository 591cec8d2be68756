//! The verifier of a release asset: a streaming reader that accepts an archive when every
//! mainstream tar reader (GNU tar, bsdtar, busybox tar, Python's `tarfile` with `filter='data'`)
//! would extract exactly the files verified here, and refuses it, naming the entry and the
//! construct, when they could disagree or when it is not a release of the suite.
//!
//! What is judged is what readers extract, never the bytes: an asset made by `bqsuite release`, by
//! the suite's old pipeline (GNU tar, sorted, `gzip -n`), by bsdtar, busybox or Python is
//! accepted alike. The rule, construct by construct, is `docs/reference/release-asset.md`:
//! - gzip (`gzip.rs`): one member, any deflate stream; the optional header fields are skipped,
//!   never shown; reserved flag bits, a second member and bytes after the member are refused;
//! - tar headers (`header.rs`): POSIX ustar, GNU and pax shapes, numeric fields only in the form
//!   every reader parses alike; metadata (mode, owner, times, names) and entry order are ignored;
//! - extended headers (`pax.rs`): only records that cannot change which file gets which bytes;
//!   global headers, GNU long names and sparse files are refused;
//! - entries (`walk.rs`, `path.rs`, `entries.rs`): regular files and directories only, under the
//!   single root `<asset>-<version>/` of the expected suite, with no duplicates or case
//!   collisions, laid out as a release is ([`crate::layout`]); directory entries may be missing;
//!   zero padding after the end-of-archive blocks is read up to a cap (past it: a bomb);
//! - whose release it is (`identity.rs`): the root and the description the archive carries
//!   (`suite.json`, none for BabelQueue's) are the expected suite's ([`Expected`]).
//!
//! Nothing is written here: entries are handed to a [`Sink`] after they passed every check that
//! can be made before their content is read, and [`verify`] returns only when the whole stream —
//! the gzip trailer (CRC-32 and length) and the end of input included — has been read and checked.
//! Memory is bounded by [`Limits`], never by the archive's size. The limits are the suite's own
//! ([`crate::limits`]): what is accepted, the loader reads whole.

use std::io::{self, BufRead, Read};

mod codes;
mod entries;
mod fault;
mod findings;
mod gzip;
mod header;
mod identity;
mod limits;
mod path;
mod pax;
mod sink;
mod walk;

pub use codes::Code;
pub use fault::{Fault, show_path};
pub use gzip::GzMember;
pub use header::BLOCK;
pub use identity::Expected;
pub use limits::Limits;
pub use sink::{Collect, Discard, Sink, Summary};
use walk::Walker;

/// Verifies the gzip-compressed tar stream `input` as the release asset of `version` of the
/// `expected` suite, handing each entry to `sink`. Returns only after the whole input was read:
/// end-of-archive blocks, the gzip trailer, and nothing after the gzip member.
pub fn verify<R: BufRead>(
    input: R,
    expected: &Expected,
    version: &str,
    limits: &Limits,
    sink: &mut dyn Sink,
) -> Result<Summary, Fault> {
    let mut walker = Walker::new(input, expected, version, limits)?;
    walker.walk(sink)?;
    walker.finish()
}

/// The first path component of the archive's first entry (extended headers skipped), read
/// without verifying the rest: how `diff` learns which suite and version a tarball claims to be. `None`
/// when the start of the stream is not a readable header.
pub fn first_component<R: BufRead>(input: R) -> Option<String> {
    let mut gz = GzMember::new(input, 1 << 20).ok()?;
    for _ in 0..2 {
        let mut block = [0u8; BLOCK];
        gz.read_exact(&mut block).ok()?;
        let parsed = header::parse(&block).ok()?;
        if parsed.typeflag != b'x' {
            let path = String::from_utf8(parsed.path).ok()?;
            return path.split('/').next().map(str::to_string);
        }
        let blocks = parsed.size.div_ceil(BLOCK as u64);
        if blocks > pax::MAX_PAX_BYTES / BLOCK as u64 {
            return None;
        }
        io::copy(&mut (&mut gz).take(blocks * BLOCK as u64), &mut io::sink()).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SuiteLimits;
    use bqsuite_core::error::Error;

    #[test]
    fn fault_survives_io_error() {
        let e = Fault::from(bqsuite_core::diag::Diagnostic::error(
            Code::ArchiveCorrupt,
            "x",
            "m",
        ))
        .into_io();
        let back = Fault::from_io(e, |_| panic!("lost"));
        assert_eq!(back.diagnostic().unwrap().code.as_str(), "archive-corrupt");
        let plain = io::Error::other("plain");
        assert!(matches!(
            Fault::from_io(plain, |e| Fault::Failed(Error::io("read", "x", e))),
            Fault::Failed(_)
        ));
    }

    #[test]
    fn default_limits_admit_the_suite_loader_caps() {
        let l = Limits::default();
        assert_eq!(l.suite(), SuiteLimits::SUITE);
        assert!(l.max_archive_bytes > l.max_tar_bytes);
    }
}
