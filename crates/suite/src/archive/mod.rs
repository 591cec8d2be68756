//! The release asset's layout, shared by the writer (`release`) and the verifier (`fetch`): what
//! `bqsuite release` writes is exactly what `bqsuite fetch` accepts.

use sha2::{Digest, Sha256};

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

/// `babelqueue-conformance-<version>`: the asset's single root directory.
pub fn root_dir(version: &str) -> String {
    format!("babelqueue-conformance-{version}")
}

/// `babelqueue-conformance-<version>.tar.gz`: the asset's file name.
pub fn asset_name(version: &str) -> String {
    format!("{}.tar.gz", root_dir(version))
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
        .filter_map(|line| {
            let (hash, rest) = line.split_once(' ')?;
            let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'))?;
            (name == file_name && hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| hash.to_ascii_lowercase())
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(asset_name("1.5.0"), "babelqueue-conformance-1.5.0.tar.gz");
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
