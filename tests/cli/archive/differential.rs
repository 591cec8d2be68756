//! No parser differential: for every archive the verifier accepts, GNU tar, bsdtar, busybox tar
//! and Python's tarfile list exactly the files and contents the verifier handed on; for every
//! header construct it refuses as ambiguous, at least two of them disagree. The
//! archives are the control release, the real release of the bundled suite, the hostile shapes
//! that once read differently elsewhere, and a few hundred single-byte header mutations with a
//! recomputed checksum (deterministic).
#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::{BufReader, Write};
use std::process::{Command, Stdio};

use bqsuite_suite::archive::verify::{self, Collect, Limits};

use crate::kit;
use crate::kit::tarball::*;

fn accepted(asset: &[u8], version: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    let mut sink = Collect::default();
    verify::verify(
        BufReader::new(asset),
        &verify::Expected::babelqueue(),
        version,
        &Limits::default(),
        &mut sink,
    )
    .ok()
    .map(|_| sink.files)
}

/// The four mainstream readers.
const READERS: [&str; 4] = ["python", "gnu-tar", "bsdtar", "busybox"];

/// A reader of POSIX.1-1988 ustar alone, which knows no extension header: the `tar` crate's raw
/// entries, each header taken for what its own fields say, extension headers skipped. Where it and the four mainstream readers differ, an extension changed which
/// file gets which bytes.
fn ustar_only_listing(asset: &[u8], root: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(asset));
    let mut out = Vec::new();
    for entry in archive.entries().ok()?.raw(true) {
        let mut entry = entry.ok()?;
        let kind = entry.header().entry_type();
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        // Extension headers are skipped unread, as by a reader that knows none of them.
        if kind.is_dir() || matches!(entry.header().as_bytes()[156], b'x' | b'g' | b'L' | b'K') {
            continue;
        }
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut data).ok()?;
        out.push((name, data));
    }
    Some(strip_root(out.into_iter(), root))
}

