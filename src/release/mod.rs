//! `bqsuite release`: the reproducible release asset `babelqueue-conformance-<version>.tar.gz` and
//! its `SHA256SUMS`.
//!
//! The asset's bytes depend only on the suite's vendored files (their names and contents), the
//! LICENSE, and the mtime (SOURCE_DATE_EPOCH, else [`archive::DEFAULT_MTIME`]); never on the file
//! system's order, the files' own mtimes, modes or owners, the umask, the user or the machine:
//!
//! * one root directory `babelqueue-conformance-<version>/` holding CONFORMANCE_VERSION, LICENSE,
//!   fixtures/, manifest.json and schema/ and nothing else ([`tree`]);
//! * entries sorted by the raw bytes of their names, each directory before its contents;
//! * POSIX ustar headers written field by field: mode 0644/0755, uid/gid 0 with empty owner
//!   names, one mtime, no atime/ctime/PAX records ([`ustar`]);
//! * one gzip member with no file name, MTIME 0, OS 3, deflated at [`COMPRESSION_LEVEL`] by the
//!   pinned flate2/zlib-rs ([`gzip`]).
//!
//! A release is refused (exit 1, nothing written) when the suite does not validate, holds a link,
//! a special or a hidden file, has a `-pre` version without `--allow-pre`, has no LICENSE, or
//! when `--tag` is not `v` + CONFORMANCE_VERSION. Both outputs are written to temporary files and
//! renamed into place only once both are complete.

pub mod gzip;
pub mod tree;
pub mod ustar;

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::archive::{self, LICENSE_FILE, SUMS_FILE};
use crate::diag::{Diagnostic, Report};
use crate::error::{Error, Result};
use crate::fsutil;
use crate::suite::Suite;
use crate::suite::load::{self, MAX_FILE_BYTES, VERSION_FILE};
use crate::validate::validate_suite;

use tree::Entry;

