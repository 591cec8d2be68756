//! The gzip layer of the verifier: one member (RFC 1952), its header, deflate stream, CRC-32 and
//! length trailer checked as it is read.

use std::cell::RefCell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::canonical::Matcher;
use super::{Fault, corrupt, truncated};
use crate::error::Error;

/// Reads one gzip member (RFC 1952) and checks its header, its deflate stream, its CRC-32 and
/// length trailer; a stream that stops early is `archive-truncated`, never a silent end.
pub struct GzMember<R> {
    inner: R,
    inflate: Decompress,
    crc: Crc,
    out: u64,
    cap: u64,
    done: bool,
    /// Where every byte read from `inner` is also handed, to be compared with what release
    /// writes.
    tap: Option<Rc<RefCell<Matcher>>>,
}

/// Maps an error from the layer below: a carried fault stays what it is; an end of input is a
/// truncation; anything else is an I/O failure.
pub(super) fn below(e: io::Error, what: &str) -> Fault {
    Fault::from_io(e, |e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            truncated(format!("the archive ends inside {what}"))
        } else {
            Fault::Failed(Error::io("read", "the archive", e))
        }
    })
}

/// Reads exactly `buf.len()` bytes from a BufRead; a short read is a truncation of `what`.
fn fill_exact<R: BufRead>(
    inner: &mut R,
    buf: &mut [u8],
    what: &str,
    tap: Option<&Rc<RefCell<Matcher>>>,
) -> Result<(), Fault> {
    let mut filled = 0;
    while filled < buf.len() {
        let available = inner.fill_buf().map_err(|e| below(e, what))?;
        if available.is_empty() {
            return Err(truncated(format!("the archive ends inside {what}")));
        }
        let n = available.len().min(buf.len() - filled);
        buf[filled..filled + n].copy_from_slice(&available[..n]);
        if let Some(tap) = tap {
            tap.borrow_mut().asset(&available[..n]);
        }
        inner.consume(n);
        filled += n;
    }
    Ok(())
}

impl<R: BufRead> GzMember<R> {
    /// Reads and checks the gzip header. `cap` bounds the decompressed size.
    pub fn new(inner: R, cap: u64) -> Result<Self, Fault> {
        Self::tapped(inner, cap, None)
    }

    /// As [`GzMember::new`], handing every byte read from `inner` to `tap` too.
    pub(super) fn tapped(
        mut inner: R,
        cap: u64,
        tap: Option<Rc<RefCell<Matcher>>>,
    ) -> Result<Self, Fault> {
        let first = inner.fill_buf().map_err(|e| below(e, "the gzip header"))?;
        if first.is_empty() {
            return Err(truncated("the archive is empty"));
        }
        let mut header = [0u8; 10];
        fill_exact(&mut inner, &mut header, "the gzip header", tap.as_ref())?;
        if header[0..2] != [0x1f, 0x8b] {
            return Err(corrupt("not a gzip file (bad magic number)"));
        }
        if header[2] != 8 {
            return Err(corrupt(format!(
                "unknown gzip compression method {}",
                header[2]
            )));
        }
        // Release writes one fixed header (no name, comment, extra field or header CRC; MTIME 0;
        // OS 3): anything else was not written by `bqsuite release`.
        let canonical = crate::release::gzip::header(crate::release::COMPRESSION_LEVEL);
        if header != canonical {
            let field = match (0..10).find(|&i| header[i] != canonical[i]) {
                Some(3) => "FLG (a name, comment, extra field or header CRC)",
                Some(4..=7) => "MTIME",
                Some(8) => "XFL",
                _ => "OS",
            };
            return Err(Fault::refuse_help(
                "archive-noncanonical",
                "",
                format!(
                    "the gzip header's {field} is not what release writes (header {}, release \
                     writes {})",
                    crate::archive::hex(&header),
                    crate::archive::hex(&canonical)
                ),
                "a release asset is exactly what `bqsuite release` writes; this one was \
                 recompressed or altered",
            ));
        }
        Ok(GzMember {
            inner,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            out: 0,
            cap,
            done: false,
            tap,
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
                    .map_err(|e| corrupt(format!("the deflate stream is corrupt ({e})")))?;
                let consumed = (self.inflate.total_in() - in0) as usize;
                if let Some(tap) = &self.tap {
                    tap.borrow_mut().asset(&input[..consumed]);
                }
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
                return Err(Fault::refuse_help(
                    "archive-too-large",
                    "",
                    format!(
                        "the archive decompresses to more than {} bytes (a decompression bomb?)",
                        self.cap
                    ),
                    "a release asset is far smaller; this is not one",
                ));
            }
            if status == Status::StreamEnd {
                self.trailer()?;
                return Ok(produced);
            }
            if produced > 0 {
                return Ok(produced);
            }
            if eof {
                return Err(truncated(
                    "the gzip stream ends before its deflate data is complete",
                ));
            }
            if consumed == 0 {
                stalls += 1;
                if stalls > 2 {
                    return Err(corrupt("the deflate stream makes no progress"));
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
            self.tap.as_ref(),
        )?;
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        if crc != self.crc.sum() {
            return Err(corrupt(format!(
                "the gzip CRC-32 does not match the data (trailer {crc:08x}, data {:08x})",
                self.crc.sum()
            )));
        }
        if size != self.out as u32 {
            return Err(corrupt("the gzip trailer's length does not match the data"));
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
