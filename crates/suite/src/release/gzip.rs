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
//! | ... | deflate | one raw deflate stream, made of [`CHUNK`]-sized pieces (below) |
//! | -8..-4 | CRC32 | of the uncompressed data, little-endian |
//! | -4.. | ISIZE | uncompressed length mod 2^32, little-endian |
//!
//! The deflate stream is cut into chunks of [`CHUNK`] input bytes so that they can be compressed
//! at the same time, each by its own compressor (flate2 on zlib-rs, both pinned in Cargo.toml),
//! and still give bytes that depend on nothing but the input ([`deflate_chunk`] decides them):
//!
//! * each chunk is compressed by a fresh compressor at the same level, primed with the
//!   [`WINDOW`] input bytes before it as its dictionary (none for the first), so that matches
//!   reach back across the cut as they would in one stream;
//! * every chunk but the last ends with a sync flush (its blocks end on a byte boundary, the last
//!   one not final, then an empty stored block), so the next chunk's blocks simply follow; the
//!   last one ends the stream;
//! * the compressor is always fed [`BLOCK`] bytes at a time (the last piece may be shorter),
//!   each call with [`OUT_ROOM`] bytes of output room.
//!
//! The chunk size is fixed, never derived from the number of threads, so the asset's bytes are
//! the same whether one thread compresses every chunk in turn ([`GzipWriter`]) or many share
//! them ([`super::parallel::ParallelGzip`]). An input of at most one chunk (every real release
//! so far: the 1.8.0 tar stream is under 0.5 MiB) is one fresh stream ended at once: byte for
//! byte what earlier releases were, one compressor fed in [`BLOCK`]s through
//! `flate2::write::DeflateEncoder`.

use std::io::{self, Write};

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

/// The OS byte `gzip` writes on Unix.
pub const OS_UNIX: u8 = 3;

/// The compressor is always fed exactly this many bytes at a time (the last piece of a chunk may
/// be shorter). zlib-rs, like zlib, may emit different (equally valid) streams for the same data
/// split into different `write` calls; fixed pieces make the bytes independent of how the tar
/// writer happens to chunk its output.
pub const BLOCK: usize = 256 * 1024;

/// Input bytes per independently compressed chunk of the deflate stream: a whole number of
/// [`BLOCK`]s. Part of what decides the asset's bytes, like the compression level.
pub const CHUNK: usize = 4 * BLOCK;

/// The dictionary a chunk is primed with: the last bytes of the chunk before it, as many as a
/// deflate match can reach back (32 KiB).
pub const WINDOW: usize = 32 * 1024;

/// The ten header bytes for a member compressed at `level`.
pub fn header(level: u32) -> [u8; 10] {
    let xfl = match level {
        9 => 2,
        1 => 4,
        _ => 0,
    };
    [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, OS_UNIX]
}

/// The eight trailer bytes: CRC-32 and length (mod 2^32) of the uncompressed data.
pub fn trailer(crc: &Crc, len: u64) -> [u8; 8] {
    let mut out = [0u8; 8];
    out[..4].copy_from_slice(&crc.sum().to_le_bytes());
    out[4..].copy_from_slice(&((len & 0xffff_ffff) as u32).to_le_bytes());
    out
}

/// One chunk of the input: `bytes` holds its dictionary (the `dict_len` bytes before it in the
/// stream, 0 for the first chunk) followed by its data.
#[derive(Debug)]
pub struct Chunk {
    pub bytes: Vec<u8>,
    pub dict_len: usize,
    /// Whether this chunk ends the stream.
    pub last: bool,
}

impl Chunk {
    fn data(&self) -> &[u8] {
        &self.bytes[self.dict_len..]
    }
}

/// The output room of every call to the compressor. zlib-rs's level-6 matcher keeps part of its
/// state (the match found ahead) only within one call, and a call ends early when its output room
/// is full: so the room, like the input pieces, decides the bytes, and is fixed. 32 KiB is what
/// `flate2::write::DeflateEncoder` (the writer of earlier releases) gives each call.
pub const OUT_ROOM: usize = 32 * 1024;

