//! Reads a suite directory into memory: every file of the vendored set (CONFORMANCE_VERSION,
//! manifest.json, schema/, fixtures/). Every JSON file's syntax is checked once; the values of the
//! manifest and the schemas are kept, a fixture's is parsed where it is used (see [`JsonDoc`]);
//! positions are computed on demand.
//!
//! Reading is bounded (file size, total size, file count) and never follows links: a link or a
//! special file in the suite is reported, not read, because a release could not carry it.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::layout;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fixtures::FixtureSource;
use bqsuite_core::json;

bqsuite_core::finding_codes! {
    /// The findings of reading a suite's files: links, special files, names, sizes and counts.
    pub enum Code {
        Symlink = "symlink",
        SpecialFile = "special-file",
        BadFileName = "bad-file-name",
        NotADirectory = "not-a-directory",
        FileTooLarge = "file-too-large",
        TooManyFiles = "too-many-files",
    }
}

/// The limits on what is read ([`crate::limits`], shared with release and the archive
/// verifier).
pub use crate::limits::{MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES, SuiteLimits};

/// The top-level entries that make up the vendored set, in release order.
/// `suite.json`, the description, is there only in a suite that is not BabelQueue's.
pub const VENDORED_FILES: [&str; 3] = ["CONFORMANCE_VERSION", "manifest.json", "suite.json"];
pub const VENDORED_DIRS: [&str; 2] = layout::DATA_DIRS;

/// Whether `rel` (relative, `/`-separated) belongs to the vendored set: one of the top-level
/// vendored files, or anything in (or being) a vendored directory.
pub fn is_vendored(rel: &str) -> bool {
    let first = rel.split('/').next().unwrap_or_default();
    if VENDORED_FILES.contains(&first) {
        return first == rel;
    }
    VENDORED_DIRS.contains(&first)
}

/// The two top-level files every suite holds, named by the layout rule ([`crate::layout`]).
pub use crate::layout::{MANIFEST, VERSION_FILE};
pub const ENVELOPE_SCHEMA: &str = "schema/message-envelope.schema.json";
pub const RESULTS_SCHEMA: &str = "schema/results.schema.json";
pub const RESULTS_EXAMPLE: &str = "schema/results.example.json";

/// A JSON file that parsed: its value, when kept (see [`keeps_value`]), and, built on first use,
/// the positioned tree that maps JSON pointers to line:column and lists repeated keys.
#[derive(Debug)]
pub struct JsonDoc {
    /// The value (last wins on repeated keys) of a file the suite's structure is read from.
    /// `None` for a fixture, which is only checked at load and parsed again where it is used
    /// ([`Suite::value_of`]), so that a large payload is not held for the whole run beside the
    /// copies the checks and the evaluator make.
    kept: Option<Value>,
    /// Whether some object of a kept value's text names a key twice (noted while it was built;
    /// `false` for a file whose value is not kept).
    repeats_a_key: bool,
    tree: OnceLock<Option<json::Node>>,
}

impl JsonDoc {
    /// The value, for a file whose value is kept (the manifest and the schemas).
    pub fn value(&self) -> Option<&Value> {
        self.kept.as_ref()
    }

    /// Whether the text of a file whose value is kept repeats a key in some object.
    pub fn repeats_a_key(&self) -> bool {
        self.repeats_a_key
    }
}

/// Whether the loader keeps the parsed value of the JSON file `rel`: every file but the
/// fixtures, whose size the suite's structure does not bound.
pub fn keeps_value(rel: &str) -> bool {
    !rel.starts_with("fixtures/")
}

/// One file of the suite.
#[derive(Debug)]
pub struct SuiteFile {
    pub bytes: Vec<u8>,
    /// For `.json` files: whether it parsed (with the value, when kept), or where it did not.
    pub json: Option<std::result::Result<JsonDoc, json::SyntaxError>>,
    /// The size of a fixture listed but not read ([`load_deferred`]): `bytes` is then empty and
    /// `json` `None`, and the bytes are read (once, by [`read_file`]) where they are checked.
    pub deferred: Option<u64>,
}

