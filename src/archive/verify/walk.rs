//! The tar walk over the decompressed stream: every header checked against what release writes,
//! every entry handed to the sink and to release's writers ([`super::canonical`]).

use std::cell::RefCell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

use super::canonical::{Matcher, Recreate};
use super::gzip::below;
use super::header::{canonical_header, canonical_octal, field_str, noncanonical, octal};
use super::*;

impl<'a, R: BufRead> Walker<'a, R> {
    /// Reads the gzip header of `input` and starts the walk.
    pub(super) fn new(input: R, version: &'a str, limits: &'a Limits) -> Result<Self, Fault> {
        // The asset's bytes and release's run apart by at most one entry (re-written once read)
        // and the compressor's buffers.
        let cap = usize::try_from(limits.max_entry_bytes.saturating_mul(2))
            .unwrap_or(usize::MAX)
            .saturating_add(8 << 20);
        let matcher = Rc::new(RefCell::new(Matcher::new(cap)));
        let gz = GzMember::tapped(input, limits.max_tar_bytes, Some(matcher.clone()))?;
        let root = root_dir(version);
        Ok(Walker {
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
        })
    }
}

/// The tar walk over a decompressed stream.
pub(super) struct Walker<'a, R> {
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

    pub(super) fn walk(&mut self, sink: &mut dyn Sink) -> Result<(), Fault> {
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

    pub(super) fn finish(self) -> Result<Summary, Fault> {
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
