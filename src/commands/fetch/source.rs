//! Where the assets come from: `http(s)://` through reqwest (timeouts, retries with backoff and
//! jitter, resume after a dropped connection, no https→http redirect) or `file://` from disk, both
//! read as a stream that is capped, hashed and reported to a progress sink.

use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use reqwest::header::{
    ACCEPT_ENCODING, CONTENT_RANGE, ETAG, HeaderMap, HeaderValue, IF_RANGE, LAST_MODIFIED, RANGE,
    RETRY_AFTER,
};
use reqwest::{StatusCode, Url};
use sha2::{Digest, Sha256};

use bqsuite_core::error::Error;
use bqsuite_suite::archive::verify::Fault;

mod client;

pub use client::{DEFAULT_DEADLINE_SECS, DEFAULT_MIN_SPEED, Network, redirect_allowed};
use client::{build_client, describe_request_error};

/// A resolved asset location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Http(Url),
    File(PathBuf),
}

impl Location {
    /// `base` + `/` + `name`; only http, https and file URLs are accepted.
    pub fn resolve(base: &str, name: &str) -> Result<Location, Error> {
        let text = format!("{}/{name}", base.trim_end_matches('/'));
        let url = Url::parse(&text).map_err(|e| {
            Error::Usage(format!(
                "the asset location `{text}` is not a URL ({e}); use an http://, https:// or \
                 file:/// URL"
            ))
        })?;
        match url.scheme() {
            "http" | "https" => Ok(Location::Http(url)),
            "file" => url.to_file_path().map(Location::File).map_err(|()| {
                Error::Usage(format!(
                    "`{text}` is not a usable file URL; write an absolute one, e.g. \
                     file:///srv/mirror"
                ))
            }),
            other => Err(Error::Usage(format!(
                "unsupported URL scheme `{other}:` in `{text}`; use http://, https:// or file://"
            ))),
        }
    }

    /// The location as shown in messages.
    pub fn shown(&self) -> String {
        match self {
            Location::Http(url) => url.to_string(),
            Location::File(path) => Url::from_file_path(path)
                .map(|u| u.to_string())
                .unwrap_or_else(|()| path.display().to_string()),
        }
    }
}

/// A failed download (exit 2), naming the location.
pub fn network_error(location: &str, message: impl Into<String>) -> Fault {
    Fault::Failed(Error::network(location, message))
}

/// The release a run fetches: its version and its asset's file name (`<asset>-<version>.tar.gz`,
/// as the suite's description spells it).
#[derive(Debug, Clone, Copy)]
pub struct Release<'r> {
    pub version: &'r str,
    pub asset: &'r str,
}

impl Release<'_> {
    /// The release is not at `location` (exit 2).
    fn not_released(&self, location: &str, why: &str) -> Fault {
        Fault::Failed(Error::not_released(self.version, self.asset, location, why))
    }

    /// The asset beside `sums` (a `SHA256SUMS` location), for a flat mirror that holds several
    /// versions' assets in one directory.
    fn asset_beside(&self, sums: &Path) -> Option<PathBuf> {
        (sums.file_name()? == "SHA256SUMS").then(|| sums.with_file_name(self.asset))
    }
}

/// An opened asset: the byte stream and, when known, its length.
pub struct Opened<'a> {
    pub reader: Box<dyn Read + 'a>,
    pub length: Option<u64>,
}

/// Opens assets: one HTTP client (built on first use) for every download of one run.
pub struct Fetcher {
    network: Network,
    client: Option<Client>,
}

impl Fetcher {
    pub fn new(network: &Network) -> Self {
        Fetcher {
            network: network.clone(),
            client: None,
        }
    }