/// A suite directory read into memory.
#[derive(Debug)]
pub struct Suite {
    pub root: PathBuf,
    /// Files of the vendored set by `/`-separated relative path, sorted.
    pub files: BTreeMap<String, SuiteFile>,
    /// Problems found while reading (links, special files, oversized files, bad names).
    pub problems: Vec<Diagnostic>,
    /// The names read so far, to refuse case twins.
    case_fold: layout::CaseFold,
}

impl SuiteFile {
    /// A suite file from its bytes; `.json` files are parsed (to a value only, kept when
    /// [`keeps_value`] says so: the positioned tree is built lazily by [`SuiteFile::tree`], since
    /// most files never need it).
    pub fn from_bytes(rel: &str, bytes: Vec<u8>) -> Self {
        let json = rel
            .ends_with(".json")
            .then(|| read_json(&bytes, keeps_value(rel)));
        SuiteFile {
            bytes,
            json,
            deferred: None,
        }
    }

    /// The text, when the bytes were read and are UTF-8.
    pub fn text(&self) -> Option<&str> {
        if self.deferred.is_some() {
            return None;
        }
        std::str::from_utf8(&self.bytes).ok()
    }

    /// The file's size in bytes (read or not).
    pub fn size(&self) -> u64 {
        self.deferred.unwrap_or(self.bytes.len() as u64)
    }

    /// The parsed document, if this is a JSON file that parsed.
    pub fn doc(&self) -> Option<&JsonDoc> {
        self.json.as_ref()?.as_ref().ok()
    }

    /// The positioned tree of a JSON file that parsed (built on first use).
    pub fn tree(&self) -> Option<&json::Node> {
        let doc = self.doc()?;
        doc.tree
            .get_or_init(|| self.text().and_then(|t| json::parse(t).ok()))
            .as_ref()
    }
}

/// Checks JSON bytes with serde_json's deserializer (fast), keeping the value if `keep`; on
/// failure, the position-aware parser explains the error with line:column.
fn read_json(bytes: &[u8], keep: bool) -> std::result::Result<JsonDoc, json::SyntaxError> {
    let text = utf8(bytes)?;
    let parsed = if keep {
        json::parse_value_noting_repeats(text).map(|(value, repeats)| (Some(value), repeats))
    } else {
        json::check_syntax(text).map(|()| (None, false))
    };
    match parsed {
        Ok((kept, repeats_a_key)) => Ok(JsonDoc {
            kept,
            repeats_a_key,
            tree: OnceLock::new(),
        }),
        Err(serde_error) => Err(explain(text, &serde_error)),
    }
}

/// The value of a JSON file's bytes, or where and why they are not JSON: what the loader finds
/// for a file it parses, for a fixture's bytes read later ([`load_deferred`]).
pub fn parse_json(bytes: &[u8]) -> std::result::Result<Value, json::SyntaxError> {
    parse_text(utf8(bytes)?)
}

/// As [`parse_json`], for bytes already known to be UTF-8.
pub fn parse_text(text: &str) -> std::result::Result<Value, json::SyntaxError> {
    json::parse_value(text).map_err(|e| explain(text, &e))
}

fn utf8(bytes: &[u8]) -> std::result::Result<&str, json::SyntaxError> {
    std::str::from_utf8(bytes).map_err(|_| json::SyntaxError {
        pos: json::Pos { line: 1, column: 1 },
        message: "the file is not valid UTF-8".to_string(),
    })
}

/// Where `text`, which serde_json refused with `serde_error`, stops being JSON: the
/// position-aware parser's line:column and words.
fn explain(text: &str, serde_error: &serde_json::Error) -> json::SyntaxError {
    match json::parse(text) {
        Err(e) => e,
        // The two parsers disagree only on limits (serde_json nests at most 128 levels and
        // refuses numbers beyond f64).
        Ok(_) => json::SyntaxError {
            pos: json::Pos {
                line: serde_error.line() as u32,
                column: serde_error.column() as u32,
            },
            message: serde_error.to_string(),
        },
    }
}

impl Suite {
    fn empty(root: &Path) -> Self {
        Suite {
            root: root.to_path_buf(),
            files: BTreeMap::new(),
            problems: Vec::new(),
            case_fold: layout::CaseFold::default(),
        }
    }

