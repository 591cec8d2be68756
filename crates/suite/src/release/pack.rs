//! Packaging: the release tree written as tar ([`TreeWriter`]) into the gzip member, and the
//! asset streamed from the suite (its fixtures read one at a time) straight to a temporary file
//! beside its target ([`Package::stage`]), never held whole.

use std::borrow::Cow;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::COMPRESSION_LEVEL;
use super::parallel::ParallelGzip;
use super::tree::Entry;
use super::ustar::TarWriter;
use crate::Suite;
use crate::archive::{self, LICENSE_FILE};
use crate::kind::Kind;
use crate::load;
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil;

/// Writes the release tree as tar: the root directory `<asset>-<version>/` ([`Kind::root_dir`]), then
/// the entries in the order given (the walk's sorted order), with LICENSE placed among the root's
/// entries by name.
pub struct TreeWriter<'a, W: Write> {
    tar: TarWriter<W>,
    root: String,
    /// LICENSE, until it is written.
    license: Option<&'a [u8]>,
    mtime: u64,
}

impl<'a, W: Write> TreeWriter<'a, W> {
    /// Starts the tree of `kind`'s release `version` with its root directory.
    pub fn new(
        out: W,
        kind: &Kind,
        version: &str,
        license: &'a [u8],
        mtime: u64,
    ) -> io::Result<Self> {
        let root = kind.root_dir(version);
        let mut tar = TarWriter::new(out);
        tar.dir(&format!("{root}/"), mtime)?;
        Ok(TreeWriter {
            tar,
            root,
            license: Some(license),
            mtime,
        })
    }

    /// The next entry: `rel` relative to the suite directory, `data` for a file (`None` for a
    /// directory).
    pub fn entry(&mut self, rel: &str, data: Option<&[u8]>) -> io::Result<()> {
        let top = rel.split('/').next().unwrap_or_default();
        if top.as_bytes() > LICENSE_FILE.as_bytes() {
            self.write_license()?;
        }
        let path = format!("{}/{rel}", self.root);
        match data {
            None => self.tar.dir(&format!("{path}/"), self.mtime),
            Some(data) => self.tar.file(&path, data, self.mtime),
        }
    }

    fn write_license(&mut self) -> io::Result<()> {
        if let Some(license) = self.license.take() {
            let path = format!("{}/{LICENSE_FILE}", self.root);
            self.tar.file(&path, license, self.mtime)?;
        }
        Ok(())
    }

    /// Ends the tar stream; returns the sink and the number of entries.
    pub fn finish(mut self) -> io::Result<(W, usize)> {
        self.write_license()?;
        self.tar.finish()
    }
}

/// An asset written to a temporary file beside its target, not yet in place.
#[derive(Debug)]
pub struct Staged {
    /// `<asset>-<version>.tar.gz` ([`Kind::asset_name`]).
    pub file_name: String,
    /// The temporary file holding it.
    pub temp: PathBuf,
    /// The output directories this run created for it (outermost first).
    pub created: Vec<PathBuf>,
    /// Its length in bytes.
    pub size: u64,
    /// Lowercase hex SHA-256 of its bytes.
    pub sha256: String,
    /// Number of tar entries (directories and files).
    pub entries: usize,
}

impl Staged {
    /// Removes the temporary file, and the output directories this run created if they are
    /// still empty: a refused release leaves nothing behind.
    pub fn discard(&self) {
        let _ = fs::remove_file(&self.temp);
        remove_created(&self.created);
    }
}

fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
}

/// Creates `dir` and any missing parents; returns those it created, outermost first.
fn create_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at.filter(|d| !d.as_os_str().is_empty() && fs::metadata(d).is_err()) {
        missing.push(d.to_path_buf());
        at = d.parent();
    }
    missing.reverse();
    fs::create_dir_all(dir).map_err(|e| Error::io("create output directory", dir, e))?;
    Ok(missing)
}

/// The asset's bytes on their way to the temporary file, hashed as they go.
struct Sink {
    file: fs::File,
    sha: Sha256,
    len: u64,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.sha.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// What to package: the walked `entries` with the bytes of `suite` (its fixtures read as they are
/// written, and handed on to be validated), the suite's description (it names the asset and its
/// root), the LICENSE, the version, the entries' mtime, and how many threads compress.
pub struct Package<'a> {
    pub suite: &'a Suite,
    pub kind: &'a Kind,
    pub entries: &'a [Entry],
    pub license: &'a [u8],
    pub version: &'a str,
    pub mtime: u64,
    pub threads: usize,
}

