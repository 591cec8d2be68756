//! `bqsuite fetch`: download a released suite, verify its checksum and the archive itself, then
//! unpack it into DEST — or, with `--check`, compare a vendored copy with it, writing nothing.
//!
//! The asset is read as a stream: its sha256 is computed while the gzip and tar layers are
//! verified ([`bqsuite_suite::archive::verify`]), so memory stays flat whatever its size.
//! - `--check`: one pass; every file of the vendored set is compared with the directory as it
//!   goes by ([`compare::Comparer`]); the findings count only when the checksum matched and the
//!   archive was accepted.
//! - unpack: a first pass verifies the whole asset (checksum and archive) without writing anything
//!   but, for a download, a private copy in a staging directory beside DEST; a second pass over
//!   that copy (or the `file://` source) unpacks it into the staging directory, re-checking the
//!   checksum, and one rename puts the tree in place.
//! - `--update`: the same two passes into the staging directory, then DIR's vendored set is made
//!   equal to the unpacked tree file by file ([`update`]).

mod codes;
mod data;
mod dest;
mod findings;
pub mod source;
mod staging;
pub mod suite;
mod unpack;
pub mod update;

use std::fs;
use std::io::{BufReader, Read};
use std::path::PathBuf;
use std::time::Duration;

use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::{Error, Result};
use bqsuite_suite::archive::verify::{self, Discard, Fault, Sink, Summary};
use bqsuite_suite::archive::{SUMS_FILE, SumsEntry, sums_lookup};
use bqsuite_suite::kind::Kind;

pub use bqsuite_suite::archive::verify::Limits;
use bqsuite_suite::compare;

pub use bqsuite_suite::compare::{
    CompareOptions, Comparer, Comparison, compare_dirs, compare_files,
};
pub use source::Network;
use source::{Fetcher, Hashing, Location, Release};

pub use codes::Code;

/// Largest SHA256SUMS read.
const MAX_SUMS_BYTES: u64 = 64 * 1024;
/// Read buffer between the source and the gzip decoder.
const BUFFER: usize = 256 * 1024;

/// What to fetch and what to do with it.
#[derive(Debug, Clone)]
pub struct Options {
    /// The SemVer version to fetch.
    pub version: String,
    /// The destination (unpack) or the vendored directory (check).
    pub dest: PathBuf,
    /// Compare `dest` with the release instead of unpacking.
    pub check: bool,
    /// Re-vendor `dest` (a vendored copy, or a new or empty directory) from the release.
    pub update: bool,
    /// A pinned sha256 of the asset; SHA256SUMS is then not needed.
    pub sha256: Option<String>,
    /// Attach unified diffs of changed text files (check mode).
    pub diff: bool,
    /// The suite to fetch where nothing on disk says which (`--suite`): a known suite's name
    /// ([`crate::commands::suites::known`]); BabelQueue's when `None`. A vendored copy at `dest`
    /// says which suite it is itself ([`suite::expected`]).
    pub suite: Option<String>,
    /// Where the assets are (`BQ_CONFORMANCE_BASE_URL`), else the suite's `release_url`.
    /// `{version}` is replaced in either.
    pub base_url: Option<String>,
    /// Show a progress bar on standard error (a terminal, not CI). The library does not draw it:
    /// the caller passes a sink to [`fetch_with_progress`] when this is set.
    pub progress: bool,
    /// Timeouts and retries.
    pub network: Network,
    /// Caps on the archive (size, entries, unpacked size).
    pub limits: Limits,
    /// How long a writing mode waits for another run that is writing the same copy
    /// (`--lock-wait`).
    pub lock_wait: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            version: String::new(),
            dest: PathBuf::new(),
            check: false,
            update: false,
            sha256: None,
            diff: false,
            suite: None,
            base_url: None,
            progress: false,
            network: Network::default(),
            limits: Limits::default(),
            lock_wait: bqsuite_suite::lock::WAIT,
        }
    }
}