    /// A suite from files already in memory (`/`-separated relative path to bytes), read as
    /// [`load`] reads a directory: files outside the vendored set are ignored, names the layout
    /// refuses become problems, and JSON files are parsed.
    pub fn from_files(root: &Path, files: BTreeMap<String, Vec<u8>>) -> Self {
        let mut suite = Suite::empty(root);
        for (rel, bytes) in files {
            if is_vendored(&rel) && suite.admit(&rel) {
                let file = SuiteFile::from_bytes(&rel, bytes);
                suite.files.insert(rel, file);
            }
        }
        suite
    }

    /// Whether `rel` may be read as part of the suite: a name the layout refuses becomes a problem
    /// instead. A name that differs only in case from one already read is a problem too, but is
    /// read.
    fn admit(&mut self, rel: &str) -> bool {
        if let Err(refusal) = layout::suite_path(rel) {
            self.problems.push(refusal.diagnostic(rel));
            return false;
        }
        if let Some(other) = self.case_fold.clash(rel) {
            self.problems.push(layout::case_clash(rel, &other));
            // Still read: both names stay visible to the other checks, so the one mistake is
            // not reported again as a missing fixture by every case that names it.
        }
        true
    }

    pub fn file(&self, rel: &str) -> Option<&SuiteFile> {
        self.files.get(rel)
    }

    /// The kept value of the JSON file at `rel` (the manifest, a schema), if it exists and
    /// parsed. A fixture's value is not kept: see [`Suite::value_of`].
    pub fn json(&self, rel: &str) -> Option<&Value> {
        self.files.get(rel)?.doc()?.value()
    }

    /// The value of any JSON file at `rel` that parsed: the kept one, or a fixture's parsed now
    /// (the caller's to drop when done).
    pub fn value_of(&self, rel: &str) -> Option<Cow<'_, Value>> {
        let file = self.files.get(rel)?;
        match file.doc()?.value() {
            Some(kept) => Some(Cow::Borrowed(kept)),
            None => json::parse_value(file.text()?).ok().map(Cow::Owned),
        }
    }

    /// The positioned tree of the JSON file at `rel`, if it exists and parsed.
    pub fn tree(&self, rel: &str) -> Option<&json::Node> {
        self.files.get(rel)?.tree()
    }

    /// The parsed manifest, if it exists and parsed.
    pub fn manifest(&self) -> Option<&Value> {
        self.json(MANIFEST)
    }

    /// The parsed manifest, or the error (exit 2) of a command that cannot run without one.
    pub fn require_manifest(&self) -> Result<&Value> {
        self.manifest().ok_or_else(|| {
            Error::bad_path(
                self.root.join(MANIFEST),
                format!(
                    "is missing or is not valid JSON; run `bqsuite validate {}` for details",
                    self.root.display()
                ),
            )
        })
    }

    /// CONFORMANCE_VERSION with surrounding ASCII whitespace removed.
    pub fn version_text(&self) -> Option<&str> {
        self.file(VERSION_FILE)?.text().map(str::trim)
    }

    /// Relative paths of the files under `dir/` (e.g. `fixtures`).
    pub fn files_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .keys()
            .map(String::as_str)
            .filter(move |rel| rel.strip_prefix(dir).is_some_and(|r| r.starts_with('/')))
    }
}

impl FixtureSource for Suite {
    fn text(&self, rel_path: &str) -> Option<&str> {
        self.files.get(rel_path)?.text()
    }
}

/// How much of each file the loader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Every file's bytes, JSON files parsed.
    Parse,
    /// Every file's bytes, nothing parsed.
    Bytes,
    /// Every file but the fixtures read and parsed; the fixtures only listed.
    DeferFixtures,
}

/// Reads the suite at `root`. Fails (exit 2) only when the directory itself cannot be read;
/// problems with individual entries become [`Suite::problems`].
pub fn load(root: &Path) -> Result<Suite> {
    load_with(root, Reading::Parse, &SuiteLimits::SUITE)
}

