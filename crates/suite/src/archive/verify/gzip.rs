//! The gzip layer of the verifier: one member (RFC 1952), its header, deflate stream, CRC-32 and
//! length trailer checked as it is read.

use std::io::{self, BufRead, Read};

use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::fault::Fault;
use super::findings;
use bqsuite_core::error::Error;

/// Reads one gzip member (RFC 1952) and checks its header, its deflate stream, its CRC-32 and
/// length trailer; a stream that stops early is `archive-truncated`, never a silent end.
pub struct GzMember<R> {
    inner: R,
    inflate: Decompress,
    crc: Crc,
    out: u64,
    cap: u64,
    done: bool,
}

/// Maps an error from the layer below: a carried fault stays what it is; an end of input is a
/// truncation; anything else is an I/O failure.
pub(super) fn below(e: io::Error, what: &str) -> Fault {
    Fault::from_io(e, |e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            findings::archive_ends_inside(what).into()
        } else {
            Fault::Failed(Error::io("read", "the archive", e))
        }
    })
}

/// Reads exactly `buf.len()` bytes from a BufRead; a short read is a truncation of `what`. Every
/// byte read is also fed to `crc`, for the header's own CRC.
fn fill_exact<R: BufRead>(
    inner: &mut R,
    buf: &mut [u8],
    what: &str,
    crc: &mut Crc,
) -> Result<(), Fault> {
    let mut filled = 0;
    while filled < buf.len() {
        let available = inner.fill_buf().map_err(|e| below(e, what))?;
        if available.is_empty() {
            return Err(findings::archive_ends_inside(what).into());
        }
        let n = available.len().min(buf.len() - filled);
        buf[filled..filled + n].copy_from_slice(&available[..n]);
        inner.consume(n);
        filled += n;
    }
    crc.update(buf);
    Ok(())
}

/// Skips a zero-terminated header string (FNAME, FCOMMENT); it is never read, let alone shown.
fn skip_string<R: BufRead>(inner: &mut R, what: &str, crc: &mut Crc) -> Result<(), Fault> {
    let mut seen: u64 = 0;
    loop {
        let mut byte = [0u8; 1];
        fill_exact(inner, &mut byte, what, crc)?;
        if byte[0] == 0 {
            return Ok(());
        }
        seen += 1;
        if seen > MAX_HEADER_STRING {
            return Err(findings::gzip_header_string_too_long(what, MAX_HEADER_STRING).into());
        }
    }
}

/// The longest file name or comment read from a gzip header.
const MAX_HEADER_STRING: u64 = 64 * 1024;

/// The gzip flag bits (RFC 1952, 2.3.1).
const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;
const RESERVED: u8 = 0xe0;

impl<R: BufRead> GzMember<R> {
    /// Reads and checks the gzip header. `cap` bounds the decompressed size.
    ///
    /// Every header real tools write is accepted: a file name, a comment, an extra field, a header
    /// CRC (checked: zlib refuses a wrong one, gzip ignores it), any MTIME, XFL and OS. None of
    /// them is printed. Reserved flag bits are refused: a decoder must.
    pub fn new(mut inner: R, cap: u64) -> Result<Self, Fault> {
        let first = inner.fill_buf().map_err(|e| below(e, "the gzip header"))?;
        if first.is_empty() {
            return Err(findings::archive_empty().into());
        }
        let mut crc = Crc::new();
        let mut header = [0u8; 10];
        fill_exact(&mut inner, &mut header, "the gzip header", &mut crc)?;
        if header[0..2] != [0x1f, 0x8b] {
            return Err(findings::gzip_bad_magic().into());
        }
        if header[2] != 8 {
            return Err(findings::gzip_unknown_method(header[2]).into());
        }
        let flags = header[3];
        if flags & RESERVED != 0 {
            return Err(findings::gzip_reserved_flags(flags).into());
        }
        if flags & FEXTRA != 0 {
            let mut len = [0u8; 2];
            fill_exact(&mut inner, &mut len, "the gzip extra field", &mut crc)?;
            let mut extra = vec![0u8; usize::from(u16::from_le_bytes(len))];
            fill_exact(&mut inner, &mut extra, "the gzip extra field", &mut crc)?;
        }
        if flags & FNAME != 0 {
            skip_string(&mut inner, "file name", &mut crc)?;
        }
        if flags & FCOMMENT != 0 {
            skip_string(&mut inner, "comment", &mut crc)?;
        }
        if flags & FHCRC != 0 {
            let expected = crc.sum() & 0xffff;
            let mut stored = [0u8; 2];
            fill_exact(&mut inner, &mut stored, "the gzip header CRC", &mut crc)?;
            let stored = u32::from(u16::from_le_bytes(stored));
            if stored != expected {
                return Err(findings::gzip_header_crc_mismatch(stored, expected).into());
            }
        }
        Ok(GzMember {
            inner,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            out: 0,
            cap,
            done: false,
        })
    }

    /// True once the deflate stream ended and the trailer was checked.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Decompressed bytes so far.
    pub fn total_out(&self) -> u64 {
        self.out
    }

    /// The input, positioned just after the member once [`GzMember::is_done`].
    pub fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    fn read_fault(&mut self, buf: &mut [u8]) -> Result<usize, Fault> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        let mut stalls = 0;
        loop {
            let (consumed, produced, status, eof) = {
                let input = self
                    .inner
                    .fill_buf()
                    .map_err(|e| below(e, "the deflate stream"))?;
                let (in0, out0) = (self.inflate.total_in(), self.inflate.total_out());
                let status = self
                    .inflate
                    .decompress(input, buf, FlushDecompress::None)
                    .map_err(|e| Fault::from(findings::deflate_corrupt(e)))?;
                let consumed = (self.inflate.total_in() - in0) as usize;
                (
                    consumed,
                    (self.inflate.total_out() - out0) as usize,
                    status,
                    input.is_empty(),
                )
            };
            self.inner.consume(consumed);
            self.crc.update(&buf[..produced]);
            self.out += produced as u64;
            if self.out > self.cap {
                return Err(findings::decompression_bomb(self.cap).into());
            }
            if status == Status::StreamEnd {
                self.trailer()?;
                return Ok(produced);
            }
            if produced > 0 {
                return Ok(produced);
            }
            if eof {
                return Err(findings::deflate_truncated().into());
            }
            if consumed == 0 {
                stalls += 1;
                if stalls > 2 {
                    return Err(findings::deflate_stalled().into());
                }
            }
        }
    }

    fn trailer(&mut self) -> Result<(), Fault> {
        let mut trailer = [0u8; 8];
        fill_exact(
            &mut self.inner,
            &mut trailer,
            "the gzip trailer",
            &mut Crc::new(),
        )?;
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        if crc != self.crc.sum() {
            return Err(findings::gzip_crc_mismatch(crc, self.crc.sum()).into());
        }
        if size != self.out as u32 {
            return Err(findings::gzip_length_mismatch().into());
        }
        self.done = true;
        Ok(())
    }
}

impl<R: BufRead> Read for GzMember<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_fault(buf).map_err(Fault::into_io)
    }
}
