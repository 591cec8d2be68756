//! Release assets made by hand: a hand-rolled tar writer (it produces the malicious shapes the
//! `tar` crate refuses to write), gzip as release writes it, and file:// mirrors publishing them.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::sha256_hex;

pub const VERSION: &str = "1.0.0";
pub const ROOT: &str = "babelqueue-conformance-1.0.0";

pub fn asset_name(version: &str) -> String {
    format!("babelqueue-conformance-{version}.tar.gz")
}

/// Header formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Magic {
    /// POSIX ustar (`ustar\0` `00`), what release writes.
    Ustar,
    /// Old GNU (`ustar  \0`).
    Gnu,
    /// Pre-POSIX: no magic at all.
    V7,
}

/// One tar entry, described field by field.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: Vec<u8>,
    pub prefix: Vec<u8>,
    pub typeflag: u8,
    pub mode: u32,
    pub mtime: u64,
    pub linkname: Vec<u8>,
    pub magic: Magic,
    pub data: Vec<u8>,
    /// The size written in the header (default: the data's length).
    pub size: Option<u64>,
    /// Added to the correct header checksum (to corrupt it).
    pub checksum_delta: i64,
    /// The raw 12 bytes of the size field, instead of the canonical octal (a hostile header).
    pub size_field: Option<Vec<u8>>,
    /// The user name field (release leaves it empty).
    pub uname: Vec<u8>,
}

impl Entry {
    pub fn new(typeflag: u8, name: &[u8], data: &[u8]) -> Entry {
        Entry {
            name: name.to_vec(),
            prefix: Vec::new(),
            typeflag,
            mode: if typeflag == b'5' { 0o755 } else { 0o644 },
            mtime: 0,
            linkname: Vec::new(),
            magic: Magic::Ustar,
            data: data.to_vec(),
            size: None,
            checksum_delta: 0,
            size_field: None,
            uname: Vec::new(),
        }
    }

    pub fn size(mut self, size: u64) -> Entry {
        self.size = Some(size);
        self
    }

    pub fn link(mut self, target: &str) -> Entry {
        self.linkname = target.as_bytes().to_vec();
        self
    }

    pub fn magic(mut self, magic: Magic) -> Entry {
        self.magic = magic;
        self
    }

    pub fn header(&self) -> [u8; 512] {
        let mut h = [0u8; 512];
        put(&mut h[0..100], &self.name);
        octal(&mut h[100..108], u64::from(self.mode));
        octal(&mut h[108..116], 0);
        octal(&mut h[116..124], 0);
        octal(
            &mut h[124..136],
            self.size.unwrap_or(self.data.len() as u64),
        );
        if let Some(raw) = &self.size_field {
            h[124..136].copy_from_slice(raw);
        }
        octal(&mut h[136..148], self.mtime);
        h[156] = self.typeflag;
        put(&mut h[157..257], &self.linkname);
        put(&mut h[265..297], &self.uname);
        match self.magic {
            Magic::Ustar => {
                h[257..263].copy_from_slice(b"ustar\0");
                h[263..265].copy_from_slice(b"00");
                // devmajor and devminor as release writes them.
                octal(&mut h[329..337], 0);
                octal(&mut h[337..345], 0);
                put(&mut h[345..500], &self.prefix);
            }
            Magic::Gnu => {
                h[257..265].copy_from_slice(b"ustar  \0");
                // Where old GNU keeps atime and ctime, and ustar its name prefix.
                put(&mut h[345..500], &self.prefix);
            }
            Magic::V7 => {}
        }
        h[148..156].copy_from_slice(b"        ");
        let sum: i64 = h.iter().map(|&b| i64::from(b)).sum::<i64>() + self.checksum_delta;
        let text = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(text.as_bytes());
        h
    }

    /// Header, data and padding.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.header().to_vec();
        out.extend_from_slice(&self.data);
        let pad = (512 - self.data.len() % 512) % 512;
        out.extend(std::iter::repeat_n(0u8, pad));
        out
    }
}

fn put(field: &mut [u8], value: &[u8]) {
    let n = value.len().min(field.len());
    field[..n].copy_from_slice(&value[..n]);
}

fn octal(field: &mut [u8], value: u64) {
    let width = field.len() - 1;
    let text = format!("{value:0width$o}");
    put(field, text.as_bytes());
}

pub fn file(path: &str, data: &[u8]) -> Entry {
    Entry::new(b'0', path.as_bytes(), data)
}

