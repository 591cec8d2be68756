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
//! - entries: regular files and directories only, under the single root
//!   `babelqueue-conformance-<version>/`, with no duplicates or case collisions, laid out as a
//!   release is ([`crate::layout`]); directory entries may be missing; zero padding after
//!   the end-of-archive blocks is read up to a cap (past it: a bomb).
//!
//! Nothing is written here: entries are handed to a [`Sink`] after they passed every check that
//! can be made before their content is read, and [`verify`] returns only when the whole stream —
//! the gzip trailer (CRC-32 and length) and the end of input included — has been read and checked.
//! Memory is bounded by [`Limits`], never by the archive's size. The limits are the suite's own
//! ([`crate::limits`]): what is accepted, the loader reads whole.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::{self, BufRead, Read};

use crate::archive::{LICENSE_FILE, root_dir};
use crate::layout::{self, Place};
use crate::limits::SuiteLimits;
use crate::load::{MANIFEST, VERSION_FILE};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::Error;

mod gzip;
mod header;
mod path;
mod pax;
mod walk;

pub use gzip::GzMember;
use walk::Walker;

bqsuite_core::finding_codes! {
    /// Why an archive is refused.
    pub enum Code {
        ArchiveSymlink = "archive-symlink",
        ArchiveHardlink = "archive-hardlink",
        ArchiveSpecial = "archive-special",
        ArchiveUnknownType = "archive-unknown-type",
        ArchiveSparse = "archive-sparse",
        ArchiveExtensionHeader = "archive-extension-header",
        ArchiveAmbiguousHeader = "archive-ambiguous-header",
        ArchiveAbsolutePath = "archive-absolute-path",
        ArchiveDotdot = "archive-dotdot",
        ArchiveBadPath = "archive-bad-path",
        ArchiveOutsideRoot = "archive-outside-root",
        ArchiveMultipleRoots = "archive-multiple-roots",
        ArchiveDuplicate = "archive-duplicate",
        ArchiveCaseCollision = "archive-case-collision",
        ArchiveLayout = "archive-layout",
        ArchiveEntryTooLarge = "archive-entry-too-large",
        ArchiveTooLarge = "archive-too-large",
        ArchiveTooManyEntries = "archive-too-many-entries",
        ArchiveCorrupt = "archive-corrupt",
        ArchiveTruncated = "archive-truncated",
        ArchiveTrailingGarbage = "archive-trailing-garbage",
        ArchiveVersionMismatch = "archive-version-mismatch",
    }
}

/// A tar block.
pub const BLOCK: usize = 512;

/// Caps that keep verification bounded whatever the input (decompression bombs included). The
/// defaults are the suite's own limits ([`crate::limits`]): an archive is accepted only
/// when the loader reads all of its vendored set, so `fetch --update` never vendors part of a
/// release. A library caller may make them smaller; `fetch --update` then loads with the same
/// ([`Limits::suite`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest compressed asset read (download size).
    pub max_archive_bytes: u64,
    /// Largest single regular file (LICENSE included).
    pub max_entry_bytes: u64,
    /// Largest sum of the vendored files' sizes (LICENSE, bounded by `max_entry_bytes`, is not
    /// counted).
    pub max_total_bytes: u64,
    /// Most files of the vendored set (LICENSE is not counted).
    pub max_files: usize,
    /// Most file and directory entries.
    pub max_entries: usize,
    /// Longest entry path, in bytes.
    pub max_path_bytes: usize,
    /// Largest sum of all entry paths' lengths (bounds the memory of duplicate detection).
    pub max_names_bytes: u64,
    /// Largest decompressed tar stream (data, headers, padding, zero blocks).
    pub max_tar_bytes: u64,
    /// Most zero bytes tolerated after the two end-of-archive blocks (tar record padding).
    pub max_padding_bytes: u64,
}

/// Deepest entry path (components, root included).
const MAX_DEPTH: usize = 32;
/// Longest CONFORMANCE_VERSION read.
const MAX_VERSION_BYTES: u64 = 256;

