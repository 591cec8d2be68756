//! One writer per copy: a lock file beside a vendored copy (`.<name>.bqsuite-lock` in its parent,
//! never inside it, so it is never vendored, compared or checked) that every writing command takes
//! before it judges the copy and holds until it is done.
//!
//! The lock is the operating system's advisory lock on that file (`flock` on unix), which the
//! kernel releases when its holder exits, however it exits: a lock left by a killed run is simply
//! free, and the next run takes it over. The file also holds a record of its holder (process id,
//! start time, command) so that a second writer can say who is in the way.
//!
//! A holder removes the file when it is done, while it still holds the lock. A waiter that locked
//! the removed file finds that the path no longer names it and starts again with a fresh file, so
//! two runs never both believe they hold the lock.
//!
//! Read-only commands take no lock: they look ([`holder`]), and a copy whose lock is held is being
//! written, so they give no verdict on it.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bqsuite_core::error::{Error, Result};
use bqsuite_core::{shell, timefmt};

/// What a lock file's name ends with (`.<copy name>.bqsuite-lock`).
pub const SUFFIX: &str = "bqsuite-lock";
/// The first line of a holder record.
const MAGIC: &str = "bqsuite lock";
/// Most bytes of a holder record read.
const MAX_RECORD: u64 = 4096;
/// How long a writer waits for another by default.
pub const WAIT: Duration = Duration::from_secs(30);
/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(50);
/// The least a writer keeps trying, whatever it was told: a read-only command's look at the lock
/// holds it for an instant, which must not turn away a writer told not to wait.
const LEAST_WAIT: Duration = Duration::from_millis(300);

/// Who holds a copy's lock, as the record in its lock file says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Holder {
    pub pid: Option<u32>,
    /// When the holder took the lock (RFC 3339, UTC).
    pub started: Option<String>,
    /// The holder's command line, as it recorded it.
    pub command: Option<String>,
}

impl Holder {
    /// The holder in words, every part from the file escaped:
    /// `PID 1234, started 2026-12-03T16:40:00Z: \`bqsuite fetch --update 1.9.0 tests/conformance\``.
    pub fn describe(&self) -> String {
        let mut out = match self.pid {
            Some(pid) => format!("PID {pid}"),
            None => "a process that left no record".to_string(),
        };
        if let Some(started) = &self.started {
            out.push_str(&format!(", started {}", shell::escape(started)));
        }
        if let Some(command) = &self.command {
            out.push_str(&format!(": `{}`", shell::escape(command)));
        }
        out
    }
}

/// A held lock; dropping it removes the lock file and releases the lock.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    file: File,
}

impl Lock {
    /// Where the lock file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held (the file is closed, and so unlocked, right after).
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Why a writer could not take a copy's lock.
#[derive(Debug)]
pub enum Refusal {
    /// Another run held it for the whole wait.
    Busy(Holder),
    Failed(Error),
}

impl Refusal {
    /// The error that stops a writer (exit 2): who holds `copy` and for how long this run waited
    /// for them; `again` is this run's command, to paste once the other run has finished.
    pub fn into_error(self, copy: &Path, waited: Duration, again: &str) -> Error {
        match self {
            Refusal::Failed(e) => e,
            Refusal::Busy(holder) => Error::bad_path(
                copy,
                format!(
                    "is being written by another bqsuite run ({}); waited {} s for it, so nothing \
                     was written. Run `{again}` when that run has finished (or give it longer: \
                     --lock-wait SECONDS)",
                    holder.describe(),
                    waited.as_secs()
                ),
            ),
        }
    }
}

/// The error of a read-only command (exit 2) that finds `copy` being written: it gives no verdict
/// on a copy that is changing under it; `again` is its own command, to paste once the writer is
/// done.
pub fn being_written(copy: &Path, holder: &Holder, again: &str) -> Error {
    Error::bad_path(
        copy,
        format!(
            "is being written by another bqsuite run ({}), so it was not compared. Run `{again}` \
             when that run has finished",
            holder.describe()
        ),
    )
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Self {
        Refusal::Failed(e)
    }
}

/// The lock file of `copy` (which need not exist; its parent must): `.<name>.bqsuite-lock` in the
/// copy's parent, resolved to an absolute path so that every spelling of one copy names one lock.
pub fn path_for(copy: &Path) -> Result<PathBuf> {
    let absolute = match copy.file_name() {
        Some(name) => {
            let parent = match copy.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            fs::canonicalize(parent)
                .map_err(|e| Error::io("resolve", parent, e))?
                .join(name)
        }
        None => fs::canonicalize(copy).map_err(|e| Error::io("resolve", copy, e))?,
    };
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) => {
            // Built from the name's own bytes: two names never share a lock.
            let mut lock = std::ffi::OsString::from(".");
            lock.push(name);
            lock.push(format!(".{SUFFIX}"));
            Ok(parent.join(lock))
        }
        _ => Err(Error::bad_path(
            copy,
            "has no parent directory to hold its lock; give a directory below the root",
        )),
    }
}

