//! The release asset's layout, shared by the writer (`release`) and the verifier (`fetch`): what
//! `bqsuite release` writes is exactly what `bqsuite fetch` accepts.
//!
//! The asset's names come from the suite's description: [`Kind::asset_name`] and
//! [`Kind::root_dir`](crate::kind::Kind::root_dir) are the only spelling of them.

use sha2::{Digest, Sha256};

#[cfg(doc)]
use crate::kind::Kind;

pub mod verify;

/// File mode of every regular file in an asset (and of every file fetch writes).
pub const FILE_MODE: u32 = 0o644;
/// Mode of every directory in an asset (and of every directory fetch creates).
pub const DIR_MODE: u32 = 0o755;
/// The mtime of every entry when SOURCE_DATE_EPOCH is not set: the Unix epoch.
pub const DEFAULT_MTIME: u64 = 0;
/// The checksum file published beside the asset.
pub const SUMS_FILE: &str = "SHA256SUMS";
/// The license file carried by the asset (not vendored).
pub const LICENSE_FILE: &str = "LICENSE";

/// A root directory's name (`<asset>-<version>`, as [`Kind::root_dir`] writes it) split into the
/// asset stem and the version: `sbp-conformance-0.1.0` is (`sbp-conformance`, `0.1.0`). The split
/// is at the first `-` followed by a digit; the stem must be a name a description may give
/// (lowercase ASCII letters, digits and `-`, starting with a letter), the version at most 128
/// ASCII letters, digits, `.`, `-` and `+`. `None` for anything else.
pub fn split_root(name: &str) -> Option<(&str, &str)> {
    let at = name
        .as_bytes()
        .windows(2)
        .position(|w| w[0] == b'-' && w[1].is_ascii_digit())?;
    let (stem, version) = (&name[..at], &name[at + 1..]);
    let stem_ok = stem.starts_with(|c: char| c.is_ascii_lowercase())
        && stem
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    (stem_ok && plausible_version(version)).then_some((stem, version))
}

/// Text that may be a version in a root directory's name: 1 to 128 ASCII letters, digits, `.`,
/// `-` and `+` (whether it is SemVer is judged later, where the version is used).
pub fn plausible_version(version: &str) -> bool {
    !version.is_empty()
        && version.len() <= 128
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// One `sha256sum` line: `<64 hex>  <file name>`.
pub fn sums_line(sha256: &str, file_name: &str) -> String {
    format!("{sha256}  {file_name}\n")
}

/// What a SHA256SUMS text says about one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SumsEntry {
    /// No well-formed line names the file.
    Missing,
    /// Every line naming the file gives this hash.
    Hash(String),
    /// Lines naming the file disagree (`sha256sum -c` would fail one of them): every hash given.
    Ambiguous(Vec<String>),
}

/// The hash a SHA256SUMS text gives for `file_name` (text or binary mode marker). Lines naming the
/// file with different hashes are [`SumsEntry::Ambiguous`], never first-wins.
pub fn sums_lookup(sums: &str, file_name: &str) -> SumsEntry {
    let mut hashes: Vec<String> = sums
        .lines()
        .filter(|line| sums_line_name(line) == Some(file_name))
        .map(|line| line[..64].to_ascii_lowercase())
        .collect();
    hashes.dedup();
    let mut distinct = hashes.clone();
    distinct.sort();
    distinct.dedup();
    match distinct.len() {
        0 => SumsEntry::Missing,
        1 => SumsEntry::Hash(distinct.remove(0)),
        _ => SumsEntry::Ambiguous(hashes),
    }
}

/// One well-formed `sha256sum` line: its file name, or `None` when the line is not one
/// (`<64 hex digits>`, then two spaces or ` *`, then a name).
fn sums_line_name(line: &str) -> Option<&str> {
    let (hash, rest) = line.split_once(' ')?;
    let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'))?;
    let well_formed = hash.len() == 64
        && hash.bytes().all(|b| b.is_ascii_hexdigit())
        && !name.is_empty()
        && !name.chars().any(char::is_control);
    well_formed.then_some(name)
}

/// The first line (1-based) of a SHA256SUMS text that is neither blank nor a `sha256sum` line.
pub fn sums_bad_line(text: &str) -> Option<usize> {
    text.split('\n')
        .position(|line| !line.is_empty() && sums_line_name(line).is_none())
        .map(|index| index + 1)
}