impl Limits {
    /// The limits derived from the suite's: what a release of a suite within `suite` can be.
    pub fn for_suite(suite: &SuiteLimits) -> Self {
        // The vendored files, LICENSE, and the directories: the root, fixtures/ and schema/.
        let max_entries = suite.max_files + 1 + 1 + layout::DATA_DIRS.len();
        let max_unpacked = suite.max_total_bytes + suite.max_file_bytes;
        // Per entry: a header and up to one block of padding.
        let max_tar_bytes = max_unpacked + max_entries as u64 * 2 * BLOCK as u64 + (1 << 20);
        Limits {
            // Deflate's worst-case expansion is 5 bytes per 64 KiB stored block, plus the header.
            max_archive_bytes: max_tar_bytes + max_tar_bytes / 8192 + (1 << 16),
            max_entry_bytes: suite.max_file_bytes,
            max_total_bytes: suite.max_total_bytes,
            max_files: suite.max_files,
            max_entries,
            max_path_bytes: 1024,
            max_names_bytes: 16 << 20,
            max_tar_bytes,
            max_padding_bytes: 1 << 20,
        }
    }

    /// The suite limits these archive limits keep to: the loader reading an unpacked release uses
    /// them, so it reads everything the verifier accepted.
    pub fn suite(&self) -> SuiteLimits {
        SuiteLimits {
            max_files: self.max_files,
            max_file_bytes: self.max_entry_bytes,
            max_total_bytes: self.max_total_bytes,
        }
    }
}

impl Default for Limits {
    /// [`Limits::for_suite`] of the suite's limits ([`SuiteLimits::SUITE`]).
    fn default() -> Self {
        Limits::for_suite(&SuiteLimits::SUITE)
    }
}

/// Why verification (or a sink) stopped.
#[derive(Debug)]
pub enum Fault {
    /// The archive is refused (exit 1); the diagnostic names the entry and the rule.
    Refused(Box<Diagnostic>),
    /// The job could not be done: network, local I/O (exit 2).
    Failed(Error),
}

impl Fault {
    /// A refusal with `code`, about `entry`.
    pub fn refuse(code: Code, entry: impl Into<String>, message: impl Into<String>) -> Self {
        Fault::Refused(Box::new(Diagnostic::error(code, entry, message)))
    }

