//! PAX extended headers (typeflag `x`): accepted only when no record in them can change which
//! file gets which bytes.
//!
//! GNU tar's `--format=posix`, bsdtar's `--format pax` and Python's `tarfile` write one before an
//! entry to carry times with fractions of a second, or ids and names too large for the ustar
//! fields. A reader that honours the header and one that ignores it (or stops parsing it at the
//! first record it dislikes) extract the same files only when every record is metadata, or
//! repeats the path or size the ustar header already gives. So a record is accepted only when it
//! is one of [`METADATA`], or `path`/`size` equal to the header's own, and the data is well
//! formed to its last byte.

use super::fault::Fault;
use super::findings;

/// The most data one extended header may hold: the records real writers emit are a few dozen
/// bytes each.
pub const MAX_PAX_BYTES: u64 = 64 * 1024;

/// Records that only describe metadata bqsuite never applies.
const METADATA: [&str; 7] = ["mtime", "atime", "ctime", "uid", "gid", "uname", "gname"];

/// The `path` and `size` an extended header states for the entry after it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub path: Option<Vec<u8>>,
    pub size: Option<u64>,
}

/// Reads the records of one extended header. `shown` names the header in messages.
pub fn records(data: &[u8], shown: &str) -> Result<Overrides, Fault> {
    let mut out = Overrides::default();
    let mut rest = data;
    while !rest.is_empty() {
        let Some(space) = rest.iter().take(20).position(|&b| b == b' ') else {
            return Err(findings::pax_record_without_length(shown).into());
        };
        let digits = &rest[..space];
        let length = std::str::from_utf8(digits)
            .ok()
            .filter(|d| {
                !d.is_empty() && !d.starts_with('0') && d.bytes().all(|b| b.is_ascii_digit())
            })
            .and_then(|d| d.parse::<usize>().ok());
        let Some(length) = length.filter(|&n| n > space + 1 && n <= rest.len()) else {
            return Err(findings::pax_record_bad_length(shown).into());
        };
        let record = &rest[space + 1..length];
        rest = &rest[length..];
        let Some(body) = record.strip_suffix(b"\n") else {
            return Err(findings::pax_record_without_newline(shown).into());
        };
        let Some(eq) = body.iter().position(|&b| b == b'=') else {
            return Err(findings::pax_record_without_equals(shown).into());
        };
        let (key, value) = (&body[..eq], &body[eq + 1..]);
        let Ok(key) = std::str::from_utf8(key) else {
            return Err(findings::pax_keyword_not_utf8(shown).into());
        };
        if value.contains(&0) {
            return Err(findings::pax_record_nul(shown, &show(key)).into());
        }
        match key {
            "path" => {
                if out.path.replace(value.to_vec()).is_some() {
                    return Err(findings::pax_path_twice(shown).into());
                }
            }
            "size" => {
                let size = std::str::from_utf8(value)
                    .ok()
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|v| v.parse::<u64>().ok());
                let Some(size) = size else {
                    return Err(findings::pax_size_not_number(shown).into());
                };
                if out.size.replace(size).is_some() {
                    return Err(findings::pax_size_twice(shown).into());
                }
            }
            _ if METADATA.contains(&key) => {
                if !check_metadata(key, value) {
                    return Err(findings::pax_metadata_malformed(shown, key).into());
                }
            }
            other => {
                let accepted = METADATA.map(|k| format!("`{k}`")).join(", ");
                return Err(
                    findings::pax_record_not_accepted(shown, &show(other), &accepted).into(),
                );
            }
        }
    }
    Ok(out)
}

/// A metadata record's value in the form every reader parses: times as decimal seconds with an
/// optional fraction, ids as whole numbers, names as UTF-8.
fn check_metadata(key: &str, value: &[u8]) -> bool {
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    match key {
        "mtime" | "atime" | "ctime" => {
            let unsigned = value.strip_prefix(b"-").unwrap_or(value);
            match unsigned.iter().position(|&b| b == b'.') {
                Some(dot) => digits(&unsigned[..dot]) && digits(&unsigned[dot + 1..]),
                None => digits(unsigned),
            }
        }
        "uid" | "gid" => digits(value),
        _ => std::str::from_utf8(value).is_ok(),
    }
}

fn show(key: &str) -> String {
    bqsuite_core::shell::escape(key)
}

#[cfg(test)]
mod tests {
    use super::super::codes::Code;
    use super::*;

    fn record(key: &str, value: &str) -> String {
        let body = format!(" {key}={value}\n");
        let mut n = body.len() + 1;
        while n.to_string().len() + body.len() != n {
            n += 1;
        }
        format!("{n}{body}")
    }

    #[test]
    fn what_real_writers_put_there_is_accepted() {
        // GNU tar --format=posix, bsdtar --format pax, Python's tarfile.
        let gnu = record("atime", "1796185438.202876299") + &record("ctime", "1796185438.2");
        assert_eq!(records(gnu.as_bytes(), "x").unwrap(), Overrides::default());
        let py = record("mtime", "1796185438.1712484");
        assert!(records(py.as_bytes(), "x").is_ok());
        let ids = record("uid", "4294967296") + &record("uname", "ünïcode");
        assert!(records(ids.as_bytes(), "x").is_ok());
        let over = record("path", "a/b.json") + &record("size", "12");
        assert_eq!(
            records(over.as_bytes(), "x").unwrap(),
            Overrides {
                path: Some(b"a/b.json".to_vec()),
                size: Some(12)
            }
        );
    }

    #[test]
    fn records_readers_could_disagree_on_are_refused() {
        let refused = |data: &str| {
            let f = records(data.as_bytes(), "x").unwrap_err();
            assert_eq!(
                f.diagnostic().unwrap().code,
                Code::ArchiveExtensionHeader,
                "{data:?}"
            );
        };
        refused(&record("linkpath", "/etc/shadow"));
        refused(&record("GNU.sparse.major", "1"));
        refused(&record("hdrcharset", "BINARY"));
        refused(&record("SCHILY.xattr.user.x", "y"));
        refused("99 path=x\n");
        refused("09 a=bcd\n");
        refused("8 path=x");
        refused(&(record("mtime", "1") + "junk"));
        refused(&record("mtime", "1e9"));
        refused(&record("uid", "-1"));
        refused(&(record("path", "a") + &record("path", "b")));
        refused(&record("size", "0x10"));
    }
}
