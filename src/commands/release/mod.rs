//! `bqsuite release`: the reproducible release asset `<asset>-<version>.tar.gz` of a suite (the
//! asset stem is its description's: `babelqueue-conformance` for BabelQueue's suite) and its
//! `SHA256SUMS`.
//!
//! The asset's bytes depend only on the suite's vendored files (their names and contents), the
//! LICENSE, and the mtime (SOURCE_DATE_EPOCH, else [`archive::DEFAULT_MTIME`]); never on the file
//! system's order, the files' own mtimes, modes or owners, the umask, the user or the machine:
//!
//! * one root directory `<asset>-<version>/` holding CONFORMANCE_VERSION, LICENSE, fixtures/,
//!   manifest.json, schema/ and the suite's description `suite.json` when it has one, and
//!   nothing else ([`tree`]);
//! * entries sorted by the raw bytes of their names, each directory before its contents;
//! * POSIX ustar headers written field by field: mode 0644/0755, uid/gid 0 with empty owner
//!   names, one mtime, no atime/ctime/PAX records ([`ustar`]);
//! * one gzip member with no file name, MTIME 0, OS 3, deflated at [`COMPRESSION_LEVEL`] by the
//!   pinned flate2/zlib-rs in fixed-size chunks that several threads compress at once, with bytes
//!   that do not depend on how many ([`gzip`], [`parallel`](bqsuite_suite::release::parallel); [`parallel::THREADS_VAR`](bqsuite_suite::release::parallel::THREADS_VAR) sets the
//!   number of threads).
//!
//! A release is refused (exit 1, nothing written) when the suite does not validate, holds a link,
//! a special or a hidden file, has a `-pre` version without `--allow-pre`, has no licence of its
//! own (`LICENSE` in the suite directory, or `LICENSE-<name>` beside it: see `read_license`), or
//! when `--tag` is not `v` + CONFORMANCE_VERSION. Both outputs are written to temporary files and
//! renamed into place only once both are complete; a refused release removes its temporary file
//! (and the output directory, if it created it).

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::commands::validate::validate_fed;
use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil;
use bqsuite_suite::Suite;
use bqsuite_suite::archive::{self, LICENSE_FILE, SUMS_FILE};
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::{self, MAX_FILE_BYTES, VERSION_FILE};

use bqsuite_suite::release::pack::{Package, Staged, TreeWriter};
use bqsuite_suite::release::tree::Entry;
use bqsuite_suite::release::{COMPRESSION_LEVEL, gzip, tree, ustar};

mod sums;

bqsuite_core::finding_codes! {
    /// The findings of `release` of its own (the tree's are the loader's).
    pub enum Code {
        PreReleaseVersion = "pre-release-version",
        TagMismatch = "tag-mismatch",
        MissingLicense = "missing-license",
        SuiteChanged = "suite-changed",
    }
}

/// The environment variable that overrides the entries' mtime (reproducible-builds.org).
pub const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// What to release and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The suite directory (default `suite`).
    pub suite: PathBuf,
    /// The output directory (default `dist`).
    pub out: PathBuf,
    /// The tag a release workflow builds (`vX.Y.Z`); must equal `v` + CONFORMANCE_VERSION.
    pub tag: Option<String>,
    /// Allow a `-pre` version.
    pub allow_pre: bool,
}

/// A built release asset, in memory.
#[derive(Debug, Clone)]
pub struct Asset {
    /// `<asset>-<version>.tar.gz` ([`Kind::asset_name`]).
    pub file_name: String,
    /// The gzip-compressed tarball.
    pub bytes: Vec<u8>,
    /// Lowercase hex SHA-256 of `bytes`.
    pub sha256: String,
    /// Number of tar entries (directories and files).
    pub entries: usize,
}

