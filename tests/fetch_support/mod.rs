//! Test helpers for `bqsuite fetch`: a hand-rolled tar writer (it produces the malicious shapes the
//! `tar` crate refuses to write), gzip, file:// mirrors and a tiny HTTP/1.1 server on 127.0.0.1.
#![allow(dead_code)]

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

pub const VERSION: &str = "1.0.0";
pub const ROOT: &str = "babelqueue-conformance-1.0.0";

pub fn asset_name(version: &str) -> String {
    format!("babelqueue-conformance-{version}.tar.gz")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

    pub fn mode(mut self, mode: u32) -> Entry {
        self.mode = mode;
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
    let mut w = bqsuite_suite::release::gzip::GzipWriter::new(
        Vec::new(),
        bqsuite_suite::release::COMPRESSION_LEVEL,
    )
    .unwrap();
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

/// Every path under `dir` (relative), with its content for files, sorted.
pub fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    if !dir.exists() {
        return out;
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name().min_depth(1) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let content = entry
            .file_type()
            .is_file()
            .then(|| fs::read(entry.path()).unwrap());
        out.push((rel, content));
    }
    out
}

/// A parsed HTTP request, as far as the tests care.
#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    pub range: Option<u64>,
    pub headers: String,
}

/// What the server sends back.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Close the connection after this many body bytes (Content-Length still says all).
    pub cut: Option<usize>,
    /// Send nothing at all and hold the connection for this long.
    pub stall: Option<Duration>,
    /// Send the body one byte at a time, this long apart (a trickling server). The server gives
    /// up by itself after 20 seconds, or as soon as the client hangs up.
    pub trickle: Option<Duration>,
}

impl Reply {
    pub fn ok(body: &[u8]) -> Reply {
        Reply {
            status: 200,
            headers: Vec::new(),
            body: body.to_vec(),
            cut: None,
            stall: None,
            trickle: None,
        }
    }

    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: format!("status {status}\n").into_bytes(),
            cut: None,
            stall: None,
            trickle: None,
        }
    }

    pub fn redirect(location: &str) -> Reply {
        Reply::status(302).header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn trickle(mut self, every: Duration) -> Reply {
        self.trickle = Some(every);
        self
    }

    pub fn cut(mut self, after: usize) -> Reply {
        self.cut = Some(after);
        self
    }

    pub fn stall(duration: Duration) -> Reply {
        Reply {
            stall: Some(duration),
            ..Reply::status(200)
        }
    }
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// An HTTP/1.1 server on 127.0.0.1 that answers each connection with `handler(request, n)`
/// (`n`: how many earlier requests had the same path) and closes it. It stops by itself after a
/// bounded time or number of connections, or when dropped.
pub struct Server {
    pub base: String,
    pub log: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread = {
            let (log, stop) = (log.clone(), stop.clone());
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(60);
                let mut served = 0;
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline && served < 200 {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            served += 1;
                            let (handler, log, stop) = (handler.clone(), log.clone(), stop.clone());
                            std::thread::spawn(move || serve_one(stream, &*handler, &log, &stop));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            })
        };
        Server {
            base,
            log,
            stop,
            thread: Some(thread),
        }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().clone()
    }

    pub fn count(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve_one(
    mut stream: TcpStream,
    handler: &Handler,
    log: &Mutex<Vec<Request>>,
    stop: &AtomicBool,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let path = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string();
    let range = text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        if !k.eq_ignore_ascii_case("range") {
            return None;
        }
        v.trim()
            .strip_prefix("bytes=")?
            .strip_suffix('-')?
            .parse()
            .ok()
    });
    let request = Request {
        path: path.clone(),
        range,
        headers: text,
    };
    let n = {
        let mut log = log.lock().unwrap();
        let n = log.iter().filter(|r| r.path == path).count();
        log.push(request.clone());
        n
    };
    let reply = handler(&request, n);
    if let Some(stall) = reply.stall {
        let until = Instant::now() + stall;
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
        return;
    }
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.body.len()
    );
    for (k, v) in &reply.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let body = &reply.body[..reply.cut.unwrap_or(reply.body.len()).min(reply.body.len())];
    let _ = stream.write_all(out.as_bytes());
    if let Some(every) = reply.trickle {
        let until = Instant::now() + Duration::from_secs(20);
        for byte in body {
            if Instant::now() > until
                || stop.load(Ordering::Relaxed)
                || stream.write_all(&[*byte]).is_err()
                || stream.flush().is_err()
            {
                return;
            }
            std::thread::sleep(every);
        }
    }
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        206 => "Partial Content",
        302 => "Found",
        404 => "Not Found",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Serves `asset` (and its SHA256SUMS) under `/v<version>/`, Range requests honoured.
pub fn range_reply(asset: &[u8], request: &Request) -> Reply {
    match request.range {
        Some(start) if (start as usize) < asset.len() => Reply {
            status: 206,
            headers: vec![(
                "Content-Range".into(),
                format!("bytes {start}-{}/{}", asset.len() - 1, asset.len()),
            )],
            body: asset[start as usize..].to_vec(),
            cut: None,
            stall: None,
            trickle: None,
        },
        _ => Reply::ok(asset),
    }
}

pub fn sums_for(version: &str, asset: &[u8]) -> Vec<u8> {
    format!("{}  {}\n", sha256_hex(asset), asset_name(version)).into_bytes()
}

pub fn temp_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}
