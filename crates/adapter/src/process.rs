//! One adapter process and the three threads that own its pipes: a writer (requests to its
//! stdin), a reader (bounded lines from its stdout) and a keeper of the tail of its stderr. The
//! caller's thread never touches a pipe: it hands a request to the writer and waits for the
//! reader's next line with a deadline, so no pipe can block it past the time bound, whatever
//! the adapter (or a process it started that still holds a pipe) does.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io::{self, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::bounds::Bounds;
use crate::fault::{Exit, Fault, StartError, Stream, io_words};
use crate::lines::{Lines, Read};

/// What the pipe threads report to the caller's thread.
enum Event {
    Line(Vec<u8>),
    /// Several complete lines that were in the reader's buffer together (the replies to
    /// pipelined requests): one hand-off for all of them.
    Lines(VecDeque<Vec<u8>>),
    TooLong,
    Flood,
    /// The adapter closed its stdout.
    End,
    ReadFailed(io::ErrorKind),
    WriteFailed(io::ErrorKind),
}

/// How a stopped process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It exited by itself within the grace time.
    Exited(Exit),
    /// It was still running after the grace time and was killed.
    Killed,
}

/// A running adapter process. Dropping it kills the process and reaps it.
pub(crate) struct Process {
    child: Child,
    /// To the writer thread; dropping it closes the adapter's stdin once the queue is written.
    requests: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    /// Lines of a [`Event::Lines`] not yet taken.
    pending: VecDeque<Vec<u8>>,
    stderr: Arc<Tail>,
    reaped: bool,
}

