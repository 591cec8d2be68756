//! An entry's path: inside the single root, with no component a file system could read as
//! anything but a plain name.

use super::fault::Fault;
use super::findings;
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
    if path.is_empty() {
        return Err(findings::empty_name(shown).into());
    }
    if path[0] == b'/' {
        return Err(findings::absolute_path(shown).into());
    }
    if path.len() > limits.max_path_bytes {
        return Err(findings::path_too_long(shown, limits.max_path_bytes).into());
    }
    let trimmed = match path.strip_suffix(b"/") {
        Some(t) if is_dir => t,
        Some(_) => return Err(findings::slash_but_not_directory(shown).into()),
        None => path,
    };
    let parts: Vec<&[u8]> = trimmed.split(|&b| b == b'/').collect();
    if parts.iter().any(|p| *p == b"..") {
        return Err(findings::dotdot(shown).into());
    }
    for part in &parts {
        if part.is_empty() {
            return Err(findings::empty_component(shown).into());
        }
        if *part == b"." {
            return Err(findings::dot_component(shown).into());
        }
        if part.contains(&b'\\') || part.contains(&b':') {
            return Err(findings::separator_or_drive(shown).into());
        }
        if part.iter().any(|&b| b < 0x20 || b == 0x7f) {
            return Err(findings::control_character(shown).into());
        }
        if part.len() > 255 {
            return Err(findings::component_too_long(shown).into());
        }
    }
    if parts.len() > MAX_DEPTH {
        return Err(findings::nested_too_deep(shown, MAX_DEPTH).into());
    }
    let Ok(text) = std::str::from_utf8(trimmed) else {
        return Err(findings::path_not_utf8(shown).into());
    };
    let mut components = text.split('/');
    let first = components.next().unwrap_or_default();
    let rest: Vec<&str> = components.collect();
    if first != root {
        if seen_root && (is_dir || !rest.is_empty()) {
            return Err(findings::second_root(shown, first, root).into());
        }
        return Err(findings::outside_root(shown, root).into());
    }
    if rest.is_empty() && !is_dir {
        return Err(findings::root_is_a_file(shown, root).into());
    }
    Ok(rest.join("/"))
}
