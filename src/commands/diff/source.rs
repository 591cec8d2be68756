//! One side of a diff: a suite directory, or a release tarball read into memory.
//!
//! A tarball goes through the release-asset verifier ([`bqsuite_suite::archive::verify`]), so it is held
//! to exactly the rules `bqsuite fetch` applies: one gzip member, only regular files and
//! directories under the single root `<asset>-<version>/`, bounded sizes, and a
//! CONFORMANCE_VERSION equal to `<version>`, whichever tar writer made it. Which suite and version
//! it is comes from the archive's first entry (its root directory, or a file under it), falling
//! back to the file name: BabelQueue's root `babelqueue-conformance-<version>`, or any other
//! suite's `<asset>-<version>`, whose description (`suite.json`, carried in the asset) must give
//! that asset. The vendored set (CONFORMANCE_VERSION, manifest.json, suite.json, fixtures/,
//! schema/) becomes a [`Suite`]; LICENSE and anything else is ignored.

use std::fs;
use std::io::{BufReader, Read};
use std::path::Path;

use bqsuite_core::error::{Error, Result};
use bqsuite_suite::archive::verify::{self, Collect, Expected, Fault, Limits};
use bqsuite_suite::archive::{plausible_version, split_root};
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::{self, Suite};

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

/// The suite and version a root directory names: BabelQueue's `babelqueue-conformance-<version>`
/// (any plausible version, judged later), else another suite's `<asset>-<version>`.
fn release_of_root(name: &str) -> Option<(Expected, String)> {
    let babelqueue = Kind::babelqueue();
    if let Some(version) = name
        .strip_prefix(babelqueue.asset.as_str())
        .and_then(|rest| rest.strip_prefix('-'))
    {
        return plausible_version(version)
            .then(|| (Expected::Suite(babelqueue), version.to_string()));
    }
    let (asset, version) = split_root(name)?;
    Some((Expected::Asset(asset.to_string()), version.to_string()))
}

/// The release named by the archive's first entry, if it lies under a release root.
fn release_from_first_entry(path: &Path) -> Option<(Expected, String)> {
    let file = fs::File::open(path).ok()?;
    release_of_root(&verify::first_component(BufReader::new(file))?)
}

/// The release named by the file name `<asset>-<version>.tar.gz`.
fn release_from_file_name(path: &Path) -> Option<(Expected, String)> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".tar.gz")
        .or_else(|| name.strip_suffix(".tgz"))?;
    release_of_root(stem)
}

/// Reads a release tarball into memory through the verifier.
pub fn load_tarball(path: &Path) -> Result<Suite> {
    let (expected, version) = release_from_first_entry(path)
        .or_else(|| release_from_file_name(path))
        .ok_or_else(|| {
            Error::bad_path(
                path,
                "is not a release tarball: its root directory is not `<asset>-<version>/` (such \
                 as `babelqueue-conformance-1.8.0/` or `sbp-conformance-0.1.0/`); give a suite \
                 directory or a release tarball",
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
    match verify::verify(input, &expected, &version, &limits, &mut sink) {
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
        let version = |name: &str| release_of_root(name).map(|(_, v)| v);
        assert_eq!(
            version("babelqueue-conformance-1.5.0"),
            Some("1.5.0".into())
        );
        assert!(matches!(
            release_of_root("babelqueue-conformance-1.5.0"),
            Some((Expected::Suite(_), _))
        ));
        assert_eq!(version("babelqueue-conformance-"), None);
        assert_eq!(version("babelqueue-conformance-1/2"), None);
        assert_eq!(
            release_of_root("sbp-conformance-0.1.0"),
            Some((Expected::Asset("sbp-conformance".into()), "0.1.0".into()))
        );
        assert_eq!(version("other"), None);
        assert_eq!(
            release_from_file_name(Path::new("/x/babelqueue-conformance-1.6.0-pre.tar.gz"))
                .map(|(_, v)| v),
            Some("1.6.0-pre".into())
        );
        assert_eq!(release_from_file_name(Path::new("old.tar.gz")), None);
    }
}
