//! The tar walk over the decompressed stream: every header read as every reader reads it
//! ([`super::header`]), extended headers held to records that change nothing ([`super::pax`]),
//! every entry checked and handed to the sink.

use std::io::{self, BufRead, Read};

use super::codes::Code;
use super::entries::{Kind, Paths, check_layout};
use super::fault::{Fault, show_path, truncated};
use super::gzip::{GzMember, below};
use super::header::{self, BLOCK, Format, Header, ambiguous};
use super::limits::{Limits, MAX_VERSION_BYTES};
use super::path;
use super::pax::{self, MAX_PAX_BYTES};
use super::sink::{Sink, Summary};
use crate::archive::{LICENSE_FILE, root_dir};
use crate::load::{MANIFEST, VERSION_FILE};

impl<'a, R: BufRead> Walker<'a, R> {
    /// Reads the gzip header of `input` and starts the walk.
    pub(super) fn new(input: R, version: &'a str, limits: &'a Limits) -> Result<Self, Fault> {
        let gz = GzMember::new(input, limits.max_tar_bytes)?;
        Ok(Walker {
            gz,
            limits,
            root: root_dir(version),
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
            has_manifest: false,
        })
    }
}

/// The tar walk over a decompressed stream.
pub(super) struct Walker<'a, R> {
    gz: GzMember<R>,
    limits: &'a Limits,
    root: String,
    version: &'a str,
    paths: Paths,
    summary: Summary,
    entries: usize,
    names_bytes: u64,
    seen_root: bool,
    version_text: Option<Vec<u8>>,
    has_manifest: bool,
}

/// A PAX extended header read, waiting for the entry it describes.
struct PendingPax {
    data: Vec<u8>,
    /// The extended header's own name, shown when no entry follows it.
    shown: String,
}