    /// A refusal with `code` and a help line.
    pub fn refuse_help(
        code: Code,
        entry: impl Into<String>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        Fault::Refused(Box::new(Diagnostic::error(code, entry, message).help(help)))
    }

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

/// Where verified entries go. Paths are relative to the root directory, `/`-separated, without a
/// trailing slash; the root itself is never passed. A sink need not read a file's content to its
/// end: the verifier reads (and checks) what is left.
pub trait Sink {
    fn directory(&mut self, rel: &str) -> Result<(), Fault>;
    fn file(&mut self, rel: &str, size: u64, content: &mut dyn Read) -> Result<(), Fault>;
}

/// A sink that only verifies.
#[derive(Debug, Default)]
pub struct Discard;

impl Sink for Discard {
    fn directory(&mut self, _rel: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn file(&mut self, _rel: &str, _size: u64, _content: &mut dyn Read) -> Result<(), Fault> {
        Ok(())
    }
}

/// A sink that keeps every file's content, by path (relative to the root). Memory is bounded by
/// the [`Limits`] the archive is verified with.
#[derive(Debug, Default)]
pub struct Collect {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Sink for Collect {
    fn directory(&mut self, _rel: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn file(&mut self, rel: &str, size: u64, content: &mut dyn Read) -> Result<(), Fault> {
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        content.read_to_end(&mut bytes).map_err(|e| {
            Fault::from_io(e, |e| Fault::Failed(Error::io("read", "the archive", e)))
        })?;
        self.files.insert(rel.to_string(), bytes);
        Ok(())
    }
}

/// What a verified archive holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Regular files.
    pub files: usize,
    /// Directories (explicit entries, the root included).
    pub dirs: usize,
    /// The sum of the regular files' sizes.
    pub bytes: u64,
    /// The files of the vendored set (every file but LICENSE).
    pub vendored_files: usize,
    /// The sum of the vendored files' sizes.
    pub vendored_bytes: u64,
}

/// Verifies the gzip-compressed tar stream `input` as the release asset of `version`, handing
/// each entry to `sink`. Returns only after the whole input was read: end-of-archive blocks, the
/// gzip trailer, and nothing after the gzip member.
pub fn verify<R: BufRead>(
    input: R,
    version: &str,
    limits: &Limits,
    sink: &mut dyn Sink,
) -> Result<Summary, Fault> {
    let mut walker = Walker::new(input, version, limits)?;
    walker.walk(sink)?;
    walker.finish()
}

/// The first path component of the archive's first entry (extended headers skipped), read
/// without verifying the rest: how `diff` learns which version a tarball claims to be. `None`
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

fn corrupt(message: impl Into<String>) -> Fault {
    Fault::refuse_help(
        Code::ArchiveCorrupt,
        "",
        message,
        "the download is damaged or not a release asset; fetch it again",
    )
}

fn truncated(message: impl Into<String>) -> Fault {
    Fault::refuse_help(
        Code::ArchiveTruncated,
        "",
        message,
        "the download is incomplete; fetch it again",
    )
}

/// Refuses an entry that has no place in a release (see [`crate::layout`]): anything but
/// CONFORMANCE_VERSION, manifest.json, LICENSE, and portable `*.json` names directly in fixtures/
/// and schema/.
fn check_layout(rel: &str, shown: &str, is_dir: bool) -> Result<(), Fault> {
    let refuse = |why: String| {
        Err(Fault::refuse_help(
            Code::ArchiveLayout,
            shown,
            format!("entry `{shown}` {why}"),
            "a release holds only CONFORMANCE_VERSION, manifest.json, LICENSE, fixtures/*.json \
             and schema/*.json, with portable names; this archive is not a release of the suite",
        ))
    };
    match (layout::release_path(rel), is_dir) {
        (Err(refusal), _) => refuse(refusal.reason),
        (Ok(Place::DataDir), true) => Ok(()),
        (Ok(Place::DataDir), false) => refuse("is a file where a release has a directory".into()),
        (Ok(_), true) => refuse("is a directory where a release has a file".into()),
        (Ok(_), false) => Ok(()),
    }
}

/// How an entry path is shown in a message: UTF-8 with control and bidi characters escaped, or
/// every non-ASCII byte escaped when it is not UTF-8.
pub fn show_path(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => bqsuite_core::shell::escape(s),
        Err(_) => bytes.escape_ascii().to_string(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    /// A directory only implied by the entries below it.
    Implied,
}

/// Every path seen, exactly and case-folded, to refuse duplicates and case collisions.
#[derive(Default)]
struct Paths {
    exact: HashMap<String, Kind>,
    folded: layout::CaseFold,
}

impl Paths {
    fn fold_check(&mut self, path: &str) -> Result<(), Fault> {
        match self.folded.clash(path) {
            Some(other) => Err(Fault::refuse_help(
                Code::ArchiveCaseCollision,
                path,
                format!("entry `{path}` and entry `{other}` differ only in case"),
                "they would overwrite each other on a case-insensitive file system",
            )),
            None => Ok(()),
        }
    }

    fn add(&mut self, path: &str, kind: Kind) -> Result<(), Fault> {
        for (i, _) in path.match_indices('/') {
            let ancestor = &path[..i];
            match self.exact.get(ancestor) {
                Some(Kind::File) => {
                    return Err(Fault::refuse(
                        Code::ArchiveDuplicate,
                        path,
                        format!(
                            "entry `{path}` lies inside `{ancestor}`, which is a regular file \
                             entry"
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.fold_check(ancestor)?;
                    self.exact.insert(ancestor.to_string(), Kind::Implied);
                }
            }
        }
        match (self.exact.get(path).copied(), kind) {
            (None, _) => {
                self.fold_check(path)?;
                self.exact.insert(path.to_string(), kind);
                Ok(())
            }
            (Some(Kind::Implied), Kind::Dir) => {
                self.exact.insert(path.to_string(), Kind::Dir);
                Ok(())
            }
            (Some(Kind::Implied), _) => Err(Fault::refuse(
                Code::ArchiveDuplicate,
                path,
                format!("entry `{path}` is a regular file, but earlier entries lie inside it"),
            )),
            (Some(_), _) => Err(Fault::refuse_help(
                Code::ArchiveDuplicate,
                path,
                format!("entry `{path}` appears more than once"),
                "a later copy would silently replace the earlier one",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_survives_io_error() {
        let e = Fault::refuse(Code::ArchiveCorrupt, "x", "m").into_io();
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
