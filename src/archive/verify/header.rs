//! Tar header fields, and the one header shape accepted: byte for byte what `release` writes.

use super::{BLOCK, Fault};

/// A tar numeric field: octal digits, optionally space-padded and NUL/space-terminated.
pub(super) fn octal(field: &[u8]) -> Option<u64> {
    let start = field.iter().position(|&b| b != b' ')?;
    let field = &field[start..];
    if field[0] == 0 {
        return Some(0);
    }
    let end = field
        .iter()
        .position(|&b| b == 0 || b == b' ')
        .unwrap_or(field.len());
    if end == 0 || field[end..].iter().any(|&b| b != 0 && b != b' ') {
        return None;
    }
    let mut value: u64 = 0;
    for &b in &field[..end] {
        if !(b'0'..=b'7').contains(&b) {
            return None;
        }
        value = value.checked_mul(8)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(value)
}

/// A numeric field exactly as release writes it: octal digits filling all but the last byte,
/// then a NUL. Anything else (a leading NUL or space, a space terminator, base-256) is `None`.
pub(super) fn canonical_octal(field: &[u8]) -> Option<u64> {
    let (digits, end) = field.split_at(field.len() - 1);
    if end != [0] || digits.is_empty() || !digits.iter().all(|b| (b'0'..=b'7').contains(b)) {
        return None;
    }
    digits.iter().try_fold(0u64, |v, &b| {
        v.checked_mul(8)?.checked_add(u64::from(b - b'0'))
    })
}

pub(super) fn noncanonical(shown: &str, why: &str) -> Fault {
    Fault::refuse_help(
        "archive-noncanonical",
        shown,
        format!("entry `{shown}`: {why}"),
        "only the exact header shape `bqsuite release` writes is accepted, so that every tar \
         reader extracts what was verified; rebuild the asset with `bqsuite release`",
    )
}

/// The header must be byte for byte the one `release` writes for this entry; the first field
/// that differs is named.
pub(super) fn canonical_header(
    header: &[u8; BLOCK],
    path: &[u8],
    is_dir: bool,
    size: u64,
    mtime: u64,
    shown: &str,
) -> Result<(), Fault> {
    use crate::release::ustar::{Kind, MAX_OCTAL_11, header as release_header};
    let kind = if is_dir { Kind::Dir } else { Kind::File };
    let path = if is_dir && !path.ends_with(b"/") {
        [path, b"/"].concat()
    } else {
        path.to_vec()
    };
    if size > MAX_OCTAL_11 || mtime > MAX_OCTAL_11 {
        return Err(noncanonical(shown, "its size or mtime is out of range"));
    }
    let expected = release_header(&path, kind, size, mtime)
        .map_err(|_| noncanonical(shown, "its path cannot be stored the way release stores it"))?;
    let expected = expected.as_bytes();
    const FIELDS: [(&str, usize, usize); 17] = [
        ("name", 0, 100),
        ("mode", 100, 108),
        ("uid", 108, 116),
        ("gid", 116, 124),
        ("size", 124, 136),
        ("mtime", 136, 148),
        ("checksum", 148, 156),
        ("typeflag", 156, 157),
        ("linkname", 157, 257),
        ("magic", 257, 263),
        ("version", 263, 265),
        ("uname", 265, 297),
        ("gname", 297, 329),
        ("devmajor", 329, 337),
        ("devminor", 337, 345),
        ("prefix", 345, 500),
        ("padding", 500, 512),
    ];
    match FIELDS
        .iter()
        .find(|(_, a, b)| header[*a..*b] != expected[*a..*b])
    {
        None => Ok(()),
        Some((field, _, _)) => Err(noncanonical(
            shown,
            &format!("its {field} field is not what release writes"),
        )),
    }
}

pub(super) fn field_str(field: &[u8]) -> &[u8] {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    &field[..end]
}