/// Takes `copy`'s lock for this process, trying for `wait` (at least a moment) while another run
/// holds it. A lock whose holder died is free and taken at once.
pub fn acquire(copy: &Path, wait: Duration) -> std::result::Result<Lock, Refusal> {
    let path = path_for(copy)?;
    let deadline = Instant::now() + wait.max(LEAST_WAIT);
    loop {
        let file = open_for_writing(&path)?;
        match file.try_lock() {
            Ok(()) => {
                if names_file(&path, &file) {
                    write_record(&path, &file)?;
                    return Ok(Lock { path, file });
                }
                // The holder before removed this file as it finished: lock the next one.
            }
            Err(TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Err(Refusal::Busy(read_record(&file)));
                }
                std::thread::sleep(POLL);
            }
            Err(TryLockError::Error(e)) => return Err(Error::io("lock", &path, e).into()),
        }
    }
}

/// Who is writing `copy` right now, if anyone: `None` when no lock file is there, or nobody holds
/// it (a killed run's). Writes nothing; a file that is not a lock bqsuite could have made is not
/// a lock.
pub fn holder(copy: &Path) -> Option<Holder> {
    let path = path_for(copy).ok()?;
    let file = open_no_follow(OpenOptions::new().read(true), &path).ok()?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return None;
    }
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            None
        }
        Err(TryLockError::WouldBlock) => Some(read_record(&file)),
        Err(TryLockError::Error(_)) => None,
    }
}

/// Opens (creating it when absent) the lock file, never through a link, refusing anything but a
/// regular file.
fn open_for_writing(path: &Path) -> Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
    let opened = open_no_follow(&options, path);
    let not_ours = || {
        Error::bad_path(
            path,
            "is in the way of the copy's lock: it is not a file bqsuite made (a link, a directory \
             or a special file); move it away and run again",
        )
    };
    match opened {
        Ok(file) if file.metadata().is_ok_and(|m| m.is_file()) => Ok(file),
        Ok(_) => Err(not_ours()),
        Err(_) if fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) => Err(not_ours()),
        Err(e) => Err(Error::io("create the lock", path, e)),
    }
}

fn open_no_follow(options: &OpenOptions, path: &Path) -> std::io::Result<File> {
    let mut options = options.clone();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    options.open(path)
}

/// Whether `path` still names the file open as `file` (the holder before may have removed it).
fn names_file(path: &Path, file: &File) -> bool {
    let (Ok(at_path), Ok(open)) = (fs::symlink_metadata(path), file.metadata()) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        at_path.dev() == open.dev() && at_path.ino() == open.ino()
    }
    #[cfg(not(unix))]
    {
        at_path.is_file() && open.is_file()
    }
}

