//! Canonical means canonical: an asset is accepted only when it is byte for byte what `bqsuite
//! release` writes from the tree it holds.
//!
//! As the verifier walks the archive, every entry it accepted is written again with release's own
//! writers ([`crate::release::ustar::TarWriter`] into [`crate::release::gzip::GzipWriter`] at
//! [`crate::release::COMPRESSION_LEVEL`], with the archive's one mtime, which release takes from
//! SOURCE_DATE_EPOCH), and the bytes that come out are compared with the asset's own bytes as the
//! gzip layer reads them ([`Matcher`]). The writer compresses the deflate stream's chunks one
//! after the other here; release spreads them over threads, with the same bytes
//! ([`crate::release::gzip`]), so one re-creation accepts an asset made with any number. So an asset deflated at another level or by another tool,
//! with other header bytes, padding or trailer, is refused, while memory stays bounded (the two
//! streams are compared as they go, never held whole).
//!
//! Re-writing follows the archive's order, so what release decides about the tree is checked as
//! entries go by, exactly as [`crate::release::tree`] and [`crate::release::build_asset`] build
//! it: the root directory first; then every entry in the byte order of its path (each directory
//! before its files, LICENSE among the root's entries); one directory entry before the files of
//! each data directory and none for a directory without files; CONFORMANCE_VERSION, LICENSE and
//! manifest.json present.
//!
//! The first difference is kept and reported by [`Recreate::finish`], once every other check of
//! the verifier passed: a more specific refusal (a link, a bad path, a bomb) wins.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use super::Fault;
use crate::archive::LICENSE_FILE;
use crate::release::gzip::GzipWriter;
use crate::release::ustar::TarWriter;
use crate::suite::load::{MANIFEST, VERSION_FILE};

/// Which stream bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// The asset, as read.
    Asset,
    /// What release writes for the same entries.
    Release,
}

/// Compares two byte streams that arrive in pieces of any size: only the part one stream has and
/// the other not yet is held (bounded by `cap`), and comparing stops at the first difference.
#[derive(Debug)]
pub struct Matcher {
    /// The bytes of `ahead_side` not yet matched, from `start`.
    ahead: Vec<u8>,
    start: usize,
    ahead_side: Side,
    /// Bytes matched so far.
    offset: u64,
    /// The first difference, in words.
    difference: Option<String>,
    cap: usize,
}

impl Matcher {
    pub fn new(cap: usize) -> Self {
        Matcher {
            ahead: Vec::new(),
            start: 0,
            ahead_side: Side::Asset,
            offset: 0,
            difference: None,
            cap,
        }
    }

    /// Bytes of the asset, as the gzip layer consumed them.
    pub fn asset(&mut self, bytes: &[u8]) {
        self.push(Side::Asset, bytes);
    }

    fn push(&mut self, side: Side, mut bytes: &[u8]) {
        if self.difference.is_some() || bytes.is_empty() {
            return;
        }
        let pending = &self.ahead[self.start..];
        if !pending.is_empty() && self.ahead_side != side {
            let n = pending.len().min(bytes.len());
            if pending[..n] != bytes[..n] {
                let at = (0..n).find(|&i| pending[i] != bytes[i]).unwrap_or(0);
                self.differ(self.offset + at as u64);
                return;
            }
            self.start += n;
            self.offset += n as u64;
            bytes = &bytes[n..];
            if self.start == self.ahead.len() {
                self.ahead.clear();
                self.start = 0;
            }
        }
        if bytes.is_empty() {
            return;
        }
        if self.start == self.ahead.len() {
            self.ahead.clear();
            self.start = 0;
            self.ahead_side = side;
        } else if self.start > (1 << 20) {
            self.ahead.drain(..self.start);
            self.start = 0;
        }
        self.ahead.extend_from_slice(bytes);
        if self.ahead.len() - self.start > self.cap {
            self.difference = Some(format!(
                "its bytes run more than {} bytes ahead of what release writes for the same \
                 entries",
                self.cap
            ));
            self.ahead = Vec::new();
        }
    }

    fn differ(&mut self, at: u64) {
        self.difference = Some(format!(
            "its compressed bytes differ from what release writes for the same files from byte \
             {at} on (compressed by another tool or at another level?)"
        ));
        self.ahead = Vec::new();
        self.start = 0;
    }

