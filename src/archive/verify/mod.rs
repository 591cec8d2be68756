//! The verifier of a release asset: a streaming reader that accepts exactly the shape `bqsuite
//! release` writes and refuses everything else, naming the entry and the rule.
//!
//! What release writes, and so the only thing accepted here: one gzip member (nothing after it)
//! holding a tar stream of POSIX ustar headers; every entry is a regular file or a directory under
//! the single root directory `babelqueue-conformance-<version>/`; the stream ends with two zero
//! blocks (zero padding after them is tolerated, up to a cap).
//!
//! Every header must be byte for byte the header `release` writes for its path, kind, size and
//! mtime ([`crate::release::ustar::header`]): magic `ustar\0` and version `00`; typeflag `0` or
//! `5`; mode `0000644\0` or `0000755\0`; uid, gid, devmajor, devminor `0000000\0`; size and
//! mtime as 11 octal digits and a NUL (no leading NUL or space, no base-256); the checksum as 6
//! octal digits, NUL, space; empty link name, user and group names; the ustar prefix only as
//! release splits a path longer than 100 bytes; and one mtime for every entry. PAX extended
//! headers (`x`, `g`) and GNU extensions (`L`, `K`, the old GNU magic) are refused: release never
//! writes them, and tools that honour them would read another path or size than the one checked
//! here (`archive-extension-header`, `archive-noncanonical`). So what is verified is what every
//! tar reader extracts.
//!
//! Nothing is written here: entries are handed to a [`Sink`] after they passed every check that
//! can be made before their content is read, and [`verify`] returns only when the whole stream —
//! the gzip trailer (CRC-32 and length) and the end of input included — has been read and checked.
//! Memory is bounded by [`Limits`], never by the archive's size.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::{self, BufRead, Read};

use std::cell::RefCell;
use std::rc::Rc;

use crate::archive::{LICENSE_FILE, root_dir};
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::suite::layout::{self, Place};
use crate::suite::limits::SuiteLimits;
use crate::suite::load::VERSION_FILE;

pub mod canonical;
mod gzip;
mod header;

use canonical::{Matcher, Recreate};
pub use gzip::GzMember;
use gzip::below;
use header::{canonical_header, canonical_octal, field_str, noncanonical, octal};

/// A tar block.
pub const BLOCK: usize = 512;

/// Every stable code a refused archive can carry (for the README and the tests).
pub const CODES: &[&str] = &[
    "archive-symlink",
    "archive-hardlink",
    "archive-special",
    "archive-unknown-type",
    "archive-sparse",
    "archive-extension-header",
    "archive-noncanonical",
    "archive-absolute-path",
    "archive-dotdot",
    "archive-bad-path",
    "archive-outside-root",
    "archive-multiple-roots",
    "archive-duplicate",
    "archive-case-collision",
    "archive-layout",
    "archive-entry-too-large",
    "archive-too-large",
    "archive-too-many-entries",
    "archive-corrupt",
    "archive-truncated",
    "archive-trailing-garbage",
    "archive-version-mismatch",
];

/// Caps that keep verification bounded whatever the input (decompression bombs included). The
/// defaults are the suite's own limits ([`crate::suite::limits`]): an archive is accepted only
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
    pub fn refuse(
        code: &'static str,
        entry: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Fault::Refused(Box::new(Diagnostic::error(code, entry, message)))
    }

    /// A refusal with `code` and a help line.
    pub fn refuse_help(
        code: &'static str,
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
    // The asset's bytes and release's run apart by at most one entry (re-written once read)
    // and the compressor's buffers.
    let cap = usize::try_from(limits.max_entry_bytes.saturating_mul(2))
        .unwrap_or(usize::MAX)
        .saturating_add(8 << 20);
    let matcher = Rc::new(RefCell::new(Matcher::new(cap)));
    let gz = GzMember::tapped(input, limits.max_tar_bytes, Some(matcher.clone()))?;
    let root = root_dir(version);
    let mut walker = Walker {
        gz,
        limits,
        recreate: Recreate::new(&root, matcher),
        data: Vec::new(),
        root,
        version,
        paths: Paths::default(),
        summary: Summary {
            files: 0,
            dirs: 0,
            bytes: 0,
            vendored_files: 0,
            vendored_bytes: 0,
        },
        entries: 0,
        names_bytes: 0,
        seen_root: false,
        version_text: None,
        mtime: None,
    };
    walker.walk(sink)?;
    walker.finish()
}

