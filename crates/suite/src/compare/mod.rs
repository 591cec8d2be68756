//! Compares a vendored directory with an expected tree (a release, or the canonical suite), file
//! by file: the vendored set (CONFORMANCE_VERSION, manifest.json, schema/, fixtures/) must match
//! byte for byte; LICENSE is ignored; other top-level entries are the SDK's own (a note).
//!
//! Written for `bqsuite fetch --check` and `bqsuite sync --check`:
//! - [`compare_files`]: a pure function of an in-memory map and a directory;
//! - [`compare_dirs`]: the canonical suite on disk against a vendored copy (streamed);
//! - [`Comparer`]: the streaming engine both use, fed file by file (fetch feeds it from the
//!   archive as it is read, so neither side is ever held in memory whole).
//!
//! Nothing is ever written. Links are never followed: a link in the vendored directory is drift.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::archive::LICENSE_FILE;
use crate::archive::verify::{Fault, Sink};
use crate::load::{MANIFEST, MAX_FILE_BYTES, VENDORED_DIRS, VENDORED_FILES, is_vendored};
use bqsuite_core::diag::{Diagnostic, Severity};
use bqsuite_core::error::{Error, Result};

mod local;
pub mod report;
use crate::drift;
pub use local::MAX_DIFF_BYTES;
use local::{
    CHUNK, Local, UNKNOWN_SIZE, read_fault, same_as_file, small_file_differs, stream_equal,
    too_large_for_diff,
};

/// Longest time spent computing one diff.
const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

/// How to compare.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// Attach a unified diff of each changed text file (`Diagnostic::detail`).
    pub diff: bool,
    /// What the expected side is called in messages and diff headers (e.g. `release 1.5.0`).
    pub expected_label: String,
    /// Keep the expected manifest.json's bytes ([`Comparison::expected_manifest`]), to count
    /// cases against it when the expected side is a stream (a release archive).
    pub keep_manifest: bool,
}

/// The findings of a comparison.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// Drift (errors) and unmanaged files (notes), sorted by file.
    pub findings: Vec<Diagnostic>,
    /// Files of the vendored set that match.
    pub matched: usize,
    /// What the compared copy is: its version, known release, edited files.
    pub identity: crate::releases::Identity,
    /// With [`CompareOptions::keep_manifest`]: the expected manifest.json, when it was fed and
    /// is at most [`MAX_FILE_BYTES`].
    pub expected_manifest: Option<Vec<u8>>,
}

impl Comparison {
    /// True when the directory matches (notes aside).
    pub fn is_clean(&self) -> bool {
        self.findings.iter().all(|d| d.severity != Severity::Error)
    }
}

/// Compares `dir` with an expected map of relative path → content (a pure function: reads `dir`,
/// writes nothing). Paths outside the vendored set in `expected` are ignored.
pub fn compare_files(
    expected: &BTreeMap<String, Vec<u8>>,
    dir: &Path,
    options: &CompareOptions,
) -> Result<Comparison> {
    let mut comparison = compare_files_unidentified(expected, dir, options)?;
    comparison.identity = crate::releases::identify(dir);
    Ok(comparison)
}

/// As [`compare_files`], but leaves [`Comparison::identity`] empty: for a caller that tells what
/// the copy is itself, from what the comparison found (`sync --check` knows a copy equal to the
/// canonical suite without reading it again).
pub fn compare_files_unidentified(
    expected: &BTreeMap<String, Vec<u8>>,
    dir: &Path,
    options: &CompareOptions,
) -> Result<Comparison> {
    let mut comparer = Comparer::new(dir, options)?;
    for (rel, bytes) in expected {
        comparer
            .compare_file(rel, bytes.len() as u64, &mut bytes.as_slice())
            .map_err(fault_to_error)?;
    }
    comparer.finish_unidentified()
}

/// Compares the vendored set of `expected_root` (e.g. the canonical `suite/`) with `dir`.
/// Links and special files under `expected_root` are an error (exit 2): the canonical side must
/// be sound (`bqsuite validate` says why).
pub fn compare_dirs(
    expected_root: &Path,
    dir: &Path,
    options: &CompareOptions,
) -> Result<Comparison> {
    let mut comparer = Comparer::new(dir, options)?;
    let mut feed = |rel: &str, path: &Path| -> Result<()> {
        let meta = fs::symlink_metadata(path).map_err(|e| Error::io("read", path, e))?;
        if meta.is_dir() {
            comparer.directory(rel).map_err(fault_to_error)
        } else if meta.is_file() {
            let mut file = fs::File::open(path).map_err(|e| Error::io("open", path, e))?;
            comparer
                .compare_file(rel, meta.len(), &mut file)
                .map_err(fault_to_error)
        } else {
            Err(Error::bad_path(
                path,
                "is neither a regular file nor a directory",
            ))
        }
    };
    for name in VENDORED_FILES {
        let path = expected_root.join(name);
        if fs::symlink_metadata(&path).is_ok() {
            feed(name, &path)?;
        }
    }
    for name in VENDORED_DIRS {
        let top = expected_root.join(name);
        if fs::symlink_metadata(&top).is_err() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&top)
            .follow_links(false)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| {
                let p = e.path().unwrap_or(&top).to_path_buf();
                Error::io("walk", &p, e.into())
            })?;
            let rel_os = entry
                .path()
                .strip_prefix(expected_root)
                .unwrap_or(entry.path());
            let rel = rel_os
                .to_str()
                .ok_or_else(|| Error::bad_path(entry.path(), "file name is not valid UTF-8"))?
                .replace('\\', "/");
            feed(&rel, entry.path())?;
        }
    }
    comparer.finish()
}