    /// Opens `location` for reading. `cap` refuses (`archive-too-large`, by Content-Length or by
    /// size on disk) an asset that is too large before a byte of it is read.
    pub fn open<'a>(
        &'a mut self,
        location: &Location,
        release: Release,
        cap: u64,
    ) -> Result<Opened<'a>, Fault> {
        match location {
            Location::File(path) => {
                let shown = location.shown();
                // A flat mirror's SHA256SUMS may list other versions only: a version whose
                // asset is not there is not released, whatever SHA256SUMS says.
                if let Some(asset) = release.asset_beside(path)
                    && !asset.exists()
                {
                    let shown = Url::from_file_path(&asset)
                        .map(|u| u.to_string())
                        .unwrap_or_else(|()| asset.display().to_string());
                    return Err(release.not_released(&shown, "no such file"));
                }
                let meta = match std::fs::metadata(path) {
                    Ok(m) => m,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return Err(release.not_released(&shown, "no such file"));
                    }
                    Err(e) => return Err(Fault::Failed(Error::io("read", path, e))),
                };
                if !meta.is_file() {
                    return Err(Fault::Failed(Error::bad_path(
                        path,
                        "is not a regular file",
                    )));
                }
                too_large(meta.len(), cap, &shown)?;
                let file =
                    File::open(path).map_err(|e| Fault::Failed(Error::io("open", path, e)))?;
                Ok(Opened {
                    reader: Box::new(file),
                    length: Some(meta.len()),
                })
            }
            Location::Http(url) => {
                if self.client.is_none() {
                    self.client = Some(build_client(&self.network)?);
                }
                let client = self.client.as_ref().ok_or_else(|| {
                    network_error(url.as_str(), "the HTTP client is not available")
                })?;
                let mut body = HttpBody {
                    client,
                    network: &self.network,
                    url: url.clone(),
                    version: release.version.to_string(),
                    asset: release.asset.to_string(),
                    response: None,
                    offset: 0,
                    length: None,
                    validator: None,
                    attempts: 0,
                    started: std::time::Instant::now(),
                };
                let response = body.request()?;
                body.length = response.content_length();
                body.validator = validator(response.headers());
                if let Some(length) = body.length {
                    too_large(length, cap, url.as_str())?;
                }
                body.response = Some(response);
                let length = body.length;
                Ok(Opened {
                    reader: Box::new(body),
                    length,
                })
            }
        }
    }
}

fn too_large(length: u64, cap: u64, shown: &str) -> Result<(), Fault> {
    if length > cap {
        return Err(Fault::Refused(Box::new(super::findings::asset_too_large(
            shown, length, cap,
        ))));
    }
    Ok(())
}

/// A strong validator to resume only the same representation (If-Range).
fn validator(headers: &HeaderMap) -> Option<HeaderValue> {
    headers
        .get(ETAG)
        .filter(|v| !v.as_bytes().starts_with(b"W/"))
        .or_else(|| headers.get(LAST_MODIFIED))
        .cloned()
}

/// `Retry-After` in seconds, when given as a number.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    text.parse::<u64>().ok().map(Duration::from_secs)
}

/// The wait before retry number `retry` (1-based): exponential backoff with jitter (50–100 %),
/// or the server's `Retry-After`; never above `max_wait`.
pub fn wait_before(network: &Network, retry: u32, server: Option<Duration>) -> Duration {
    let wait = server.unwrap_or_else(|| {
        let base = network
            .backoff
            .saturating_mul(1u32 << retry.saturating_sub(1).min(16));
        let jitter = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
            % 1001;
        Duration::try_from_secs_f64(base.as_secs_f64() * (0.5 + jitter as f64 / 2000.0))
            .unwrap_or(network.max_wait)
    });
    wait.min(network.max_wait)
}

/// A response body that survives dropped connections: a failed read is retried with a Range
/// request from the current offset (If-Range keeps it to the same representation).
struct HttpBody<'c> {
    client: &'c Client,
    network: &'c Network,
    url: Url,
    version: String,
    asset: String,
    response: Option<Response>,
    offset: u64,
    length: Option<u64>,
    validator: Option<HeaderValue>,
    attempts: u32,
    /// When the download began (the deadline and the speed rule count from here).
    started: std::time::Instant,
}