/// Reads the suite at `root` as [`load`] does, except the fixtures' bytes: each is listed with
/// its size ([`SuiteFile::deferred`]) and read when it is checked (by [`read_file`]), so a suite
/// of any size is validated and released holding a few fixtures at a time, not all of them.
pub fn load_deferred(root: &Path) -> Result<Suite> {
    load_with(root, Reading::DeferFixtures, &SuiteLimits::SUITE)
}

/// Reads the suite at `root` as bytes only (JSON files are not parsed): for comparing copies,
/// which needs the bytes, not the documents.
pub fn load_bytes(root: &Path) -> Result<Suite> {
    load_with(root, Reading::Bytes, &SuiteLimits::SUITE)
}

/// As [`load_bytes`], within `limits` (those the archive behind it was verified with).
pub fn load_bytes_within(root: &Path, limits: &SuiteLimits) -> Result<Suite> {
    load_with(root, Reading::Bytes, limits)
}

/// The bytes of the suite file `rel` of `suite`, read now if the loader deferred them (at most
/// [`MAX_FILE_BYTES`] + 1, so a file that grew is still bounded and refused by its checks).
pub fn read_file<'s>(suite: &'s Suite, rel: &str) -> Result<Cow<'s, [u8]>> {
    let file = suite
        .file(rel)
        .ok_or_else(|| Error::bad_path(suite.root.join(rel), "is not a file of the suite"))?;
    if file.deferred.is_none() {
        return Ok(Cow::Borrowed(&file.bytes));
    }
    let path = suite.root.join(rel);
    read_bounded(&path, file.size(), MAX_FILE_BYTES).map(Cow::Owned)
}

fn read_bounded(path: &Path, expected: u64, max: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(expected.min(max) as usize);
    fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::io("read", path, e))?;
    Ok(bytes)
}

fn load_with(root: &Path, read: Reading, limits: &SuiteLimits) -> Result<Suite> {
    let meta = fs::metadata(root).map_err(|e| Error::io("read suite directory", root, e))?;
    if !meta.is_dir() {
        return Err(Error::bad_path(root, "is not a directory"));
    }
    let mut suite = Suite::empty(root);
    let mut total = 0u64;
    for name in VENDORED_FILES {
        // The manifest, the largest file parsed, is parsed beside the walk of the directories.
        let now = if name == MANIFEST {
            Reading::Bytes
        } else {
            read
        };
        read_entry(&mut suite, &root.join(name), name, &mut total, now, limits)?;
    }
    let manifest = match (read, suite.files.get_mut(MANIFEST)) {
        (Reading::Bytes, _) | (_, None) => None,
        (_, Some(file)) => Some(std::mem::take(&mut file.bytes)),
    };
    let parsed = std::thread::scope(|scope| {
        let parsing = manifest.map(|bytes| scope.spawn(|| SuiteFile::from_bytes(MANIFEST, bytes)));
        let walked = walk_dirs(&mut suite, root, &mut total, read, limits);
        (
            parsing.map(|p| p.join().expect("parsing the manifest panicked")),
            walked,
        )
    });
    if let (Some(file), Some(slot)) = (parsed.0, suite.files.get_mut(MANIFEST)) {
        *slot = file;
    }
    parsed.1?;
    Ok(suite)
}

/// Reads the files under [`VENDORED_DIRS`] into `suite`.
fn walk_dirs(
    suite: &mut Suite,
    root: &Path,
    total: &mut u64,
    read: Reading,
    limits: &SuiteLimits,
) -> Result<()> {
    for dir in VENDORED_DIRS {
        let path = root.join(dir);
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io("read", &path, e)),
            Ok(m) if m.file_type().is_symlink() => {
                suite.problems.push(symlink_in_suite(dir));
                continue;
            }
            Ok(m) if !m.is_dir() => {
                suite.problems.push(not_a_directory(dir));
                continue;
            }
            Ok(_) => {}
        }
        let walker = walkdir::WalkDir::new(&path)
            .follow_links(false)
            .sort_by_file_name()
            .min_depth(1);
        for entry in walker {
            let entry = entry.map_err(|e| {
                let p = e.path().unwrap_or(&path).to_path_buf();
                Error::io("walk", &p, e.into())
            })?;
            let rel_os = entry.path().strip_prefix(root).unwrap_or(entry.path());
            let Some(rel) = rel_os.to_str().map(|s| s.replace('\\', "/")) else {
                suite
                    .problems
                    .push(file_name_not_utf8(rel_os.to_string_lossy()));
                continue;
            };
            if entry.file_type().is_dir() {
                continue;
            }
            if !suite.admit(&rel) {
                continue;
            }
            if suite.files.len() >= limits.max_files {
                suite.problems.push(too_many_files(limits.max_files));
                break;
            }
            read_entry(suite, entry.path(), &rel, total, read, limits)?;
        }
    }
    Ok(())
}