/// Builds the release. The report's findings explain a refusal (exit 1); its summary names the
/// asset, its size and sha256.
///
/// Each file is read once: this thread writes it into the asset (tar, then gzip on
/// [`parallel::THREADS_VAR`](bqsuite_suite::release::parallel::THREADS_VAR) threads, streamed to a temporary file that only a clean validation
/// puts in place) and hands its bytes to the threads that validate it (one per core). So the
/// asset holds exactly the bytes that were validated, and a release holds the manifest, the
/// schemas and a few fixtures at a time, whatever the suite's size.
pub fn release(options: &Options) -> Result<Report> {
    let mtime = mtime_from(std::env::var_os(SOURCE_DATE_EPOCH))?;
    let threads = bqsuite_core::threads::threads()?;
    check_out_dir(&options.out)?;
    let sums_path = options.out.join(SUMS_FILE);
    let other_sums = sums::existing(&sums_path)?;
    let root = options.suite.as_path();
    require_suite_dir(root)?;

    let mut findings = Vec::new();
    let license = read_license(root, &mut findings)?;
    // The packaging's walk of the tree and the loader's run at once.
    let (walked, suite) = std::thread::scope(|scope| {
        let walking = scope.spawn(|| tree::walk(root));
        let suite = load::load_deferred(root);
        (walking.join().expect("walking the suite panicked"), suite)
    });
    let (entries, walk_findings) = walked?;
    findings.extend(walk_findings);
    let suite = suite?;
    let served = crate::commands::suites::serve(&suite)?;
    let version = check_version(&suite, &served.kind, options, &mut findings);
    if findings.is_empty() && suite.problems.is_empty() {
        check_same_files(&suite, &entries, &mut findings);
    }

    // Validation reads each fixture once, from the packaging: the feed below writes every file
    // into the asset and hands its bytes to the checking threads, so the asset holds exactly the
    // bytes that were validated, and no more than a few fixtures are held at a time.
    let subject = options.suite.display().to_string();
    let package = match (&license, &version) {
        (Some(license), Some(version)) if findings.is_empty() && suite.problems.is_empty() => {
            Some(Package {
                suite: &suite,
                kind: &served.kind,
                entries: &entries,
                license,
                version,
                mtime,
                threads,
            })
        }
        _ => None,
    };
    let (mut report, packed) =
        validate_fed(
            &suite,
            &served,
            &subject,
            threads,
            |feeder| match &package {
                Some(package) => {
                    Some(package.stage(&options.out, |rel, bytes| feeder.send(rel, bytes)))
                }
                None => crate::commands::validate::read_fixtures(&suite, feeder)
                    .err()
                    .map(Err),
            },
        );
    // A suite that does not validate is refused with its findings (exit 1), even when packaging
    // failed for the same reason (a name a ustar header cannot hold).
    let packed = match packed {
        Some(Err(_)) if !report.is_clean() => None,
        other => other.transpose()?,
    };
    drop(suite);

    add_own_findings(&mut report, findings);
    report.summary.clear();
    // The suite's validation facts stay, under `suite`; a refusal has no asset.
    let validated = std::mem::take(&mut report.data);
    report.data = data(version.as_deref(), mtime, validated, None);
    if !report.is_clean() {
        if let Some(staged) = &packed {
            staged.discard();
        }
        return Ok(report);
    }
    // Every reason not to package is an error-level finding, so a clean report has an asset.
    let asset =
        packed.ok_or_else(|| Error::Usage("internal error: nothing was packaged".into()))?;

    let asset_path = options.out.join(&asset.file_name);
    let sums = sums::with_asset(&other_sums, &asset.sha256, &asset.file_name);
    publish(&asset, &asset_path, &sums_path, sums.as_bytes())?;

    let root_dir = served.kind.root_dir(version.as_deref().unwrap_or_default());
    report.summary = vec![
        format!("asset: {}", asset_path.display()),
        format!("size: {} bytes", asset.size),
        format!("sha256: {}", asset.sha256),
        format!("checksums: {}", sums_path.display()),
        format!("{} entries under {root_dir}/, mtime {mtime}", asset.entries),
    ];
    let validated = std::mem::take(&mut report.data["suite"]);
    report.data = data(
        version.as_deref(),
        mtime,
        validated,
        Some((&asset, &asset_path, &sums_path)),
    );
    Ok(report)
}

/// The suite to release is a directory (a release is made from a checkout, not an asset).
fn require_suite_dir(root: &Path) -> Result<()> {
    let meta = fs::metadata(root).map_err(|e| Error::io("read suite directory", root, e))?;
    if !meta.is_dir() {
        return Err(Error::bad_path(root, "is not a directory"));
    }
    Ok(())
}

/// Adds release's own findings to the validation's, leaving out those that say what validation
/// already said (the same code about the same file).
fn add_own_findings(report: &mut Report, findings: Vec<Diagnostic>) {
    let known: HashSet<(bqsuite_core::diag::Code, String)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.file.clone()))
        .collect();
    let fresh: Vec<Diagnostic> = findings
        .into_iter()
        .filter(|d| !known.contains(&(d.code, d.file.clone())))
        .collect();
    report.diagnostics.extend(fresh);
    report.sort();
}

