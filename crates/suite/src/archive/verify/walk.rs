//! The tar walk over the decompressed stream: every header read as every reader reads it
//! ([`super::header`]), extended headers held to records that change nothing ([`super::pax`]),
//! every entry checked and handed to the sink.

use std::io::{self, BufRead, Read};

use super::entries::{Kind, Paths, check_layout};
use super::fault::{Fault, show_path};
use super::findings;
use super::gzip::{GzMember, below};
use super::header::{self, BLOCK, Format, Header};
use super::identity::Expected;
use super::limits::{Limits, MAX_VERSION_BYTES};
use super::path;
use super::pax::{self, MAX_PAX_BYTES};
use super::sink::{Sink, Summary};
use crate::archive::LICENSE_FILE;
use crate::kind::DESCRIPTION;
use crate::load::{MANIFEST, VERSION_FILE};

impl<'a, R: BufRead> Walker<'a, R> {
    /// Reads the gzip header of `input` and starts the walk.
    pub(super) fn new(
        input: R,
        expected: &'a Expected,
        version: &'a str,
        limits: &'a Limits,
    ) -> Result<Self, Fault> {
        let gz = GzMember::new(input, limits.max_tar_bytes)?;
        Ok(Walker {
            gz,
            limits,
            root: format!("{}-{version}", expected.asset()),
            expected,
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
            description: None,
            has_manifest: false,
        })
    }
}

