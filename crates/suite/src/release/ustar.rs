//! POSIX ustar headers, every field set here, byte for byte what GNU tar writes with
//! `tar --format=ustar --sort=name --mtime=@M --owner=0 --group=0 --numeric-owner` for a file of
//! mode 0644 or a directory of mode 0755.
//!
//! The `tar` crate supplies only the 512-byte block layout ([`tar::UstarHeader`]); no builder,
//! no metadata helper and no "deterministic" mode of the crate is used, so an upgrade of the crate
//! cannot change the bytes. The fields:
//!
//! | field | value |
//! | --- | --- |
//! | name, prefix | the path (`/`-separated, directories end in `/`), split like GNU tar when longer than 100 bytes |
//! | mode | `0000644\0` (file) or `0000755\0` (directory) |
//! | uid, gid | `0000000\0` |
//! | size | 11 octal digits and NUL; 0 for a directory |
//! | mtime | 11 octal digits and NUL: the one release mtime |
//! | chksum | 6 octal digits, NUL, space |
//! | typeflag | `0` (file) or `5` (directory) |
//! | linkname | empty |
//! | magic, version | `ustar\0`, `00` |
//! | uname, gname | empty (the owner is only the number 0) |
//! | devmajor, devminor | `0000000\0` |
//! | pad | zeros |
//!
//! There are no atime/ctime fields (those exist only in GNU headers) and no PAX records.

use std::io::{self, Write};

use tar::{Header, UstarHeader};

/// Size of a tar block.
pub const BLOCK: usize = 512;
/// Largest value of an 11-digit octal field (size, mtime): 8^11 - 1.
pub const MAX_OCTAL_11: u64 = 0o77_777_777_777;

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
}

/// Why a path cannot be stored in a ustar header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// Longer than 256 bytes, or no `/` splits it into a prefix of at most 155 bytes and a name
    /// of at most 100 bytes.
    TooLong,
    /// Empty, absolute, or holding an empty, `.` or `..` component or a NUL byte.
    NotPlain,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PathError::TooLong => {
                "the path is too long (a ustar header holds a name of at most 100 bytes, after a \
                 directory prefix of at most 155 bytes)"
            }
            PathError::NotPlain => {
                "the path is not a plain relative path (empty, absolute, `.`, `..` or NUL)"
            }
        })
    }
}

/// Splits `path` (directories with their trailing `/`) into ustar `(prefix, name)`, exactly as
/// GNU tar's `split_long_name` does: the longest prefix of at most 155 bytes that ends just before
/// a `/` (a directory's trailing `/` never counts as the split point).
pub fn split_path(path: &[u8]) -> Result<(&[u8], &[u8]), PathError> {
    check_plain(path)?;
    if path.len() <= 100 {
        return Ok((&[], path));
    }
    let mut length = path.len();
    if length > 155 + 1 {
        length = 155 + 1;
    } else if path[length - 1] == b'/' {
        length -= 1;
    }
    let i = (1..length)
        .rev()
        .find(|&i| path[i] == b'/')
        .ok_or(PathError::TooLong)?;
    let (prefix, name) = (&path[..i], &path[i + 1..]);
    if name.is_empty() || name.len() > 100 || prefix.len() > 155 {
        return Err(PathError::TooLong);
    }
    Ok((prefix, name))
}

fn check_plain(path: &[u8]) -> Result<(), PathError> {
    let trimmed = path.strip_suffix(b"/").unwrap_or(path);
    if trimmed.is_empty()
        || path.starts_with(b"/")
        || path.contains(&0)
        || trimmed
            .split(|&b| b == b'/')
            .any(|c| c.is_empty() || c == b"." || c == b"..")
    {
        return Err(PathError::NotPlain);
    }
    Ok(())
}

/// Writes `value` as `field.len() - 1` zero-padded octal digits followed by NUL.
fn octal(field: &mut [u8], value: u64) {
    let digits = field.len() - 1;
    let text = format!("{value:0digits$o}");
    debug_assert_eq!(
        text.len(),
        digits,
        "octal value {value} overflows its field"
    );
    field[..digits].copy_from_slice(text.as_bytes());
    field[digits] = 0;
}

fn copy(field: &mut [u8], bytes: &[u8]) {
    field.fill(0);
    field[..bytes.len()].copy_from_slice(bytes);
}