fn corrupt(message: impl Into<String>) -> Fault {
    Fault::refuse_help(
        "archive-corrupt",
        "",
        message,
        "the download is damaged or not a release asset; fetch it again",
    )
}

fn truncated(message: impl Into<String>) -> Fault {
    Fault::refuse_help(
        "archive-truncated",
        "",
        message,
        "the download is incomplete; fetch it again",
    )
}

/// Refuses an entry that has no place in a release (see [`crate::suite::layout`]): anything but
/// CONFORMANCE_VERSION, manifest.json, LICENSE, and portable `*.json` names directly in fixtures/
/// and schema/.
fn check_layout(rel: &str, shown: &str, is_dir: bool) -> Result<(), Fault> {
    let refuse = |why: String| {
        Err(Fault::refuse_help(
            "archive-layout",
            shown,
            format!("entry `{shown}` {why}"),
            "a release holds only CONFORMANCE_VERSION, manifest.json, LICENSE, fixtures/*.json \
             and schema/*.json, with portable names; this archive was not written by `bqsuite \
             release`",
        ))
    };
    match (layout::release_path(rel), is_dir) {
        (Err(refusal), _) => refuse(refusal.reason),
        (Ok(Place::DataDir), true) => Ok(()),
        (Ok(Place::DataDir), false) => refuse("is a file where release writes a directory".into()),
        (Ok(_), true) => refuse("is a directory where release writes a file".into()),
        (Ok(_), false) => Ok(()),
    }
}

/// How an entry path is shown in a message: UTF-8 with control and bidi characters escaped, or
/// every non-ASCII byte escaped when it is not UTF-8.
pub fn show_path(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => crate::shell::escape(s),
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
                "archive-case-collision",
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
                        "archive-duplicate",
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
                "archive-duplicate",
                path,
                format!("entry `{path}` is a regular file, but earlier entries lie inside it"),
            )),
            (Some(_), _) => Err(Fault::refuse_help(
                "archive-duplicate",
                path,
                format!("entry `{path}` appears more than once"),
                "a later copy would silently replace the earlier one",
            )),
        }
    }
}

/// The tar walk over a decompressed stream.
struct Walker<'a, R> {
    gz: GzMember<R>,
    limits: &'a Limits,
    /// Release's writers, re-writing every accepted entry ([`canonical`]).
    recreate: Recreate,
    /// The content of the file entry being read, for `recreate`.
    data: Vec<u8>,
    root: String,
    version: &'a str,
    paths: Paths,
    summary: Summary,
    entries: usize,
    names_bytes: u64,
    seen_root: bool,
    version_text: Option<Vec<u8>>,
    /// The first entry's mtime: every entry of a release has the same one.
    mtime: Option<u64>,
}

/// Reads one regular file's content from the tar stream, never past its end; what is read is
/// also kept in `copy` when there is one.
struct EntryReader<'e, R> {
    gz: &'e mut GzMember<R>,
    remaining: u64,
    path: &'e str,
    copy: Option<&'e mut Vec<u8>>,
}

impl<R: BufRead> Read for EntryReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.remaining == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        let n = self.gz.read(&mut buf[..want])?;
        if n == 0 {
            return Err(truncated(format!(
                "the archive ends inside the content of `{}`",
                self.path
            ))
            .into_io());
        }
        self.remaining -= n as u64;
        if let Some(copy) = self.copy.as_mut() {
            copy.extend_from_slice(&buf[..n]);
        }
        Ok(n)
    }
}

impl<R: BufRead> EntryReader<'_, R> {
    fn drain(&mut self) -> Result<(), Fault> {
        let mut buf = vec![0u8; 64 * 1024];
        while self.remaining > 0 {
            self.read(&mut buf)
                .map_err(|e| below(e, "an entry's content"))?;
        }
        Ok(())
    }
}

