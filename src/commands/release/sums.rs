//! The `SHA256SUMS` of `--out`. A mirror (or a `dist/` that collects several releases) holds one
//! SHA256SUMS listing every asset in it, so a release adds its own line to the one already there:
//! the other assets' lines are kept as they are, an older line for the same asset is replaced,
//! and the lines are ordered by file name. A file that is not a SHA256SUMS is refused before
//! anything is built, rather than overwritten or garbled.

use std::fs;
use std::io::{ErrorKind, Read};
use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell;
use bqsuite_suite::archive;

/// Largest SHA256SUMS merged into: a line per asset is about a hundred bytes.
const MAX_BYTES: u64 = 1 << 20;

/// The SHA256SUMS already at `path`, as text (empty when there is none). Fails (exit 2, before
/// anything is built) when it cannot be merged into: not a regular file, too large, not UTF-8, or
/// holding a line that is not a checksum.
pub fn existing(path: &Path) -> Result<String> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => return Err(Error::io("read", path, e)),
    };
    if !meta.is_file() {
        return Err(refused(path, "is not a regular file"));
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::io("read", path, e))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(refused(path, &format!("is larger than {MAX_BYTES} bytes")));
    }
    let text = String::from_utf8(bytes).map_err(|_| refused(path, "is not UTF-8 text"))?;
    if let Some(line) = archive::sums_bad_line(&text) {
        return Err(refused(
            path,
            &format!("line {line} is not a checksum line (`<64 hex digits>  <file name>`)"),
        ));
    }
    Ok(text)
}

/// `existing` (read by [`existing`]) with the line of the asset `file_name` set to `sha256`.
pub fn with_asset(existing: &str, sha256: &str, file_name: &str) -> String {
    archive::sums_with(existing, sha256, file_name)
        .unwrap_or_else(|_| archive::sums_line(sha256, file_name))
}

/// The SHA256SUMS at `path` cannot take the release's line (`why`).
fn refused(path: &Path, why: &str) -> Error {
    let shown = shell::quote(&shell::arg(path));
    let aside = shell::quote(&format!("{}.old", shell::arg(path)));
    Error::bad_path(
        path,
        format!(
            "{why}; a release adds its line to the SHA256SUMS already in --out and keeps the \
             others, so it must be one: nothing was written. Correct it, or move it aside \
             (`mv {shown} {aside}`) and release again"
        ),
    )
}
