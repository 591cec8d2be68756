//! `bqsuite fetch --update VERSION DIR`: re-vendor an SDK's copy from a release.
//!
//! The asset is downloaded, verified and unpacked into a private staging directory exactly as a
//! plain fetch does; only then is DIR's vendored set made equal to the release's with
//! [`bqsuite_suite::vendor::apply`] (temporary file + rename per file, CONFORMANCE_VERSION last,
//! identical files untouched, the SDK's own files and LICENSE kept).
//!
//! DIR is judged before anything is downloaded: missing or empty is a plain first fetch; a
//! directory with a manifest.json is a vendored copy to update; anything else (a file, a link, a
//! directory holding a link, a non-empty directory without manifest.json) is refused.

use std::collections::BTreeMap;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell;

use super::findings;
use bqsuite_suite::archive::verify::{Fault, Limits, Summary};
use bqsuite_suite::load::{self, MANIFEST};
use bqsuite_suite::vendor::{self, Applied};

/// Most entries looked at when checking DIR for links.
const MAX_ENTRIES: usize = 100_000;

/// What `--update` will do with DIR.
pub enum Plan {
    /// DIR is missing or empty: unpack into it like a plain fetch.
    Fresh,
    /// DIR is a vendored copy: update its vendored set in place.
    Update(PathBuf),
}

/// Decides what to do with `dir`, refusing (exit 2) what is not a vendored copy.
pub fn plan(dir: &Path) -> Result<Plan> {
    let meta = match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Plan::Fresh),
        Err(e) => return Err(Error::io("read", dir, e)),
        Ok(m) => m,
    };
    if meta.file_type().is_symlink() {
        return Err(Error::bad_path(
            dir,
            "is a symbolic link; --update writes only into a real directory (give the directory \
             the link points to)",
        ));
    }
    if !meta.is_dir() {
        return Err(Error::bad_path(dir, "exists and is not a directory"));
    }
    let mut entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, e))?;
    if entries.next().is_none() {
        return Ok(Plan::Fresh);
    }
    match fs::symlink_metadata(dir.join(MANIFEST)) {
        Ok(m) if m.is_file() => {}
        _ => {
            return Err(Error::bad_path(
                dir,
                "is not a vendored copy of the suite (it has no manifest.json), so --update \
                 refuses to write into it; give the directory that holds the vendored \
                 manifest.json, or a new or empty one",
            ));
        }
    }
    refuse_links(dir)?;
    Ok(Plan::Update(dir.to_path_buf()))
}

/// Refuses a DIR that holds a symbolic link or a special file anywhere.
fn refuse_links(dir: &Path) -> Result<()> {
    for (n, entry) in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .min_depth(1)
        .into_iter()
        .enumerate()
    {
        let entry = entry.map_err(|e| {
            let p = e.path().unwrap_or(dir).to_path_buf();
            Error::io("read", &p, e.into())
        })?;
        if n >= MAX_ENTRIES {
            return Err(Error::bad_path(
                dir,
                format!("holds more than {MAX_ENTRIES} entries; is it really a vendored copy?"),
            ));
        }
        let kind = entry.file_type();
        if kind.is_symlink() || !(kind.is_file() || kind.is_dir()) {
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            let what = if kind.is_symlink() {
                "a symbolic link"
            } else {
                "neither a regular file nor a directory"
            };
            return Err(Error::bad_path(
                dir,
                format!(
                    "holds `{}`, which is {what}; --update never writes where a link could lead \
                     it elsewhere (replace the link with real files, then run again)",
                    shell::escape(&rel.to_string_lossy())
                ),
            ));
        }
    }
    Ok(())
}

/// Makes `dir`'s vendored set equal to the release unpacked (and verified, with `limits`) in
/// `tree`, whose verifier summary is `summary`.
///
/// Nothing is written unless the whole vendored set of the release was read: the loader reads
/// with the limits the archive was verified with, and must find every file the verifier counted
/// and no problem (a refusal, exit 1). After writing, the copy is read again and must be exactly
/// the release; anything else is an error (exit 2), never a success.
pub fn vendor_staged(
    dir: &Path,
    tree: &Path,
    summary: &Summary,
    limits: &Limits,
) -> std::result::Result<Applied, Fault> {
    let staged = load::load_bytes_within(tree, &limits.suite()).map_err(|e| match e {
        // The loader's size cap (an I/O failure stays one, exit 2).
        Error::BadPath { problem, .. } => {
            Fault::Refused(Box::new(findings::release_not_read_whole("", &problem)))
        }
        other => Fault::Failed(other),
    })?;
    if let Some(problem) = staged.problems.first() {
        return Err(Fault::Refused(Box::new(findings::release_not_read_whole(
            problem.file.clone(),
            &problem.message,
        ))));
    }
    if staged.files.len() != summary.vendored_files {
        return Err(Fault::Refused(Box::new(findings::release_files_not_read(
            summary.vendored_files,
            staged.files.len(),
        ))));
    }
    let release: BTreeMap<String, Vec<u8>> = staged
        .files
        .into_iter()
        .map(|(rel, file)| (rel, file.bytes))
        .collect();
    let applied = vendor::apply(dir, &release)?;
    check_written(dir, &release, limits)?;
    Ok(applied)
}