/// The `data` of `release --format json`: the version, the asset written (`null` when the release
/// was refused) and its SHA256SUMS, the entries' mtime, and the suite's `validate` facts.
fn data(
    version: Option<&str>,
    mtime: u64,
    suite: serde_json::Value,
    written: Option<(&Staged, &Path, &Path)>,
) -> serde_json::Value {
    let asset = written.map(|(asset, path, _)| {
        serde_json::json!({
            "name": asset.file_name,
            "path": path.display().to_string(),
            "size": asset.size,
            "sha256": asset.sha256,
            "entries": asset.entries,
        })
    });
    serde_json::json!({
        "version": version,
        "released": written.is_some(),
        "asset": asset,
        "sha256sums": written.map(|(_, _, sums)| sums.display().to_string()),
        "mtime": mtime,
        "suite": suite,
    })
}

/// The entries' mtime: SOURCE_DATE_EPOCH when set (and not empty), else
/// [`archive::DEFAULT_MTIME`]. A value that is not a plain decimal number of seconds that fits a
/// ustar header (at most 8^11 - 1) cannot be used (exit 2).
pub fn mtime_from(value: Option<OsString>) -> Result<u64> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(archive::DEFAULT_MTIME);
    };
    let text = value.to_string_lossy();
    text.parse::<u64>()
        .ok()
        .filter(|n| text.bytes().all(|b| b.is_ascii_digit()) && *n <= ustar::MAX_OCTAL_11)
        .ok_or_else(|| {
            Error::Usage(format!(
                "{SOURCE_DATE_EPOCH}=`{}` is not a whole number of seconds since the epoch between \
                 0 and {}; unset it, or set it to e.g. `SOURCE_DATE_EPOCH=$(git log -1 \
                 --format=%ct)`",
                bqsuite_core::error::escape_controls(&text),
                ustar::MAX_OCTAL_11
            ))
        })
}

/// `--out` must be a directory or not exist yet (it is then created); a file there is a usage
/// error found before anything is read or written.
fn check_out_dir(out: &Path) -> Result<()> {
    match fs::metadata(out) {
        Ok(meta) if !meta.is_dir() => Err(Error::bad_path(
            out,
            format!(
                "is not a directory; --out names the directory the asset and SHA256SUMS are \
                 written to (it is created if missing), e.g. `--out {}`",
                if out == Path::new("dist") {
                    "release-out"
                } else {
                    "dist"
                }
            ),
        )),
        _ => Ok(()),
    }
}

/// Why `version` may not be released with these options: a pre-release without `--allow-pre`, a
/// `--tag` that is not the suite's tag of version (`v` + version for BabelQueue's).
fn version_refusals(version: &str, kind: &Kind, options: &Options) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let pre = semver::Version::parse(version).is_ok_and(|v| !v.pre.is_empty());
    if pre && !options.allow_pre {
        out.push(pre_release_version(version));
    }
    if let Some(tag) = &options.tag
        && *tag != kind.tag(version)
    {
        out.push(tag_mismatch(tag, kind, version));
    }
    out
}

/// The loaded version to release, if CONFORMANCE_VERSION is usable; refusals go to `findings`. A
/// missing or malformed version is left to validation, which reports it.
fn check_version(
    suite: &Suite,
    kind: &Kind,
    options: &Options,
    findings: &mut Vec<Diagnostic>,
) -> Option<String> {
    let text = suite.version_text()?;
    semver::Version::parse(text).ok()?;
    findings.extend(version_refusals(text, kind, options));
    Some(text.to_string())
}

