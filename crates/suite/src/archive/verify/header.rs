//! One tar header, read the way every mainstream reader reads it, or refused.
//!
//! GNU tar, bsdtar (libarchive), busybox tar and Python's `tarfile` agree on a header when it has
//! one of the three magics real writers use, numeric fields in the plain octal form they all
//! parse to the same number, and a name that every one of them assembles the same way. Anything
//! outside that (a v7 header, a base-256 or NUL-led number, an old-GNU header with bytes where a
//! ustar reader looks for a name prefix) is refused by [`parse`], naming the field.

use super::fault::{Fault, show_path};
use super::findings;

/// A tar block.
pub const BLOCK: usize = 512;

/// Which header shape an entry uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// POSIX ustar: magic `ustar\0`, version `00` (also the shape of a pax archive's headers).
    Ustar,
    /// GNU tar's own: magic `ustar ` and version ` \0`.
    Gnu,
}

/// A header's fields, as every reader sees them.
#[derive(Debug)]
pub struct Header {
    pub format: Format,
    pub typeflag: u8,
    /// The path: `prefix/name` for a ustar header with a prefix, else the name.
    pub path: Vec<u8>,
    pub size: u64,
    /// The link target field (shown when a link is refused).
    pub linkname: Vec<u8>,
}

const POSIX_MAGIC: &[u8] = b"ustar\x0000";
const GNU_MAGIC: &[u8] = b"ustar  \x00";

/// The numeric fields every reader parses, with whether a blank field is read the same (as 0) by
/// all of them: the device numbers of a regular file are blank in GNU and busybox archives.
const NUMERIC: [(&str, usize, usize, bool); 7] = [
    ("mode", 100, 108, false),
    ("uid", 108, 116, false),
    ("gid", 116, 124, false),
    ("size", 124, 136, false),
    ("mtime", 136, 148, false),
    ("devmajor", 329, 337, true),
    ("devminor", 337, 345, true),
];

/// A numeric field in the one form every reader parses to the same value: optional leading
/// spaces, octal digits, then only spaces and NULs to the end of the field. `None` for anything
/// else: a NUL before the digits (0 to Python, an error to GNU tar), base-256 (bit 7 set), a sign,
/// digits after the terminator. A blank field (no digits) is `Some(None)`.
pub fn number(field: &[u8]) -> Option<Option<u64>> {
    let start = field.iter().position(|&b| b != b' ').unwrap_or(field.len());
    let digits = field[start..]
        .iter()
        .position(|b| !(b'0'..=b'7').contains(b))
        .map_or(field.len(), |n| start + n);
    if field[digits..].iter().any(|&b| b != b' ' && b != 0) {
        return None;
    }
    if digits == start {
        return Some(None);
    }
    field[start..digits]
        .iter()
        .try_fold(0u64, |v, &b| {
            v.checked_mul(8)?.checked_add(u64::from(b - b'0'))
        })
        .map(Some)
}

/// The bytes of a text field up to its first NUL (all of it when there is none), as every reader
/// takes it.
pub fn field_str(field: &[u8]) -> &[u8] {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    &field[..end]
}

/// Checks the checksum and reads `block` as every reader would. `block` is not all zeros.
pub fn parse(block: &[u8; BLOCK]) -> Result<Header, Fault> {
    let stored = match number(&block[148..156]) {
        Some(Some(n)) => n,
        _ => {
            return Err(findings::header_checksum_not_number().into());
        }
    };
    let sum: u64 = block
        .iter()
        .enumerate()
        .map(|(i, &b)| u64::from(if (148..156).contains(&i) { b' ' } else { b }))
        .sum();
    if stored != sum {
        return Err(findings::header_checksum_mismatch(stored, sum).into());
    }
    let name = field_str(&block[0..100]);
    let magic = &block[257..265];
    let format = if magic == POSIX_MAGIC {
        Format::Ustar
    } else if magic == GNU_MAGIC {
        Format::Gnu
    } else {
        let shown = show_path(name);
        return Err(findings::header_unknown_magic(&shown).into());
    };
    let path = match format {
        Format::Ustar => {
            let prefix = field_str(&block[345..500]);
            if prefix.is_empty() {
                name.to_vec()
            } else {
                [prefix, b"/", name].concat()
            }
        }
        Format::Gnu => {
            // GNU keeps atime, ctime and sparse maps where ustar has its prefix; Python and busybox
            // read a non-zero byte there as a prefix, GNU tar does not. (A sparse entry is refused
            // for what it is, by its type.)
            if block[156] != b'S' && block[345..500].iter().any(|&b| b != 0) {
                return Err(findings::gnu_header_prefix_data(&show_path(name)).into());
            }
            name.to_vec()
        }
    };
    let shown = show_path(&path);
    let mut size = 0;
    for (field, from, to, blank_ok) in NUMERIC {
        match number(&block[from..to]) {
            Some(Some(n)) => {
                if field == "size" {
                    size = n;
                }
            }
            Some(None) if blank_ok => {}
            Some(None) => {
                return Err(findings::header_field_blank(&shown, field).into());
            }
            None => {
                return Err(findings::header_field_not_octal(&shown, field).into());
            }
        }
    }
    Ok(Header {
        format,
        typeflag: block[156],
        path,
        size,
        linkname: field_str(&block[157..257]).to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_every_reader_parses_alike() {
        // GNU tar, Python, busybox (bsdtar ends with a space; GNU with a NUL).
        assert_eq!(number(b"00000001000\0"), Some(Some(512)));
        assert_eq!(number(b"00000001000 "), Some(Some(512)));
        assert_eq!(number(b"000644 \0"), Some(Some(0o644)));
        assert_eq!(number(b"   644 \0"), Some(Some(0o644)));
        assert_eq!(number(b"777777777777"), Some(Some(0o777777777777)));
        assert_eq!(number(b"\0\0\0\0\0\0\0\0"), Some(None));
        assert_eq!(number(b"        "), Some(None));
    }

    #[test]
    fn numbers_readers_disagree_on() {
        // A NUL and then digits: 0 to Python, 512 to a reader that skips NULs.
        assert_eq!(number(b"\x0000000001000"), None);
        assert_eq!(number(b"12 3\0"), None);
        assert_eq!(number(b"0000648\0"), None);
        assert_eq!(number(&[0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]), None);
        assert_eq!(number(b"-0000001\0"), None);
        assert_eq!(number(b"\t0000001\0"), None);
        assert_eq!(number(b"7777777777777777777777777"), None);
    }
}
