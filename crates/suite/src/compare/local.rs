//! The local side of a comparison: what an entry of the vendored directory is, and whether a
//! local file holds exactly the expected bytes (read in chunks, never whole).

use std::collections::HashMap;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

use crate::archive::verify::Fault;
use bqsuite_core::error::{Error, Result};

/// Largest file (either side) a unified diff is made of.
pub const MAX_DIFF_BYTES: u64 = 1024 * 1024;
pub(super) const CHUNK: usize = 64 * 1024;

/// What is at a path of the vendored directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Local {
    Missing,
    File(u64),
    Dir,
    Link,
    Special,
}

/// A file's size when it is not known yet (a directory listing gives the kind, not the size).
pub(super) const UNKNOWN_SIZE: u64 = u64::MAX;

impl Local {
    /// The kind of a directory entry from the listing alone (no `stat` where the platform tells
    /// the type); a file's size is [`UNKNOWN_SIZE`].
    pub(super) fn of_entry(entry: &fs::DirEntry) -> Result<Local> {
        let kind = entry
            .file_type()
            .map_err(|e| Error::io("read", entry.path(), e))?;
        Ok(if kind.is_symlink() {
            Local::Link
        } else if kind.is_file() {
            Local::File(UNKNOWN_SIZE)
        } else if kind.is_dir() {
            Local::Dir
        } else {
            Local::Special
        })
    }

    /// The entries of directory `path` (none when it is missing or not a directory).
    pub(super) fn listing(path: &Path) -> Result<HashMap<String, Local>> {
        let entries = match fs::read_dir(path) {
            Ok(entries) => entries,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(HashMap::new());
            }
            Err(e) => return Err(Error::io("read", path, e)),
        };
        let mut out = HashMap::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("read", path, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            out.insert(name, Local::of_entry(&entry)?);
        }
        Ok(out)
    }

    pub(super) fn of(path: &Path) -> Result<Local> {
        match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => Ok(Local::Link),
            Ok(m) if m.is_file() => Ok(Local::File(m.len())),
            Ok(m) if m.is_dir() => Ok(Local::Dir),
            Ok(_) => Ok(Local::Special),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Local::Missing),
            Err(e) if e.kind() == io::ErrorKind::NotADirectory => Ok(Local::Missing),
            Err(e) => Err(Error::io("read", path, e)),
        }
    }

    pub(super) fn describe(self) -> &'static str {
        match self {
            Local::Missing => "missing",
            Local::File(_) => "a regular file",
            Local::Dir => "a directory",
            Local::Link => "a symbolic link",
            Local::Special => "a special file",
        }
    }
}

pub(super) fn read_fault(e: io::Error, rel: &str) -> Fault {
    Fault::from_io(e, |e| {
        Fault::Failed(Error::io("read the expected content of", rel, e))
    })
}

pub(super) fn too_large_for_diff(expected: u64, actual: u64) -> String {
    format!(
        "no diff: {expected} bytes expected, {actual} bytes here (diffs are made of files up to \
         {MAX_DIFF_BYTES} bytes)"
    )
}

/// True when the file at `path` holds exactly `expected`.
pub(super) fn same_as_file(expected: &[u8], path: &Path) -> std::result::Result<bool, Fault> {
    let mut file = fs::File::open(path).map_err(|e| Fault::Failed(Error::io("open", path, e)))?;
    let mut buf = vec![0u8; CHUNK.min(expected.len().max(1))];
    let mut offset = 0;
    loop {
        let n = read_full(&mut file, &mut buf)
            .map_err(|e| Fault::Failed(Error::io("read", path, e)))?;
        if n == 0 {
            return Ok(offset == expected.len());
        }
        if offset + n > expected.len() || buf[..n] != expected[offset..offset + n] {
            return Ok(false);
        }
        offset += n;
    }
}

/// Compares `size` bytes of `content` with the file at `path` (which the caller found to be `size`
/// bytes long) chunk by chunk. Reads `content` to its end whatever the outcome.
pub(super) fn stream_equal(
    content: &mut dyn Read,
    size: u64,
    path: &Path,
    rel: &str,
) -> std::result::Result<bool, Fault> {
    let mut file = fs::File::open(path).map_err(|e| Fault::Failed(Error::io("open", path, e)))?;
    // Buffers no larger than the file: most files of a suite are a few KiB.
    let chunk = usize::try_from(size).map_or(CHUNK, |s| s.clamp(1, CHUNK));
    let mut expected = vec![0u8; chunk];
    let mut actual = vec![0u8; chunk];
    let mut same = true;
    let mut left = size;
    while left > 0 {
        let want = chunk.min(usize::try_from(left).unwrap_or(chunk));
        let n = read_full(content, &mut expected[..want]).map_err(|e| read_fault(e, rel))?;
        if n == 0 {
            break;
        }
        left -= n as u64;
        if same {
            let m = read_full(&mut file, &mut actual[..n])
                .map_err(|e| Fault::Failed(Error::io("read", path, e)))?;
            same = m == n && expected[..n] == actual[..n];
        }
    }
    if same && left > 0 {
        // The expected content ended early (an archive fault reports itself elsewhere).
        same = false;
    }
    // The caller compared the sizes first, so equal leading bytes are the whole file.
    Ok(same)
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Compares a small expected file (`size` ≤ the chunk size, read whole from `content`) with the
/// regular file at `path` without a `stat`: one open, one read of up to `size + 1` bytes (a
/// regular file reads short only at its end), one close. `Ok(None)` when equal, else the local
/// size. Reads `content` to its end whatever the outcome.
pub(super) fn small_file_differs(
    content: &mut dyn Read,
    size: u64,
    path: &Path,
    rel: &str,
) -> std::result::Result<Option<u64>, Fault> {
    let len = usize::try_from(size).unwrap_or(usize::MAX);
    let mut expected = vec![0u8; len];
    let got = read_full(content, &mut expected).map_err(|e| read_fault(e, rel))?;
    let failed = |e| Fault::Failed(Error::io("read", path, e));
    let mut file = fs::File::open(path).map_err(failed)?;
    let mut actual = vec![0u8; len + 1];
    let mut filled = 0;
    loop {
        let want = actual.len() - filled;
        let n = match file.read(&mut actual[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(failed(e)),
        };
        filled += n;
        // Zero bytes, a full buffer (longer than expected), or a short read at the expected
        // length (the end of a regular file) settle it.
        if n == 0 || filled == actual.len() || (n < want && filled == len) {
            break;
        }
    }
    if got == len && filled == len && actual[..len] == expected[..] {
        return Ok(None);
    }
    let local = file.metadata().map_err(failed)?.len();
    Ok(Some(local))
}