/// The tar walk over a decompressed stream.
pub(super) struct Walker<'a, R> {
    gz: GzMember<R>,
    limits: &'a Limits,
    root: String,
    expected: &'a Expected,
    version: &'a str,
    paths: Paths,
    summary: Summary,
    entries: usize,
    names_bytes: u64,
    seen_root: bool,
    version_text: Option<Vec<u8>>,
    /// The description the archive carries (`suite.json`), once read.
    description: Option<Vec<u8>>,
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
            return Err(Fault::from(findings::entry_content_truncated(self.path)).into_io());
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
                return Err(findings::tar_stream_ends_inside(what).into());
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
                return Err(findings::padding_truncated().into());
            }
            left -= n;
        }
        Ok(())
    }

    pub(super) fn walk(&mut self, sink: &mut dyn Sink) -> Result<(), Fault> {
        let mut pending: Option<PendingPax> = None;
        loop {
            let Some(block) = self.block("a tar header")? else {
                return Err(findings::end_of_archive_missing().into());
            };
            if block.iter().all(|&b| b == 0) {
                if let Some(pax) = pending {
                    return Err(findings::pax_before_end(&pax.shown).into());
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
        if header.format != Format::Ustar {
            return Err(findings::pax_gnu_header(shown).into());
        }
        if after_another {
            return Err(findings::pax_after_another(shown).into());
        }
        if header.size > MAX_PAX_BYTES {
            return Err(findings::pax_too_large(shown, MAX_PAX_BYTES).into());
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
            return Err(findings::too_many_entries(shown, self.limits.max_entries).into());
        }
        let full = format!(
            "{}{}{}",
            self.root,
            if rel.is_empty() { "" } else { "/" },
            rel
        );
        self.names_bytes += full.len() as u64;
        if self.names_bytes > self.limits.max_names_bytes {
            return Err(findings::names_too_large(shown, self.limits.max_names_bytes).into());
        }
        if is_dir {
            if size != 0 {
                return Err(findings::directory_with_content(shown, size).into());
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
            return Err(findings::entry_too_large(shown, size, self.limits.max_entry_bytes).into());
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
        } else if rel == DESCRIPTION {
            self.description_file(size, shown, sink)?;
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
            return Err(findings::too_many_files(shown, self.limits.max_files).into());
        }
        if self.summary.vendored_bytes + size > self.limits.max_total_bytes {
            return Err(findings::files_too_large(shown, self.limits.max_total_bytes).into());
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
            return Err(findings::version_file_too_large(shown, size, self.version).into());
        }
        let mut text = Vec::with_capacity(size as usize);
        reader
            .read_to_end(&mut text)
            .map_err(|e| below(e, "CONFORMANCE_VERSION"))?;
        sink.file(VERSION_FILE, size, &mut io::Cursor::new(&text))?;
        self.version_text = Some(text);
        Ok(())
    }

    /// Keeps the description the archive carries (bounded by the entry limit), to be checked
    /// against the expected suite once the archive is read.
    fn description_file(
        &mut self,
        size: u64,
        shown: &str,
        sink: &mut dyn Sink,
    ) -> Result<(), Fault> {
        let mut text = Vec::with_capacity(size as usize);
        EntryReader {
            gz: &mut self.gz,
            remaining: size,
            path: shown,
        }
        .read_to_end(&mut text)
        .map_err(|e| below(e, DESCRIPTION))?;
        sink.file(DESCRIPTION, size, &mut io::Cursor::new(&text))?;
        self.description = Some(text);
        Ok(())
    }

    /// Refuses every entry type but a regular file and a directory. An extended header (`x`)
    /// never reaches here.
    fn check_type(&self, header: &Header, shown: &str) -> Result<(), Fault> {
        let target = || show_path(&header.linkname);
        let refusal = match header.typeflag {
            b'0' | 0 | b'5' => return Ok(()),
            b'1' => findings::hard_link(shown, &target()),
            b'2' => findings::symbolic_link(shown, &target()),
            b'3' => findings::character_device(shown),
            b'4' => findings::block_device(shown),
            b'6' => findings::fifo(shown),
            b'S' => findings::sparse_file(shown),
            b'g' => findings::pax_global_header(shown),
            b'L' | b'K' => findings::gnu_long_name(shown),
            other => findings::unknown_type(shown, other),
        };
        Err(refusal.into())
    }

    /// Checks an entry's path; returns it relative to the root (empty for the root itself).
    fn check_path(&mut self, path: &[u8], shown: &str, is_dir: bool) -> Result<String, Fault> {
        if !self.seen_root
            && let Some(refusal) = self.expected.foreign_root(path, self.version)
        {
            return Err(refusal);
        }
        let rel = path::check(path, shown, is_dir, &self.root, self.seen_root, self.limits)?;
        self.seen_root = true;
        Ok(rel)
    }

    fn end_of_archive(&mut self) -> Result<(), Fault> {
        match self.block("the end-of-archive marker")? {
            None => {
                return Err(findings::end_of_archive_half().into());
            }
            Some(b) if b.iter().any(|&x| x != 0) => {
                return Err(findings::data_after_end_block().into());
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
                return Err(findings::data_after_end_blocks().into());
            }
            padding += n as u64;
            if padding > self.limits.max_padding_bytes {
                return Err(findings::padding_too_large(self.limits.max_padding_bytes).into());
            }
        }
        debug_assert!(self.gz.is_done());
        let rest = self
            .gz
            .inner_mut()
            .fill_buf()
            .map_err(|e| below(e, "the end of the archive"))?;
        if !rest.is_empty() {
            let refusal = if rest.starts_with(&[0x1f, 0x8b]) {
                findings::second_gzip_member()
            } else {
                findings::bytes_after_gzip()
            };
            return Err(refusal.into());
        }
        Ok(())
    }

    pub(super) fn finish(self) -> Result<Summary, Fault> {
        let shown = format!("{}/{VERSION_FILE}", self.root);
        let Some(text) = self.version_text else {
            return Err(findings::version_file_missing(&shown, self.version).into());
        };
        let found = std::str::from_utf8(&text).map(str::trim).unwrap_or("");
        if found != self.version {
            let found = show_path(found.as_bytes());
            return Err(findings::version_mismatch(&shown, &found, self.version).into());
        }
        if !self.has_manifest {
            let manifest = format!("{}/{MANIFEST}", self.root);
            return Err(findings::manifest_missing(&manifest).into());
        }
        self.expected
            .check_description(&self.root, self.description.as_deref())?;
        Ok(self.summary)
    }
}

/// Holds an extended header's records to what the entry's own header says.
fn apply_pax(pax: &PendingPax, header: &Header, shown: &str) -> Result<(), Fault> {
    let over = pax::records(&pax.data, shown)?;
    if let Some(path) = over.path.as_ref().filter(|p| **p != header.path) {
        return Err(findings::pax_path_differs(shown, &show_path(path)).into());
    }
    if let Some(size) = over.size.filter(|s| *s != header.size) {
        return Err(findings::pax_size_differs(shown, size).into());
    }
    Ok(())
}