/// Replaces the lock file's record with this process's.
fn write_record(path: &Path, mut file: &File) -> Result<()> {
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let command: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let record = format!(
        "{MAGIC}\npid {}\nstarted {}\ncommand {}\n",
        std::process::id(),
        timefmt::rfc3339_utc(started),
        shell::command(&command)
    );
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(record.as_bytes()))
        .map_err(|e| Error::io("write the lock", path, e))
}

/// The record in a lock file, as far as it reads as one.
fn read_record(mut file: &File) -> Holder {
    let mut text = String::new();
    let read = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.take(MAX_RECORD).read_to_string(&mut text));
    let mut holder = Holder::default();
    if read.is_err() || text.lines().next() != Some(MAGIC) {
        return holder;
    }
    for line in text.lines().skip(1) {
        match line.split_once(' ') {
            Some(("pid", v)) => holder.pid = v.parse().ok(),
            Some(("started", v)) => holder.started = Some(v.to_string()),
            Some(("command", v)) => holder.command = Some(v.to_string()),
            _ => {}
        }
    }
    holder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_is_beside_the_copy_whatever_the_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("sdk/tests/conformance")).unwrap();
        let one = path_for(&d.join("sdk/tests/conformance")).unwrap();
        let two = path_for(&d.join("sdk/tests/../tests/conformance/")).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.file_name().unwrap(), ".conformance.bqsuite-lock");
        assert_eq!(
            one.parent().unwrap(),
            fs::canonicalize(d.join("sdk/tests")).unwrap()
        );
        // A copy that does not exist yet has its lock in the same place.
        assert_eq!(
            path_for(&d.join("sdk/tests/new")).unwrap(),
            one.with_file_name(".new.bqsuite-lock")
        );
    }

    #[test]
    fn one_holder_at_a_time_and_nothing_left_after() {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("conformance");
        let lock = acquire(&copy, Duration::ZERO).unwrap();
        let held = holder(&copy).expect("held");
        assert_eq!(held.pid, Some(std::process::id()));
        assert!(held.started.is_some() && held.command.is_some());
        // A second writer (another open file description, as another process has) is turned away.
        match acquire(&copy, Duration::ZERO) {
            Err(Refusal::Busy(h)) => assert_eq!(h, held),
            other => panic!("{other:?}"),
        }
        let path = lock.path().to_path_buf();
        drop(lock);
        assert!(!path.exists());
        assert_eq!(holder(&copy), None);
        let again = acquire(&copy, Duration::ZERO).unwrap();
        drop(again);
    }

    #[test]
    fn a_lock_file_nobody_holds_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("conformance");
        let path = path_for(&copy).unwrap();
        fs::write(&path, "bqsuite lock\npid 4000000\ncommand bqsuite sync\n").unwrap();
        assert_eq!(holder(&copy), None);
        let lock = acquire(&copy, Duration::ZERO).unwrap();
        assert_eq!(holder(&copy).unwrap().pid, Some(std::process::id()));
        drop(lock);
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_lock_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious");
        fs::write(&target, "keep").unwrap();
        let copy = dir.path().join("conformance");
        std::os::unix::fs::symlink(&target, path_for(&copy).unwrap()).unwrap();
        let err = match acquire(&copy, Duration::ZERO) {
            Err(Refusal::Failed(e)) => e.to_string(),
            other => panic!("{other:?}"),
        };
        assert!(err.contains("move it away"), "{err}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(holder(&copy), None);
    }

    #[test]
    fn a_record_is_shown_escaped() {
        let holder = Holder {
            pid: Some(7),
            started: Some("2026-12-03T16:40:00Z".into()),
            command: Some("bqsuite sync \u{1b}[2J".into()),
        };
        let shown = holder.describe();
        assert!(!shown.contains('\u{1b}'), "{shown}");
        assert!(shown.starts_with("PID 7, started 2026-12-03T16:40:00Z: `"));
    }
}