/// `existing` (a SHA256SUMS text) with `file_name`'s line set to `sha256`: the lines of every
/// other file are kept as they are, a line already naming `file_name` is replaced, and the lines
/// are ordered by file name. Blank lines are dropped. `Err(n)`: line `n` (1-based) is not a
/// `sha256sum` line, so merging into it could lose or garble what it says.
pub fn sums_with(existing: &str, sha256: &str, file_name: &str) -> Result<String, usize> {
    let mut lines: Vec<(String, String)> = Vec::new();
    for (index, line) in existing.split('\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let name = sums_line_name(line).ok_or(index + 1)?;
        if name != file_name {
            lines.push((name.to_string(), format!("{line}\n")));
        }
    }
    lines.push((file_name.to_string(), sums_line(sha256, file_name)));
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(lines.into_iter().map(|(_, line)| line).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_splits_into_its_asset_and_version() {
        assert_eq!(
            split_root("babelqueue-conformance-1.5.0"),
            Some(("babelqueue-conformance", "1.5.0"))
        );
        assert_eq!(
            split_root("sbp-conformance-0.1.0-pre"),
            Some(("sbp-conformance", "0.1.0-pre"))
        );
        for not_a_root in [
            "babelqueue-conformance-",
            "babelqueue-conformance",
            "-1.0.0",
            "Upper-1.0.0",
            "x-1/2",
            "x-1.0.0 ",
        ] {
            assert_eq!(split_root(not_a_root), None, "{not_a_root}");
        }
    }

    #[test]
    fn sums_with_keeps_the_other_files_and_replaces_its_own() {
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        let c = "c".repeat(64);
        let existing = format!("{b}  z-1.8.0.tar.gz\n{a} *y-1.7.0.tar.gz\n\n{a}  x-1.9.0.tar.gz\n");
        let merged = sums_with(&existing, &c, "x-1.9.0.tar.gz").unwrap();
        assert_eq!(
            merged,
            format!("{c}  x-1.9.0.tar.gz\n{a} *y-1.7.0.tar.gz\n{b}  z-1.8.0.tar.gz\n")
        );
        assert_eq!(sums_with("", &c, "x").unwrap(), sums_line(&c, "x"));
        assert_eq!(sums_bad_line(&existing), None);
        assert_eq!(
            sums_lookup(&merged, "x-1.9.0.tar.gz"),
            SumsEntry::Hash(c.clone())
        );
    }

    #[test]
    fn sums_with_refuses_a_line_that_is_not_a_checksum() {
        let a = "a".repeat(64);
        for bad in [
            format!("{a}  one\nnot a checksum line\n"),
            format!("{a}  one\n{}  short\n", "a".repeat(63)),
            format!("{a}  one\n{a}  \n"),
            format!("{a}  one\n{a}  two\r\n"),
            format!("{a}  one\n{a} two\n"),
        ] {
            assert_eq!(sums_with(&bad, &a, "x"), Err(2), "{bad:?}");
            assert_eq!(sums_bad_line(&bad), Some(2), "{bad:?}");
        }
    }

    #[test]
    fn sums_round_trip() {
        let h = sha256_hex(b"abc");
        assert_eq!(
            h,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let text = format!(
            "{}{}",
            sums_line(&"0".repeat(64), "other"),
            sums_line(&h, "a.tar.gz")
        );
        assert_eq!(sums_lookup(&text, "a.tar.gz"), SumsEntry::Hash(h.clone()));
        assert_eq!(
            sums_lookup(&format!("{h} *a.tar.gz\n"), "a.tar.gz"),
            SumsEntry::Hash(h.clone())
        );
        assert_eq!(sums_lookup(&text, "b.tar.gz"), SumsEntry::Missing);
        assert_eq!(
            sums_lookup("zz  a.tar.gz\n", "a.tar.gz"),
            SumsEntry::Missing
        );
        // The same line twice agrees; a good line and a bad one do not.
        let twice = format!("{}{}", sums_line(&h, "a.tar.gz"), sums_line(&h, "a.tar.gz"));
        assert_eq!(sums_lookup(&twice, "a.tar.gz"), SumsEntry::Hash(h.clone()));
        let bad = "f".repeat(64);
        let conflicting = format!(
            "{}{}",
            sums_line(&h, "a.tar.gz"),
            sums_line(&bad, "a.tar.gz")
        );
        assert_eq!(
            sums_lookup(&conflicting, "a.tar.gz"),
            SumsEntry::Ambiguous(vec![h, bad])
        );
    }
}
