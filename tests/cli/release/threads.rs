//! `bqsuite release` compresses the asset on several threads (BQSUITE_THREADS, else every core),
//! in fixed-size chunks: the bytes are the same whatever the number of threads, the archive
//! verifier behind `fetch` (which re-creates the asset on one thread) accepts them, every real
//! release is still the one deflate stream it always was, and the chunked format itself is
//! pinned.

use std::fs;
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::Output;

use bqsuite::commands::release::{Member, build_asset};
use bqsuite_suite::kind::Kind;
use bqsuite_suite::release::gzip::{BLOCK, CHUNK, GzipWriter, header, trailer};
use bqsuite_suite::release::{COMPRESSION_LEVEL, tree};

use crate::kit::grown::{Rng, grown_suite};
use crate::kit::*;

fn release_with_threads(suite: &Path, out: &Path, threads: &str) -> Output {
    run_in(
        root(),
        &[
            "release",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[("BQSUITE_THREADS", threads)],
    )
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn the_asset_is_the_same_whatever_the_number_of_threads() {
    let suite = grown_suite(500, 9_000);
    let version = bundled_version();
    let name = format!("babelqueue-conformance-{version}.tar.gz");
    let mut assets = Vec::new();
    for threads in ["1", "2", "3", "8"] {
        let out = tempfile::tempdir().unwrap();
        let o = release_with_threads(&suite.path(), out.path(), threads);
        assert_eq!(code(&o), 0, "{threads}: {}{}", stdout(&o), stderr(&o));
        let bytes = fs::read(out.path().join(&name)).unwrap();
        assert!(stdout(&o).contains(&bqsuite_suite::archive::sha256_hex(&bytes)));
        assets.push((threads, bytes));
    }
    let (_, first) = &assets[0];
    // Several chunks, so several threads had work.
    let tar_len = gunzip(first).len();
    assert!(
        tar_len > 4 * CHUNK,
        "the tar stream is only {tar_len} bytes"
    );
    for (threads, bytes) in &assets[1..] {
        assert!(
            bytes == first,
            "{threads} threads wrote other bytes than 1 thread"
        );
    }
    // What fetch runs accepts it: the verifier re-creates it on one thread, byte for byte.
    verify(first, &version).unwrap();
    // A damaged copy is refused, so the acceptance above means something.
    let mut damaged = first.clone();
    let at = damaged.len() / 2;
    damaged[at] ^= 0x40;
    assert!(verify(&damaged, &version).is_err());
}

#[test]
fn a_thread_count_that_is_not_one_cannot_run() {
    let out = tempfile::tempdir().unwrap();
    for bad in ["0", "many", "257"] {
        let o = release_with_threads(&bundled_suite(), out.path(), bad);
        assert_eq!(code(&o), 2, "{bad}: {}{}", stdout(&o), stderr(&o));
        let text = stderr(&o);
        assert!(
            text.contains("BQSUITE_THREADS") && text.contains("from 1 to 256"),
            "{bad}: {text}"
        );
        assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0);
    }
}

/// The old writer of every release so far: one compressor fed in 256 KiB pieces through
/// `flate2::write::DeflateEncoder`, one deflate stream.
fn single_stream(tar: &[u8]) -> Vec<u8> {
    let mut out = header(COMPRESSION_LEVEL).to_vec();
    let mut enc =
        flate2::write::DeflateEncoder::new(&mut out, flate2::Compression::new(COMPRESSION_LEVEL));
    for piece in tar.chunks(BLOCK) {
        enc.write_all(piece).unwrap();
    }
    enc.finish().unwrap();
    let mut crc = flate2::Crc::new();
    crc.update(tar);
    out.extend_from_slice(&trailer(&crc, tar.len() as u64));
    out
}

/// Every real published release (1.0.0 to 1.8.0) fits in one chunk: its asset is byte for byte
/// the single deflate stream the earlier writer made, and the verifier accepts it.
#[test]
fn every_real_release_is_the_single_stream_it_always_was() {
    let real = data("real-releases");
    let license = fs::read(suite_license()).unwrap();
    let mut seen = 0;
    for entry in fs::read_dir(&real).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let version = fs::read_to_string(dir.join("CONFORMANCE_VERSION")).unwrap();
        let version = version.trim();
        let (entries, findings) = tree::walk(&dir).unwrap();
        assert!(findings.is_empty(), "{version}: {findings:?}");
        let data: Vec<Option<Vec<u8>>> = entries
            .iter()
            .map(|e| (!e.is_dir).then(|| fs::read(dir.join(&e.rel)).unwrap()))
            .collect();
        let members: Vec<Member> = entries
            .iter()
            .zip(&data)
            .map(|(e, d)| Member {
                rel: &e.rel,
                data: d.as_deref(),
            })
            .collect();
        let asset = build_asset(&Kind::babelqueue(), &members, &license, version, 0).unwrap();
        let tar = gunzip(&asset.bytes);
        assert!(tar.len() <= CHUNK, "{version}: {} bytes", tar.len());
        assert!(
            asset.bytes == single_stream(&tar),
            "{version}: not the single stream"
        );
        verify(&asset.bytes, version).unwrap_or_else(|e| panic!("{version}: {e}"));
        seen += 1;
    }
    assert!(seen >= 8, "{seen} real releases");
}

/// The chunked format is pinned like the bundled suite's asset is (tests/cli/release/mod.rs): the
/// chunk size, the dictionary, the flushes and the calls made to the compressor all decide the
/// bytes of every asset past one chunk. If a change is intended, update this hash and
/// `PINNED_SHA256` in tests/cli/release/mod.rs together, deliberately.
#[test]
fn pinned_sha256_of_a_stream_of_several_chunks() {
    let mut rng = Rng::new(7);
    let mut data = Vec::new();
    while data.len() < 3 * CHUNK + 12_345 {
        let n = rng.next();
        let line = format!(
            "{{\"id\": {}, \"sku\": \"SKU-{:06}\", \"qty\": {}, \"note\": \"{}\"}}\n",
            data.len(),
            n % 1_000_000,
            n % 50,
            ["gift", "express", "standard", "returned"][(n >> 20) as usize % 4]
        );
        data.extend_from_slice(line.as_bytes());
    }
    let mut gz = GzipWriter::new(Vec::new(), COMPRESSION_LEVEL).unwrap();
    for piece in data.chunks(10_007) {
        gz.write_all(piece).unwrap();
    }
    let bytes = gz.finish().unwrap();
    assert_eq!(gunzip(&bytes), data);
    assert_eq!(
        bqsuite_suite::archive::sha256_hex(&bytes),
        PINNED_CHUNKED_SHA256,
        "the chunked deflate format changed; if that is intended, update this hash (see the \
         comment of this test)"
    );
}

const PINNED_CHUNKED_SHA256: &str =
    "c21d14dcdd42f07d26c4b9d8538191bafe2130a5a3accd991f6555013a79ac2e";

/// Runs the archive verifier behind `fetch` over `asset` (it re-creates the asset on one thread
/// with release's writers and refuses any difference).
pub fn verify(asset: &[u8], version: &str) -> Result<(), String> {
    use bqsuite_suite::archive::verify::{self, Discard, Limits};
    verify::verify(
        BufReader::new(asset),
        &verify::Expected::babelqueue(),
        version,
        &Limits::default(),
        &mut Discard,
    )
    .map(|_| ())
    .map_err(|fault| format!("{fault:?}"))
}
