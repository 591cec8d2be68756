//! The local side of a comparison: what an entry of the vendored directory is, and whether a
//! local file holds exactly the expected bytes (read in chunks, never whole).

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use super::{CHUNK, MAX_DIFF_BYTES};
use crate::archive::verify::Fault;
use crate::error::{Error, Result};

/// What is at a path of the vendored directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Local {
    Missing,
    File(u64),
    Dir,
    Link,
    Special,
}

impl Local {
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