/// Runs fetch without progress reporting. See [`fetch_with_progress`].
pub fn fetch(options: &Options) -> Result<Report> {
    fetch_with_progress(options, &mut |_, _| {})
}

/// Runs fetch; `progress(bytes_read, total)` is called as the asset downloads. Findings (exit 1):
/// checksum mismatch, refused archive, drift. `Err` (exit 2): usage, network, I/O.
pub fn fetch_with_progress(
    options: &Options,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Report> {
    let version = parse_version(&options.version)?;
    let pin = options.sha256.as_deref().map(parse_pin).transpose()?;
    if options.check && options.update {
        return Err(Error::Usage(
            "--check and --update cannot be combined: --check writes nothing, --update re-vendors"
                .into(),
        ));
    }
    // One writer per copy: a writing run holds DEST's lock from before it judges DEST until it
    // ends; a check gives no verdict on a copy being written. The parents made for DEST (and for
    // its lock) are removed again when the run leaves them empty (declared first, so dropped
    // last: after the lock and the staging area).
    let mut created = unpack::CreatedParents::default();
    let again = update::rerun(options);
    let _lock = if options.check {
        dest::not_being_written(&options.dest, &again)?;
        None
    } else {
        Some(dest::lock(
            &options.dest,
            &mut created,
            options.lock_wait,
            &again,
        )?)
    };
    let kind = suite::expected(
        &options.dest,
        options.check || options.update,
        options.suite.as_deref(),
    )?;
    let base = options
        .base_url
        .as_deref()
        .unwrap_or(&kind.release_url)
        .replace("{version}", version);
    let name = kind.asset_name(version);
    let asset = Location::resolve(&base, &name)?;
    let sums = Location::resolve(&base, SUMS_FILE)?;
    let target = target_of(options, &mut created)?;
    let mut fetcher = Fetcher::new(&options.network);
    let mut run = Run {
        options,
        version,
        kind,
        name,
        asset,
        report: Report::new(String::new()),
        checked: None,
        seen: None,
    };
    run.report.subject = run.asset.shown();
    let pinned = pin.is_some();
    let expected = match pin {
        Some(hash) => Expected {
            hash,
            source: "--sha256".into(),
        },
        None => match read_sums(&mut fetcher, &sums, &run.asset, run.release()) {
            Ok(hash) => Expected {
                hash,
                source: format!("{SUMS_FILE} at {}", sums.shown()),
            },
            Err(fault) => return run.settle(fault),
        },
    };
    run.checked = Some(Checked {
        expected: expected.hash.clone(),
        source: if pinned { "--sha256" } else { SUMS_FILE },
        url: (!pinned).then(|| sums.shown()),
    });
    let outcome = match &target {
        None => run.check(&mut fetcher, &expected, progress),
        Some(target) => run.unpack(&mut fetcher, &expected, target, progress),
    };
    match outcome {
        Ok(()) => Ok(run.report),
        Err(fault) => run.settle(fault),
    }
}

/// DEST, judged before anything is downloaded: where the asset goes, or `None` for `--check`
/// (which only needs DEST to be a directory).
fn target_of(options: &Options, created: &mut unpack::CreatedParents) -> Result<Option<Target>> {
    if options.check {
        dest::check_dir(&options.dest)?;
        return Ok(None);
    }
    if options.update
        && let update::Plan::Update(dir) = update::plan(&options.dest)?
    {
        let absolute = fs::canonicalize(&dir).map_err(|e| Error::io("resolve", &dir, e))?;
        return Ok(Some(Target::Update(unpack::Pinned::take(&dir, absolute)?)));
    }
    Ok(Some(Target::Fresh(dest::fresh(&options.dest, created)?)))
}

/// Where a verified asset goes: DEST resolved once and pinned before anything is downloaded
/// ([`unpack::Pinned`]); the staging directory is made beside it, and it is checked to be the same
/// directory (or still absent) right before the tree is renamed onto it or written into it.
enum Target {
    /// A new tree renamed into place (DEST absent or empty).
    Fresh(unpack::Pinned),
    /// An existing vendored copy updated file by file.
    Update(unpack::Pinned),
}

/// The hash the asset must have, and where it comes from.
struct Expected {
    hash: String,
    source: String,
}

/// Where the expected sha256 came from, as `data.checksum` reports it.
struct Checked {
    expected: String,
    /// `SHA256SUMS` or `--sha256`.
    source: &'static str,
    /// The SHA256SUMS read, when it was one.
    url: Option<String>,
}

struct Run<'o> {
    options: &'o Options,
    version: &'o str,
    /// The suite whose release this is.
    kind: Kind,
    /// The asset's file name (the suite's description spells it).
    name: String,
    asset: Location,
    report: Report,
    /// The sha256 the asset must have and where it comes from, once known (for `data`).
    checked: Option<Checked>,
    /// The sha256 and size of the asset as the first pass read it (for `data`).
    seen: Option<(String, u64)>,
}