/// Compresses one chunk at `level`, appending its deflate bytes to `out`: the one function that
/// decides the bytes of the stream (see the module documentation).
///
/// Every chunk gets a new compressor (raw deflate, 32 KiB window): a reset one keeps the bytes of
/// its earlier input in its window, which its matcher may read past the end of the new input, so
/// its output would depend on what it compressed before. The calls made to the compressor depend
/// on nothing but the chunk: each [`BLOCK`] piece is offered until it is taken, every call with
/// [`OUT_ROOM`] bytes of room, then the chunk is ended (sync flush, or finish for the last) the
/// same way.
pub fn deflate_chunk(level: u32, chunk: &Chunk, out: &mut Vec<u8>) -> io::Result<()> {
    let mut room = vec![0u8; OUT_ROOM];
    let z = &mut Compress::new(Compression::new(level), false);
    if chunk.dict_len > 0 {
        z.set_dictionary(&chunk.bytes[..chunk.dict_len])
            .map_err(io::Error::other)?;
    }
    let mut call = |z: &mut Compress, input: &[u8], flush| -> io::Result<(usize, usize, Status)> {
        let (in0, out0) = (z.total_in(), z.total_out());
        let status = z
            .compress(input, &mut room, flush)
            .map_err(io::Error::other)?;
        let produced = (z.total_out() - out0) as usize;
        out.extend_from_slice(&room[..produced]);
        Ok(((z.total_in() - in0) as usize, produced, status))
    };
    for piece in chunk.data().chunks(BLOCK) {
        let mut rest = piece;
        while !rest.is_empty() {
            let (taken, produced, _) = call(z, rest, FlushCompress::None)?;
            if taken == 0 && produced == 0 {
                return Err(io::Error::other("the compressor made no progress"));
            }
            rest = &rest[taken..];
        }
    }
    loop {
        if chunk.last {
            let (_, produced, status) = call(z, &[], FlushCompress::Finish)?;
            if status == Status::StreamEnd {
                return Ok(());
            }
            if produced == 0 {
                return Err(io::Error::other("the compressor did not end the stream"));
            }
        } else {
            // A sync flush is complete once a call leaves output room unused.
            let (_, produced, _) = call(z, &[], FlushCompress::Sync)?;
            if produced < OUT_ROOM {
                return Ok(());
            }
        }
    }
}

/// Where a [`Chunker`] hands its chunks.
pub trait ChunkSink {
    /// An empty buffer for the next chunk (a recycled one, or a new one).
    fn spare(&mut self) -> Vec<u8>;
    /// A completed chunk, in stream order.
    fn chunk(&mut self, chunk: Chunk) -> io::Result<()>;
}

/// Cuts a stream into [`Chunk`]s. A full chunk is handed on only once more input arrives (it is
/// then known not to be the last); [`Chunker::finish`] returns the last one.
#[derive(Debug, Default)]
pub struct Chunker {
    current: Vec<u8>,
    dict_len: usize,
}

impl Chunker {
    /// Adds `data`, handing every chunk it completes to `sink`.
    pub fn push(&mut self, mut data: &[u8], sink: &mut impl ChunkSink) -> io::Result<()> {
        while !data.is_empty() {
            let room = self.dict_len + CHUNK - self.current.len();
            if room == 0 {
                let mut next = sink.spare();
                next.clear();
                next.reserve(WINDOW + CHUNK);
                next.extend_from_slice(&self.current[self.current.len() - WINDOW..]);
                let full = std::mem::replace(&mut self.current, next);
                sink.chunk(Chunk {
                    bytes: full,
                    dict_len: self.dict_len,
                    last: false,
                })?;
                self.dict_len = WINDOW;
                continue;
            }
            let n = room.min(data.len());
            self.current.extend_from_slice(&data[..n]);
            data = &data[n..];
        }
        Ok(())
    }

    /// The last chunk (possibly empty).
    pub fn finish(self) -> Chunk {
        Chunk {
            bytes: self.current,
            dict_len: self.dict_len,
            last: true,
        }
    }
}

/// Streams data into one gzip member, compressing chunk after chunk on the calling thread.
pub struct GzipWriter<W: Write> {
    chunker: Chunker,
    crc: Crc,
    len: u64,
    inline: Inline<W>,
}

/// Compresses each chunk as it comes and writes it out.
struct Inline<W> {
    out: W,
    level: u32,
    /// The buffer of the chunk before, for the next one; and one for compressed bytes.
    spare: Vec<u8>,
    deflated: Vec<u8>,
}

impl<W: Write> ChunkSink for Inline<W> {
    fn spare(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.spare)
    }

    fn chunk(&mut self, chunk: Chunk) -> io::Result<()> {
        self.deflated.clear();
        deflate_chunk(self.level, &chunk, &mut self.deflated)?;
        self.out.write_all(&self.deflated)?;
        self.spare = chunk.bytes;
        Ok(())
    }
}

impl<W: Write> GzipWriter<W> {
    /// Writes the header to `out` and starts the deflate stream at `level` (0-9).
    pub fn new(mut out: W, level: u32) -> io::Result<Self> {
        out.write_all(&header(level))?;
        Ok(GzipWriter {
            chunker: Chunker::default(),
            crc: Crc::new(),
            len: 0,
            inline: Inline {
                out,
                level,
                spare: Vec::new(),
                deflated: Vec::new(),
            },
        })
    }