/// What one reader makes of an asset: the regular files it yields (a non-file as
/// `not-a-file`), or `None` when it fails. Python lists members (PAX, GNU long names and prefixes
/// honoured); the others extract into a scratch directory.
fn listing(reader: &str, asset: &[u8], root: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    match reader {
        "python" => return python_listing(asset, root),
        "ustar-only" => return ustar_only_listing(asset, root),
        _ => {}
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.tar.gz");
    std::fs::write(&file, asset).unwrap();
    let out_dir = dir.path().join("x");
    std::fs::create_dir(&out_dir).unwrap();
    let mut cmd = match reader {
        "gnu-tar" => Command::new(kit::need_tool("tar", "tar")),
        "bsdtar" => Command::new(kit::need_tool("bsdtar", "libarchive-tools")),
        _ => {
            let mut c = Command::new(kit::need_tool("busybox", "busybox"));
            c.arg("tar");
            c
        }
    };
    let ok = cmd
        .arg("-xzf")
        .arg(&file)
        .current_dir(&out_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return None;
    }
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&out_dir).min_depth(1) {
        let e = e.unwrap();
        let rel = e
            .path()
            .strip_prefix(&out_dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if e.file_type().is_file() {
            out.push((rel, std::fs::read(e.path()).unwrap()));
        } else if !e.file_type().is_dir() {
            out.push((rel, b"not-a-file".to_vec()));
        }
    }
    Some(strip_root(out.into_iter(), root))
}

/// Regular files as Python's tarfile sees them, or `None` when it refuses the archive.
fn python_listing(asset: &[u8], root: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    let script = r#"
import sys, tarfile, io, json
data = sys.stdin.buffer.read()
out = {}
with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
    for m in t.getmembers():
        if m.isfile():
            out[m.name] = t.extractfile(m).read().hex()
        elif not m.isdir():
            out[m.name] = "not-a-file:" + str(m.type)
print(json.dumps(out))
"#;
    let mut child = Command::new(kit::need_tool("python3", "python3"))
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = asset.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    if !out.status.success() {
        return None;
    }
    let map: BTreeMap<String, String> = serde_json::from_slice(&out.stdout).ok()?;
    Some(strip_root(
        map.into_iter().map(|(k, v)| (k, hex_decode(&v))),
        root,
    ))
}

fn strip_root(
    entries: impl Iterator<Item = (String, Vec<u8>)>,
    root: &str,
) -> BTreeMap<String, Vec<u8>> {
    entries
        .map(|(k, v)| {
            let rel = k
                .strip_prefix(&format!("{root}/"))
                .map(str::to_string)
                .unwrap_or(format!("(outside the root) {k}"));
            (rel, v)
        })
        .collect()
}

fn hex_decode(text: &str) -> Vec<u8> {
    if let Some(rest) = text.strip_prefix("not-a-file:") {
        return format!("not-a-file:{rest}").into_bytes();
    }
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The candidates: well-formed releases, the hostile shapes, and header mutations.
fn candidates() -> Vec<(String, Vec<u8>)> {
    let root = |rel: &str| format!("{ROOT}/{rel}");
    let with = |extra: Vec<Entry>| {
        let mut entries = release_entries(VERSION);
        entries.extend(extra);
        gz(&tar(&entries))
    };
    let mut out = vec![("control".to_string(), gz(&tar(&release_entries(VERSION))))];
    let mut nul_size = file(&root("fixtures/evil.json"), b"");
    nul_size.size_field = Some(b"\x0000000001000".to_vec());
    out.push(("size-field-leading-nul".into(), with(vec![nul_size])));
    let mut gnu_prefix = file(&root("fixtures/pre.json"), b"{}").magic(Magic::Gnu);
    gnu_prefix.prefix = b"../../../../x".to_vec();
    out.push(("gnu-magic-with-prefix".into(), with(vec![gnu_prefix])));
    out.push((
        "pax-path".into(),
        with(vec![
            pax(&[("path", b"../../evil.json")]),
            file(&root("fixtures/innocent.json"), b"{}"),
        ]),
    ));
    out.push((
        "gnu-long-name".into(),
        with(vec![
            gnu_long_name(&format!("{ROOT}/fixtures/{}", "y".repeat(120))),
            file(&root("fixtures/short.json"), b"{}").magic(Magic::Gnu),
        ]),
    ));
    // Paths no release has: what other tools would happily create.
    for path in [
        ".git/config",
        "Makefile",
        "run.sh",
        "fixtures/.hidden.json",
        "fixtures/d/x.json",
        "fixtures/caf\u{e9}.json",
        "fixtures/cafe\u{301}.json",
        "fixtures/\u{3c3}.json",
        "fixtures/\u{3c2}.json",
        "fixtures/a.json.",
        "fixtures/a.json ",
        "fixtures/NUL.json",
        "fixtures/con",
        "fixtures/a\u{202e}nosj.json",
        "fixtures/a\u{85}b.json",
    ] {
        out.push((
            format!("layout {path:?}"),
            with(vec![file(&root(path), b"{}")]),
        ));
    }
    // Single-byte mutations of every header of the control archive, checksum recomputed.
    let entries = release_entries(VERSION);
    let mut seed: u64 = 0x5eed;
    for n in 0..400 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let which = (seed >> 33) as usize % entries.len();
        let offset = (seed >> 20) as usize % 512;
        let value = (seed >> 8) as u8;
        let mut stream = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            let mut bytes = e.bytes();
            if i == which && !(148..156).contains(&offset) {
                bytes[offset] = value;
                bytes[148..156].copy_from_slice(b"        ");
                let sum: u32 = bytes[..512].iter().map(|&b| u32::from(b)).sum();
                bytes[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
            }
            stream.extend(bytes);
        }
        stream.extend_from_slice(&[0u8; 1024]);
        out.push((
            format!("mutation-{n}-entry{which}-byte{offset}"),
            gz(&stream),
        ));
    }
    out
}

#[test]
fn every_accepted_archive_reads_the_same_in_every_reader() {
    let mut checked = 0;
    let mut refused = 0;
    for (name, asset) in candidates() {
        let Some(files) = accepted(&asset, VERSION) else {
            refused += 1;
            continue;
        };
        checked += 1;
        for reader in READERS {
            assert_eq!(
                listing(reader, &asset, ROOT).as_ref(),
                Some(&files),
                "{name}: {reader}"
            );
        }
    }
    // The hostile shapes are all refused; the control and many harmless mutations pass.
    assert!(
        checked >= 1 && refused >= 4,
        "checked {checked}, refused {refused}"
    );
    let all = candidates();
    let hostile = all.iter().filter(|(n, _)| {
        [
            "size-field-leading-nul",
            "gnu-magic-with-prefix",
            "pax-path",
            "gnu-long-name",
        ]
        .contains(&n.as_str())
            || n.starts_with("layout ")
    });
    assert_eq!(hostile.clone().count(), 4 + 15);
    for (hostile, asset) in hostile {
        assert!(accepted(asset, VERSION).is_none(), "{hostile} was accepted");
    }
}

#[test]
fn the_real_release_reads_the_same_everywhere() {
    let out = tempfile::tempdir().unwrap();
    // Releasing validates the suite first: this needs the real 1.8.0 to validate clean (it does
    // once the redis_layout evaluator lands).
    let real = kit::suite_copy_of(&kit::real_1_8_0());
    let asset = std::fs::read(kit::released(&real.path(), out.path())).unwrap();
    let version = "1.8.0".to_string();
    let root = format!("babelqueue-conformance-{version}");
    let files = accepted(&asset, &version).expect("the real release is accepted");
    // What the verifier handed on is the suite itself, byte for byte, plus the LICENSE: the real
    // 1.8.0 has 61 files (CONFORMANCE_VERSION, manifest.json, 56 fixtures, 3 schema files).
    let suite = kit::real_1_8_0();
    let mut expected = BTreeMap::new();
    for e in walkdir::WalkDir::new(&suite).min_depth(1) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(&suite).unwrap().to_string_lossy();
            expected.insert(rel.into_owned(), std::fs::read(e.path()).unwrap());
        }
    }
    assert_eq!(expected.len(), 61, "{:?}", expected.keys());
    expected.insert(
        "LICENSE".to_string(),
        std::fs::read(kit::suite_license()).unwrap(),
    );
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    assert!(
        files == expected,
        "the release's files are the suite's bytes"
    );
    for reader in READERS {
        assert_eq!(
            listing(reader, &asset, &root).as_ref(),
            Some(&files),
            "{reader}"
        );
    }
}

