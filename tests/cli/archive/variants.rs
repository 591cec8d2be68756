//! Assets every tar reader reads alike are accepted, whoever wrote them. An asset is judged by
//! what GNU tar, bsdtar, busybox tar and Python's tarfile extract, never by its bytes: another
//! deflate level, a gzip header with a name, comment, extra field or header CRC, another entry
//! order, missing directory entries, record padding, other modes, owners and times, PAX records
//! that only carry metadata. Each unpacks to exactly the files the control release holds.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;

use bqsuite::commands::release::{Member, build_asset};
use bqsuite_suite::archive::verify::{self, Collect, Limits};
use bqsuite_suite::kind::Kind;

use crate::kit::tarball::*;

fn unpacked(asset: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, (String, String)> {
    let mut sink = Collect::default();
    verify::verify(
        asset,
        &verify::Expected::babelqueue(),
        VERSION,
        &Limits::default(),
        &mut sink,
    )
    .map(|_| sink.files)
    .map_err(|f| {
        let d = f.diagnostic().expect("a refusal, not a failure");
        (d.code.to_string(), d.message.clone())
    })
}

fn verdict(asset: &[u8]) -> Result<(), (String, String)> {
    unpacked(asset).map(drop)
}

fn without(entries: &[Entry], pred: impl Fn(&Entry) -> bool) -> Vec<Entry> {
    entries.iter().filter(|e| !pred(e)).cloned().collect()
}

fn name_ends(e: &Entry, suffix: &str) -> bool {
    e.name.ends_with(suffix.as_bytes())
}

/// A gzip member of `data` with the given flag byte and optional header fields, written by hand
/// (RFC 1952): what gzip, pigz, Python's gzip and others may put in a header.
fn gzip_member(flags: u8, extra: &[u8], name: &[u8], comment: &[u8], data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, flags, 0x78, 0x56, 0x34, 0x12, 2, 11];
    if flags & 0x04 != 0 {
        out.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        out.extend_from_slice(extra);
    }
    if flags & 0x08 != 0 {
        out.extend_from_slice(name);
        out.push(0);
    }
    if flags & 0x10 != 0 {
        out.extend_from_slice(comment);
        out.push(0);
    }
    if flags & 0x02 != 0 {
        let mut crc = flate2::Crc::new();
        crc.update(&out);
        out.extend_from_slice(&((crc.sum() & 0xffff) as u16).to_le_bytes());
    }
    let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    deflate.write_all(data).unwrap();
    out.extend(deflate.finish().unwrap());
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
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
    let built = build_asset(&Kind::babelqueue(), &members, &data("LICENSE"), VERSION, 0).unwrap();
    assert_eq!(built.bytes, asset);
    assert_eq!(verdict(&asset), Ok(()));
    // Any mtime release can be given (SOURCE_DATE_EPOCH) is fine.
    let later = build_asset(
        &Kind::babelqueue(),
        &members,
        &data("LICENSE"),
        VERSION,
        1_700_000_000,
    )
    .unwrap();
    assert_eq!(verdict(&later.bytes), Ok(()));
}