    /// Ends the deflate stream, writes the trailer and returns the sink.
    pub fn finish(mut self) -> io::Result<W> {
        self.inline.chunk(self.chunker.finish())?;
        let mut out = self.inline.out;
        out.write_all(&trailer(&self.crc, self.len))?;
        Ok(out)
    }
}

impl<W: Write> Write for GzipWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.crc.update(buf);
        self.len += buf.len() as u64;
        self.chunker.push(buf, &mut self.inline)?;
        Ok(buf.len())
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

    /// Text that compresses about as well as a suite does.
    fn sample(n: u32) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                format!("{{\"n\": {i}, \"sq\": {}}}\n", i.wrapping_mul(i) % 977).into_bytes()
            })
            .collect()
    }

    fn gzip(data: &[u8], chunk: usize) -> Vec<u8> {
        let mut w = GzipWriter::new(Vec::new(), 6).unwrap();
        for piece in data.chunks(chunk.max(1)) {
            w.write_all(piece).unwrap();
        }
        w.finish().unwrap()
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut back)
            .unwrap();
        back
    }

    /// The single-stream format every release up to one chunk has: one compressor fed in BLOCKs,
    /// as `flate2::write::DeflateEncoder` writes it.
    fn single_stream(data: &[u8]) -> Vec<u8> {
        let mut out = header(6).to_vec();
        let mut enc = flate2::write::DeflateEncoder::new(&mut out, Compression::new(6));
        for block in data.chunks(BLOCK) {
            enc.write_all(block).unwrap();
        }
        enc.finish().unwrap();
        let mut crc = Crc::new();
        crc.update(data);
        out.extend_from_slice(&trailer(&crc, data.len() as u64));
        out
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
        let data = sample(200_000);
        assert!(data.len() > 2 * CHUNK, "spans chunks: {}", data.len());
        let out = gzip(&data, 4096);
        let n = out.len();
        let mut crc = Crc::new();
        crc.update(&data);
        assert_eq!(&out[n - 8..n - 4], &crc.sum().to_le_bytes());
        assert_eq!(&out[n - 4..], &(data.len() as u32).to_le_bytes());
        assert_eq!(gunzip(&out), data);
        for len in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            2 * CHUNK,
            2 * CHUNK + WINDOW,
        ] {
            let part = &data[..len];
            assert_eq!(gunzip(&gzip(part, 7919)), part, "{len}");
        }
    }

    #[test]
    fn bytes_do_not_depend_on_how_the_input_is_chunked() {
        let data = sample(200_000);
        let whole = gzip(&data, data.len());
        assert_eq!(gzip(&data, 512), whole);
        assert_eq!(gzip(&data, 7), whole);
        assert_eq!(gzip(&data, 100_003), whole);
        assert_eq!(gzip(&data, BLOCK), whole);
        assert_eq!(gzip(&data, CHUNK + 1), whole);
    }

    /// Up to one chunk, the stream is the single stream earlier releases were written as.
    #[test]
    fn one_chunk_is_the_single_stream() {
        let data = sample(200_000);
        for len in [
            0,
            1,
            1000,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            3 * BLOCK + 17,
            CHUNK,
        ] {
            assert_eq!(
                gzip(&data[..len], 4096),
                single_stream(&data[..len]),
                "{len}"
            );
        }
        // Past one chunk, it is not (the cut is a sync flush), but it is no larger than a few
        // bytes per chunk.
        let long = gzip(&data, 4096);
        let single = single_stream(&data);
        assert_ne!(long, single);
        let chunks = data.len().div_ceil(CHUNK);
        assert!(
            long.len() <= single.len() + 64 * chunks,
            "{} vs {}",
            long.len(),
            single.len()
        );
    }

    /// The dictionary is what carries matches across a cut: a second chunk that repeats text
    /// of the first (incompressible on its own) costs almost nothing.
    #[test]
    fn the_dictionary_reaches_across_the_cut() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let unit: Vec<u8> = (0..16 * 1024)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        // Both chunks start with the unit; without the dictionary the second would cost what
        // the first does, unit included.
        let data: Vec<u8> = unit.iter().copied().cycle().take(2 * CHUNK).collect();
        let one = gzip(&data[..CHUNK], 4096).len();
        let two = gzip(&data, 4096);
        assert!(
            two.len() - one + unit.len() / 2 < one,
            "{one} then {}",
            two.len()
        );
        assert_eq!(gunzip(&two), data);
    }
}
