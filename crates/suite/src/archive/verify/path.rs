//! An entry's path: inside the single root, with no component a file system could read as
//! anything but a plain name.

use super::codes::Code;
use super::fault::Fault;
use super::limits::{Limits, MAX_DEPTH};

/// Checks an entry's path against `root` (`seen_root`: an earlier entry lay under it); returns it
/// relative to the root (empty for the root itself).
pub(super) fn check(
    path: &[u8],
    shown: &str,
    is_dir: bool,
    root: &str,
    seen_root: bool,
    limits: &Limits,
) -> Result<String, Fault> {
    let bad = |why: &str| {
        Err(Fault::refuse(
            Code::ArchiveBadPath,
            shown,
            format!("entry `{shown}` {why}"),
        ))
    };
    if path.is_empty() {
        return bad("has an empty name");
    }
    if path[0] == b'/' {
        return Err(Fault::refuse_help(
            Code::ArchiveAbsolutePath,
            shown,
            format!("entry `{shown}` has an absolute path"),
            "every entry must lie under the archive's root directory",
        ));
    }
    if path.len() > limits.max_path_bytes {
        return bad(&format!(
            "has a path longer than {} bytes",
            limits.max_path_bytes
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
            Code::ArchiveDotdot,
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
    if first != root {
        if seen_root && (is_dir || !rest.is_empty()) {
            return Err(Fault::refuse_help(
                Code::ArchiveMultipleRoots,
                shown,
                format!(
                    "entry `{shown}` starts a second top-level directory `{first}` besides \
                     `{}/`",
                    root
                ),
                "a release asset has exactly one root directory",
            ));
        }
        return Err(Fault::refuse_help(
            Code::ArchiveOutsideRoot,
            shown,
            format!(
                "entry `{shown}` lies outside the root directory `{}/`",
                root
            ),
            "a release asset of this version has every entry under that directory",
        ));
    }
    if rest.is_empty() && !is_dir {
        return Err(Fault::refuse(
            Code::ArchiveOutsideRoot,
            shown,
            format!("the root `{}` is a regular file, not a directory", root),
        ));
    }
    Ok(rest.join("/"))
}