/// Reads one regular file's content from the tar stream, never past its end.
struct EntryReader<'e, R> {
    gz: &'e mut GzMember<R>,
    remaining: u64,
    path: &'e str,
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

    pub(super) fn walk(&mut self, sink: &mut dyn Sink) -> Result<(), Fault> {
        let mut pending: Option<PendingPax> = None;
        loop {
            let Some(block) = self.block("a tar header")? else {
                return Err(truncated(
                    "the tar stream ends without its end-of-archive blocks",
                ));
            };
            if block.iter().all(|&b| b == 0) {
                if let Some(pax) = pending {
                    return Err(Fault::refuse_help(
                        Code::ArchiveExtensionHeader,
                        &pax.shown,
                        format!(
                            "the PAX extended header `{}` is followed by the end of the archive, \
                             not by the entry it describes",
                            pax.shown
                        ),
                        "not an archive every tar reader reads alike",
                    ));
                }
                return self.end_of_archive();
            }
            let header = header::parse(&block)?;
            let shown = show_path(&header.path);
            if header.typeflag == b'x' {
                pending = Some(self.pax_header(&header, &shown, pending.is_some())?);
                continue;
            }
            self.check_type(&header, &shown)?;
            if let Some(pax) = pending.take() {
                apply_pax(&pax, &header, &shown)?;
            }
            self.entry(&header, &shown, sink)?;
        }
    }

    /// Reads an extended header's data, to be checked against the entry that follows it.
    fn pax_header(
        &mut self,
        header: &Header,
        shown: &str,
        after_another: bool,
    ) -> Result<PendingPax, Fault> {
        let refuse = |why: &str| {
            Err(Fault::refuse_help(
                Code::ArchiveExtensionHeader,
                shown,
                format!("the PAX extended header `{shown}` {why}"),
                "not an archive every tar reader reads alike",
            ))
        };
        if header.format != Format::Ustar {
            return refuse("has a GNU header; a PAX header is POSIX ustar");
        }
        if after_another {
            return refuse("follows another extended header; readers merge the two differently");
        }
        if header.size > MAX_PAX_BYTES {
            return refuse(&format!("holds more than {MAX_PAX_BYTES} bytes of records"));
        }
        let mut data = Vec::with_capacity(header.size as usize);
        EntryReader {
            gz: &mut self.gz,
            remaining: header.size,
            path: shown,
        }
        .read_to_end(&mut data)
        .map_err(|e| below(e, "a PAX extended header"))?;
        self.skip_padding(header.size)?;
        Ok(PendingPax {
            data,
            shown: shown.to_string(),
        })
    }

    /// One regular file or directory entry.
    fn entry(&mut self, header: &Header, shown: &str, sink: &mut dyn Sink) -> Result<(), Fault> {
        let is_dir = header.typeflag == b'5';
        let size = header.size;
        let rel = self.check_path(&header.path, shown, is_dir)?;
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(Fault::refuse(
                Code::ArchiveTooManyEntries,
                shown,
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
                Code::ArchiveTooLarge,
                shown,
                format!(
                    "the archive's entry names add up to more than {} bytes",
                    self.limits.max_names_bytes
                ),
            ));
        }
        if is_dir {
            if size != 0 {
                return Err(ambiguous(
                    shown,
                    &format!(
                        "it is a directory entry with {size} bytes of content (GNU tar skips \
                         them, Python's tarfile reads them as the next header)"
                    ),
                ));
            }
            self.paths.add(&full, Kind::Dir)?;
            self.summary.dirs += 1;
            if !rel.is_empty() {
                check_layout(&rel, shown, true)?;
                sink.directory(&rel)?;
            }
            return Ok(());
        }
        if size > self.limits.max_entry_bytes {
            return Err(Fault::refuse_help(
                Code::ArchiveEntryTooLarge,
                shown,
                format!(
                    "entry `{shown}` is {size} bytes; a release file is at most {} bytes",
                    self.limits.max_entry_bytes
                ),
                "a decompression bomb or not a release asset",
            ));
        }
        let vendored = rel != LICENSE_FILE;
        if vendored {
            self.vendored_limits(size, shown)?;
        }
        self.paths.add(&full, Kind::File)?;
        check_layout(&rel, shown, false)?;
        self.summary.files += 1;
        self.summary.bytes += size;
        if vendored {
            self.summary.vendored_files += 1;
            self.summary.vendored_bytes += size;
        }
        if rel == VERSION_FILE {
            self.version_file(size, shown, sink)?;
        } else {
            self.has_manifest |= rel == MANIFEST;
            let mut reader = EntryReader {
                gz: &mut self.gz,
                remaining: size,
                path: shown,
            };
            sink.file(&rel, size, &mut reader)?;
            reader.drain()?;
        }
        self.skip_padding(size)
    }

    /// The suite's limits on the vendored set ([`crate::limits`]): a release the loader
    /// would read only in part is refused here, before anything is written.
    fn vendored_limits(&self, size: u64, shown: &str) -> Result<(), Fault> {
        if self.summary.vendored_files >= self.limits.max_files {
            return Err(Fault::refuse_help(
                Code::ArchiveTooManyEntries,
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
                Code::ArchiveTooLarge,
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
        };
        if size > MAX_VERSION_BYTES {
            return Err(Fault::refuse(
                Code::ArchiveVersionMismatch,
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
        self.version_text = Some(text);
        Ok(())
    }

    /// Refuses every entry type but a regular file and a directory. An extended header (`x`)
    /// never reaches here.
    fn check_type(&self, header: &Header, shown: &str) -> Result<(), Fault> {
        let only = "the asset holds only regular files and directories";
        let refuse = |code: Code, what: String| {
            Err(Fault::refuse_help(
                code,
                shown,
                format!("entry `{shown}` is {what}"),
                only,
            ))
        };
        let target = || show_path(&header.linkname);
        match header.typeflag {
            b'0' | 0 | b'5' => Ok(()),
            b'1' => refuse(
                Code::ArchiveHardlink,
                format!("a hard link (to `{}`)", target()),
            ),
            b'2' => refuse(
                Code::ArchiveSymlink,
                format!("a symbolic link (to `{}`)", target()),
            ),
            b'3' => refuse(Code::ArchiveSpecial, "a character device".into()),
            b'4' => refuse(Code::ArchiveSpecial, "a block device".into()),
            b'6' => refuse(Code::ArchiveSpecial, "a FIFO (named pipe)".into()),
            b'S' => refuse(Code::ArchiveSparse, "a GNU sparse file".into()),
            b'g' => refuse(
                Code::ArchiveExtensionHeader,
                "a PAX global header (it would change how readers that honour it read every \
                 entry after it)"
                    .into(),
            ),
            b'L' | b'K' => refuse(
                Code::ArchiveExtensionHeader,
                "a GNU long-name header (readers that honour it read another name than the \
                 header's)"
                    .into(),
            ),
            other => refuse(
                Code::ArchiveUnknownType,
                format!("of unknown type `{}`", [other].escape_ascii()),
            ),
        }
    }

    /// Checks an entry's path; returns it relative to the root (empty for the root itself).
    fn check_path(&mut self, path: &[u8], shown: &str, is_dir: bool) -> Result<String, Fault> {
        let rel = path::check(path, shown, is_dir, &self.root, self.seen_root, self.limits)?;
        self.seen_root = true;
        Ok(rel)
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
                    Code::ArchiveTrailingGarbage,
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
                    Code::ArchiveTrailingGarbage,
                    "",
                    "non-zero data follows the end-of-archive blocks",
                    "a release asset ends with its end-of-archive blocks",
                ));
            }
            padding += n as u64;
            if padding > self.limits.max_padding_bytes {
                return Err(Fault::refuse(
                    Code::ArchiveTooLarge,
                    "",
                    format!(
                        "more than {} bytes of padding follow the end of the archive",
                        self.limits.max_padding_bytes
                    ),
                ));
            }
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
                Code::ArchiveTrailingGarbage,
                "",
                what,
                "a release asset is exactly one gzip member; other tools would read what follows",
            ));
        }
        Ok(())
    }

    pub(super) fn finish(self) -> Result<Summary, Fault> {
        let shown = format!("{}/{VERSION_FILE}", self.root);
        let Some(text) = self.version_text else {
            return Err(Fault::refuse(
                Code::ArchiveVersionMismatch,
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
                Code::ArchiveVersionMismatch,
                shown,
                format!(
                    "the archive's CONFORMANCE_VERSION is `{}`, not {}",
                    show_path(found.as_bytes()),
                    self.version
                ),
                "the asset is not the release of the version asked for",
            ));
        }
        if !self.has_manifest {
            return Err(Fault::refuse_help(
                Code::ArchiveLayout,
                format!("{}/{MANIFEST}", self.root),
                format!("the archive has no `{}/{MANIFEST}`", self.root),
                "a release of the suite holds its manifest; this asset is not one",
            ));
        }
        Ok(self.summary)
    }
}

/// Holds an extended header's records to what the entry's own header says.
fn apply_pax(pax: &PendingPax, header: &Header, shown: &str) -> Result<(), Fault> {
    let over = pax::records(&pax.data, shown)?;
    let differs = |what: &str, stated: String| {
        Err(Fault::refuse_help(
            Code::ArchiveExtensionHeader,
            shown,
            format!(
                "the PAX extended header before `{shown}` gives its {what} as {stated}, not the \
                 header's own"
            ),
            "readers that honour the record and readers that skip it would extract different \
             files",
        ))
    };
    if let Some(path) = over.path.as_ref().filter(|p| **p != header.path) {
        return differs("path", format!("`{}`", show_path(path)));
    }
    if let Some(size) = over.size.filter(|s| *s != header.size) {
        return differs("size", size.to_string());
    }
    Ok(())
}
