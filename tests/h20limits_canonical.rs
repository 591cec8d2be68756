//! Issue 20, item 3: canonical means canonical. The asset accepted is exactly what `bqsuite
//! release` writes for the tree it holds; an archive release never writes (re-deflated at another
//! level, entries reordered, no directory entries, an empty directory, no LICENSE or manifest,
//! record padding) is refused as not made by `bqsuite release`, and nothing is written.

mod fetch_support;

use std::fs;
use std::io::Write;

use bqsuite::archive::verify::{self, Collect, Limits};
use bqsuite::release::gzip::GzipWriter;
use bqsuite::release::{Member, build_asset};
use fetch_support::*;

fn verdict(asset: &[u8]) -> Result<(), (String, String)> {
    verify::verify(asset, VERSION, &Limits::default(), &mut Collect::default())
        .map(drop)
        .map_err(|f| {
            let d = f.diagnostic().expect("a refusal, not a failure");
            (d.code.to_string(), d.message.clone())
        })
}

fn gz_at(level: u32, bytes: &[u8]) -> Vec<u8> {
    let mut w = GzipWriter::new(Vec::new(), level).unwrap();
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

fn without(entries: &[Entry], pred: impl Fn(&Entry) -> bool) -> Vec<Entry> {
    entries.iter().filter(|e| !pred(e)).cloned().collect()
}

fn name_ends(e: &Entry, suffix: &str) -> bool {
    e.name.ends_with(suffix.as_bytes())
}

/// The control: the helpers' release entries are byte for byte what `build_asset` writes from
/// the same tree, and accepted.
#[test]
fn what_release_writes_is_accepted() {
    let entries = release_entries(VERSION);
    let asset = gz(&tar(&entries));
    let data = |suffix: &str| {
        entries
            .iter()
            .find(|e| name_ends(e, suffix))
            .unwrap()
            .data
            .clone()
    };
    let (cv, manifest) = (data("CONFORMANCE_VERSION"), data("manifest.json"));
    let (a, b) = (data("order-created.json"), data("urn-alias.json"));
    let schema = data("message-envelope.schema.json");
    let members = [
        Member {
            rel: "CONFORMANCE_VERSION",
            data: Some(&cv),
        },
        Member {
            rel: "fixtures",
            data: None,
        },
        Member {
            rel: "fixtures/order-created.json",
            data: Some(&a),
        },
        Member {
            rel: "fixtures/urn-alias.json",
            data: Some(&b),
        },
        Member {
            rel: "manifest.json",
            data: Some(&manifest),
        },
        Member {
            rel: "schema",
            data: None,
        },
        Member {
            rel: "schema/message-envelope.schema.json",
            data: Some(&schema),
        },
    ];
    let built = build_asset(&members, &data("LICENSE"), VERSION, 0).unwrap();
    assert_eq!(built.bytes, asset);
    assert_eq!(verdict(&asset), Ok(()));
    // Any mtime release can be given (SOURCE_DATE_EPOCH) is fine.
    let later = build_asset(&members, &data("LICENSE"), VERSION, 1_700_000_000).unwrap();
    assert_eq!(verdict(&later.bytes), Ok(()));
}

/// Every shape of the review's finding, and a few more: refused with the one message.
#[test]
fn archives_release_never_writes_are_refused() {
    let entries = release_entries(VERSION);
    let plain = tar(&entries);
    let mut reordered = entries.clone();
    reordered.swap(4, 5);
    let mut padded = plain.clone();
    padded.extend(std::iter::repeat_n(0u8, 10240 - plain.len() % 10240));
    let root_later = {
        let mut e = entries.clone();
        let root = e.remove(0);
        e.insert(1, root);
        e
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "deflated at level 5",
            gz_at(5, &plain),
            "compressed bytes differ",
        ),
        (
            "deflated at level 7",
            gz_at(7, &plain),
            "compressed bytes differ",
        ),
        (
            "stored (level 0)",
            gz_at(0, &plain),
            "compressed bytes differ",
        ),
        ("entries reordered", gz(&tar(&reordered)), "comes after"),
        (
            "no directory entries",
            gz(&tar(&without(&entries, |e| e.typeflag == b'5'))),
            "its first entry",
        ),
        (
            "no data directory entries",
            gz(&tar(&without(&entries, |e| {
                e.typeflag == b'5' && e.name != format!("{ROOT}/").as_bytes()
            }))),
            "has no directory entry",
        ),
        (
            "no LICENSE",
            gz(&tar(&without(&entries, |e| name_ends(e, "/LICENSE")))),
            "LICENSE`; release always writes one",
        ),
        (
            "no manifest",
            gz(&tar(&without(&entries, |e| name_ends(e, "/manifest.json")))),
            "manifest.json`; release always writes one",
        ),
        (
            "record padding",
            gz(&padded),
            "zero padding follow the end-of-archive blocks",
        ),
        ("root not first", gz(&tar(&root_later)), "its first entry"),
    ];
    for (name, asset, why) in cases {
        let (code, message) = verdict(&asset).expect_err(name);
        assert_eq!(code, "archive-noncanonical", "{name}: {message}");
        assert!(
            message.starts_with("the asset was not made by `bqsuite release`: "),
            "{name}: {message}"
        );
        assert!(message.contains(why), "{name}: {message}");
    }
}

/// A directory entry with nothing below it: release leaves it out.
#[test]
fn an_empty_directory_entry_is_refused() {
    let mut entries = release_entries(VERSION);
    // schema/ emptied: its directory entry stays, its file goes.
    entries.retain(|e| !name_ends(e, ".schema.json"));
    let (code, message) = verdict(&gz(&tar(&entries))).unwrap_err();
    assert_eq!(code, "archive-noncanonical");
    assert!(
        message.contains("schema/` has no file below it"),
        "{message}"
    );
}

/// Through the command: exit 1, one finding saying so, nothing written.
#[test]
fn fetch_refuses_a_recompressed_asset_and_writes_nothing() {
    let asset = gz_at(5, &tar(&release_entries(VERSION)));
    let mirror = Mirror::new();
    mirror.publish(VERSION, &asset);
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("conformance");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bqsuite"))
        .args(["fetch", VERSION])
        .arg(&dest)
        .args(["--format", "json"])
        .env("BQ_CONFORMANCE_BASE_URL", mirror.url())
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 1, "{doc:#}");
    assert_eq!(doc["diagnostics"][0]["code"], "archive-noncanonical");
    let message = doc["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("not made by `bqsuite release`"),
        "{message}"
    );
    assert!(!dest.exists());
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}