impl<'a> Package<'a> {
    /// Writes the asset into a temporary file in `out_dir` (created if missing), handing each
    /// file's bytes, once written, to `written` (a fixture is read from disk only here, once).
    /// On failure nothing is left.
    pub fn stage(
        &self,
        out_dir: &Path,
        written: impl FnMut(&str, Cow<'a, [u8]>),
    ) -> Result<Staged> {
        let file_name = self.kind.asset_name(self.version);
        let created = create_dir(out_dir)?;
        let temp = fsutil::temp_sibling(&out_dir.join(&file_name), "tmp");
        match self.write(&temp, written) {
            Ok((sink, entries)) => Ok(Staged {
                file_name,
                temp,
                created,
                size: sink.len,
                sha256: archive::hex(&sink.sha.finalize()),
                entries,
            }),
            Err(e) => {
                let _ = fs::remove_file(&temp);
                remove_created(&created);
                Err(e)
            }
        }
    }

    fn write(
        &self,
        temp: &Path,
        mut written: impl FnMut(&str, Cow<'a, [u8]>),
    ) -> Result<(Sink, usize)> {
        let fail = |e: io::Error| Error::io("write", temp, e);
        let file = fs::File::create(temp).map_err(|e| Error::io("create", temp, e))?;
        let sink = Sink {
            file,
            sha: Sha256::new(),
            len: 0,
        };
        let (sink, count) = std::thread::scope(|scope| -> Result<(Sink, usize)> {
            let gz =
                ParallelGzip::new(scope, sink, COMPRESSION_LEVEL, self.threads).map_err(fail)?;
            let mut tree = TreeWriter::new(gz, self.kind, self.version, self.license, self.mtime)
                .map_err(fail)?;
            for entry in self.entries {
                if entry.is_dir {
                    tree.entry(&entry.rel, None).map_err(fail)?;
                    continue;
                }
                let data = load::read_file(self.suite, &entry.rel)?;
                tree.entry(&entry.rel, Some(&data)).map_err(fail)?;
                written(&entry.rel, data);
            }
            let (gz, count) = tree.finish().map_err(fail)?;
            let sink = gz.finish().map_err(fail)?;
            Ok((sink, count))
        })?;
        sink.file
            .sync_all()
            .map_err(|e| Error::io("flush", temp, e))?;
        Ok((sink, count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::gzip::CHUNK;

    /// A tar stream like a suite's: many small pretty-printed JSON files, each with random
    /// numbers and words, behind ustar headers.
    fn sample() -> Vec<u8> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let words = [
            "order", "parcel", "refund", "gift", "express", "tier", "gold",
        ];
        let kind = Kind::babelqueue();
        let mut tree = TreeWriter::new(Vec::new(), &kind, "9.9.9", b"MIT\n", 0).unwrap();
        tree.entry("fixtures", None).unwrap();
        let mut size = 0;
        let mut k = 0;
        while size < 12 * CHUNK {
            let mut text =
                format!("{{\n  \"job\": \"urn:bench:{k}\",\n  \"data\": {{\n    \"items\": [");
            for i in 0..(next() % 60) {
                let n = next();
                text += &format!(
                    "\n      {{\n        \"line\": {i},\n        \"sku\": \"SKU-{:06}\",\n        \"name\": \"{} {}\",\n        \"qty\": {}\n      }},",
                    n % 1_000_000,
                    words[(n >> 20) as usize % words.len()],
                    words[(n >> 30) as usize % words.len()],
                    n >> 58
                );
            }
            text += "\n    ]\n  }\n}\n";
            size += text.len() + 512;
            tree.entry(&format!("fixtures/f-{k:05}.json"), Some(text.as_bytes()))
                .unwrap();
            k += 1;
        }
        tree.finish().unwrap().0
    }

    fn with_threads(data: &[u8], threads: usize, piece: usize) -> Vec<u8> {
        std::thread::scope(|scope| {
            let mut w = ParallelGzip::new(scope, Vec::new(), 6, threads).unwrap();
            for p in data.chunks(piece) {
                w.write_all(p).unwrap();
            }
            w.finish().unwrap()
        })
    }

    #[test]
    fn the_bytes_do_not_depend_on_the_number_of_threads() {
        let data = sample();
        assert!(data.len() > 12 * CHUNK, "{}", data.len());
        let one = with_threads(&data, 1, 65_536);
        for (threads, piece) in [(2, 65_536), (3, 7919), (8, CHUNK + 3), (16, 512)] {
            assert_eq!(
                with_threads(&data, threads, piece),
                one,
                "{threads} threads"
            );
        }
        for len in [0, 10, CHUNK, CHUNK + 1] {
            assert_eq!(
                with_threads(&data[..len], 4, 4096),
                with_threads(&data[..len], 1, 4096),
                "{len}"
            );
        }
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&one[..]), &mut back).unwrap();
        assert_eq!(back, data);
    }
}
