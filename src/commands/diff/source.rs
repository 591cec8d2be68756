//! One side of a diff: a suite directory, or a release tarball read into memory.
//!
//! A tarball goes through the release-asset verifier ([`bqsuite_suite::archive::verify`]), so it is held
//! to exactly the rules `bqsuite fetch` applies: one gzip member, only regular files and
//! directories under the single root `babelqueue-conformance-<version>/`, bounded sizes, and a
//! CONFORMANCE_VERSION equal to `<version>`, whichever tar writer made it. The version is read
//! from the archive's first entry (its root directory, or a file under it), falling back to the
//! file name. The vendored set (CONFORMANCE_VERSION,
//! manifest.json, fixtures/, schema/) becomes a [`Suite`]; LICENSE and anything else is ignored.

use std::fs;
use std::io::{BufReader, Read};
use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_suite::archive::verify::{self, Collect, Fault, Limits};
use bqsuite_suite::load::{self, Suite};

const ROOT_PREFIX: &str = "babelqueue-conformance-";

/// Reads `path`: a directory is a suite directory, a regular file a release tarball.
pub fn load_side(path: &Path) -> Result<Suite> {
    let meta = fs::metadata(path).map_err(|e| Error::io("read", path, e))?;
    if meta.is_dir() {
        load::load(path)
    } else if meta.is_file() {
        load_tarball(path)
    } else {
        Err(Error::bad_path(
            path,
            "is neither a suite directory nor a release tarball (.tar.gz)",
        ))
    }
}

/// The version named by a root directory `babelqueue-conformance-<version>`.
fn version_of_root(name: &str) -> Option<String> {
    let version = name.strip_prefix(ROOT_PREFIX)?;
    let plausible = !version.is_empty()
        && version.len() <= 128
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'));
    plausible.then(|| version.to_string())
}

/// The version named by the archive's first entry, if it lies under a release root.
fn version_from_first_entry(path: &Path) -> Option<String> {
    let file = fs::File::open(path).ok()?;
    version_of_root(&verify::first_component(BufReader::new(file))?)
}

/// The version named by the file name `babelqueue-conformance-<version>.tar.gz`.
fn version_from_file_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".tar.gz")
        .or_else(|| name.strip_suffix(".tgz"))?;
    version_of_root(stem)
}

/// Reads a release tarball into memory through the verifier.
pub fn load_tarball(path: &Path) -> Result<Suite> {
    let version = version_from_first_entry(path)
        .or_else(|| version_from_file_name(path))
        .ok_or_else(|| {
            Error::bad_path(
                path,
                format!(
                    "is not a release tarball: its root directory is not `{ROOT_PREFIX}<version>/` \
                     (give a suite directory or a release tarball)"
                ),
            )
        })?;
    let limits = Limits::default();
    let size = fs::metadata(path)
        .map_err(|e| Error::io("read", path, e))?
        .len();
    if size > limits.max_archive_bytes {
        return Err(Error::bad_path(
            path,
            format!(
                "is {size} bytes; a release tarball is at most {} bytes",
                limits.max_archive_bytes
            ),
        ));
    }
    let file = fs::File::open(path).map_err(|e| Error::io("open", path, e))?;
    let input = BufReader::new(file.take(limits.max_archive_bytes + 1));
    let mut sink = Collect::default();
    match verify::verify(input, &version, &limits, &mut sink) {
        Ok(_) => {}
        Err(Fault::Refused(d)) => {
            let place = if d.file.is_empty() {
                String::new()
            } else {
                format!(" ({})", d.file)
            };
            return Err(Error::bad_path(
                path,
                format!(
                    "is not a valid release tarball: [{}] {}{place}",
                    d.code, d.message
                ),
            ));
        }
        Err(Fault::Failed(e)) => return Err(e),
    }
    Ok(Suite::from_files(path, sink.files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_names() {
        assert_eq!(
            version_of_root("babelqueue-conformance-1.5.0"),
            Some("1.5.0".into())
        );
        assert_eq!(version_of_root("babelqueue-conformance-"), None);
        assert_eq!(version_of_root("other-1.5.0"), None);
        assert_eq!(version_of_root("babelqueue-conformance-1/2"), None);
        assert_eq!(
            version_from_file_name(Path::new("/x/babelqueue-conformance-1.6.0-pre.tar.gz")),
            Some("1.6.0-pre".into())
        );
        assert_eq!(version_from_file_name(Path::new("old.tar.gz")), None);
    }
}
