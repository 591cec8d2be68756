//! The HTTP client: how it uses the network ([`Network`]: tries, waits and time limits),
//! redirects (never from https to anything else), proxies from the environment (never for
//! loopback addresses) and request failures described in words.

use std::time::Duration;

use reqwest::Url;
use reqwest::blocking::Client;

use bqsuite_core::error::Error;
use bqsuite_suite::archive::verify::Fault;

/// How the network is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// Tries per download, the first included (connection errors, 408, 429, 5xx and dropped
    /// transfers are retried; a dropped transfer resumes with a Range request).
    pub attempts: u32,
    /// The first retry waits about this long; each further retry doubles it (with jitter).
    pub backoff: Duration,
    /// No wait is longer than this, `Retry-After` included.
    pub max_wait: Duration,
    /// Limit on establishing a connection.
    pub connect_timeout: Duration,
    /// Limit on waiting for the response headers and on each read of the body (a stall).
    pub read_timeout: Duration,
    /// Limit on one whole download, retries and waits included (`--timeout`): a server that
    /// trickles the body never makes a read wait long, so a stall limit alone does not bound it.
    pub deadline: Duration,
    /// The slowest average a download may keep once `speed_window` has passed, in bytes per
    /// second (`--min-speed`; 0 turns the rule off).
    pub min_speed: u64,
    /// How long a download runs before `min_speed` is enforced.
    pub speed_window: Duration,
}

/// The default of `--timeout`: ten minutes for one download.
pub const DEFAULT_DEADLINE_SECS: u64 = 600;
/// The default of `--min-speed`: 1 KiB/s on average after the first 30 seconds.
pub const DEFAULT_MIN_SPEED: u64 = 1024;

impl Default for Network {
    fn default() -> Self {
        Network {
            attempts: 4,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(15),
            read_timeout: Duration::from_secs(30),
            deadline: Duration::from_secs(DEFAULT_DEADLINE_SECS),
            min_speed: DEFAULT_MIN_SPEED,
            speed_window: Duration::from_secs(30),
        }
    }
}

/// Refuses a redirect that would leave https for http, and redirect loops.
pub fn redirect_allowed(previous: &[Url], next: &Url) -> Result<(), String> {
    if previous.len() >= 10 {
        return Err("too many redirects".into());
    }
    if next.scheme() != "https" && previous.iter().any(|u| u.scheme() == "https") {
        return Err(format!(
            "refusing to follow a redirect from https to {next} (it is not https)"
        ));
    }
    if !matches!(next.scheme(), "http" | "https") {
        return Err(format!("refusing to follow a redirect to {next}"));
    }
    Ok(())
}

pub(super) fn build_client(network: &Network) -> Result<Client, Fault> {
    // reqwest is built without a crypto provider (no aws-lc-rs: see Cargo.toml); ring becomes the
    // process default here, once. An `Err` only says one is installed already.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        match redirect_allowed(attempt.previous(), attempt.url()) {
            Ok(()) => attempt.follow(),
            Err(why) => attempt.error(why),
        }
    });
    let mut builder = Client::builder().no_proxy();
    for proxy in env_proxies() {
        builder = builder.proxy(proxy);
    }
    builder
        .connect_timeout(network.connect_timeout)
        // In the blocking client this bounds each wait: for the headers and for every body read.
        .timeout(network.read_timeout)
        .redirect(policy)
        .user_agent(concat!("bqsuite/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| {
            Fault::Failed(Error::Usage(format!(
                "cannot set up the HTTP client: {}",
                chain(&e)
            )))
        })
}

/// The proxies from the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, upper or lower
/// case, with `NO_PROXY`), never used for loopback addresses: a mirror or test server on
/// 127.0.0.1 is reached directly whatever the environment says.
fn env_proxies() -> Vec<reqwest::Proxy> {
    let var = |name: &str| {
        [name.to_ascii_lowercase(), name.to_string()]
            .into_iter()
            .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
    };
    let mut bypass = String::from("localhost,127.0.0.0/8,::1");
    if let Some(more) = var("NO_PROXY") {
        bypass.push(',');
        bypass.push_str(&more);
    }
    let mut proxies = Vec::new();
    let mut add = |proxy: reqwest::Result<reqwest::Proxy>| {
        if let Ok(p) = proxy {
            proxies.push(p.no_proxy(reqwest::NoProxy::from_string(&bypass)));
        }
    };
    if let Some(url) = var("HTTPS_PROXY") {
        add(reqwest::Proxy::https(url.as_str()));
    }
    // Like curl and reqwest, HTTP_PROXY is ignored in a CGI context (httpoxy).
    if let Some(url) = var("HTTP_PROXY").filter(|_| std::env::var_os("REQUEST_METHOD").is_none()) {
        add(reqwest::Proxy::http(url.as_str()));
    }
    if let Some(url) = var("ALL_PROXY") {
        add(reqwest::Proxy::all(url.as_str()));
    }
    proxies
}

/// What went wrong with a request, in words (the client's error chain, without its internals).
pub(super) fn describe_request_error(e: &reqwest::Error, network: &Network) -> String {
    let text = chain(e);
    let lower = text.to_ascii_lowercase();
    if e.is_timeout() {
        return format!(
            "the server did not answer within {} s (a stalled connection)",
            network.read_timeout.as_secs()
        );
    }
    let kind = io_kind(e);
    // The resolver's and the TLS library's failures reach us as text only (the resolver's is
    // an io::Error of kind Other), so those two are told by their words.
    if lower.contains("dns") || lower.contains("lookup address") {
        return "the host name could not be resolved (no network, or a wrong host name)".into();
    }
    if kind == Some(std::io::ErrorKind::ConnectionRefused) {
        return "the connection was refused (nothing listens at that address)".into();
    }
    if e.is_connect() && kind == Some(std::io::ErrorKind::TimedOut) {
        return format!(
            "could not connect within {} s",
            network.connect_timeout.as_secs()
        );
    }
    if lower.contains("certificate") || lower.contains("tls") {
        return format!("the TLS connection failed: {}", innermost(e));
    }
    if e.is_connect() {
        return format!("could not connect: {}", innermost(e));
    }
    if e.is_redirect() {
        return innermost(e);
    }
    format!("the request failed: {}", innermost(e))
}

/// The kind of the first I/O error in `e`'s chain of causes.
fn io_kind(e: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut current = Some(e);
    while let Some(error) = current {
        if let Some(io) = error.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        current = error.source();
    }
    None
}

/// The last message of an error chain (the root cause), without an `(os error N)` suffix.
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut current = e;
    while let Some(source) = current.source() {
        current = source;
    }
    bqsuite_core::error::strip_os_error(&current.to_string())
}

/// An error with its causes, `a: b: c`.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_downgrade_redirects() {
        let https = Url::parse("https://a.example/x").unwrap();
        let http = Url::parse("http://b.example/y").unwrap();
        assert!(redirect_allowed(std::slice::from_ref(&https), &http).is_err());
        assert!(redirect_allowed(std::slice::from_ref(&http), &https).is_ok());
        assert!(redirect_allowed(std::slice::from_ref(&https), &https).is_ok());
        assert!(redirect_allowed(std::slice::from_ref(&http), &http).is_ok());
        let file = Url::parse("file:///etc/passwd").unwrap();
        assert!(redirect_allowed(std::slice::from_ref(&http), &file).is_err());
        let many = vec![http.clone(); 10];
        assert!(redirect_allowed(&many, &http).is_err());
    }
}
