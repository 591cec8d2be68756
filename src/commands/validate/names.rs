//! Every name a release must store fits a ustar header, so a suite that validates can be released:
//! `bqsuite release` writes plain POSIX ustar headers, where a path is at most 100 bytes or splits
//! at a `/` into a prefix of at most 155 bytes and a name of at most 100.

use std::collections::BTreeSet;

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_suite::Suite;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::release::ustar::{self, PathError};

/// Checks every name of `suite` under the root directory of `kind`'s release.
pub fn check(suite: &Suite, kind: &Kind, out: &mut Vec<Diagnostic>) {
    let Some(version) = suite
        .version_text()
        .filter(|v| semver::Version::parse(v).is_ok())
    else {
        return; // the version finding says why; the root directory's name is unknown
    };
    let root = kind.root_dir(version);
    let mut dirs = BTreeSet::new();
    // The loader holds only the vendored set, which is what a release carries (plus LICENSE).
    for rel in suite.files.keys() {
        let mut parent = rel.as_str();
        while let Some((dir, _)) = parent.rsplit_once('/') {
            dirs.insert(dir.to_string());
            parent = dir;
        }
        check_one(&root, rel, false, out);
    }
    for dir in &dirs {
        check_one(&root, dir, true, out);
    }
}

fn check_one(root: &str, rel: &str, is_dir: bool, out: &mut Vec<Diagnostic>) {
    let path = if is_dir {
        format!("{root}/{rel}/")
    } else {
        format!("{root}/{rel}")
    };
    if let Err(PathError::TooLong) = ustar::split_path(path.as_bytes()) {
        let last = rel.rsplit('/').next().unwrap_or(rel);
        out.push(findings::release_name_too_long(
            rel,
            &path,
            is_dir,
            last.len(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_found() {
        let mut out = Vec::new();
        let name = format!("fixtures/{}.json", "a".repeat(140));
        check_one("babelqueue-conformance-1.5.0", &name, false, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code.as_str(), "name-too-long");
        let mut out = Vec::new();
        check_one(
            "babelqueue-conformance-1.5.0",
            "fixtures/ok.json",
            false,
            &mut out,
        );
        assert!(out.is_empty());
        check_one(
            "babelqueue-conformance-1.5.0",
            "fixtures/.x.json",
            false,
            &mut out,
        );
        assert!(out.is_empty(), "hidden names are checked by `check`");
        let deep = format!("fixtures/{}/x.json", vec!["d".repeat(60); 5].join("/"));
        check_one("babelqueue-conformance-1.5.0", &deep, false, &mut out);
        assert_eq!(out.len(), 1, "a path over 256 bytes");
    }
}