impl Process {
    /// Starts `program` with `args`, its three standard streams piped to threads of ours.
    pub(crate) fn spawn(
        program: &OsStr,
        args: &[OsString],
        bounds: &Bounds,
    ) -> Result<Process, StartError> {
        let as_given = program.to_string_lossy().into_owned();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| StartError::spawn(as_given.clone(), &e))?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            kill(&mut child);
            return Err(StartError::Spawn {
                program: as_given,
                what: "its standard streams could not be connected".into(),
            });
        };
        match Threads::spawn(stdin, stdout, stderr, bounds) {
            Ok(threads) => Ok(Process {
                child,
                requests: Some(threads.requests),
                events: threads.events,
                pending: VecDeque::new(),
                stderr: threads.stderr,
                reaped: false,
            }),
            Err(e) => {
                kill(&mut child);
                Err(StartError::Spawn {
                    program: as_given,
                    what: format!("could not start a thread to read it: {}", io_words(&e)),
                })
            }
        }
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// The tail of the adapter's stderr (so far), kept by the stderr thread.
    pub(crate) fn stderr(&self) -> Arc<Tail> {
        Arc::clone(&self.stderr)
    }

    /// Sends `request` (one line) and returns the next reply line, within `bounds.timeout`. A
    /// fault that [ends the adapter](Fault::ends_adapter) leaves the process killed and reaped.
    pub(crate) fn exchange(&mut self, request: Vec<u8>, bounds: &Bounds) -> Result<Vec<u8>, Fault> {
        self.drop_stale(bounds)?;
        self.send(request);
        self.receive(bounds)
    }

    /// Drops the lines already waiting: they answer no request of ours (an adapter that replied
    /// twice), so that the next request meets its own reply.
    pub(crate) fn drop_stale(&mut self, bounds: &Bounds) -> Result<(), Fault> {
        self.pending.clear();
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(_) | Event::Lines(_) | Event::TooLong) => continue,
                Ok(end) => return Err(self.ended(end, bounds)),
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => return Err(self.ended(Event::End, bounds)),
            }
        }
    }

    /// Hands `request` (one line, or several) to the writer thread, without waiting.
    pub(crate) fn send(&mut self, request: Vec<u8>) {
        let sent = match &self.requests {
            Some(requests) => requests.send(request).is_ok(),
            None => false,
        };
        if !sent {
            // The writer thread ended: it met a write error, which is the next event.
            self.requests = None;
        }
    }

    /// The next reply line, within `bounds.timeout` from now (a request the adapter does not
    /// read counts: its write shares the bound).
    pub(crate) fn receive(&mut self, bounds: &Bounds) -> Result<Vec<u8>, Fault> {
        if let Some(line) = self.pending.pop_front() {
            return Ok(line);
        }
        match self.events.recv_timeout(bounds.timeout) {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::Lines(mut lines)) => {
                let first = lines.pop_front().unwrap_or_default();
                self.pending = lines;
                Ok(first)
            }
            Ok(Event::TooLong) => Err(Fault::TooLong {
                limit: bounds.max_line,
            }),
            Ok(end) => Err(self.ended(end, bounds)),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Fault::Timeout {
                    after: bounds.timeout,
                })
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.ended(Event::End, bounds)),
        }
    }

    /// The fault for an event that ends the conversation; the process is reaped afterwards.
    fn ended(&mut self, event: Event, bounds: &Bounds) -> Fault {
        let stream = match event {
            Event::Flood => {
                self.kill();
                return Fault::Flood {
                    limit: bounds.max_drain,
                };
            }
            Event::ReadFailed(kind) | Event::WriteFailed(kind)
                if kind != io::ErrorKind::BrokenPipe =>
            {
                self.kill();
                return Fault::Io {
                    what: format!("a pipe to it failed: {kind}"),
                };
            }
            Event::WriteFailed(_) => Stream::Input,
            _ => Stream::Output,
        };
        // It closed a pipe: most likely it is exiting. Its own status and its last words are
        // worth the wait of the grace time.
        match self.wait_exit(bounds.stop_grace) {
            Some(status) => Fault::Exited {
                status,
                stderr_tail: self.stderr.text_when_done(bounds.stop_grace),
            },
            None => {
                self.kill();
                Fault::Closed {
                    stream,
                    stderr_tail: self.stderr.text(),
                }
            }
        }
    }

    /// Sends the stop request, closes the adapter's stdin, and waits up to `grace` for it to
    /// exit; kills it after that.
    pub(crate) fn stop(mut self, grace: Duration) -> Stop {
        if let Some(requests) = self.requests.take() {
            let _ = requests.send(crate::protocol::STOP_LINE.to_vec());
        }
        match self.wait_exit(grace) {
            Some(status) => Stop::Exited(status),
            None => {
                self.kill();
                Stop::Killed
            }
        }
    }

    /// Its exit status, if it exits within `grace` (polling: std has no timed wait).
    fn wait_exit(&mut self, grace: Duration) -> Option<Exit> {
        let deadline = Instant::now() + grace;
        let mut pause = Duration::from_millis(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(Exit::of(status));
                }
                Ok(None) => {}
                Err(_) => return None,
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            thread::sleep(pause.min(deadline - now));
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }

    /// Kills and reaps the process (once).
    pub(crate) fn kill(&mut self) {
        if !self.reaped {
            kill(&mut self.child);
            self.reaped = true;
        }
        self.requests = None;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills `child` and waits for it, so that it leaves no zombie. Killing a process that already
/// exited is harmless; SIGKILL cannot be ignored, so the wait is short.
fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// How many read lines may wait for the caller: enough that the replies to a window of
/// pipelined requests do not cost a thread hand-off each, few enough that the lines held stay
/// bounded (each at most `Bounds::max_line`).
const EVENTS: usize = 16;

/// The ends of the channels to the pipe threads.
struct Threads {
    requests: Sender<Vec<u8>>,
    events: Receiver<Event>,
    stderr: Arc<Tail>,
}

impl Threads {
    fn spawn(
        stdin: ChildStdin,
        stdout: ChildStdout,
        stderr: ChildStderr,
        bounds: &Bounds,
    ) -> io::Result<Threads> {
        // A few lines may wait while the next is read (replies to pipelined requests arrive
        // together): at most EVENTS + 1 lines' worth held.
        let (event_tx, events) = mpsc::sync_channel(EVENTS);
        let (requests, request_rx) = mpsc::channel();
        let tail = Arc::new(Tail::new(bounds.stderr_tail));
        let writer_events = event_tx.clone();
        thread::Builder::new()
            .name("adapter-stdin".into())
            .spawn(move || write_requests(stdin, request_rx, writer_events))?;
        let lines = Lines::new(
            BufReader::with_capacity(64 * 1024, stdout),
            bounds.max_line,
            bounds.max_drain,
        );
        thread::Builder::new()
            .name("adapter-stdout".into())
            .spawn(move || read_replies(lines, event_tx))?;
        let keeper = Arc::clone(&tail);
        thread::Builder::new()
            .name("adapter-stderr".into())
            .spawn(move || keeper.keep(stderr))?;
        Ok(Threads {
            requests,
            events,
            stderr: tail,
        })
    }
}

/// The writer thread: each request is written whole and flushed. When the caller drops its
/// end, the thread ends and drops `stdin`, which closes the adapter's input.
fn write_requests(mut stdin: ChildStdin, requests: Receiver<Vec<u8>>, events: SyncSender<Event>) {
    for request in requests {
        if let Err(e) = stdin.write_all(&request).and_then(|()| stdin.flush()) {
            let _ = events.send(Event::WriteFailed(e.kind()));
            return;
        }
    }
}

/// The reader thread: every line, until the stream ends or floods, or the caller is gone.
fn read_replies(mut lines: Lines<BufReader<ChildStdout>>, events: SyncSender<Event>) {
    loop {
        let (event, last) = match lines.next_line() {
            Ok(Read::Line(line)) if lines.line_ready() => {
                (Event::Lines(ready(&mut lines, line)), false)
            }
            Ok(Read::Line(line)) => (Event::Line(line), false),
            Ok(Read::TooLong) => (Event::TooLong, false),
            Ok(Read::Flood) => (Event::Flood, true),
            Ok(Read::End) => (Event::End, true),
            Err(e) => (Event::ReadFailed(e.kind()), true),
        };
        if events.send(event).is_err() || last {
            return;
        }
    }
}

/// `first` and the complete lines after it already in the reader's buffer (so reading them
/// never waits, and together they are no larger than the buffer).
fn ready(lines: &mut Lines<BufReader<ChildStdout>>, first: Vec<u8>) -> VecDeque<Vec<u8>> {
    let mut batch = VecDeque::from([first]);
    while lines.line_ready() {
        match lines.next_line() {
            Ok(Read::Line(line)) => batch.push_back(line),
            // A complete line is in the buffer: it is read whole, and is a line.
            _ => break,
        }
    }
    batch
}

/// The last bytes of the adapter's stderr, kept by its thread.
pub(crate) struct Tail {
    capacity: usize,
    state: Mutex<TailState>,
    done: Condvar,
}

struct TailState {
    bytes: VecDeque<u8>,
    /// The stream ended (or failed): nothing more will come.
    ended: bool,
}

impl Tail {
    fn new(capacity: usize) -> Tail {
        Tail {
            capacity,
            state: Mutex::new(TailState {
                bytes: VecDeque::new(),
                ended: false,
            }),
            done: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, TailState> {
        // A panic while holding the lock leaves only bytes behind: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads `stderr` to its end, keeping the last `capacity` bytes.
    fn keep(&self, mut stderr: ChildStderr) {
        let mut buf = [0u8; 8192];
        loop {
            match stderr.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let mut state = self.lock();
                    let chunk = &buf[n.saturating_sub(self.capacity)..n];
                    state.bytes.extend(chunk);
                    let excess = state.bytes.len().saturating_sub(self.capacity);
                    state.bytes.drain(..excess);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        self.lock().ended = true;
        self.done.notify_all();
    }

    /// The tail kept so far, as text (invalid UTF-8 replaced; a character cut at the start of
    /// the tail is dropped).
    pub(crate) fn text(&self) -> String {
        let state = self.lock();
        let (a, b) = state.bytes.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        drop(state);
        let start = bytes
            .iter()
            .take(3)
            .take_while(|&&b| b & 0xc0 == 0x80)
            .count();
        String::from_utf8_lossy(&bytes[start..]).into_owned()
    }

    /// The tail once the stream has ended, waiting at most `grace` for the end (a process the
    /// adapter started may hold its stderr open after it exited).
    fn text_when_done(&self, grace: Duration) -> String {
        let state = self.lock();
        let _ = self
            .done
            .wait_timeout_while(state, grace, |s| !s.ended)
            .map(|(state, _)| drop(state));
        self.text()
    }
}