impl HttpBody<'_> {
    /// Sends the request (from `offset`), retrying what can be retried.
    fn request(&mut self) -> Result<Response, Fault> {
        let shown = self.url.to_string();
        loop {
            self.attempts += 1;
            let mut request = self
                .client
                .get(self.url.clone())
                .header(ACCEPT_ENCODING, "identity");
            if self.offset > 0 {
                request = request.header(RANGE, format!("bytes={}-", self.offset));
                if let Some(v) = &self.validator {
                    request = request.header(IF_RANGE, v.clone());
                }
            }
            let (problem, server_wait) = match request.send() {
                Ok(response) => {
                    let status = response.status();
                    if self.offset == 0 && status == StatusCode::OK {
                        return Ok(response);
                    }
                    if self.offset > 0 && status == StatusCode::PARTIAL_CONTENT {
                        self.check_range(&response)?;
                        return Ok(response);
                    }
                    if self.offset > 0 && status == StatusCode::OK {
                        return Err(network_error(
                            &shown,
                            format!(
                                "the connection dropped after {} bytes and the server cannot \
                                 resume (it ignored the Range request)",
                                self.offset
                            ),
                        ));
                    }
                    if status == StatusCode::NOT_FOUND || status == StatusCode::GONE {
                        let release = Release {
                            version: &self.version,
                            asset: &self.asset,
                        };
                        return Err(release.not_released(&shown, &status_text(status)));
                    }
                    let retryable = status == StatusCode::REQUEST_TIMEOUT
                        || status == StatusCode::TOO_MANY_REQUESTS
                        || status.is_server_error();
                    if !retryable {
                        return Err(network_error(
                            &shown,
                            format!("the server answered {}", status_text(status)),
                        ));
                    }
                    (
                        format!("the server answered {}", status_text(status)),
                        retry_after(response.headers()),
                    )
                }
                Err(e) if e.is_redirect() || e.is_builder() => {
                    return Err(network_error(
                        &shown,
                        describe_request_error(&e, self.network),
                    ));
                }
                Err(e) => (describe_request_error(&e, self.network), None),
            };
            self.retry(&shown, &problem, server_wait)?;
        }
    }

    /// The overall deadline and the minimum average speed of a download.
    fn check_pace(&self) -> Result<(), Fault> {
        let elapsed = self.started.elapsed();
        let shown = self.url.as_str();
        if elapsed > self.network.deadline {
            return Err(network_error(
                shown,
                format!(
                    "the download took longer than {} s ({} bytes received), the limit for one \
                     download; raise it with --timeout SECONDS, or use a mirror \
                     (BQ_CONFORMANCE_BASE_URL)",
                    self.network.deadline.as_secs(),
                    self.offset
                ),
            ));
        }
        let min = self.network.min_speed;
        if min > 0 && elapsed > self.network.speed_window {
            let speed = self.offset as f64 / elapsed.as_secs_f64();
            if speed < min as f64 {
                return Err(network_error(
                    shown,
                    format!(
                        "the download averaged {speed:.0} bytes/s over {} s, below the minimum of \
                         {min} bytes/s; lower it with --min-speed BYTES (0 turns the rule off), \
                         or use a mirror (BQ_CONFORMANCE_BASE_URL)",
                        elapsed.as_secs()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Waits before the next try, or gives up.
    fn retry(
        &self,
        shown: &str,
        problem: &str,
        server_wait: Option<Duration>,
    ) -> Result<(), Fault> {
        self.check_pace()?;
        if self.attempts >= self.network.attempts {
            return Err(network_error(
                shown,
                format!(
                    "{problem} (gave up after {} attempt{})",
                    self.attempts,
                    if self.attempts == 1 { "" } else { "s" }
                ),
            ));
        }
        std::thread::sleep(wait_before(self.network, self.attempts, server_wait));
        Ok(())
    }

    fn check_range(&self, response: &Response) -> Result<(), Fault> {
        let range = response
            .headers()
            .get(CONTENT_RANGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let start = range
            .strip_prefix("bytes ")
            .and_then(|r| r.split_once('-'))
            .and_then(|(s, _)| s.parse::<u64>().ok());
        let total = range
            .rsplit_once('/')
            .and_then(|(_, t)| t.parse::<u64>().ok());
        if start != Some(self.offset) || (self.length.is_some() && total != self.length) {
            return Err(network_error(
                self.url.as_str(),
                format!("cannot resume: the server sent the range `{range}`"),
            ));
        }
        Ok(())
    }
}

fn status_text(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(reason) => format!("HTTP {} {reason}", status.as_u16()),
        None => format!("HTTP {}", status.as_u16()),
    }
}

impl Read for HttpBody<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.response.is_none() {
                let response = self.request().map_err(Fault::into_io)?;
                self.response = Some(response);
            }
            let Some(response) = self.response.as_mut() else {
                continue;
            };
            let problem = match response.read(buf) {
                Ok(0) => match self.length {
                    Some(length) if self.offset < length => format!(
                        "the connection closed after {} of {length} bytes",
                        self.offset
                    ),
                    _ => return Ok(0),
                },
                Ok(n) => {
                    self.offset += n as u64;
                    self.check_pace().map_err(Fault::into_io)?;
                    return Ok(n);
                }
                Err(e) => format!(
                    "the transfer failed after {} bytes: {}",
                    self.offset,
                    bqsuite_core::error::describe_io(&e)
                ),
            };
            self.response = None;
            let shown = self.url.to_string();
            self.retry(&shown, &problem, None).map_err(Fault::into_io)?;
        }
    }
}

/// A reader that hashes what passes, counts it against a cap, optionally copies it to a file and
/// reports progress.
pub struct Hashing<'p, R> {
    inner: R,
    sha: Sha256,
    count: u64,
    cap: u64,
    length: Option<u64>,
    shown: String,
    tee: Option<(File, PathBuf)>,
    progress: Option<&'p mut dyn FnMut(u64, Option<u64>)>,
}

impl<'p, R: Read> Hashing<'p, R> {
    pub fn new(inner: R, cap: u64, length: Option<u64>, shown: impl Into<String>) -> Self {
        Hashing {
            inner,
            sha: Sha256::new(),
            count: 0,
            cap,
            length,
            shown: shown.into(),
            tee: None,
            progress: None,
        }
    }

    /// Copies every byte read to `file`.
    pub fn tee(mut self, file: File, path: PathBuf) -> Self {
        self.tee = Some((file, path));
        self
    }

    pub fn progress(mut self, progress: &'p mut dyn FnMut(u64, Option<u64>)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Reads the rest of the input (hashing it), so the digest covers the whole asset.
    pub fn drain(&mut self) -> Result<(), Fault> {
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            match self.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Fault::from_io(e, |e| {
                        Fault::Failed(Error::io("read", &self.shown, e))
                    }));
                }
            }
        }
    }

    /// The bytes read so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Lowercase hex SHA-256 of what was read; flushes the copy, if any, to disk.
    pub fn finish(self) -> Result<String, Fault> {
        if let Some((file, path)) = self.tee {
            file.sync_all()
                .map_err(|e| Fault::Failed(Error::io("flush", &path, e)))?;
        }
        Ok(bqsuite_suite::archive::hex(&self.sha.finalize()))
    }
}