fn read_entry(
    suite: &mut Suite,
    path: &Path,
    rel: &str,
    total: &mut u64,
    read: Reading,
    limits: &SuiteLimits,
) -> Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io("read", path, e)),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        suite.problems.push(symlink_in_suite(rel));
        return Ok(());
    }
    if !kind.is_file() {
        suite.problems.push(special_file_in_suite(rel));
        return Ok(());
    }
    if meta.len() > limits.max_file_bytes {
        suite
            .problems
            .push(file_too_large(rel, meta.len(), limits.max_file_bytes));
        return Ok(());
    }
    *total += meta.len();
    if *total > limits.max_total_bytes {
        return Err(Error::bad_path(
            &suite.root,
            format!(
                "the suite is larger than {} bytes; refusing to read it",
                limits.max_total_bytes
            ),
        ));
    }
    if read == Reading::DeferFixtures && !keeps_value(rel) {
        let file = SuiteFile {
            bytes: Vec::new(),
            json: None,
            deferred: Some(meta.len()),
        };
        suite.files.insert(rel.to_string(), file);
        return Ok(());
    }
    let bytes = read_bounded(path, meta.len(), limits.max_file_bytes)?;
    let file = match read {
        Reading::Bytes => SuiteFile {
            bytes,
            json: None,
            deferred: None,
        },
        _ => SuiteFile::from_bytes(rel, bytes),
    };
    suite.files.insert(rel.to_string(), file);
    Ok(())
}

// Findings: one constructor per finding of reading a suite (or walking a release's tree), owning
// its words.

pub(crate) fn not_a_directory(dir: &str) -> Diagnostic {
    Diagnostic::error(
        Code::NotADirectory,
        dir,
        format!("`{dir}` is not a directory"),
    )
    .help(format!(
        "make `{dir}/` a directory holding the suite's JSON files"
    ))
}

pub(crate) fn file_name_not_utf8(shown: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::BadFileName, shown, "file name is not valid UTF-8")
        .help("rename the file using UTF-8 (ideally ASCII) characters")
}

pub(crate) fn too_many_files(max: usize) -> Diagnostic {
    Diagnostic::error(
        Code::TooManyFiles,
        "",
        format!("the suite has more than {max} files; the rest was not read"),
    )
}

pub(crate) fn symlink_in_suite(rel: &str) -> Diagnostic {
    Diagnostic::error(
        Code::Symlink,
        rel,
        "is a symbolic link; a suite may hold only regular files and directories",
    )
    .help("replace the link with a copy of the file it points to")
}

pub(crate) fn special_file_in_suite(rel: &str) -> Diagnostic {
    Diagnostic::error(Code::SpecialFile, rel, "is not a regular file")
        .help("a suite may hold only regular files and directories; remove it")
}

pub(crate) fn file_too_large(rel: &str, len: u64, max: u64) -> Diagnostic {
    Diagnostic::error(
        Code::FileTooLarge,
        rel,
        format!("is {len} bytes; suite files are capped at {max} bytes"),
    )
}

pub(crate) fn symlink_in_release(rel: &str) -> Diagnostic {
    Diagnostic::error(
        Code::Symlink,
        rel,
        "is a symbolic link; a release may hold only regular files and directories",
    )
    .help("replace the link with a copy of the file it points to")
}

pub(crate) fn special_file_in_release(rel: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SpecialFile,
        rel,
        "is not a regular file or directory; a release cannot carry it",
    )
    .help("remove it from the suite")
}