/// The deflate level of the asset: 6, gzip's default, a good size/speed balance. It is part of
/// what decides the asset's bytes: changing it changes every release's sha256 (and the pinned
/// hash in tests/release.rs). `tar ... | gzip -n -6` is the equivalent shell pipeline.
pub const COMPRESSION_LEVEL: u32 = 6;

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
    /// `babelqueue-conformance-<version>.tar.gz`.
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
/// Loading and validating the suite is the slow part, and runs on this thread; packaging (read,
/// tar, gzip) starts at once on a second one, from the release's own walk, and its file bytes are
/// then compared with the ones that were loaded and validated: the asset holds exactly those.
pub fn release(options: &Options) -> Result<Report> {
    let mtime = mtime_from(std::env::var_os(SOURCE_DATE_EPOCH))?;
    check_out_dir(&options.out)?;
    let root = options.suite.as_path();
    let meta = fs::metadata(root).map_err(|e| Error::io("read suite directory", root, e))?;
    if !meta.is_dir() {
        return Err(Error::bad_path(root, "is not a directory"));
    }

    let mut findings = Vec::new();
    let license = read_license(root, &mut findings)?;
    let (entries, walk_findings) = tree::walk(root)?;
    findings.extend(walk_findings);
    // The version as it is on disk now: it names the root directory, so packaging can start
    // before the suite is loaded. It must still be the loaded one afterwards.
    let early_version = read_version(root).filter(|v| version_refusals(v, options).is_empty());

    let (mut report, suite, packed) = std::thread::scope(|scope| -> Result<_> {
        let packer = match (&license, &early_version) {
            (Some(license), Some(version)) if findings.is_empty() => {
                let entries = &entries;
                Some(scope.spawn(move || pack_from_disk(root, entries, license, version, mtime)))
            }
            _ => None,
        };
        let suite = load::load(root)?;
        let report = validate_suite(&suite, &options.suite.display().to_string());
        let packed = packer.map(|handle| handle.join().expect("the packaging thread panicked"));
        // A suite that does not validate is refused with its findings (exit 1), even when
        // packaging failed for the same reason (a name a ustar header cannot hold).
        let packed = match packed {
            Some(Err(_)) if !report.is_clean() => None,
            other => other.transpose()?,
        };
        Ok((report, suite, packed))
    })?;

    let version = check_version(&suite, options, &mut findings);
    if findings.is_empty() && suite.problems.is_empty() {
        let read = packed.as_ref().map(|(_, files)| files.as_slice());
        check_same_files(&suite, &entries, read, &mut findings);
        if version.is_some() && version != early_version {
            findings.push(changed(VERSION_FILE));
        }
    }
    // The loaded suite is large (every fixture parsed); nothing below needs it, so it is freed
    // on another thread instead of delaying the result.
    std::thread::spawn(move || drop(suite));

    // The validation findings, plus ours unless validation already said the same thing.
    let known: HashSet<(&str, String)> = report
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
    report.summary.clear();
    // The suite's validation facts stay, under `suite`; a refusal has no asset.
    let validated = std::mem::take(&mut report.data);
    report.data = data(version.as_deref(), mtime, validated, None);
    if !report.is_clean() {
        return Ok(report);
    }
    // Every reason not to package is an error-level finding, so a clean report has an asset.
    let (asset, _) =
        packed.ok_or_else(|| Error::Usage("internal error: nothing was packaged".into()))?;

    let asset_path = options.out.join(&asset.file_name);
    let sums_path = options.out.join(SUMS_FILE);
    let sums = archive::sums_line(&asset.sha256, &asset.file_name);
    write_outputs(
        &options.out,
        &[(&asset_path, &asset.bytes), (&sums_path, sums.as_bytes())],
    )?;

    report.summary = vec![
        format!("asset: {}", asset_path.display()),
        format!("size: {} bytes", asset.bytes.len()),
        format!("sha256: {}", asset.sha256),
        format!("checksums: {}", sums_path.display()),
        format!(
            "{} entries under {}/, mtime {mtime}",
            asset.entries,
            archive::root_dir(version.as_deref().unwrap_or_default())
        ),
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

/// The `data` of `release --format json`: the version, the asset written (`null` when the release
/// was refused) and its SHA256SUMS, the entries' mtime, and the suite's `validate` facts.
fn data(
    version: Option<&str>,
    mtime: u64,
    suite: serde_json::Value,
    written: Option<(&Asset, &Path, &Path)>,
) -> serde_json::Value {
    let asset = written.map(|(asset, path, _)| {
        serde_json::json!({
            "name": asset.file_name,
            "path": path.display().to_string(),
            "size": asset.bytes.len(),
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
                crate::error::escape_controls(&text),
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

/// CONFORMANCE_VERSION read straight from disk, if it is SemVer.
fn read_version(root: &Path) -> Option<String> {
    let mut text = String::new();
    fs::File::open(root.join(VERSION_FILE))
        .ok()?
        .take(1024)
        .read_to_string(&mut text)
        .ok()?;
    let text = text.trim();
    semver::Version::parse(text).ok()?;
    Some(text.to_string())
}

/// Why `version` may not be released with these options: a pre-release without `--allow-pre`, a
/// `--tag` that is not `v` + version.
fn version_refusals(version: &str, options: &Options) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let pre = semver::Version::parse(version).is_ok_and(|v| !v.pre.is_empty());
    if pre && !options.allow_pre {
        out.push(
            Diagnostic::error(
                "pre-release-version",
                VERSION_FILE,
                format!(
                    "version {version} is a pre-release (an untagged revision); it is not released"
                ),
            )
            .help("set CONFORMANCE_VERSION to the version being tagged, or pass --allow-pre for a test build"),
        );
    }
    if let Some(tag) = &options.tag
        && *tag != format!("v{version}")
    {
        out.push(
            Diagnostic::error(
                "tag-mismatch",
                VERSION_FILE,
                format!("the tag `{tag}` is not `v{version}` (v + CONFORMANCE_VERSION)"),
            )
            .help("tag the commit whose CONFORMANCE_VERSION matches, or bump CONFORMANCE_VERSION"),
        );
    }
    out
}

/// The loaded version to release, if CONFORMANCE_VERSION is usable; refusals go to `findings`. A
/// missing or malformed version is left to validation, which reports it.
fn check_version(
    suite: &Suite,
    options: &Options,
    findings: &mut Vec<Diagnostic>,
) -> Option<String> {
    let text = suite.version_text()?;
    semver::Version::parse(text).ok()?;
    findings.extend(version_refusals(text, options));
    Some(text.to_string())
}

/// Reads LICENSE from the suite directory, else from its parent. `None` (with a finding) when
/// neither has a usable one.
fn read_license(suite_dir: &Path, findings: &mut Vec<Diagnostic>) -> Result<Option<Vec<u8>>> {
    let parent = fs::canonicalize(suite_dir)
        .map_err(|e| Error::io("resolve", suite_dir, e))?
        .parent()
        .map(Path::to_path_buf);
    let mut candidates = vec![(suite_dir.join(LICENSE_FILE), LICENSE_FILE.to_string())];
    if let Some(parent) = parent {
        candidates.push((parent.join(LICENSE_FILE), format!("../{LICENSE_FILE}")));
    }
    for (path, shown) in candidates {
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        let problem = if meta.file_type().is_symlink() {
            Some((
                "symlink",
                "is a symbolic link; the release's LICENSE must be a regular file",
            ))
        } else if !meta.is_file() {
            Some(("special-file", "is not a regular file"))
        } else if meta.len() > MAX_FILE_BYTES {
            Some(("file-too-large", "is larger than a suite file may be"))
        } else {
            None
        };
        if let Some((code, message)) = problem {
            findings.push(
                Diagnostic::error(code, shown, message)
                    .help("make LICENSE a regular file (in the suite directory or its parent)"),
            );
            return Ok(None);
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        fs::File::open(&path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| Error::io("read", &path, e))?;
        if bytes.len() as u64 != meta.len() {
            findings.push(changed(&shown));
            return Ok(None);
        }
        return Ok(Some(bytes));
    }
    findings.push(
        Diagnostic::error(
            "missing-license",
            LICENSE_FILE,
            "no LICENSE in the suite directory or its parent; a release must carry its license",
        )
        .help("add the license text as LICENSE next to manifest.json or one directory above"),
    );
    Ok(None)
}

fn changed(rel: &str) -> Diagnostic {
    Diagnostic::error(
        "suite-changed",
        rel,
        "the file changed while the release was being built",
    )
    .help("run the release again once nothing is editing the suite")
}

/// The walk and the loaded (validated) suite must agree file for file, and so must the bytes the
/// packager read (`read`, one per walked file, in walk order): the asset carries exactly the
/// bytes that were validated.
fn check_same_files(
    suite: &Suite,
    entries: &[Entry],
    read: Option<&[Vec<u8>]>,
    findings: &mut Vec<Diagnostic>,
) {
    let files = entries.iter().filter(|e| !e.is_dir);
    let mut walked = 0;
    for (i, entry) in files.enumerate() {
        walked += 1;
        let same = suite.file(&entry.rel).is_some_and(|file| {
            file.bytes.len() as u64 == entry.len
                && read.is_none_or(|read| read.get(i).is_some_and(|bytes| *bytes == file.bytes))
        });
        if !same {
            findings.push(changed(&entry.rel));
        }
    }
    if walked != suite.files.len() {
        let seen: HashSet<&str> = entries.iter().map(|e| e.rel.as_str()).collect();
        for rel in suite
            .files
            .keys()
            .filter(|rel| !seen.contains(rel.as_str()))
        {
            findings.push(changed(rel));
        }
    }
}

/// Reads every walked file and packages them; returns the asset and the bytes read (one per
/// file, in walk order) for comparison with the loaded suite.
fn pack_from_disk(
    root: &Path,
    entries: &[Entry],
    license: &[u8],
    version: &str,
    mtime: u64,
) -> Result<(Asset, Vec<Vec<u8>>)> {
    let mut files = Vec::new();
    for entry in entries.iter().filter(|e| !e.is_dir) {
        let path = root.join(&entry.rel);
        let mut bytes = Vec::with_capacity(entry.len as usize);
        fs::File::open(&path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| Error::io("read", &path, e))?;
        files.push(bytes);
    }
    let mut data = files.iter();
    let members: Vec<Member> = entries
        .iter()
        .map(|e| Member {
            rel: &e.rel,
            data: if e.is_dir {
                None
            } else {
                data.next().map(Vec::as_slice)
            },
        })
        .collect();
    let asset = build_asset(&members, license, version, mtime)?;
    Ok((asset, files))
}

/// One entry to package: a path relative to the suite directory (`/`-separated, no trailing
/// `/`) and, for a file, its bytes (`None` for a directory).
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    pub rel: &'a str,
    pub data: Option<&'a [u8]>,
}

/// Builds the asset: the root directory, then `members` (in the order given, which must be the
/// walk's sorted order) with LICENSE placed among the root's entries by name.
pub fn build_asset(members: &[Member], license: &[u8], version: &str, mtime: u64) -> Result<Asset> {
    let root = archive::root_dir(version);
    let file_name = archive::asset_name(version);
    let fail = |e: std::io::Error| Error::io("build", Path::new(&file_name), e);
    let total: usize = members.iter().map(|m| m.data.map_or(0, <[u8]>::len)).sum();
    let gz = gzip::GzipWriter::new(Vec::with_capacity(total / 4 + 4096), COMPRESSION_LEVEL)
        .map_err(fail)?;
    let mut tar = ustar::TarWriter::new(BufWriter::with_capacity(1 << 16, gz));

    tar.dir(&format!("{root}/"), mtime).map_err(fail)?;
    let mut license_written = false;
    for member in members {
        let top = member.rel.split('/').next().unwrap_or_default();
        if !license_written && top.as_bytes() > LICENSE_FILE.as_bytes() {
            tar.file(&format!("{root}/{LICENSE_FILE}"), license, mtime)
                .map_err(fail)?;
            license_written = true;
        }
        let path = format!("{root}/{}", member.rel);
        match member.data {
            None => tar.dir(&format!("{path}/"), mtime).map_err(fail)?,
            Some(data) => tar.file(&path, data, mtime).map_err(fail)?,
        }
    }
    if !license_written {
        tar.file(&format!("{root}/{LICENSE_FILE}"), license, mtime)
            .map_err(fail)?;
    }
    let (buffered, entries) = tar.finish().map_err(fail)?;
    let gz = buffered.into_inner().map_err(|e| fail(e.into_error()))?;
    let bytes = gz.finish().map_err(fail)?;
    Ok(Asset {
        sha256: archive::sha256_hex(&bytes),
        file_name,
        bytes,
        entries,
    })
}

/// Writes every `(path, bytes)` to a temporary sibling, flushed to disk, and only then renames
/// them all into place; on failure the temporaries are removed and no target is touched.
fn write_outputs(dir: &Path, outputs: &[(&Path, &[u8])]) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| Error::io("create output directory", dir, e))?;
    let temps: Vec<PathBuf> = outputs
        .iter()
        .map(|(target, _)| fsutil::temp_sibling(target, "tmp"))
        .collect();
    let result = (|| {
        for ((_, bytes), temp) in outputs.iter().zip(&temps) {
            let mut file = fs::File::create(temp).map_err(|e| Error::io("create", temp, e))?;
            file.write_all(bytes)
                .map_err(|e| Error::io("write", temp, e))?;
            file.sync_all().map_err(|e| Error::io("flush", temp, e))?;
        }
        for ((target, _), temp) in outputs.iter().zip(&temps) {
            fs::rename(temp, target).map_err(|e| Error::io("rename into place", target, e))?;
        }
        Ok(())
    })();
    if result.is_err() {
        for temp in &temps {
            let _ = fs::remove_file(temp);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packaged_bytes_must_be_the_loaded_ones() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("fixtures")).unwrap();
        fs::write(root.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
        fs::write(root.join("manifest.json"), "{}").unwrap();
        fs::write(root.join("fixtures/a.json"), "{\"a\": 1}").unwrap();
        let suite = load::load(root).unwrap();
        let (entries, findings) = tree::walk(root).unwrap();
        assert!(findings.is_empty());
        let mut read: Vec<Vec<u8>> = entries
            .iter()
            .filter(|e| !e.is_dir)
            .map(|e| fs::read(root.join(&e.rel)).unwrap())
            .collect();
        let check = |read: &[Vec<u8>], entries: &[Entry]| {
            let mut out = Vec::new();
            check_same_files(&suite, entries, Some(read), &mut out);
            out.iter()
                .map(|d| format!("{} {}", d.code, d.file))
                .collect::<Vec<_>>()
        };
        assert!(check(&read, &entries).is_empty());
        // Same length, other bytes: the file changed between loading and packaging.
        read[1] = b"{\"a\": 2}".to_vec();
        assert_eq!(check(&read, &entries), ["suite-changed fixtures/a.json"]);
        // A file that appeared after loading.
        fs::write(root.join("fixtures/b.json"), "{}").unwrap();
        let (entries, _) = tree::walk(root).unwrap();
        let read: Vec<Vec<u8>> = entries
            .iter()
            .filter(|e| !e.is_dir)
            .map(|e| fs::read(root.join(&e.rel)).unwrap())
            .collect();
        assert_eq!(check(&read, &entries), ["suite-changed fixtures/b.json"]);
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
