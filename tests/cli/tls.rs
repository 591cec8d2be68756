//! `bqsuite fetch` over https, against a TLS server on 127.0.0.1 started here: rustls on the ring
//! provider (no aws-lc-rs, see Cargo.toml) completes the handshake and checks the server's
//! certificate against the certificate authorities of the platform store, which SSL_CERT_FILE
//! replaces. The certificates in tests/data/tls are a test CA (ca.pem) and the 127.0.0.1 /
//! localhost certificate it signed (localhost.pem, localhost.key), plus an unrelated CA
//! (other-ca.pem); all valid until 2126.
#![cfg(all(unix, not(target_vendor = "apple")))]

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::kit;
use crate::kit::data;
use crate::kit::server::read_head;
use crate::kit::tarball::{VERSION, asset_name, gz, release_entries, sums_for, tar};

fn tls_data(name: &str) -> PathBuf {
    data("tls").join(name)
}

/// Serves `files` (by the last segment of the request path) over https on 127.0.0.1, one
/// connection at a time, for as long as the test runs. Returns the base URL.
fn https_server(files: Vec<(String, Vec<u8>)>) -> String {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(tls_data("localhost.pem"))
            .unwrap()
            .map(Result::unwrap)
            .collect();
    let key = PrivateKeyDer::from_pem_file(tls_data("localhost.key")).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("https://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for tcp in listener.incoming().take(50) {
            let Ok(tcp) = tcp else { continue };
            let _ = tcp.set_read_timeout(Some(Duration::from_secs(10)));
            let conn = rustls::ServerConnection::new(config.clone()).unwrap();
            let mut tls = rustls::StreamOwned::new(conn, tcp);
            // A failed handshake (the client refused the certificate) ends the read here.
            let Some(head) = read_head(&mut tls) else {
                continue;
            };
            let Some(path) = head.split_whitespace().nth(1) else {
                continue;
            };
            let name = path.rsplit('/').next().unwrap_or_default();
            let reply = match files.iter().find(|(n, _)| n == name) {
                Some((_, body)) => {
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend_from_slice(body);
                    r
                }
                None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = tls.write_all(&reply);
            tls.conn.send_close_notify();
            let _ = tls.flush();
        }
    });
    base
}

/// A server holding a small release of VERSION and its SHA256SUMS.
fn mirror() -> String {
    let asset = gz(&tar(&release_entries(VERSION)));
    let sums = sums_for(VERSION, &asset);
    https_server(vec![
        (asset_name(VERSION), asset),
        ("SHA256SUMS".into(), sums),
    ])
}

/// `bqsuite fetch VERSION DEST` from `base`, trusting only the authorities in `roots`.
fn fetch(base: &str, roots: &str, dest: &Path) -> Output {
    kit::command()
        .args(["fetch", VERSION, dest.to_str().unwrap()])
        .env("BQ_CONFORMANCE_BASE_URL", format!("{base}/v{{version}}"))
        .env("SSL_CERT_FILE", tls_data(roots))
        .env_remove("SSL_CERT_DIR")
        .env("CI", "true")
        .output()
        .expect("run bqsuite")
}

#[test]
fn fetch_over_https_verifies_the_server_against_the_trusted_authorities() {
    let base = mirror();
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("conformance");
    let out = fetch(&base, "ca.pem", &dest);
    assert_eq!(
        kit::code(&out),
        0,
        "{}{}",
        kit::stdout(&out),
        kit::stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dest.join("CONFORMANCE_VERSION")).unwrap(),
        format!("{VERSION}\n")
    );
}

#[test]
fn a_server_no_trusted_authority_vouches_for_is_refused_in_words() {
    let base = mirror();
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("conformance");
    let out = fetch(&base, "other-ca.pem", &dest);
    assert_eq!(kit::code(&out), 2, "{}", kit::stderr(&out));
    let err = kit::stderr(&out);
    assert!(err.contains("TLS") && err.contains("certificate"), "{err}");
    assert!(
        !err.contains("os error") && !err.contains("panicked"),
        "{err}"
    );
    assert!(!dest.exists());
}