fn fault_to_error(fault: Fault) -> Error {
    match fault {
        Fault::Failed(e) => e,
        Fault::Refused(d) => Error::Usage(format!("[{}] {}", d.code, d.message)),
    }
}

/// The streaming comparison engine: feed it every expected file and directory (any order), then
/// [`Comparer::finish`] walks the directory for what was not expected.
pub struct Comparer {
    dir: PathBuf,
    options: CompareOptions,
    findings: Vec<Diagnostic>,
    expected_files: BTreeSet<String>,
    expected_dirs: BTreeSet<String>,
    /// Ancestors already looked at: `true` when usable as a directory.
    ancestors: HashMap<String, bool>,
    /// Directory listings read so far (relative directory → entry name → kind).
    listings: HashMap<String, HashMap<String, Local>>,
    matched: usize,
    expected_manifest: Option<Vec<u8>>,
}

impl Comparer {
    /// A comparison against `dir`, which must be a directory.
    pub fn new(dir: &Path, options: &CompareOptions) -> Result<Self> {
        match fs::symlink_metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(Error::bad_path(dir, "is not a directory")),
            Err(e) => return Err(Error::io("read", dir, e)),
        }
        let mut options = options.clone();
        if options.expected_label.is_empty() {
            options.expected_label = "the expected tree".into();
        }
        Ok(Comparer {
            dir: dir.to_path_buf(),
            options,
            findings: Vec::new(),
            expected_files: BTreeSet::new(),
            expected_dirs: BTreeSet::new(),
            ancestors: HashMap::new(),
            listings: HashMap::new(),
            matched: 0,
            expected_manifest: None,
        })
    }

    fn label(&self) -> &str {
        &self.options.expected_label
    }

    /// What `rel` is, from its directory's listing (read once per directory).
    fn kind(&mut self, rel: &str) -> std::result::Result<Local, Fault> {
        let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        if !self.listings.contains_key(parent) {
            let listing = Local::listing(&self.dir.join(parent)).map_err(Fault::Failed)?;
            self.listings.insert(parent.to_string(), listing);
        }
        Ok(self.listings[parent]
            .get(name)
            .copied()
            .unwrap_or(Local::Missing))
    }

    /// Records the ancestors of `rel` as expected directories; returns false when one of them is
    /// not a directory in `dir` (reported once) or is missing.
    fn ancestors_ok(&mut self, rel: &str) -> std::result::Result<bool, Fault> {
        let mut ok = true;
        for (i, _) in rel.match_indices('/') {
            let ancestor = &rel[..i];
            self.expected_dirs.insert(ancestor.to_string());
            if !ok {
                continue;
            }
            if let Some(&usable) = self.ancestors.get(ancestor) {
                ok = usable;
                continue;
            }
            let local = Local::of(&self.dir.join(ancestor)).map_err(Fault::Failed)?;
            let usable = local == Local::Dir;
            if !usable && local != Local::Missing {
                let label = self.label().to_string();
                self.findings.push(drift::ancestor_wrong_type(
                    ancestor,
                    local.describe(),
                    &label,
                ));
            }
            self.ancestors.insert(ancestor.to_string(), usable);
            ok = usable;
        }
        Ok(ok)
    }

    /// Records an expected directory.
    pub fn directory(&mut self, rel: &str) -> std::result::Result<(), Fault> {
        if !is_vendored(rel) || rel.is_empty() {
            return Ok(());
        }
        self.ancestors_ok(rel)?;
        self.expected_dirs.insert(rel.to_string());
        Ok(())
    }

    /// Compares one expected file (`size` bytes of `content`) with its counterpart in `dir`.
    /// Errors reading `content` come back as they are (an archive fault stays one).
    pub fn compare_file(
        &mut self,
        rel: &str,
        size: u64,
        content: &mut dyn Read,
    ) -> std::result::Result<(), Fault> {
        if !is_vendored(rel) {
            return Ok(());
        }
        if self.options.keep_manifest && rel == MANIFEST && size <= MAX_FILE_BYTES {
            let mut kept = Vec::with_capacity(size as usize);
            content
                .take(size)
                .read_to_end(&mut kept)
                .map_err(|e| read_fault(e, rel))?;
            self.options.keep_manifest = false;
            let result = self.compare_file(rel, kept.len() as u64, &mut kept.as_slice());
            self.expected_manifest = Some(kept);
            return result;
        }
        self.expected_files.insert(rel.to_string());
        let label = self.label().to_string();
        if !self.ancestors_ok(rel)? {
            if !self.parent_reported(rel) {
                self.missing(rel, &label);
            }
            return Ok(());
        }
        let path = self.dir.join(rel);
        let mut local = self.kind(rel)?;
        if local == Local::File(UNKNOWN_SIZE) {
            // The common case, a small file without --diff: compared without a stat.
            if !self.options.diff && size <= CHUNK as u64 {
                match small_file_differs(content, size, &path, rel)? {
                    None => self.matched += 1,
                    Some(local_size) => self.changed(rel, &label, local_size, size, None),
                }
                return Ok(());
            }
            local = Local::of(&path).map_err(Fault::Failed)?;
        }
        match local {
            Local::Missing => self.missing(rel, &label),
            Local::File(local_size) => {
                let diff = self.options.diff;
                let outcome = if diff && size <= MAX_DIFF_BYTES {
                    let mut expected = Vec::with_capacity(size as usize);
                    content
                        .take(size)
                        .read_to_end(&mut expected)
                        .map_err(|e| read_fault(e, rel))?;
                    let same = local_size == size && same_as_file(&expected, &path)?;
                    if same {
                        None
                    } else {
                        Some(Some(self.unified(rel, &expected, &path, local_size)?))
                    }
                } else if local_size != size {
                    Some(diff.then(|| too_large_for_diff(size, local_size)))
                } else if stream_equal(content, size, &path, rel)? {
                    None
                } else {
                    Some(diff.then(|| too_large_for_diff(size, local_size)))
                };
                match outcome {
                    None => self.matched += 1,
                    Some(detail) => self.changed(rel, &label, local_size, size, detail),
                }
            }
            other => self
                .findings
                .push(drift::file_wrong_type(rel, other.describe(), &label)),
        }
        Ok(())
    }

    /// True when an ancestor of `rel` was reported as the wrong type (so `rel` is not repeated).
    fn parent_reported(&self, rel: &str) -> bool {
        rel.match_indices('/').any(|(i, _)| {
            self.ancestors.get(&rel[..i]) == Some(&false) && {
                let ancestor = &rel[..i];
                self.findings
                    .iter()
                    .any(|d| d.code == drift::Code::DriftType && d.file == ancestor)
            }
        })
    }

    fn changed(
        &mut self,
        rel: &str,
        label: &str,
        local_size: u64,
        size: u64,
        detail: Option<String>,
    ) {
        let mut d = drift::file_changed(rel, label, local_size, size);
        if let Some(detail) = detail {
            d = d.detail(detail);
        }
        self.findings.push(d);
    }

    fn missing(&mut self, rel: &str, label: &str) {
        self.findings.push(drift::file_missing(rel, label));
    }

    fn unified(
        &self,
        rel: &str,
        expected: &[u8],
        path: &Path,
        local_size: u64,
    ) -> Result<String, Fault> {
        if local_size > MAX_DIFF_BYTES {
            return Ok(too_large_for_diff(expected.len() as u64, local_size));
        }
        let mut actual = Vec::with_capacity(local_size as usize);
        fs::File::open(path)
            .and_then(|f| f.take(MAX_DIFF_BYTES + 1).read_to_end(&mut actual))
            .map_err(|e| Fault::Failed(Error::io("read", path, e)))?;
        let (Ok(old), Ok(new)) = (std::str::from_utf8(expected), std::str::from_utf8(&actual))
        else {
            return Ok(format!(
                "binary files differ ({} in {}, {} here)",
                bqsuite_core::diag::count(expected.len(), "byte", "bytes"),
                self.label(),
                bqsuite_core::diag::count(actual.len(), "byte", "bytes")
            ));
        };
        let diff = similar::TextDiff::configure()
            .timeout(DIFF_TIMEOUT)
            .diff_lines(old, new);
        let text = diff
            .unified_diff()
            .context_radius(3)
            .header(
                &format!("{}/{rel}", self.label().replace(' ', "-")),
                &format!("vendored/{rel}"),
            )
            .to_string();
        Ok(text)
    }

    /// Walks `dir` for what the expected tree does not have: extra files in the vendored set
    /// (errors) and other top-level entries (notes); reports expected directories that are
    /// missing. Returns the findings sorted by file, and what the copy is.
    pub fn finish(self) -> Result<Comparison> {
        let dir = self.dir.clone();
        let mut comparison = self.finish_unidentified()?;
        comparison.identity = crate::releases::identify(&dir);
        Ok(comparison)
    }

    /// As [`Comparer::finish`], without telling what the copy is (the identity is empty).
    fn finish_unidentified(mut self) -> Result<Comparison> {
        let label = self.label().to_string();
        // The top-level listing: the one already read for the top-level files, if any.
        let listing = match self.listings.remove("") {
            Some(listing) => listing,
            None => Local::listing(&self.dir)?,
        };
        let mut top: Vec<(String, Local)> = listing.into_iter().collect();
        top.sort_by(|a, b| a.0.cmp(&b.0));
        let mut extras: Vec<(String, bool)> = Vec::new();
        for (name, local) in top {
            if name == LICENSE_FILE {
                continue;
            }
            let expected =
                self.expected_files.contains(&name) || self.expected_dirs.contains(&name);
            if VENDORED_FILES.contains(&name.as_str()) {
                if !expected {
                    extras.push((name, local == Local::Dir));
                }
            } else if VENDORED_DIRS.contains(&name.as_str()) {
                if local != Local::Dir {
                    if !expected {
                        extras.push((name, false));
                    }
                    continue;
                }
                if !self.expected_dirs.contains(&name) {
                    extras.push((name.clone(), true));
                }
                self.extras_below(&name, &mut extras)?;
            } else {
                self.findings.push(drift::unmanaged(&name));
            }
        }
        // An extra directory is listed only when nothing extra is listed inside it.
        let extra_paths: Vec<String> = extras.iter().map(|(p, _)| p.clone()).collect();
        for (rel, is_dir) in &extras {
            if *is_dir {
                let prefix = format!("{rel}/");
                if extra_paths.iter().any(|p| p.starts_with(&prefix)) {
                    continue;
                }
            }
            self.findings.push(drift::extra(rel, *is_dir, &label));
        }
        self.missing_directories(&label)?;
        self.findings
            .sort_by(|a, b| (&a.file, a.code).cmp(&(&b.file, b.code)));
        Ok(Comparison {
            identity: crate::releases::Identity::default(),
            findings: self.findings,
            matched: self.matched,
            expected_manifest: self.expected_manifest,
        })
    }

    /// Every entry below the vendored directory `name` that the expected tree does not have
    /// (`(path, is a directory)`), never following a link.
    fn extras_below(&self, name: &str, extras: &mut Vec<(String, bool)>) -> Result<()> {
        let path = self.dir.join(name);
        for item in walkdir::WalkDir::new(&path)
            .follow_links(false)
            .sort_by_file_name()
            .min_depth(1)
        {
            let item = item.map_err(|e| {
                let p = e.path().unwrap_or(&path).to_path_buf();
                Error::io("walk", &p, e.into())
            })?;
            let rel_os = item.path().strip_prefix(&self.dir).unwrap_or(item.path());
            let rel = rel_os.to_string_lossy().replace('\\', "/");
            let is_dir = item.file_type().is_dir();
            // Below an expected file that is a directory here: already `drift-type`.
            let under_file = rel
                .match_indices('/')
                .any(|(i, _)| self.expected_files.contains(&rel[..i]));
            if !under_file
                && !self.expected_files.contains(&rel)
                && !self.expected_dirs.contains(&rel)
            {
                extras.push((rel, is_dir));
            }
        }
        Ok(())
    }

    /// Expected directories that hold no expected file and are missing here (or are not
    /// directories), unless an ancestor is already reported.
    fn missing_directories(&mut self, label: &str) -> Result<()> {
        let dirs: Vec<String> = self.expected_dirs.iter().cloned().collect();
        for rel in dirs {
            let prefix = format!("{rel}/");
            let has_files = self.expected_files.iter().any(|f| f.starts_with(&prefix));
            if has_files || self.ancestors.get(&rel) == Some(&false) {
                continue;
            }
            let broken_parent = rel
                .match_indices('/')
                .any(|(i, _)| self.ancestors.get(&rel[..i]) == Some(&false));
            if broken_parent {
                continue;
            }
            match Local::of(&self.dir.join(&rel))? {
                Local::Dir => {}
                Local::Missing => self.findings.push(drift::directory_missing(&rel, label)),
                other => {
                    self.findings
                        .push(drift::directory_wrong_type(&rel, other.describe(), label));
                }
            }
        }
        Ok(())
    }
}

impl Sink for Comparer {
    fn directory(&mut self, rel: &str) -> std::result::Result<(), Fault> {
        Comparer::directory(self, rel)
    }

    fn file(
        &mut self,
        rel: &str,
        size: u64,
        content: &mut dyn Read,
    ) -> std::result::Result<(), Fault> {
        self.compare_file(rel, size, content)
    }
}

#[cfg(test)]
mod tests;
