//! The gzip member of [`super::gzip`], with its chunks compressed by several threads at once.
//!
//! The calling thread cuts the stream into chunks ([`Chunker`]) and hands each to a pool of
//! workers, each with its own compressor; it then writes the compressed chunks out in stream
//! order as they complete. Every chunk is compressed by [`deflate_chunk`] from nothing but its own
//! bytes and dictionary, so the output is byte for byte what [`super::gzip::GzipWriter`] writes on
//! one thread, whatever the number of workers.
//!
//! Memory is bounded: at most [`IN_FLIGHT_PER_THREAD`] chunks per worker are waiting or being
//! compressed, and their buffers are reused.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::Scope;

use flate2::Crc;

use super::gzip::{Chunk, ChunkSink, Chunker, GzipWriter, deflate_chunk, header, trailer};

pub use bqsuite_core::threads::{MAX_THREADS, THREADS_VAR, threads_from};

/// Chunks per worker that may be queued, being compressed, or waiting to be written.
pub const IN_FLIGHT_PER_THREAD: usize = 2;

/// A chunk to compress, with a buffer for its output and where to send the result.
struct Job {
    chunk: Chunk,
    out: Vec<u8>,
    done: SyncSender<Done>,
}

/// A compressed chunk, with its input buffer handed back for reuse.
struct Done {
    input: Vec<u8>,
    out: io::Result<Vec<u8>>,
}

/// Streams data into one gzip member whose chunks `threads` workers compress (inline, on the
/// calling thread, when `threads` is 1).
pub enum ParallelGzip<W: Write> {
    Inline(GzipWriter<W>),
    Pool(Pool<W>),
}

impl<W: Write> ParallelGzip<W> {
    /// Writes the header to `out` and starts the stream at `level`; the workers are spawned in
    /// `scope` and end when the writer is finished or dropped.
    pub fn new<'scope>(
        scope: &'scope Scope<'scope, '_>,
        out: W,
        level: u32,
        threads: usize,
    ) -> io::Result<Self> {
        if threads <= 1 {
            return GzipWriter::new(out, level).map(ParallelGzip::Inline);
        }
        Pool::new(scope, out, level, threads).map(ParallelGzip::Pool)
    }

    /// Ends the stream, writes the trailer and returns the sink.
    pub fn finish(self) -> io::Result<W> {
        match self {
            ParallelGzip::Inline(w) => w.finish(),
            ParallelGzip::Pool(p) => p.finish(),
        }
    }
}

impl<W: Write> Write for ParallelGzip<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ParallelGzip::Inline(w) => w.write(buf),
            ParallelGzip::Pool(p) => p.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        // As GzipWriter: the stream is only ever ended by `finish`.
        Ok(())
    }
}

/// The pool side of [`ParallelGzip`].
pub struct Pool<W: Write> {
    chunker: Chunker,
    crc: Crc,
    len: u64,
    queue: Queue<W>,
}

/// Chunks on their way: sent to the workers, then written out in order.
struct Queue<W> {
    out: W,
    jobs: SyncSender<Job>,
    /// The results to come, oldest first.
    pending: VecDeque<Receiver<Done>>,
    limit: usize,
    spare_in: Vec<Vec<u8>>,
    spare_out: Vec<Vec<u8>>,
}

impl<W: Write> Pool<W> {
    fn new<'scope>(
        scope: &'scope Scope<'scope, '_>,
        mut out: W,
        level: u32,
        threads: usize,
    ) -> io::Result<Self> {
        out.write_all(&header(level))?;
        let (jobs, inbox) = sync_channel::<Job>(threads);
        let inbox = Arc::new(Mutex::new(inbox));
        for _ in 0..threads {
            let inbox = Arc::clone(&inbox);
            scope.spawn(move || work(&inbox, level));
        }
        Ok(Pool {
            chunker: Chunker::default(),
            crc: Crc::new(),
            len: 0,
            queue: Queue {
                out,
                jobs,
                pending: VecDeque::new(),
                limit: threads * IN_FLIGHT_PER_THREAD,
                spare_in: Vec::new(),
                spare_out: Vec::new(),
            },
        })
    }

    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.crc.update(buf);
        self.len += buf.len() as u64;
        self.chunker.push(buf, &mut self.queue)?;
        Ok(buf.len())
    }

    fn finish(mut self) -> io::Result<W> {
        self.queue.chunk(self.chunker.finish())?;
        while !self.queue.pending.is_empty() {
            self.queue.write_oldest()?;
        }
        let Queue { mut out, .. } = self.queue;
        out.write_all(&trailer(&self.crc, self.len))?;
        Ok(out)
    }
}

impl<W: Write> Queue<W> {
    /// Waits for the oldest chunk and writes it out.
    fn write_oldest(&mut self) -> io::Result<()> {
        let Some(next) = self.pending.pop_front() else {
            return Ok(());
        };
        let done = next.recv().map_err(|_| stopped())?;
        self.write_done(done)
    }

    /// Writes out a compressed chunk (the oldest) and keeps its buffers for later chunks.
    fn write_done(&mut self, done: Done) -> io::Result<()> {
        self.spare_in.push(done.input);
        let out = done.out?;
        self.out.write_all(&out)?;
        self.spare_out.push(out);
        Ok(())
    }
}

impl<W: Write> ChunkSink for Queue<W> {
    fn spare(&mut self) -> Vec<u8> {
        self.spare_in.pop().unwrap_or_default()
    }

    fn chunk(&mut self, chunk: Chunk) -> io::Result<()> {
        while self.pending.len() >= self.limit {
            self.write_oldest()?;
        }
        let (done, result) = sync_channel(1);
        let out = self.spare_out.pop().unwrap_or_default();
        self.jobs
            .send(Job { chunk, out, done })
            .map_err(|_| stopped())?;
        self.pending.push_back(result);
        // Write out whatever is already done, in order, without waiting.
        while let Some(Ok(done)) = self.pending.front().map(Receiver::try_recv) {
            self.pending.pop_front();
            self.write_done(done)?;
        }
        Ok(())
    }
}

fn stopped() -> io::Error {
    io::Error::other("a compressing thread stopped")
}

/// A worker: compresses chunks until the writer is gone.
fn work(inbox: &Mutex<Receiver<Job>>, level: u32) {
    loop {
        let job = match inbox.lock() {
            Ok(inbox) => inbox.recv(),
            Err(_) => return,
        };
        let Ok(Job {
            chunk,
            mut out,
            done,
        }) = job
        else {
            return;
        };
        out.clear();
        let out = deflate_chunk(level, &chunk, &mut out).map(|()| out);
        // The writer may be gone (it failed): nothing is waiting for this chunk then.
        let _ = done.send(Done {
            input: chunk.bytes,
            out,
        });
    }
}