/// What one pass over the asset found.
struct Pass {
    digest: String,
    bytes: u64,
    verdict: std::result::Result<Summary, Fault>,
}

impl Run<'_> {
    /// The release fetched: its version and asset name.
    fn release(&self) -> Release<'_> {
        Release {
            version: self.version,
            asset: &self.name,
        }
    }

    /// A refusal becomes the report's finding (exit 1); a failure is an error (exit 2).
    fn settle(mut self, fault: Fault) -> Result<Report> {
        match fault {
            Fault::Refused(mut d) => {
                self.report.subject = self.asset.shown();
                if d.file.is_empty() {
                    d.file = self.name.clone();
                }
                self.report.push(*d);
                self.report.data = self.data(None, None);
                Ok(self.report)
            }
            Fault::Failed(e) => Err(e),
        }
    }

    /// Reads the whole asset once through `sink`: hashes every byte (the rest is read even after
    /// a refusal, so that a tampered asset is reported as such), verifies the archive.
    fn pass(
        &self,
        reader: Box<dyn Read + '_>,
        length: Option<u64>,
        tee: Option<(fs::File, PathBuf)>,
        progress: Option<&mut dyn FnMut(u64, Option<u64>)>,
        sink: &mut dyn Sink,
    ) -> std::result::Result<Pass, Fault> {
        let limits = &self.options.limits;
        let mut hashing =
            Hashing::new(reader, limits.max_archive_bytes, length, self.asset.shown());
        if let Some((file, path)) = tee {
            hashing = hashing.tee(file, path);
        }
        if let Some(progress) = progress {
            hashing = hashing.progress(progress);
        }
        let verdict = {
            let mut input = BufReader::with_capacity(BUFFER, &mut hashing);
            verify::verify(
                &mut input,
                &verify::Expected::Suite(self.kind.clone()),
                self.version,
                limits,
                sink,
            )
        };
        if let Err(Fault::Failed(e)) = verdict {
            return Err(Fault::Failed(e));
        }
        hashing.drain()?;
        let bytes = hashing.count();
        let digest = hashing.finish()?;
        Ok(Pass {
            digest,
            bytes,
            verdict,
        })
    }

    /// The checksum first (a tampered asset is a checksum mismatch, whatever else is wrong with
    /// it), then the archive's verdict.
    fn judge(
        &self,
        pass: Pass,
        expected: &Expected,
    ) -> std::result::Result<(Summary, u64, String), Fault> {
        if pass.digest != expected.hash {
            return Err(Fault::Refused(Box::new(findings::checksum_mismatch(
                &self.name,
                &pass.digest,
                &expected.source,
                &expected.hash,
            ))));
        }
        let summary = pass.verdict?;
        Ok((summary, pass.bytes, pass.digest))
    }

    fn check(
        &mut self,
        fetcher: &mut Fetcher,
        expected: &Expected,
        progress: &mut dyn FnMut(u64, Option<u64>),
    ) -> std::result::Result<(), Fault> {
        let dir = &self.options.dest;
        let mut comparer = Comparer::new(
            dir,
            &CompareOptions {
                diff: self.options.diff,
                expected_label: format!("release {}", self.version),
                keep_manifest: true,
            },
        )?;
        let opened = fetcher.open(
            &self.asset,
            self.release(),
            self.options.limits.max_archive_bytes,
        )?;
        let pass = self.pass(
            opened.reader,
            opened.length,
            None,
            Some(progress),
            &mut comparer,
        )?;
        self.seen = Some((pass.digest.clone(), pass.bytes));
        let (_, bytes, digest) = self.judge(pass, expected)?;
        let comparison = comparer.finish()?;
        // A writer that began while the copy was read: no verdict on what was read.
        dest::not_being_written(dir, &update::rerun(self.options))?;
        self.report.subject = dir.display().to_string();
        let fix = update::command(
            self.version,
            dir,
            self.options.base_url.as_deref(),
            self.options.sha256.as_deref(),
        );
        self.push_verified(bytes, &digest, expected);
        let facts = compare::report::Facts {
            version: self.version,
            destination: dir,
            fix: &fix,
        };
        let checked = compare::report::settle(&mut self.report, comparison, &facts);
        let mut data = self.data(None, None);
        if let Some(object) = data.as_object_mut() {
            object.extend(checked);
        }
        self.report.data = data;
        Ok(())
    }

    /// The summary line of an asset whose sha256 matched.
    fn push_verified(&mut self, bytes: u64, digest: &str, expected: &Expected) {
        self.report.summary.push(format!(
            "{}: {bytes} bytes, sha256 {digest} (matches {})",
            self.name, expected.source
        ));
    }

    fn unpack(
        &mut self,
        fetcher: &mut Fetcher,
        expected: &Expected,
        target: &Target,
        progress: &mut dyn FnMut(u64, Option<u64>),
    ) -> std::result::Result<(), Fault> {
        let (Target::Fresh(pinned) | Target::Update(pinned)) = target;
        let staging = staging::Staging::create(pinned.path())?;
        let cap = self.options.limits.max_archive_bytes;
        // Pass 1: verify everything; keep a private copy of a download for pass 2.
        let (local, digest) = {
            let opened = fetcher.open(&self.asset, self.release(), cap)?;
            let (local, tee) = match &self.asset {
                Location::File(path) => (path.clone(), None),
                Location::Http(_) => {
                    let path = staging.download();
                    (path.clone(), Some((staging.create_download()?, path)))
                }
            };
            let pass = self.pass(
                opened.reader,
                opened.length,
                tee,
                Some(progress),
                &mut Discard,
            )?;
            self.seen = Some((pass.digest.clone(), pass.bytes));
            let (_, _, digest) = self.judge(pass, expected)?;
            (local, digest)
        };
        // Pass 2: unpack what was verified, checking it is still the same bytes.
        let file =
            fs::File::open(&local).map_err(|e| Fault::Failed(Error::io("open", &local, e)))?;
        let mut extract = unpack::Extract::new(staging.tree())?;
        let pass = self.pass(Box::new(file), None, None, None, &mut extract)?;
        let again = Expected {
            hash: digest.clone(),
            source: "the asset as it was verified (it changed while being unpacked)".into(),
        };
        let (summary, bytes, _) = self.judge(pass, &again)?;
        self.report.subject = self.options.dest.display().to_string();
        match target {
            Target::Fresh(pinned) => {
                pinned.verify()?;
                staging.commit(pinned.path())?;
                self.push_verified(bytes, &digest, expected);
                self.report.summary.push(format!(
                    "unpacked {} file{} ({} bytes) into {}",
                    summary.files,
                    bqsuite_core::diag::plural(summary.files),
                    summary.bytes,
                    self.options.dest.display()
                ));
                self.report.data = self.data(Some(&summary), None);
            }
            Target::Update(pinned) => {
                // DIR is still the directory pinned at the start (not swapped for a link).
                pinned.verify()?;
                let tree = staging.tree();
                let root = pinned.write_root();
                let applied = update::vendor_staged(&root, &tree, &summary, &self.options.limits)
                    .map_err(|fault| match fault {
                        Fault::Failed(e) => Fault::Failed(pinned.shown_error(e)),
                        refused => refused,
                    });
                // Swapped while being written: say so rather than claim success.
                pinned.verify_written()?;
                let applied = applied?;
                drop(staging);
                self.push_verified(bytes, &digest, expected);
                if applied.is_empty() {
                    self.report.summary.push(format!(
                        "{} already matches release {}; nothing written",
                        self.options.dest.display(),
                        self.version
                    ));
                } else {
                    let lines = update::summary(&self.options.dest, self.version, &applied);
                    self.report.summary.extend(lines);
                }
                self.report.data = self.data(Some(&summary), Some(&applied));
            }
        }
        Ok(())
    }
}