/// The header of one entry. `path` is the full archive path (a directory's ends in `/`); `size`
/// is 0 for a directory.
pub fn header(path: &[u8], kind: Kind, size: u64, mtime: u64) -> Result<Header, PathError> {
    assert!(
        size <= MAX_OCTAL_11 && mtime <= MAX_OCTAL_11,
        "size and mtime are checked by the caller"
    );
    let is_dir_path = path.ends_with(b"/");
    if is_dir_path != (kind == Kind::Dir) {
        return Err(PathError::NotPlain);
    }
    let (prefix, name) = split_path(path)?;
    let mut block = Header::new_old();
    {
        let bytes = block.as_mut_bytes();
        bytes.fill(0);
        bytes[257..263].copy_from_slice(b"ustar\0");
        bytes[263..265].copy_from_slice(b"00");
    }
    let h: &mut UstarHeader = block.as_ustar_mut().expect("ustar magic was just written");
    copy(&mut h.name, name);
    let (mode, typeflag, size) = match kind {
        Kind::File => (crate::archive::FILE_MODE, b'0', size),
        Kind::Dir => (crate::archive::DIR_MODE, b'5', 0),
    };
    octal(&mut h.mode, u64::from(mode));
    octal(&mut h.uid, 0);
    octal(&mut h.gid, 0);
    octal(&mut h.size, size);
    octal(&mut h.mtime, mtime);
    h.typeflag = [typeflag];
    h.linkname.fill(0);
    h.magic.copy_from_slice(b"ustar\0");
    h.version.copy_from_slice(b"00");
    h.uname.fill(0);
    h.gname.fill(0);
    octal(&mut h.dev_major, 0);
    octal(&mut h.dev_minor, 0);
    copy(&mut h.prefix, prefix);
    h.pad.fill(0);
    // The checksum is the sum of all bytes with the checksum field read as eight spaces, stored
    // as six octal digits, NUL, space.
    h.cksum.fill(b' ');
    let sum: u32 = block.as_bytes().iter().map(|&b| u32::from(b)).sum();
    let h = block.as_ustar_mut().expect("ustar");
    octal(&mut h.cksum[..7], u64::from(sum));
    h.cksum[7] = b' ';
    Ok(block)
}

/// Writes a tar stream: headers, data padded to whole blocks, and the end-of-archive marker (two
/// zero blocks). No record padding follows (GNU tar pads to 10240 bytes; readers do not need it).
pub struct TarWriter<W: Write> {
    out: W,
    entries: usize,
}

impl<W: Write> TarWriter<W> {
    pub fn new(out: W) -> Self {
        TarWriter { out, entries: 0 }
    }

    /// Appends a directory entry (`path` ends in `/`).
    pub fn dir(&mut self, path: &str, mtime: u64) -> io::Result<()> {
        let h = header(path.as_bytes(), Kind::Dir, 0, mtime).map_err(path_error(path))?;
        self.out.write_all(h.as_bytes())?;
        self.entries += 1;
        Ok(())
    }

    /// Appends a regular file holding exactly `data`.
    pub fn file(&mut self, path: &str, data: &[u8], mtime: u64) -> io::Result<()> {
        let size = data.len() as u64;
        if size > MAX_OCTAL_11 {
            return Err(io::Error::other(format!(
                "{path}: too large for a ustar entry"
            )));
        }
        let h = header(path.as_bytes(), Kind::File, size, mtime).map_err(path_error(path))?;
        // The bytes that follow must be exactly the size the header declares.
        if h.entry_size()? != size {
            return Err(io::Error::other(format!(
                "{path}: header size {} differs from the {size} bytes to write",
                h.entry_size()?
            )));
        }
        self.out.write_all(h.as_bytes())?;
        let mut counter = Counter {
            inner: &mut self.out,
            n: 0,
        };
        counter.write_all(data)?;
        if counter.n != size {
            return Err(io::Error::other(format!(
                "{path}: wrote {} bytes, the header says {size}",
                counter.n
            )));
        }
        let pad = (BLOCK - data.len() % BLOCK) % BLOCK;
        self.out.write_all(&[0u8; BLOCK][..pad])?;
        self.entries += 1;
        Ok(())
    }

    /// Writes the end-of-archive marker and returns the sink and the number of entries.
    pub fn finish(mut self) -> io::Result<(W, usize)> {
        self.out.write_all(&[0u8; 2 * BLOCK])?;
        Ok((self.out, self.entries))
    }
}

fn path_error(path: &str) -> impl Fn(PathError) -> io::Error + '_ {
    move |e| io::Error::other(format!("{path}: cannot be stored in a ustar header: {e}"))
}

struct Counter<'a, W: Write> {
    inner: &'a mut W,
    n: u64,
}