/// A regular file whose long path is split into the ustar prefix and name fields.
pub fn ustar_file(path: &str, data: &[u8]) -> Entry {
    let split = path[..path.len().min(155)].rfind('/').unwrap();
    let mut e = file(&path[split + 1..], data);
    e.prefix = path.as_bytes()[..split].to_vec();
    assert!(e.name.len() <= 100 && e.prefix.len() <= 155, "{path}");
    e
}

pub fn dir(path: &str) -> Entry {
    let name = if path.ends_with('/') {
        path.to_string()
    } else {
        format!("{path}/")
    };
    Entry::new(b'5', name.as_bytes(), b"")
}

/// A PAX extended header ('x') with the given records.
pub fn pax(records: &[(&str, &[u8])]) -> Entry {
    let mut data = Vec::new();
    for (key, value) in records {
        let body = [key.as_bytes(), b"=", value, b"\n"].concat();
        let mut len = body.len() + 2;
        loop {
            let total = len.to_string().len() + 1 + body.len();
            if total == len {
                break;
            }
            len = total;
        }
        data.extend_from_slice(format!("{len} ").as_bytes());
        data.extend_from_slice(&body);
    }
    Entry::new(b'x', b"PaxHeaders/entry", &data)
}

/// A GNU long-name header ('L').
pub fn gnu_long_name(name: &str) -> Entry {
    let mut data = name.as_bytes().to_vec();
    data.push(0);
    Entry::new(b'L', b"././@LongLink", &data).magic(Magic::Gnu)
}

/// The tar stream of `entries` with the two end-of-archive blocks.
pub fn tar(entries: &[Entry]) -> Vec<u8> {
    let mut out = tar_without_end(entries);
    out.extend(std::iter::repeat_n(0u8, 1024));
    out
}

pub fn tar_without_end(entries: &[Entry]) -> Vec<u8> {
    entries.iter().flat_map(Entry::bytes).collect()
}

/// Compresses `bytes` as release does (its gzip header, its level).
pub fn gz(bytes: &[u8]) -> Vec<u8> {
    gz_at(bqsuite_suite::release::COMPRESSION_LEVEL, bytes)
}

/// Compresses `bytes` with release's gzip writer at deflate level `level`.
pub fn gz_at(level: u32, bytes: &[u8]) -> Vec<u8> {
    let mut w = bqsuite_suite::release::gzip::GzipWriter::new(Vec::new(), level).unwrap();
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

/// The well-formed entries of a small release of `version` (what `bqsuite release` writes).
pub fn release_entries(version: &str) -> Vec<Entry> {
    let root = format!("babelqueue-conformance-{version}");
    vec![
        dir(&root),
        file(
            &format!("{root}/CONFORMANCE_VERSION"),
            format!("{version}\n").as_bytes(),
        ),
        file(&format!("{root}/LICENSE"), b"MIT License\n"),
        dir(&format!("{root}/fixtures")),
        file(
            &format!("{root}/fixtures/order-created.json"),
            b"{\n  \"job\": \"orders.created\",\n  \"data\": {\"id\": 1}\n}\n",
        ),
        file(
            &format!("{root}/fixtures/urn-alias.json"),
            b"{\"urn\": \"x\"}\n",
        ),
        file(
            &format!("{root}/manifest.json"),
            format!("{{\n  \"conformance_version\": \"{version}\",\n  \"cases\": []\n}}\n")
                .as_bytes(),
        ),
        dir(&format!("{root}/schema")),
        file(
            &format!("{root}/schema/message-envelope.schema.json"),
            b"{\"type\": \"object\"}\n",
        ),
    ]
}

/// A directory serving assets over file://.
pub struct Mirror {
    pub dir: tempfile::TempDir,
}

impl Mirror {
    pub fn new() -> Mirror {
        Mirror {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// Writes the asset of `version` and a SHA256SUMS naming it.
    pub fn publish(&self, version: &str, asset: &[u8]) -> String {
        let name = asset_name(version);
        fs::write(self.dir.path().join(&name), asset).unwrap();
        let hash = sha256_hex(asset);
        fs::write(
            self.dir.path().join("SHA256SUMS"),
            format!("{hash}  {name}\n"),
        )
        .unwrap();
        hash
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.dir.path().display())
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

pub fn sums_for(version: &str, asset: &[u8]) -> Vec<u8> {
    format!("{}  {}\n", sha256_hex(asset), asset_name(version)).into_bytes()
}