impl<R: BufRead> Walker<'_, R> {
    fn block(&mut self, what: &str) -> Result<Option<[u8; BLOCK]>, Fault> {
        let mut block = [0u8; BLOCK];
        let mut filled = 0;
        while filled < BLOCK {
            let n = self
                .gz
                .read(&mut block[filled..])
                .map_err(|e| below(e, what))?;
            if n == 0 {
                if filled == 0 {
                    return Ok(None);
                }
                return Err(truncated(format!("the tar stream ends inside {what}")));
            }
            filled += n;
        }
        Ok(Some(block))
    }

    fn skip_padding(&mut self, size: u64) -> Result<(), Fault> {
        let pad = (BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64;
        let mut buf = [0u8; BLOCK];
        let mut left = pad as usize;
        while left > 0 {
            let n = self
                .gz
                .read(&mut buf[..left])
                .map_err(|e| below(e, "the padding of an entry"))?;
            if n == 0 {
                return Err(truncated("the tar stream ends inside an entry's padding"));
            }
            left -= n;
        }
        Ok(())
    }

    fn walk(&mut self, sink: &mut dyn Sink) -> Result<(), Fault> {
        loop {
            let Some(header) = self.block("a tar header")? else {
                return Err(truncated(
                    "the tar stream ends without its end-of-archive blocks",
                ));
            };
            if header.iter().all(|&b| b == 0) {
                return self.end_of_archive();
            }
            let stored = octal(&header[148..156])
                .ok_or_else(|| corrupt("a tar header's checksum field is not a number"))?;
            let sum: u64 = header
                .iter()
                .enumerate()
                .map(|(i, &b)| u64::from(if (148..156).contains(&i) { b' ' } else { b }))
                .sum();
            if stored != sum {
                return Err(corrupt(format!(
                    "a tar header's checksum does not match (stored {stored}, computed {sum})"
                )));
            }
            let typeflag = header[156];
            let name = field_str(&header[0..100]);
            let prefix = field_str(&header[345..500]);
            let path_bytes = if prefix.is_empty() {
                name.to_vec()
            } else {
                [prefix, b"/", name].concat()
            };
            let shown = show_path(&path_bytes);
            self.check_type(typeflag, &shown, &header)?;
            if &header[257..265] != b"ustar\x0000" {
                return Err(noncanonical(
                    &shown,
                    "its header is not POSIX ustar (magic `ustar\\0`, version `00`): an old GNU \
                     or v7 header, which tools read differently",
                ));
            }
            let size = canonical_octal(&header[124..136]).ok_or_else(|| {
                noncanonical(&shown, "its size field is not 11 octal digits and a NUL")
            })?;
            let mtime = canonical_octal(&header[136..148]).ok_or_else(|| {
                noncanonical(&shown, "its mtime field is not 11 octal digits and a NUL")
            })?;
            match self.mtime {
                None => self.mtime = Some(mtime),
                Some(first) if first != mtime => {
                    return Err(noncanonical(
                        &shown,
                        "its mtime differs from the first entry's (a release has one mtime)",
                    ));
                }
                Some(_) => {}
            }
            let is_dir = typeflag == b'5';
            let rel = self.check_path(&path_bytes, &shown, is_dir)?;
            canonical_header(&header, &path_bytes, is_dir, size, mtime, &shown)?;
            self.entries += 1;
            if self.entries > self.limits.max_entries {
                return Err(Fault::refuse(
                    "archive-too-many-entries",
                    &shown,
                    format!(
                        "the archive has more than {} entries",
                        self.limits.max_entries
                    ),
                ));
            }
            let full = format!(
                "{}{}{}",
                self.root,
                if rel.is_empty() { "" } else { "/" },
                rel
            );
            self.names_bytes += full.len() as u64;
            if self.names_bytes > self.limits.max_names_bytes {
                return Err(Fault::refuse(
                    "archive-too-large",
                    &shown,
                    format!(
                        "the archive's entry names add up to more than {} bytes",
                        self.limits.max_names_bytes
                    ),
                ));
            }
            if is_dir {
                if size != 0 {
                    return Err(corrupt(format!(
                        "directory entry `{shown}` claims {size} bytes of content"
                    )));
                }
                self.paths.add(&full, Kind::Dir)?;
                self.summary.dirs += 1;
                if !rel.is_empty() {
                    check_layout(&rel, &shown, true)?;
                    sink.directory(&rel)?;
                }
                self.recreate.entry(&rel, None, mtime);
                continue;
            }
            if size > self.limits.max_entry_bytes {
                return Err(Fault::refuse_help(
                    "archive-entry-too-large",
                    &shown,
                    format!(
                        "entry `{shown}` is {size} bytes; a release file is at most {} bytes",
                        self.limits.max_entry_bytes
                    ),
                    "a decompression bomb or not a release asset",
                ));
            }
            let vendored = rel != LICENSE_FILE;
            if vendored {
                self.vendored_limits(size, &shown)?;
            }
            self.paths.add(&full, Kind::File)?;
            check_layout(&rel, &shown, false)?;
            self.summary.files += 1;
            self.summary.bytes += size;
            if vendored {
                self.summary.vendored_files += 1;
                self.summary.vendored_bytes += size;
            }
            self.data.clear();
            if rel == VERSION_FILE {
                self.version_file(size, &shown, sink)?;
            } else {
                let mut reader = EntryReader {
                    gz: &mut self.gz,
                    remaining: size,
                    path: &shown,
                    copy: (!self.recreate.settled()).then_some(&mut self.data),
                };
                sink.file(&rel, size, &mut reader)?;
                reader.drain()?;
            }
            self.recreate.entry(&rel, Some(&self.data), mtime);
            self.skip_padding(size)?;
        }
    }

    /// The suite's limits on the vendored set ([`crate::suite::limits`]): a release the loader
    /// would read only in part is refused here, before anything is written.
    fn vendored_limits(&self, size: u64, shown: &str) -> Result<(), Fault> {
        if self.summary.vendored_files >= self.limits.max_files {
            return Err(Fault::refuse_help(
                "archive-too-many-entries",
                shown,
                format!(
                    "the archive holds more than {} files besides LICENSE (at entry `{shown}`); \
                     a suite, and so a release, holds at most that many",
                    self.limits.max_files
                ),
                "not a release `bqsuite release` could have written; nothing was written",
            ));
        }
        if self.summary.vendored_bytes + size > self.limits.max_total_bytes {
            return Err(Fault::refuse_help(
                "archive-too-large",
                shown,
                format!(
                    "the archive's files besides LICENSE add up to more than {} bytes (at entry \
                     `{shown}`); a suite, and so a release, holds at most that much",
                    self.limits.max_total_bytes
                ),
                "a decompression bomb or not a release asset; nothing was written",
            ));
        }
        Ok(())
    }

    fn version_file(&mut self, size: u64, shown: &str, sink: &mut dyn Sink) -> Result<(), Fault> {
        let mut reader = EntryReader {
            gz: &mut self.gz,
            remaining: size,
            path: shown,
            copy: None,
        };
        if size > MAX_VERSION_BYTES {
            return Err(Fault::refuse(
                "archive-version-mismatch",
                shown,
                format!(
                    "`{shown}` is {size} bytes; it should hold the version {}",
                    self.version
                ),
            ));
        }
        let mut text = Vec::with_capacity(size as usize);
        reader
            .read_to_end(&mut text)
            .map_err(|e| below(e, "CONFORMANCE_VERSION"))?;
        sink.file(VERSION_FILE, size, &mut io::Cursor::new(&text))?;
        self.data.extend_from_slice(&text);
        self.version_text = Some(text);
        Ok(())
    }

    fn check_type(&self, typeflag: u8, shown: &str, header: &[u8; BLOCK]) -> Result<(), Fault> {
        let only = "the asset holds only regular files and directories";
        let refuse = |code, what: String| {
            Err(Fault::refuse_help(
                code,
                shown,
                format!("entry `{shown}` is {what}"),
                only,
            ))
        };
        match typeflag {
            b'0' | 0 | b'5' => Ok(()),
            b'1' => refuse(
                "archive-hardlink",
                format!(
                    "a hard link (to `{}`)",
                    show_path(field_str(&header[157..257]))
                ),
            ),
            b'2' => refuse(
                "archive-symlink",
                format!(
                    "a symbolic link (to `{}`)",
                    show_path(field_str(&header[157..257]))
                ),
            ),
            b'3' => refuse("archive-special", "a character device".into()),
            b'4' => refuse("archive-special", "a block device".into()),
            b'6' => refuse("archive-special", "a FIFO (named pipe)".into()),
            b'S' => refuse("archive-sparse", "a GNU sparse file".into()),
            b'x' | b'g' => refuse(
                "archive-extension-header",
                "a PAX extended header (release writes none; tools that honour it would read \
                 another path or size than the header's)"
                    .into(),
            ),
            b'L' | b'K' => refuse(
                "archive-extension-header",
                "a GNU long-name header (release writes none; tools that honour it would read \
                 another name than the header's)"
                    .into(),
            ),
            other => refuse(
                "archive-unknown-type",
                format!("of unknown type `{}`", [other].escape_ascii()),
            ),
        }
    }

    /// Checks an entry's path; returns it relative to the root (empty for the root itself).
    fn check_path(&mut self, path: &[u8], shown: &str, is_dir: bool) -> Result<String, Fault> {
        let bad = |why: &str| {
            Err(Fault::refuse(
                "archive-bad-path",
                shown,
                format!("entry `{shown}` {why}"),
            ))
        };
        if path.is_empty() {
            return bad("has an empty name");
        }
        if path[0] == b'/' {
            return Err(Fault::refuse_help(
                "archive-absolute-path",
                shown,
                format!("entry `{shown}` has an absolute path"),
                "every entry must lie under the archive's root directory",
            ));
        }
        if path.len() > self.limits.max_path_bytes {
            return bad(&format!(
                "has a path longer than {} bytes",
                self.limits.max_path_bytes
            ));
        }
        let trimmed = match path.strip_suffix(b"/") {
            Some(t) if is_dir => t,
            Some(_) => return bad("ends with `/` but is not a directory entry"),
            None => path,
        };
        let parts: Vec<&[u8]> = trimmed.split(|&b| b == b'/').collect();
        if parts.iter().any(|p| *p == b"..") {
            return Err(Fault::refuse_help(
                "archive-dotdot",
                shown,
                format!("entry `{shown}` has a `..` component"),
                "an entry must never reach outside the directory it is unpacked into",
            ));
        }
        for part in &parts {
            if part.is_empty() {
                return bad("has an empty path component (`//`)");
            }
            if *part == b"." {
                return bad("has a `.` component");
            }
            if part.contains(&b'\\') || part.contains(&b':') {
                return bad("contains `\\` or `:` (a path separator or drive on some systems)");
            }
            if part.iter().any(|&b| b < 0x20 || b == 0x7f) {
                return bad("contains a control character");
            }
            if part.len() > 255 {
                return bad("has a component longer than 255 bytes");
            }
        }
        if parts.len() > MAX_DEPTH {
            return bad(&format!("is nested deeper than {MAX_DEPTH} levels"));
        }
        let Ok(text) = std::str::from_utf8(trimmed) else {
            return bad("is not valid UTF-8");
        };
        let mut components = text.split('/');
        let first = components.next().unwrap_or_default();
        let rest: Vec<&str> = components.collect();
        if first != self.root {
            if self.seen_root && (is_dir || !rest.is_empty()) {
                return Err(Fault::refuse_help(
                    "archive-multiple-roots",
                    shown,
                    format!(
                        "entry `{shown}` starts a second top-level directory `{first}` besides \
                         `{}/`",
                        self.root
                    ),
                    "a release asset has exactly one root directory",
                ));
            }
            return Err(Fault::refuse_help(
                "archive-outside-root",
                shown,
                format!(
                    "entry `{shown}` lies outside the root directory `{}/`",
                    self.root
                ),
                "a release asset of this version has every entry under that directory",
            ));
        }
        if rest.is_empty() && !is_dir {
            return Err(Fault::refuse(
                "archive-outside-root",
                shown,
                format!(
                    "the root `{}` is a regular file, not a directory",
                    self.root
                ),
            ));
        }
        self.seen_root = true;
        Ok(rest.join("/"))
    }

    fn end_of_archive(&mut self) -> Result<(), Fault> {
        match self.block("the end-of-archive marker")? {
            None => {
                return Err(truncated(
                    "the tar stream has only one of its two end-of-archive blocks",
                ));
            }
            Some(b) if b.iter().any(|&x| x != 0) => {
                return Err(Fault::refuse_help(
                    "archive-trailing-garbage",
                    "",
                    "data follows the first end-of-archive block",
                    "a hidden entry after the end marker; some tools would read it",
                ));
            }
            Some(_) => {}
        }
        let mut padding: u64 = 0;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = self
                .gz
                .read(&mut buf)
                .map_err(|e| below(e, "the end of the tar stream"))?;
            if n == 0 {
                break;
            }
            if buf[..n].iter().any(|&b| b != 0) {
                return Err(Fault::refuse_help(
                    "archive-trailing-garbage",
                    "",
                    "non-zero data follows the end-of-archive blocks",
                    "a release asset ends with its end-of-archive blocks",
                ));
            }
            padding += n as u64;
            if padding > self.limits.max_padding_bytes {
                return Err(Fault::refuse(
                    "archive-too-large",
                    "",
                    format!(
                        "more than {} bytes of padding follow the end of the archive",
                        self.limits.max_padding_bytes
                    ),
                ));
            }
        }
        if padding > 0 {
            self.recreate.differ(format!(
                "{padding} bytes of zero padding follow the end-of-archive blocks; release \
                 writes none"
            ));
        }
        debug_assert!(self.gz.is_done());
        let rest = self
            .gz
            .inner_mut()
            .fill_buf()
            .map_err(|e| below(e, "the end of the archive"))?;
        if !rest.is_empty() {
            let what = if rest.starts_with(&[0x1f, 0x8b]) {
                "a second gzip member follows the first"
            } else {
                "bytes follow the end of the gzip stream"
            };
            return Err(Fault::refuse_help(
                "archive-trailing-garbage",
                "",
                what,
                "a release asset is exactly one gzip member; other tools would read what follows",
            ));
        }
        Ok(())
    }

    fn finish(self) -> Result<Summary, Fault> {
        let shown = format!("{}/{VERSION_FILE}", self.root);
        let Some(text) = self.version_text else {
            return Err(Fault::refuse(
                "archive-version-mismatch",
                shown,
                format!(
                    "the archive has no `{}/{VERSION_FILE}`; a release of {} has one",
                    self.root, self.version
                ),
            ));
        };
        let found = std::str::from_utf8(&text).map(str::trim).unwrap_or("");
        if found != self.version {
            return Err(Fault::refuse_help(
                "archive-version-mismatch",
                shown,
                format!(
                    "the archive's CONFORMANCE_VERSION is `{}`, not {}",
                    show_path(found.as_bytes()),
                    self.version
                ),
                "the asset is not the release of the version asked for",
            ));
        }
        self.recreate.finish(true)?;
        Ok(self.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_fields() {
        assert_eq!(octal(b"0000644\0"), Some(0o644));
        assert_eq!(octal(b"   644 \0"), Some(0o644));
        assert_eq!(octal(b"\0\0\0\0"), Some(0));
        assert_eq!(octal(b"0000648\0"), None);
        assert_eq!(octal(b"12 3\0"), None);
        assert_eq!(octal(&[0x80, 0, 0, 1]), None);
        assert_eq!(octal(b"77777777777777777777777"), None);
    }

    #[test]
    fn canonical_octal_fields() {
        assert_eq!(canonical_octal(b"00000001000\0"), Some(512));
        // The size-field differential: a leading NUL reads as 0 to some tools, 512 to GNU tar.
        assert_eq!(canonical_octal(b"\x0000000001000"), None);
        assert_eq!(canonical_octal(b" 0000001000\0"), None);
        assert_eq!(canonical_octal(b"00000001000 "), None);
        assert_eq!(
            canonical_octal(&[0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]),
            None
        );
        assert_eq!(canonical_octal(b"00000001008\0"), None);
    }

    #[test]
    fn fault_survives_io_error() {
        let e = Fault::refuse("archive-corrupt", "x", "m").into_io();
        let back = Fault::from_io(e, |_| panic!("lost"));
        assert_eq!(back.diagnostic().unwrap().code, "archive-corrupt");
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