/// VERSION must be SemVer (`latest`, `v1.5.0` and other words are usage errors).
fn parse_version(text: &str) -> Result<&str> {
    match semver::Version::parse(text) {
        Ok(_) => Ok(text),
        Err(e) => {
            let hint = if text.starts_with('v') && semver::Version::parse(&text[1..]).is_ok() {
                format!(" (write {} without the `v`)", &text[1..])
            } else {
                String::new()
            };
            Err(Error::Usage(format!(
                "VERSION must be a SemVer version such as 1.5.0, not `{text}`{hint}: {e}"
            )))
        }
    }
}

/// `--sha256` must be 64 hex digits.
fn parse_pin(text: &str) -> Result<String> {
    if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(Error::Usage(format!(
            "--sha256 must be 64 hexadecimal digits, not `{text}`"
        )))
    }
}

/// The expected hash from SHA256SUMS (a missing line or unreadable file is `checksum-missing`).
fn read_sums(
    fetcher: &mut Fetcher,
    sums: &Location,
    asset: &Location,
    release: Release,
) -> std::result::Result<String, Fault> {
    let shown = sums.shown();
    let mut bytes = Vec::new();
    fetcher
        .open(sums, release, u64::MAX)?
        .reader
        .take(MAX_SUMS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Fault::from_io(e, |e| Fault::Failed(Error::io("read", &shown, e))))?;
    let refused = |d: Diagnostic| Fault::Refused(Box::new(d));
    if bytes.len() as u64 > MAX_SUMS_BYTES {
        return Err(refused(findings::sums_too_large(&shown, MAX_SUMS_BYTES)));
    }
    let text = String::from_utf8(bytes).map_err(|_| refused(findings::sums_not_text(&shown)))?;
    let name = release.asset;
    match sums_lookup(&text, name) {
        SumsEntry::Hash(hash) => Ok(hash),
        SumsEntry::Missing => {
            // A flat mirror's SHA256SUMS may list other versions only: when the asset itself is
            // not there either, the version is not released (exit 2), not a checksum problem.
            if let Err(Fault::Failed(e)) = fetcher.open(asset, release, u64::MAX).map(drop)
                && e.kind() == bqsuite_core::error::Kind::NotReleased
            {
                return Err(Fault::Failed(e));
            }
            Err(refused(findings::sums_no_line(&shown, name)))
        }
        SumsEntry::Ambiguous(hashes) => {
            Err(refused(findings::checksum_ambiguous(&shown, name, &hashes)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_pins() {
        assert!(parse_version("1.5.0").is_ok());
        assert!(parse_version("1.5.0-pre").is_ok());
        for bad in ["latest", "v1.5.0", "1.5", "", "1.5.0/../x"] {
            assert!(parse_version(bad).is_err(), "{bad}");
        }
        let hint = parse_version("v1.5.0").unwrap_err().to_string();
        assert!(hint.contains("without the `v`"), "{hint}");
        assert!(parse_pin(&"A".repeat(64)).is_ok());
        assert!(parse_pin("abc").is_err());
        assert!(parse_pin(&"g".repeat(64)).is_err());
    }
}
