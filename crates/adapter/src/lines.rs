//! Reading lines with a bound: a line is kept only up to `max_line` bytes; a longer one is read
//! to its newline and dropped chunk by chunk, never held; past `max_drain` bytes without a
//! newline the reader gives up.

use std::io::{self, BufRead};

/// What the next read found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// A line, without its newline.
    Line(Vec<u8>),
    /// A line longer than the bound, read to its newline and dropped.
    TooLong,
    /// More than the drain bound without a newline: the reader stopped there.
    Flood,
    /// The end of the stream (an unfinished last line is dropped).
    End,
}

/// A line reader over a buffered stream.
pub(crate) struct Lines<R> {
    inner: R,
    max_line: usize,
    max_drain: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R, max_line: usize, max_drain: u64) -> Self {
        Lines {
            inner,
            max_line,
            max_drain,
        }
    }

    /// The next line. Never holds more than `max_line` bytes of it, plus the reader's buffer.
    pub(crate) fn next_line(&mut self) -> io::Result<Read> {
        let mut line = Vec::new();
        let mut dropping = false;
        let mut dropped: u64 = 0;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(Read::End);
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let part = &chunk[..newline.unwrap_or(chunk.len())];
            if !dropping && line.len() + part.len() > self.max_line {
                dropping = true;
                dropped = line.len() as u64;
                line = Vec::new();
            }
            if dropping {
                dropped += part.len() as u64;
            } else {
                line.extend_from_slice(part);
            }
            let used = part.len() + usize::from(newline.is_some());
            self.inner.consume(used);
            if newline.is_some() {
                return Ok(if dropping {
                    Read::TooLong
                } else {
                    Read::Line(line)
                });
            }
            if dropping && dropped > self.max_drain {
                return Ok(Read::Flood);
            }
        }
    }
}

impl<T: io::Read> Lines<io::BufReader<T>> {
    /// Whether the next line is already whole in the buffer, and within the bound: reading it
    /// then takes it without waiting, and gives a [`Read::Line`].
    pub(crate) fn line_ready(&self) -> bool {
        let newline = self.inner.buffer().iter().position(|&b| b == b'\n');
        matches!(newline, Some(n) if n <= self.max_line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn all(input: &[u8], max_line: usize, max_drain: u64) -> Vec<Read> {
        let mut lines = Lines::new(Cursor::new(input.to_vec()), max_line, max_drain);
        let mut out = Vec::new();
        loop {
            let read = lines.next_line().unwrap();
            let stop = matches!(read, Read::End | Read::Flood);
            out.push(read);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn lines_up_to_the_bound_are_kept_and_longer_ones_dropped() {
        let got = all(b"abcd\nabcde\n\nxy\nunfinished", 4, 100);
        assert_eq!(
            got,
            [
                Read::Line(b"abcd".to_vec()),
                Read::TooLong,
                Read::Line(Vec::new()),
                Read::Line(b"xy".to_vec()),
                Read::End,
            ]
        );
    }

    #[test]
    fn a_line_past_the_drain_bound_is_a_flood() {
        let input = vec![b'x'; 1000];
        assert_eq!(all(&input, 4, 100), [Read::Flood]);
        // Drained to its newline when the newline comes within the bound.
        let mut input = vec![b'x'; 90];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(
            all(&input, 4, 100),
            [Read::TooLong, Read::Line(b"ok".to_vec()), Read::End]
        );
    }

    /// A gibibyte of `x` then a newline and `ok`, made as it is read (never in memory), in reads
    /// of at most 64 KiB, as a pipe gives them.
    struct Huge {
        left: u64,
        tail: &'static [u8],
    }

    impl io::Read for Huge {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(64 * 1024);
            if self.left > 0 {
                let n = n.min(self.left as usize);
                buf[..n].fill(b'x');
                self.left -= n as u64;
                return Ok(n);
            }
            self.tail.read(buf)
        }
    }

    use crate::counting_alloc as counting;

    #[test]
    fn a_gibibyte_line_is_dropped_without_being_held() {
        let huge = Huge {
            left: 1 << 30,
            tail: b"\nok\n",
        };
        let max_line = 1024 * 1024;
        let mut lines = Lines::new(
            BufReader::with_capacity(64 * 1024, huge),
            max_line,
            u64::MAX,
        );
        let _alone = counting::exclusive();
        let ((), held) = counting::peak_of(|| {
            assert_eq!(lines.next_line().unwrap(), Read::TooLong);
            assert_eq!(lines.next_line().unwrap(), Read::Line(b"ok".to_vec()));
            assert_eq!(lines.next_line().unwrap(), Read::End);
        });
        // At most the bound's worth of the line (doubling to it), with room for the other tests.
        assert!(
            held < 8 * max_line,
            "held {held} bytes reading a 1 GiB line"
        );
    }
}