impl<W: Write> Write for Counter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.n += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tar::EntryType;

    fn field(h: &Header, range: std::ops::Range<usize>) -> &[u8] {
        &h.as_bytes()[range]
    }

    #[test]
    fn file_header_fields() {
        let h = header(b"root/fixtures/a.json", Kind::File, 1234, 1_700_000_000).unwrap();
        assert_eq!(h.path_bytes().as_ref(), b"root/fixtures/a.json");
        assert_eq!(h.entry_type(), EntryType::Regular);
        assert_eq!(h.mode().unwrap(), 0o644);
        assert_eq!(h.uid().unwrap(), 0);
        assert_eq!(h.gid().unwrap(), 0);
        assert_eq!(h.size().unwrap(), 1234);
        assert_eq!(h.mtime().unwrap(), 1_700_000_000);
        assert_eq!(h.username_bytes(), Some(&b""[..]));
        assert_eq!(h.groupname_bytes(), Some(&b""[..]));
        assert_eq!(h.link_name_bytes(), None);
        assert!(h.as_ustar().is_some(), "ustar magic");
        assert!(h.as_gnu().is_none(), "not a GNU header (no atime/ctime)");
        // Exact field text, as GNU tar --format=ustar writes it.
        assert_eq!(field(&h, 100..108), b"0000644\0");
        assert_eq!(field(&h, 108..116), b"0000000\0");
        assert_eq!(field(&h, 116..124), b"0000000\0");
        assert_eq!(field(&h, 124..136), b"00000002322\0");
        assert_eq!(field(&h, 136..148), b"14524770400\0");
        assert_eq!(field(&h, 156..157), b"0");
        assert_eq!(field(&h, 257..265), b"ustar\x0000");
        assert_eq!(field(&h, 329..337), b"0000000\0");
        assert_eq!(field(&h, 337..345), b"0000000\0");
        assert!(field(&h, 157..257).iter().all(|&b| b == 0), "linkname");
        assert!(field(&h, 265..329).iter().all(|&b| b == 0), "uname/gname");
        assert!(field(&h, 345..512).iter().all(|&b| b == 0), "prefix/pad");
        // Checksum: six octal digits, NUL, space, and it verifies.
        let ck = field(&h, 148..156);
        assert_eq!(&ck[6..], b"\0 ");
        let mut copy = *h.as_bytes();
        copy[148..156].fill(b' ');
        let sum: u32 = copy.iter().map(|&b| u32::from(b)).sum();
        assert_eq!(h.cksum().unwrap(), sum);
    }

    #[test]
    fn dir_header_fields() {
        let h = header(b"root/schema/", Kind::Dir, 99, 0).unwrap();
        assert_eq!(h.path_bytes().as_ref(), b"root/schema/");
        assert_eq!(h.entry_type(), EntryType::Directory);
        assert_eq!(h.mode().unwrap(), 0o755);
        assert_eq!(h.size().unwrap(), 0, "a directory has no data");
        assert_eq!(h.mtime().unwrap(), 0);
        assert_eq!(field(&h, 100..108), b"0000755\0");
        assert_eq!(field(&h, 156..157), b"5");
        // Kind and trailing slash must agree.
        assert_eq!(
            header(b"root/schema", Kind::Dir, 0, 0).unwrap_err(),
            PathError::NotPlain
        );
        assert_eq!(
            header(b"root/a/", Kind::File, 0, 0).unwrap_err(),
            PathError::NotPlain
        );
    }

    #[test]
    fn long_paths_split_like_gnu_tar() {
        let dir = "d".repeat(120);
        let path = format!("root/{dir}/file.json");
        let h = header(path.as_bytes(), Kind::File, 1, 0).unwrap();
        assert_eq!(h.path_bytes().as_ref(), path.as_bytes());
        let (prefix, name) = split_path(path.as_bytes()).unwrap();
        assert_eq!(prefix, format!("root/{dir}").as_bytes());
        assert_eq!(name, b"file.json");
        // A directory's trailing slash stays in the name.
        let dpath = format!("root/{dir}/sub/");
        assert_eq!(split_path(dpath.as_bytes()).unwrap().1, b"sub/");
        // A final component over 100 bytes, or a path over 256, cannot be stored.
        let long_name = format!("root/{}", "n".repeat(101));
        assert_eq!(
            split_path(long_name.as_bytes()).unwrap_err(),
            PathError::TooLong
        );
        let too_long = format!("{}/{}", "p".repeat(156), "n".repeat(10));
        assert_eq!(
            split_path(too_long.as_bytes()).unwrap_err(),
            PathError::TooLong
        );
    }

    #[test]
    fn unsafe_paths_are_refused() {
        for p in [&b""[..], b"/abs", b"a/../b", b"a//b", b"./a", b"a\0b"] {
            assert_eq!(split_path(p).unwrap_err(), PathError::NotPlain, "{p:?}");
        }
    }

    #[test]
    fn writer_pads_data_and_ends_with_two_zero_blocks() {
        let mut w = TarWriter::new(Vec::new());
        w.dir("r/", 5).unwrap();
        w.file("r/a", b"hello", 5).unwrap();
        w.file("r/empty", b"", 5).unwrap();
        let (bytes, entries) = w.finish().unwrap();
        assert_eq!(entries, 3);
        // dir header, file header + one data block, empty file header, two zero blocks
        assert_eq!(bytes.len(), 4 * BLOCK + 2 * BLOCK);
        assert_eq!(&bytes[2 * BLOCK..2 * BLOCK + 5], b"hello");
        assert!(bytes[2 * BLOCK + 5..3 * BLOCK].iter().all(|&b| b == 0));
        assert!(bytes[bytes.len() - 2 * BLOCK..].iter().all(|&b| b == 0));
        // The crate's reader sees the same entries.
        let mut archive = tar::Archive::new(&bytes[..]);
        let names: Vec<String> = archive
            .entries()
            .unwrap()
            .map(|e| String::from_utf8(e.unwrap().path_bytes().into_owned()).unwrap())
            .collect();
        assert_eq!(names, ["r/", "r/a", "r/empty"]);
    }
}