/// Header constructs refused because readers could disagree on them: for each, at least two of
/// the four readers do disagree (different files or contents, or one fails where another
/// extracts).
#[test]
fn every_refused_ambiguous_construct_splits_the_readers() {
    let root = |rel: &str| format!("{ROOT}/{rel}");
    let with = |extra: Vec<Entry>| {
        let mut entries = release_entries(VERSION);
        entries.extend(extra);
        gz(&tar(&entries))
    };
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut nul_size = file(&root("fixtures/evil.json"), &[b'x'; 512]);
    nul_size.size_field = Some(b"\x0000000001000".to_vec());
    cases.push(("size field led by a NUL", with(vec![nul_size])));
    let mut gnu_prefix = file(&root("fixtures/pre.json"), b"{}").magic(Magic::Gnu);
    gnu_prefix.prefix = b"elsewhere".to_vec();
    cases.push((
        "GNU header with bytes where ustar has its prefix",
        with(vec![gnu_prefix]),
    ));
    let mut v7 = file("pre.json", b"{}").magic(Magic::V7);
    v7.name = root("fixtures/v7.json").into_bytes();
    cases.push(("v7 header", with(vec![v7])));
    cases.push((
        "PAX path other than the header's",
        with(vec![
            pax(&[("path", root("fixtures/other.json").as_bytes())]),
            file(&root("fixtures/innocent.json"), b"{}"),
        ]),
    ));
    cases.push((
        "PAX size other than the header's",
        with(vec![
            pax(&[("size", b"0")]),
            file(&root("fixtures/sized.json"), &[b' '; 600]),
        ]),
    ));
    cases.push((
        "GNU long name",
        with(vec![
            gnu_long_name(&root(&format!("fixtures/{}.json", "y".repeat(120)))),
            file(&root("fixtures/short.json"), b"{}").magic(Magic::Gnu),
        ]),
    ));
    // Content that is not a header: readers that skip it read on, Python stops there.
    let mut entries = release_entries(VERSION);
    entries.insert(
        1,
        Entry::new(b'5', root("fixtures/d/").as_bytes(), &[b'x'; 512]),
    );
    cases.push(("directory entry with content", gz(&tar(&entries))));
    let mut global = release_entries(VERSION);
    global.insert(1, pax(&[("path", root("fixtures/g.json").as_bytes())]));
    global[1].typeflag = b'g';
    cases.push(("PAX global header", gz(&tar(&global))));
    let mut hidden = tar_without_end(&release_entries(VERSION));
    hidden.extend_from_slice(&[0u8; 512]);
    hidden.extend(file(&root("fixtures/after.json"), b"{}").bytes());
    hidden.extend_from_slice(&[0u8; 1024]);
    cases.push(("entry after a lone zero block", gz(&hidden)));
    let mut failures = Vec::new();
    for (name, asset) in &cases {
        assert!(accepted(asset, VERSION).is_none(), "{name} was accepted");
        let seen: Vec<_> = READERS
            .iter()
            .chain(&["ustar-only"])
            .map(|r| listing(r, asset, ROOT))
            .collect();
        if seen.iter().all(|l| *l == seen[0]) {
            failures.push(format!("{name}: every reader read the same"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