impl<R: Read> Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        if self.count > self.cap {
            return Err(too_large(self.count, self.cap, &self.shown)
                .err()
                .unwrap_or_else(|| network_error(&self.shown, "too large"))
                .into_io());
        }
        self.sha.update(&buf[..n]);
        if let Some((file, path)) = &mut self.tee {
            file.write_all(&buf[..n])
                .map_err(|e| Fault::Failed(Error::io("write", &*path, e)).into_io())?;
        }
        if let Some(progress) = &mut self.progress {
            progress(self.count, self.length);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        assert!(matches!(
            Location::resolve("https://example.org/x/", "a.tar.gz").unwrap(),
            Location::Http(u) if u.as_str() == "https://example.org/x/a.tar.gz"
        ));
        assert_eq!(
            Location::resolve("file:///srv/m", "a.tar.gz").unwrap(),
            Location::File(PathBuf::from("/srv/m/a.tar.gz"))
        );
        assert!(Location::resolve("ftp://x/y", "a").is_err());
        assert!(Location::resolve("/srv/m", "a").is_err());
        assert!(Location::resolve("file://relative/m", "a").is_err());
    }

    #[test]
    fn waits_are_capped_and_grow() {
        let n = Network {
            backoff: Duration::from_millis(100),
            max_wait: Duration::from_millis(500),
            ..Network::default()
        };
        let first = wait_before(&n, 1, None);
        assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100));
        let third = wait_before(&n, 3, None);
        assert!(third >= Duration::from_millis(200) && third <= Duration::from_millis(400));
        assert_eq!(wait_before(&n, 10, None), Duration::from_millis(500));
        assert_eq!(
            wait_before(&n, 1, Some(Duration::from_secs(3600))),
            Duration::from_millis(500)
        );
        let absurd = Network {
            backoff: Duration::MAX,
            ..n
        };
        assert_eq!(wait_before(&absurd, 30, None), Duration::from_millis(500));
    }
}