    /// Both streams ended: whatever one has and the other not is a difference.
    fn end(&mut self) {
        if self.difference.is_none() && self.start < self.ahead.len() {
            let extra = self.ahead.len() - self.start;
            self.difference = Some(match self.ahead_side {
                Side::Asset => format!(
                    "it has {extra} bytes more than release writes for the same files (from byte \
                     {} on)",
                    self.offset
                ),
                Side::Release => format!(
                    "it ends at byte {}, {extra} bytes before what release writes for the same \
                     files",
                    self.offset
                ),
            });
        }
    }
}

/// Release's output, into the matcher.
struct ReleaseSide(Rc<RefCell<Matcher>>);

impl Write for ReleaseSide {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().push(Side::Release, buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the accepted entries again as release does and checks release's order and shape.
pub struct Recreate {
    matcher: Rc<RefCell<Matcher>>,
    tar: Option<TarWriter<GzipWriter<ReleaseSide>>>,
    root: String,
    /// The previous entry's path, relative to the root (`""` for the root itself).
    previous: Option<String>,
    /// The data directory whose files come now, and whether one came.
    open_dir: Option<(String, bool)>,
    license: bool,
    manifest: bool,
    /// The first difference in order or shape (the byte comparison keeps its own).
    difference: Option<String>,
}

impl Recreate {
    /// Starts re-writing the asset whose root directory is `root`, comparing with the asset's
    /// bytes fed to `matcher`.
    pub fn new(root: &str, matcher: Rc<RefCell<Matcher>>) -> Self {
        let tar = GzipWriter::new(
            ReleaseSide(matcher.clone()),
            crate::release::COMPRESSION_LEVEL,
        )
        .ok()
        .map(TarWriter::new);
        Recreate {
            matcher,
            tar,
            root: root.to_string(),
            previous: None,
            open_dir: None,
            license: false,
            manifest: false,
            difference: None,
        }
    }

    /// Whether a difference was already found (re-writing then stops: its result is known).
    pub fn settled(&self) -> bool {
        self.difference.is_some() || self.matcher.borrow().difference.is_some()
    }

    /// A difference the verifier saw in the tar stream itself (e.g. padding release never
    /// writes): named instead of the byte offset where the compressed streams part.
    pub fn differ(&mut self, why: String) {
        if self.difference.is_none() {
            self.difference = Some(why);
        }
        self.tar = None;
    }

    /// The next accepted entry: `rel` relative to the root (`""` for the root), `data` for a file.
    pub fn entry(&mut self, rel: &str, data: Option<&[u8]>, mtime: u64) {
        if self.settled() {
            return;
        }
        if let Some(why) = self.order(rel, data.is_none()) {
            self.differ(why);
            return;
        }
        let path = if rel.is_empty() {
            format!("{}/", self.root)
        } else {
            format!("{}/{rel}", self.root)
        };
        let Some(tar) = self.tar.as_mut() else {
            return;
        };
        let written = match data {
            None if rel.is_empty() => tar.dir(&path, mtime),
            None => tar.dir(&format!("{path}/"), mtime),
            Some(data) => tar.file(&path, data, mtime),
        };
        if let Err(e) = written {
            self.differ(format!("release cannot write entry `{path}` ({e})"));
        }
    }

    /// Why `rel` cannot come next in an asset release writes, if it cannot.
    fn order(&mut self, rel: &str, is_dir: bool) -> Option<String> {
        let shown = |rel: &str| super::show_path(rel.as_bytes());
        let Some(previous) = self.previous.replace(rel.to_string()) else {
            return (!rel.is_empty()).then(|| {
                format!(
                    "its first entry is `{}/{}`, not the root directory `{}/`",
                    self.root,
                    shown(rel),
                    self.root
                )
            });
        };
        if rel.as_bytes() <= previous.as_bytes() {
            return Some(format!(
                "entry `{}/{}` comes after `{}/{}`; release writes the entries sorted by name",
                self.root,
                shown(rel),
                self.root,
                shown(&previous)
            ));
        }
        if let Some((dir, has_file)) = self.open_dir.take() {
            let inside = rel
                .strip_prefix(dir.as_str())
                .is_some_and(|r| r.starts_with('/'));
            if inside {
                self.open_dir = Some((dir, true));
            } else if !has_file {
                return Some(self.empty_dir(&dir));
            }
        }
        if is_dir {
            self.open_dir = Some((rel.to_string(), false));
            return None;
        }
        if let Some((parent, _)) = rel.rsplit_once('/')
            && self.open_dir.as_ref().is_none_or(|(dir, _)| dir != parent)
        {
            return Some(format!(
                "entry `{}/{}` has no directory entry `{}/{}/` before it; release writes one",
                self.root,
                shown(rel),
                self.root,
                shown(parent)
            ));
        }
        self.license |= rel == LICENSE_FILE;
        self.manifest |= rel == MANIFEST;
        None
    }

    fn empty_dir(&self, dir: &str) -> String {
        format!(
            "directory entry `{}/{}/` has no file below it; release leaves such a directory out",
            self.root,
            super::show_path(dir.as_bytes())
        )
    }

    /// After the whole asset was read: the refusal, if the asset is not what release writes.
    /// `has_version`: CONFORMANCE_VERSION was present (the verifier checks it itself).
    pub fn finish(mut self, has_version: bool) -> Result<(), Fault> {
        if !self.settled() {
            if let Some((dir, false)) = self.open_dir.take() {
                let why = self.empty_dir(&dir);
                self.differ(why);
            }
            for (present, name) in [
                (has_version, VERSION_FILE),
                (self.license, LICENSE_FILE),
                (self.manifest, MANIFEST),
            ] {
                if !present {
                    let why = format!(
                        "it has no `{}/{name}`; release always writes one",
                        self.root
                    );
                    self.differ(why);
                }
            }
        }
        if let Some(tar) = self.tar.take() {
            let ended = tar.finish().and_then(|(gz, _)| gz.finish());
            if let Err(e) = ended {
                self.differ(format!("release cannot end the asset ({e})"));
            }
        }
        let mut matcher = self.matcher.borrow_mut();
        matcher.end();
        match self.difference.take().or_else(|| matcher.difference.take()) {
            None => Ok(()),
            Some(why) => Err(not_made_by_release(&why)),
        }
    }
}

/// The refusal of an asset `bqsuite release` did not write.
pub fn not_made_by_release(why: &str) -> Fault {
    Fault::refuse_help(
        "archive-noncanonical",
        "",
        format!("the asset was not made by `bqsuite release`: {why}"),
        "only an asset exactly as `bqsuite release` writes it is accepted (same entries, order, \
         headers and compression); publish the asset `bqsuite release` built, or pin the hash \
         of the one you trust with --sha256 once it is rebuilt that way",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(asset: &[&[u8]], release: &[&[u8]]) -> Option<String> {
        let mut m = Matcher::new(16);
        let (mut a, mut r) = (asset.iter(), release.iter());
        loop {
            match (a.next(), r.next()) {
                (None, None) => break,
                (x, y) => {
                    if let Some(x) = x {
                        m.asset(x);
                    }
                    if let Some(y) = y {
                        m.push(Side::Release, y);
                    }
                }
            }
        }
        m.end();
        m.difference
    }

    #[test]
    fn matcher_compares_streams_in_any_pieces() {
        assert_eq!(run(&[b"abc", b"def"], &[b"a", b"bcdef"]), None);
        assert_eq!(run(&[b"abcdef"], &[b"ab", b"c", b"", b"def"]), None);
        let d = run(&[b"abcdef"], &[b"abcxef"]).unwrap();
        assert!(d.contains("from byte 3 on"), "{d}");
        let d = run(&[b"abc", b"de"], &[b"abcdef"]).unwrap();
        assert!(d.contains("ends at byte 5, 1 bytes before"), "{d}");
        let d = run(&[b"abcdefg"], &[b"abc"]).unwrap();
        assert!(d.contains("4 bytes more"), "{d}");
        // One side far ahead of the other is bounded.
        let d = run(&[&[0u8; 17]], &[]).unwrap();
        assert!(d.contains("ahead"), "{d}");
    }
}
