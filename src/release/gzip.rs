//! The gzip member around the tar stream (RFC 1952), framed here field by field so that it is
//! exactly what `gzip -n` writes on Unix:
//!
//! | bytes | field | value |
//! | --- | --- | --- |
//! | 0-1 | ID1 ID2 | `1f 8b` |
//! | 2 | CM | 8 (deflate) |
//! | 3 | FLG | 0: no FNAME, FCOMMENT, FEXTRA, FHCRC, FTEXT |
//! | 4-7 | MTIME | 0 |
//! | 8 | XFL | 2 at level 9, 4 at level 1, else 0 (gzip's rule) |
//! | 9 | OS | 3 (Unix), whatever the building machine |
//! | ... | deflate | one raw deflate stream (flate2 on zlib-rs, both pinned in Cargo.toml) |
//! | -8..-4 | CRC32 | of the uncompressed data, little-endian |
//! | -4.. | ISIZE | uncompressed length mod 2^32, little-endian |

use std::io::{self, Write};

use flate2::write::DeflateEncoder;
use flate2::{Compression, Crc};

/// The OS byte `gzip` writes on Unix.
pub const OS_UNIX: u8 = 3;

/// The ten header bytes for a member compressed at `level`.
pub fn header(level: u32) -> [u8; 10] {
    let xfl = match level {
        9 => 2,
        1 => 4,
        _ => 0,
    };
    [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, OS_UNIX]
}

/// The compressor is always fed exactly this many bytes at a time (the last block may be
/// shorter). zlib-rs, like zlib, may emit different (equally valid) streams for the same data
/// split into different `write` calls; fixed blocks make the bytes independent of how the tar
/// writer happens to chunk its output.
pub const BLOCK: usize = 256 * 1024;

/// Streams data into one gzip member.
pub struct GzipWriter<W: Write> {
    deflate: DeflateEncoder<W>,
    crc: Crc,
    len: u64,
    /// Input not yet handed to the compressor (always shorter than [`BLOCK`]).
    pending: Vec<u8>,
}

impl<W: Write> GzipWriter<W> {
    /// Writes the header to `out` and starts the deflate stream at `level` (0-9).
    pub fn new(mut out: W, level: u32) -> io::Result<Self> {
        out.write_all(&header(level))?;
        Ok(GzipWriter {
            deflate: DeflateEncoder::new(out, Compression::new(level)),
            crc: Crc::new(),
            len: 0,
            pending: Vec::with_capacity(BLOCK),
        })
    }

    /// Ends the deflate stream, writes the trailer and returns the sink.
    pub fn finish(mut self) -> io::Result<W> {
        if !self.pending.is_empty() {
            self.deflate.write_all(&self.pending)?;
        }
        self.deflate.try_finish()?;
        let mut out = self.deflate.finish()?;
        out.write_all(&self.crc.sum().to_le_bytes())?;
        out.write_all(&((self.len & 0xffff_ffff) as u32).to_le_bytes())?;
        Ok(out)
    }
}

impl<W: Write> Write for GzipWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let total = buf.len();
        self.crc.update(buf);
        self.len += total as u64;
        let mut rest = buf;
        if !self.pending.is_empty() {
            let take = (BLOCK - self.pending.len()).min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() < BLOCK {
                return Ok(total);
            }
            self.deflate.write_all(&self.pending)?;
            self.pending.clear();
        }
        let mut blocks = rest.chunks_exact(BLOCK);
        for block in &mut blocks {
            self.deflate.write_all(block)?;
        }
        self.pending.extend_from_slice(blocks.remainder());
        Ok(total)
    }

    fn flush(&mut self) -> io::Result<()> {
        // A deflate flush would add a sync block and change the bytes; the stream is only ever
        // ended by `finish`.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn sample() -> Vec<u8> {
        (0..200_000u32)
            .flat_map(|i| {
                format!("{{\"n\": {i}, \"sq\": {}}}\n", i.wrapping_mul(i) % 977).into_bytes()
            })
            .collect()
    }

    fn gzip(data: &[u8], chunk: usize) -> Vec<u8> {
        let mut w = GzipWriter::new(Vec::new(), 6).unwrap();
        for piece in data.chunks(chunk) {
            w.write_all(piece).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn header_is_gzip_n_on_unix() {
        let out = gzip(b"abc", 3);
        assert_eq!(&out[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
        assert_eq!(header(9)[8], 2);
        assert_eq!(header(1)[8], 4);
    }

    #[test]
    fn trailer_and_round_trip() {
        let data = sample();
        let out = gzip(&data, 4096);
        let n = out.len();
        let mut crc = Crc::new();
        crc.update(&data);
        assert_eq!(&out[n - 8..n - 4], &crc.sum().to_le_bytes());
        assert_eq!(&out[n - 4..], &(data.len() as u32).to_le_bytes());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&out[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn bytes_do_not_depend_on_how_the_input_is_chunked() {
        let data = sample();
        let whole = gzip(&data, data.len());
        assert_eq!(gzip(&data, 512), whole);
        assert_eq!(gzip(&data, 7), whole);
        assert_eq!(gzip(&data, 100_003), whole);
        assert_eq!(gzip(&data, BLOCK), whole);
        assert_eq!(gzip(&data, BLOCK + 1), whole);
    }
}
