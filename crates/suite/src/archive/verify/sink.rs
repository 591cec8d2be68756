//! Where verified entries go ([`Sink`]: [`Discard`], [`Collect`]) and what a verified archive
//! holds ([`Summary`]).

use std::collections::BTreeMap;
use std::io::Read;

use super::fault::Fault;
use bqsuite_core::error::Error;

/// Where verified entries go. Paths are relative to the root directory, `/`-separated, without a
/// trailing slash; the root itself is never passed. A sink need not read a file's content to its
/// end: the verifier reads (and checks) what is left.
pub trait Sink {
    fn directory(&mut self, rel: &str) -> Result<(), Fault>;
    fn file(&mut self, rel: &str, size: u64, content: &mut dyn Read) -> Result<(), Fault>;
}

/// A sink that only verifies.
#[derive(Debug, Default)]
pub struct Discard;

impl Sink for Discard {
    fn directory(&mut self, _rel: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn file(&mut self, _rel: &str, _size: u64, _content: &mut dyn Read) -> Result<(), Fault> {
        Ok(())
    }
}

/// A sink that keeps every file's content, by path (relative to the root). Memory is bounded by
/// the [`Limits`](super::Limits) the archive is verified with.
#[derive(Debug, Default)]
pub struct Collect {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Sink for Collect {
    fn directory(&mut self, _rel: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn file(&mut self, rel: &str, size: u64, content: &mut dyn Read) -> Result<(), Fault> {
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        content.read_to_end(&mut bytes).map_err(|e| {
            Fault::from_io(e, |e| Fault::Failed(Error::io("read", "the archive", e)))
        })?;
        self.files.insert(rel.to_string(), bytes);
        Ok(())
    }
}

/// What a verified archive holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Regular files.
    pub files: usize,
    /// Directories (explicit entries, the root included).
    pub dirs: usize,
    /// The sum of the regular files' sizes.
    pub bytes: u64,
    /// The files of the vendored set (every file but LICENSE).
    pub vendored_files: usize,
    /// The sum of the vendored files' sizes.
    pub vendored_bytes: u64,
}