/// Reads the suite's own licence: `LICENSE` in the suite directory, else `LICENSE-<name>` beside
/// it, `<name>` being the suite directory's name (`LICENSE-suite` for `suite/`). Never the
/// parent's plain `LICENSE`: beside a suite that is the repository's (the tool's) licence, not the
/// suite data's. `None` (with a finding) when neither is usable.
fn read_license(suite_dir: &Path, findings: &mut Vec<Diagnostic>) -> Result<Option<Vec<u8>>> {
    let resolved = fs::canonicalize(suite_dir).map_err(|e| Error::io("resolve", suite_dir, e))?;
    let mut candidates = vec![(suite_dir.join(LICENSE_FILE), LICENSE_FILE.to_string())];
    if let (Some(parent), Some(name)) = (resolved.parent(), resolved.file_name()) {
        let beside = format!("{LICENSE_FILE}-{}", name.to_string_lossy());
        candidates.push((parent.join(&beside), format!("../{beside}")));
    }
    let names: Vec<String> = candidates.iter().map(|(_, shown)| shown.clone()).collect();
    for (path, shown) in candidates {
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        let problem = if meta.file_type().is_symlink() {
            Some(license_symlink(&shown))
        } else if !meta.is_file() {
            Some(license_special_file(&shown))
        } else if meta.len() > MAX_FILE_BYTES {
            Some(license_too_large(&shown))
        } else {
            None
        };
        if let Some(problem) = problem {
            findings.push(problem);
            return Ok(None);
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        fs::File::open(&path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| Error::io("read", &path, e))?;
        if bytes.len() as u64 != meta.len() {
            findings.push(suite_changed(&shown));
            return Ok(None);
        }
        return Ok(Some(bytes));
    }
    findings.push(missing_license(&names));
    Ok(None)
}

/// The walk and the loaded (validated) suite must agree file for file (names and sizes): the
/// asset is packaged from the walk's order with the loaded bytes.
fn check_same_files(suite: &Suite, entries: &[Entry], findings: &mut Vec<Diagnostic>) {
    let mut walked = HashSet::new();
    for entry in entries.iter().filter(|e| !e.is_dir) {
        walked.insert(entry.rel.as_str());
        let same = suite
            .file(&entry.rel)
            .is_some_and(|file| file.size() == entry.len);
        if !same {
            findings.push(suite_changed(&entry.rel));
        }
    }
    for rel in suite
        .files
        .keys()
        .filter(|rel| !walked.contains(rel.as_str()))
    {
        findings.push(suite_changed(rel));
    }
}

/// One entry to package: a path relative to the suite directory (`/`-separated, no trailing
/// `/`) and, for a file, its bytes (`None` for a directory).
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    pub rel: &'a str,
    pub data: Option<&'a [u8]>,
}

/// Builds `kind`'s asset in memory (on the calling thread; the bytes are those `release` writes):
/// the root directory, then `members` (in the order given, which must be the walk's sorted order)
/// with LICENSE placed among the root's entries by name.
pub fn build_asset(
    kind: &Kind,
    members: &[Member],
    license: &[u8],
    version: &str,
    mtime: u64,
) -> Result<Asset> {
    let file_name = kind.asset_name(version);
    let fail = |e: std::io::Error| Error::io("build", Path::new(&file_name), e);
    let total: usize = members.iter().map(|m| m.data.map_or(0, <[u8]>::len)).sum();
    let gz = gzip::GzipWriter::new(Vec::with_capacity(total / 4 + 4096), COMPRESSION_LEVEL)
        .map_err(fail)?;
    let mut tree = TreeWriter::new(gz, kind, version, license, mtime).map_err(fail)?;
    for member in members {
        tree.entry(member.rel, member.data).map_err(fail)?;
    }
    let (gz, entries) = tree.finish().map_err(fail)?;
    let bytes = gz.finish().map_err(fail)?;
    Ok(Asset {
        sha256: archive::sha256_hex(&bytes),
        file_name,
        bytes,
        entries,
    })
}