/// Every way real writers differ from release that readers all read alike: accepted, and the
/// files unpacked are the control's own.
#[test]
fn variants_every_reader_reads_alike_unpack_to_the_same_files() {
    let entries = release_entries(VERSION);
    let plain = tar(&entries);
    let control = unpacked(&gz(&plain)).unwrap();
    let mut reordered = entries.clone();
    reordered.reverse();
    let mut padded = plain.clone();
    padded.extend(std::iter::repeat_n(0u8, 10240 - plain.len() % 10240));
    let root_later = {
        let mut e = entries.clone();
        let root = e.remove(0);
        e.insert(3, root);
        e
    };
    let each_header = |change: &dyn Fn(&mut Entry)| {
        let mut e = entries.clone();
        e.iter_mut().for_each(change);
        gz(&tar(&e))
    };
    let pax_before_each = |records: &[(&str, &[u8])]| {
        let mut out = Vec::new();
        for e in &entries {
            out.push(pax(records));
            out.push(e.clone());
        }
        gz(&tar(&out))
    };
    let path_and_size_again = {
        let mut out = Vec::new();
        for e in &entries {
            let size = e.data.len().to_string();
            out.push(pax(&[("path", &e.name), ("size", size.as_bytes())]));
            out.push(e.clone());
        }
        gz(&tar(&out))
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("stored (level 0)", gz_at(0, &plain)),
        ("deflated at level 1", gz_at(1, &plain)),
        ("deflated at level 9", gz_at(9, &plain)),
        (
            "gzip name and mtime",
            gzip_member(0x08, b"", b"a\x1b[31m.tar", b"", &plain),
        ),
        (
            "gzip comment",
            gzip_member(0x10, b"", b"", b"::error::hi", &plain),
        ),
        (
            "gzip extra field",
            gzip_member(0x04, b"AB\x02\x00hi", b"", b"", &plain),
        ),
        (
            "gzip header crc",
            gzip_member(0x1e, b"xy", b"n", b"c", &plain),
        ),
        ("gzip text flag", gzip_member(0x01, b"", b"", b"", &plain)),
        ("entries reversed", gz(&tar(&reordered))),
        (
            "no directory entries",
            gz(&tar(&without(&entries, |e| e.typeflag == b'5'))),
        ),
        ("root not first", gz(&tar(&root_later))),
        ("record padding", gz(&padded)),
        ("GNU headers", each_header(&|e| e.magic = Magic::Gnu)),
        ("modes 0777", each_header(&|e| e.mode = 0o777)),
        ("mtimes", each_header(&|e| e.mtime = 1_700_000_000)),
        ("owner names", each_header(&|e| e.uname = b"root".to_vec())),
        (
            "size space-padded",
            each_header(&|e| e.size_field = Some(format!("{:>11o} ", e.data.len()).into_bytes())),
        ),
        (
            "old regular typeflag",
            each_header(&|e| {
                if e.typeflag == b'0' {
                    e.typeflag = 0
                }
            }),
        ),
        (
            "pax times and owners",
            pax_before_each(&[
                ("mtime", b"1796185438.190096388"),
                ("atime", b"1796185438.2"),
                ("ctime", b"-1"),
                ("uid", b"4294967296"),
                ("gid", b"0"),
                ("uname", b"\xc3\xbc"),
                ("gname", b""),
            ]),
        ),
        ("pax path and size as the header's", path_and_size_again),
    ];
    for (name, asset) in cases {
        match unpacked(&asset) {
            Ok(files) => assert_eq!(files, control, "{name}"),
            Err(refusal) => panic!("{name} refused: {refusal:?}"),
        }
    }
}

/// Assets that are not releases of the suite, however well formed.
#[test]
fn an_asset_without_its_manifest_or_version_is_not_a_release() {
    let entries = release_entries(VERSION);
    let no_manifest = gz(&tar(&without(&entries, |e| name_ends(e, "/manifest.json"))));
    let (code, message) = verdict(&no_manifest).unwrap_err();
    assert_eq!(code, "archive-layout", "{message}");
    assert!(message.contains("manifest.json"), "{message}");
    let no_version = gz(&tar(&without(&entries, |e| {
        name_ends(e, "/CONFORMANCE_VERSION")
    })));
    assert_eq!(
        verdict(&no_version).unwrap_err().0,
        "archive-version-mismatch"
    );
    // LICENSE is not vendored: a release may lack it.
    let no_license = gz(&tar(&without(&entries, |e| name_ends(e, "/LICENSE"))));
    assert_eq!(verdict(&no_license), Ok(()));
}

/// A directory entry with nothing below it: every reader creates the empty directory, fetch too.
#[test]
fn an_empty_directory_entry_is_accepted() {
    let mut entries = release_entries(VERSION);
    // schema/ emptied: its directory entry stays, its file goes.
    entries.retain(|e| !name_ends(e, ".schema.json"));
    assert!(entries.iter().any(|e| name_ends(e, "/schema/")));
    assert_eq!(verdict(&gz(&tar(&entries))), Ok(()));
}

/// Gzip headers a decoder must refuse, or that zlib and gzip read differently.
#[test]
fn gzip_headers_decoders_disagree_on_are_refused() {
    let plain = tar(&release_entries(VERSION));
    for flags in [0x20u8, 0x40, 0x80] {
        let (code, message) = verdict(&gzip_member(flags, b"", b"", b"", &plain)).unwrap_err();
        assert_eq!(code, "archive-corrupt", "{flags:#x}: {message}");
        assert!(message.contains("reserved flag"), "{message}");
    }
    let mut bad_crc = gzip_member(0x0a, b"", b"name", b"", &plain);
    bad_crc[15] ^= 0xff;
    let (code, message) = verdict(&bad_crc).unwrap_err();
    assert_eq!(code, "archive-corrupt", "{message}");
    assert!(message.contains("header CRC"), "{message}");
    let endless_name = gzip_member(0x08, b"", &vec![b'a'; 70_000], b"", &plain);
    assert_eq!(verdict(&endless_name).unwrap_err().0, "archive-corrupt");
}

/// Through the command: an asset re-compressed by another tool is fetched, exit 0.
#[test]
fn fetch_unpacks_a_recompressed_asset() {
    let asset = gzip_member(
        0x08,
        b"",
        b"babelqueue.tar",
        b"",
        &tar(&release_entries(VERSION)),
    );
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
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert!(dest.join("manifest.json").is_file());
    assert!(fs::read_dir(&dest).unwrap().count() >= 4);
}
