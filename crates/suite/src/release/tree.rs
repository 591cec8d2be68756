//! The release's own walk of the vendored set: what goes into the asset, in what order.
//!
//! * Only the vendored names are visited (CONFORMANCE_VERSION, manifest.json, fixtures/,
//!   schema/); anything else in the suite directory (sync configuration, notes, editor files) is
//!   not part of a release and is never looked at.
//! * Every directory's entries are sorted by the raw bytes of their names, and each directory
//!   comes before its contents (what `tar --sort=name` does), independent of the file system's
//!   own order.
//! * Links are never followed: a symbolic link or a special file (fifo, socket, device) is a
//!   finding, and so is every name the suite layout refuses (see [`crate::layout`]):
//!   hidden, nested, not `.json`, or not portable.
//! * A directory with no file below it is left out, as git cannot record one: a checkout and a
//!   working tree with a stray empty directory give the same asset.

use std::fs;
use std::path::Path;

use crate::layout;
use crate::load;
use crate::load::{VENDORED_DIRS, VENDORED_FILES};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::{Error, Result};

/// One entry of the vendored set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `/`-separated path relative to the suite directory, without a trailing `/`.
    pub rel: String,
    pub is_dir: bool,
    /// The file's length as the walk saw it (0 for a directory).
    pub len: u64,
}

/// Walks the vendored set of the suite at `root`. `Err` only when a directory cannot be read.
pub fn walk(root: &Path) -> Result<(Vec<Entry>, Vec<Diagnostic>)> {
    let mut names: Vec<&str> = VENDORED_FILES
        .iter()
        .chain(&VENDORED_DIRS)
        .copied()
        .collect();
    names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    let mut walk = Walk::default();
    for name in names {
        walk.visit(&root.join(name), name.to_string(), true)?;
    }
    Ok((walk.entries, walk.findings))
}

#[derive(Default)]
struct Walk {
    entries: Vec<Entry>,
    findings: Vec<Diagnostic>,
}

impl Walk {
    fn visit(&mut self, path: &Path, rel: String, top: bool) -> Result<()> {
        let meta = match fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if top && e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io("read", path, e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            self.findings.push(load::symlink_in_release(&rel));
        } else if kind.is_file() {
            if let Err(refusal) = layout::suite_path(&rel) {
                self.findings.push(refusal.diagnostic(&rel));
                return Ok(());
            }
            self.entries.push(Entry {
                rel,
                is_dir: false,
                len: meta.len(),
            });
        } else if kind.is_dir() {
            self.dir(path, rel)?;
        } else {
            self.findings.push(load::special_file_in_release(&rel));
        }
        Ok(())
    }

    fn dir(&mut self, path: &Path, rel: String) -> Result<()> {
        let mut children = Vec::new();
        for child in fs::read_dir(path).map_err(|e| Error::io("read directory", path, e))? {
            let child = child.map_err(|e| Error::io("read directory", path, e))?;
            children.push(child.file_name());
        }
        children.sort_by(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
        let mark = self.entries.len();
        self.entries.push(Entry {
            rel: rel.clone(),
            is_dir: true,
            len: 0,
        });
        for name in children {
            let Some(text) = name.to_str() else {
                self.findings.push(load::file_name_not_utf8(format!(
                    "{rel}/{}",
                    name.to_string_lossy()
                )));
                continue;
            };
            let child_rel = format!("{rel}/{text}");
            if let Err(refusal) = layout::portable_name(text) {
                self.findings.push(refusal.diagnostic(&child_rel));
                continue;
            }
            self.visit(&path.join(&name), child_rel, false)?;
        }
        if self.entries[mark + 1..].iter().all(|e| e.is_dir) {
            // No file below: leave the directory out, as git would.
            self.entries.truncate(mark);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rels(entries: &[Entry]) -> Vec<String> {
        entries
            .iter()
            .map(|e| {
                if e.is_dir {
                    format!("{}/", e.rel)
                } else {
                    e.rel.clone()
                }
            })
            .collect()
    }

    #[test]
    fn sorted_by_bytes_directories_first_extras_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in ["fixtures/empty/deeper", "schema"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in [
            "schema/s.json",
            "fixtures/a_b.json",
            "fixtures/B.json",
            "fixtures/a.json",
            "fixtures/a-b.json",
            "manifest.json",
            "CONFORMANCE_VERSION",
            "sync-targets.txt",
            ".git-keep",
            "LICENSE",
        ] {
            fs::write(root.join(f), f).unwrap();
        }
        let (entries, findings) = walk(root).unwrap();
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(
            rels(&entries),
            [
                "CONFORMANCE_VERSION",
                "fixtures/",
                "fixtures/B.json",
                "fixtures/a-b.json",
                "fixtures/a.json",
                "fixtures/a_b.json",
                "manifest.json",
                "schema/",
                "schema/s.json",
            ]
        );
        assert_eq!(entries[0].len, "CONFORMANCE_VERSION".len() as u64);
    }

    #[test]
    fn names_outside_the_layout_are_findings() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("fixtures/d")).unwrap();
        for f in [
            "fixtures/d/x.json",
            "fixtures/notes.txt",
            "fixtures/NUL.json",
            "fixtures/a.json.",
            "fixtures/ok.json",
        ] {
            fs::write(root.join(f), "{}").unwrap();
        }
        let (entries, findings) = walk(root).unwrap();
        let mut codes: Vec<(&str, &str)> = findings
            .iter()
            .map(|d| (d.code.as_str(), d.file.as_str()))
            .collect();
        codes.sort();
        assert_eq!(
            codes,
            [
                ("nested-path", "fixtures/d/x.json"),
                ("unexpected-file", "fixtures/notes.txt"),
                ("unportable-name", "fixtures/NUL.json"),
                ("unportable-name", "fixtures/a.json."),
            ]
        );
        assert_eq!(rels(&entries), ["fixtures/", "fixtures/ok.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_hidden_and_special_files_are_findings() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("fixtures/.cache")).unwrap();
        fs::write(root.join("fixtures/a.json"), "{}").unwrap();
        fs::write(root.join("fixtures/.a.json.swp"), "").unwrap();
        std::os::unix::fs::symlink("a.json", root.join("fixtures/b.json")).unwrap();
        let fifo = root.join("fixtures/pipe");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status();
        let (entries, findings) = walk(root).unwrap();
        let mut codes: Vec<(&str, &str)> = findings
            .iter()
            .map(|d| (d.code.as_str(), d.file.as_str()))
            .collect();
        codes.sort();
        let mut want = vec![
            ("hidden-file", "fixtures/.a.json.swp"),
            ("hidden-file", "fixtures/.cache"),
            ("symlink", "fixtures/b.json"),
        ];
        if status.is_ok_and(|s| s.success()) {
            want.push(("special-file", "fixtures/pipe"));
        }
        want.sort();
        assert_eq!(codes, want);
        assert_eq!(rels(&entries), ["fixtures/", "fixtures/a.json"]);
    }
}