/// Puts a staged asset in place with its SHA256SUMS: the checksums go to a temporary sibling,
/// flushed to disk, and only then are both renamed into place. On failure the temporaries (and
/// any output directory this run created) are removed and no target is touched.
fn publish(asset: &Staged, asset_path: &Path, sums_path: &Path, sums: &[u8]) -> Result<()> {
    let sums_temp = fsutil::temp_sibling(sums_path, "tmp");
    let result = (|| {
        let mut file =
            fs::File::create(&sums_temp).map_err(|e| Error::io("create", &sums_temp, e))?;
        file.write_all(sums)
            .map_err(|e| Error::io("write", &sums_temp, e))?;
        file.sync_all()
            .map_err(|e| Error::io("flush", &sums_temp, e))?;
        fs::rename(&asset.temp, asset_path)
            .map_err(|e| Error::io("rename into place", asset_path, e))?;
        fs::rename(&sums_temp, sums_path).map_err(|e| Error::io("rename into place", sums_path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&sums_temp);
        asset.discard();
    }
    result
}

// Findings

/// `version` is a pre-release and `--allow-pre` was not given.
fn pre_release_version(version: &str) -> Diagnostic {
    Diagnostic::error(
        Code::PreReleaseVersion,
        VERSION_FILE,
        format!("version {version} is a pre-release (an untagged revision); it is not released"),
    )
    .help(
        "set CONFORMANCE_VERSION to the version being tagged, or pass --allow-pre for a test build",
    )
}

/// `--tag` is not `kind`'s tag of `version` (`v` + version for BabelQueue's suite).
fn tag_mismatch(tag: &str, kind: &Kind, version: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TagMismatch,
        VERSION_FILE,
        format!(
            "the tag `{tag}` is not `{}` ({} + CONFORMANCE_VERSION)",
            kind.tag(version),
            kind.tag("")
        ),
    )
    .help("tag the commit whose CONFORMANCE_VERSION matches, or bump CONFORMANCE_VERSION")
}

/// The LICENSE found (shown as `shown`) is a symbolic link.
fn license_symlink(shown: &str) -> Diagnostic {
    Diagnostic::error(
        load::Code::Symlink,
        shown,
        "is a symbolic link; the release's LICENSE must be a regular file",
    )
    .help(LICENSE_HELP)
}

/// The LICENSE found (shown as `shown`) is neither a file nor a link.
fn license_special_file(shown: &str) -> Diagnostic {
    Diagnostic::error(load::Code::SpecialFile, shown, "is not a regular file").help(LICENSE_HELP)
}

/// The LICENSE found (shown as `shown`) is larger than a suite file may be.
fn license_too_large(shown: &str) -> Diagnostic {
    Diagnostic::error(
        load::Code::FileTooLarge,
        shown,
        "is larger than a suite file may be",
    )
    .help(LICENSE_HELP)
}

const LICENSE_HELP: &str = "make the suite's licence a regular file (LICENSE in the suite directory, or LICENSE-<suite \
     directory name> beside it)";

/// Neither place a suite's licence may be (`looked`, as shown) holds one.
fn missing_license(looked: &[String]) -> Diagnostic {
    let beside = looked.get(1).map_or("", String::as_str);
    Diagnostic::error(
        Code::MissingLicense,
        LICENSE_FILE,
        format!(
            "the suite has no licence of its own: neither {} exists; a release must carry the \
             suite's licence (the repository's LICENSE is the tool's, not the suite's)",
            looked.join(" nor ")
        ),
    )
    .help(format!(
        "add the suite data's licence text as LICENSE in the suite directory{}",
        if beside.is_empty() {
            String::new()
        } else {
            format!(", or as {} beside it", beside.trim_start_matches("../"))
        }
    ))
}

/// The file `rel` changed while the release was being built.
fn suite_changed(rel: &str) -> Diagnostic {
    Diagnostic::error(
        Code::SuiteChanged,
        rel,
        "the file changed while the release was being built",
    )
    .help("run the release again once nothing is editing the suite")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_must_be_the_loaded_suite() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("fixtures")).unwrap();
        fs::write(root.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
        fs::write(root.join("manifest.json"), "{}").unwrap();
        fs::write(root.join("fixtures/a.json"), "{\"a\": 1}").unwrap();
        let suite = load::load(root).unwrap();
        let check = || {
            let (entries, findings) = tree::walk(root).unwrap();
            assert!(findings.is_empty());
            let mut out = Vec::new();
            check_same_files(&suite, &entries, &mut out);
            out.iter()
                .map(|d| format!("{} {}", d.code, d.file))
                .collect::<Vec<_>>()
        };
        assert!(check().is_empty());
        // Another size: the file changed between the walk and loading.
        fs::write(root.join("fixtures/a.json"), "{\"a\": 10}").unwrap();
        assert_eq!(check(), ["suite-changed fixtures/a.json"]);
        fs::write(root.join("fixtures/a.json"), "{\"a\": 1}").unwrap();
        // A file that appeared, and one that went.
        fs::write(root.join("fixtures/b.json"), "{}").unwrap();
        assert_eq!(check(), ["suite-changed fixtures/b.json"]);
        fs::remove_file(root.join("fixtures/b.json")).unwrap();
        fs::remove_file(root.join("fixtures/a.json")).unwrap();
        fs::write(root.join("fixtures/c.json"), "{}").unwrap();
        let mut found = check();
        found.sort();
        assert_eq!(
            found,
            [
                "suite-changed fixtures/a.json",
                "suite-changed fixtures/c.json"
            ]
        );
    }

    #[test]
    fn mtime_defaults_and_overrides() {
        assert_eq!(mtime_from(None).unwrap(), archive::DEFAULT_MTIME);
        assert_eq!(mtime_from(Some("".into())).unwrap(), archive::DEFAULT_MTIME);
        assert_eq!(
            mtime_from(Some("1700000000".into())).unwrap(),
            1_700_000_000
        );
        assert_eq!(
            mtime_from(Some("8589934591".into())).unwrap(),
            ustar::MAX_OCTAL_11
        );
        for bad in ["-1", "+5", "1.5", "now", " 1", "8589934592"] {
            assert!(mtime_from(Some(bad.into())).is_err(), "{bad}");
        }
    }
}