/// The copy's vendored set, read again, is exactly `release`.
fn check_written(dir: &Path, release: &BTreeMap<String, Vec<u8>>, limits: &Limits) -> Result<()> {
    let copy = load::load_bytes_within(dir, &limits.suite())?;
    let first_difference = copy
        .problems
        .first()
        .map(|p| format!("{} ({})", p.file, p.message))
        .or_else(|| {
            let mut names = release.keys().chain(copy.files.keys());
            names
                .find(|rel| {
                    release.get(rel.as_str()).map(Vec::as_slice)
                        != copy.files.get(rel.as_str()).map(|f| f.bytes.as_slice())
                })
                .map(|rel| format!("`{}`", shell::escape(rel)))
        });
    match first_difference {
        None => Ok(()),
        Some(what) => Err(Error::bad_path(
            dir,
            format!(
                "does not hold the release after the update: {what} differs; something else \
                 changed the directory while it was written. Run the same `bqsuite fetch \
                 --update` again"
            ),
        )),
    }
}

/// Files added or changed named in the summary of an update (`--format json` lists every one).
pub const LISTED_FILES: usize = 10;

/// The summary of an update that changed `dest`: how many files were added, changed and
/// deleted, each file deleted by name (it was in the copy's vendored set but is not in the
/// release), then the files added and changed, at most [`LISTED_FILES`] of them.
pub fn summary(dest: &Path, version: &str, applied: &Applied) -> Vec<String> {
    let changed = applied.changed();
    let mut lines = vec![format!(
        "updated {} to release {version}: {} added, {} changed, {} deleted; the SDK's own files \
         were kept",
        dest.display(),
        bqsuite_core::diag::count(applied.added.len(), "file", "files"),
        changed.len(),
        applied.deleted.len()
    )];
    for rel in &applied.deleted {
        lines.push(format!(
            "deleted {} (not in release {version})",
            shell::arg(&dest.join(rel))
        ));
    }
    let written = applied
        .added
        .iter()
        .map(|rel| ("added", rel))
        .chain(changed.into_iter().map(|rel| ("changed", rel)));
    for (n, (what, rel)) in written.enumerate() {
        if n == LISTED_FILES {
            lines.push(format!(
                "... and {} more (`--format json` lists every file: `added`, `changed`)",
                applied.written.len() - LISTED_FILES
            ));
            break;
        }
        lines.push(format!("{what} {}", shell::arg(&dest.join(rel))));
    }
    lines
}

/// The command that re-vendors `dir` from release `version`, as this run was given it
/// (`BQ_CONFORMANCE_BASE_URL` and `--sha256` included, so that it works when pasted).
pub fn command(version: &str, dir: &Path, base_url: Option<&str>, sha256: Option<&str>) -> String {
    fetch_command(Some("--update"), version, dir, base_url, sha256)
}

/// This run's own fetch command (its mode, version, DEST, mirror and pin), to run again.
pub fn rerun(options: &super::Options) -> String {
    let mode = if options.check {
        Some("--check")
    } else if options.update {
        Some("--update")
    } else {
        None
    };
    fetch_command(
        mode,
        &options.version,
        &options.dest,
        options.base_url.as_deref(),
        options.sha256.as_deref(),
    )
}

/// The command that compares `dir` with release `version` ([`command`]'s twin, with `--check`).
pub fn check_command(
    version: &str,
    dir: &Path,
    base_url: Option<&str>,
    sha256: Option<&str>,
) -> String {
    fetch_command(Some("--check"), version, dir, base_url, sha256)
}

fn fetch_command(
    mode: Option<&str>,
    version: &str,
    dir: &Path,
    base_url: Option<&str>,
    sha256: Option<&str>,
) -> String {
    let mut args = vec!["fetch".to_string()];
    args.extend(mode.map(str::to_string));
    args.extend([version.to_string(), shell::arg(dir)]);
    if let Some(pin) = sha256 {
        args.extend(["--sha256".to_string(), pin.to_string()]);
    }
    let command = shell::command(&args);
    match base_url {
        Some(url) => format!("BQ_CONFORMANCE_BASE_URL={} {command}", shell::quote(url)),
        None => command,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert!(matches!(plan(&d.join("new")), Ok(Plan::Fresh)));
        assert!(matches!(plan(d), Ok(Plan::Fresh)));
        fs::write(d.join("Test.cs"), "x").unwrap();
        let err = plan(d).err().unwrap().to_string();
        assert!(err.contains("no manifest.json"), "{err}");
        fs::write(d.join("manifest.json"), "{}").unwrap();
        assert!(matches!(plan(d), Ok(Plan::Update(_))));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", d.join("fixtures")).unwrap();
            let err = plan(d).err().unwrap().to_string();
            assert!(
                err.contains("`fixtures`") && err.contains("symbolic link"),
                "{err}"
            );
        }
    }

    #[test]
    fn pasteable_command() {
        assert_eq!(
            command("1.5.0", Path::new("tests/conformance"), None, None),
            "bqsuite fetch --update 1.5.0 tests/conformance"
        );
        assert_eq!(
            command("1.5.0", Path::new("my dir"), Some("file:///m"), Some("ab")),
            "BQ_CONFORMANCE_BASE_URL=file:///m bqsuite fetch --update 1.5.0 'my dir' --sha256 ab"
        );
    }
}
