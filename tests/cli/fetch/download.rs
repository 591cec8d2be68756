//! `bqsuite fetch`: download, verify, refuse unsafe archives, unpack, `--check`. Offline and
//! deterministic: every archive is built here, served from file:// or from an HTTP server on
//! 127.0.0.1 started by the test.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime};

use bqsuite::commands::fetch::{self, Limits, Network};
use serde_json::Value;

use crate::kit;
use crate::kit::server::*;
use crate::kit::tarball::*;
use crate::kit::{real_release, sha256_hex, snapshot};

/// Runs the binary with `BQ_CONFORMANCE_BASE_URL=base`.
fn run(base: &str, args: &[&str]) -> Output {
    kit::command()
        .args(args)
        .env("BQ_CONFORMANCE_BASE_URL", base)
        .env("CI", "true")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run bqsuite")
}

/// `fetch ... --format json`: (exit code, the JSON document or Null when none was printed).
fn fetch_json(base: &str, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["fetch"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = run(base, &all);
    let doc = serde_json::from_str(&kit::stdout(&out)).unwrap_or(Value::Null);
    (kit::code(&out), doc, kit::stderr(&out))
}

fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn control() -> Vec<u8> {
    gz(&tar(&release_entries(VERSION)))
}

/// Options for a library call against `base`.
fn options(base: &str, dest: &Path) -> fetch::Options {
    fetch::Options {
        version: VERSION.into(),
        dest: dest.to_path_buf(),
        base_url: Some(base.into()),
        network: fast_network(),
        ..fetch::Options::default()
    }
}

fn fast_network() -> Network {
    Network {
        attempts: 4,
        backoff: Duration::from_millis(10),
        max_wait: Duration::from_millis(100),
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(2),
        ..Network::default()
    }
}

fn root(rel: &str) -> String {
    format!("{ROOT}/{rel}")
}

/// The control entries with `extra` inserted before the LICENSE entry (index 2).
fn with(extra: Vec<Entry>) -> Vec<u8> {
    let mut entries = release_entries(VERSION);
    let tail = entries.split_off(2);
    entries.extend(extra);
    entries.extend(tail);
    tar(&entries)
}

/// The control archive with `extra` entries at its end.
fn with_last(extra: Vec<Entry>) -> Vec<u8> {
    let mut entries = release_entries(VERSION);
    entries.extend(extra);
    tar(&entries)
}

/// The adversarial corpus: (name, gzip asset, expected code). Every asset is the control
/// archive with one thing wrong.
fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    // Longer than a ustar name field: written with the ustar prefix, then again as a GNU long name.
    let long = format!("{ROOT}/fixtures/{}.json", "x".repeat(90));
    let good = tar(&release_entries(VERSION));
    let good_gz = gz(&good);
    let mut flipped_crc = good_gz.clone();
    let n = flipped_crc.len();
    flipped_crc[n - 8] ^= 0xff;
    let mut flipped_len = good_gz.clone();
    flipped_len[n - 1] ^= 0x01;
    let mut second_member = good_gz.clone();
    second_member.extend(gz(b"more"));
    let mut trailing = good_gz.clone();
    trailing.extend_from_slice(b"garbage");
    let mut trailing_zeros = good_gz.clone();
    trailing_zeros.extend_from_slice(&[0u8; 16]);
    let mut tar_then_garbage = good.clone();
    tar_then_garbage.extend_from_slice(&[b'X'; 512]);
    let mut hidden_entry = tar_without_end(&release_entries(VERSION));
    hidden_entry.extend_from_slice(&[0u8; 512]);
    hidden_entry.extend(file(&root("hidden.json"), b"{}").bytes());
    hidden_entry.extend_from_slice(&[0u8; 1024]);
    let mut one_end_block = tar_without_end(&release_entries(VERSION));
    one_end_block.extend_from_slice(&[0u8; 512]);
    let mut bad_checksum = file(&root("fixtures/b.json"), b"{}");
    bad_checksum.checksum_delta = 1;
    let mut cut_entry = tar_without_end(&release_entries(VERSION));
    cut_entry.extend(file(&root("fixtures/cut.json"), &[b'a'; 2000]).header());
    cut_entry.extend_from_slice(&[b'a'; 700]);
    let mut bad_version = release_entries(VERSION);
    bad_version[1] = file(&root("CONFORMANCE_VERSION"), b"1.0.1\n");
    let mut no_version = release_entries(VERSION);
    no_version.remove(1);
    let mut gzip_header_junk = good_gz.clone();
    gzip_header_junk[2] = 7;

    let mut corpus = vec![
        // Entry types.
        (
            "symlink",
            gz(&with(vec![
                Entry::new(b'2', root("fixtures/l.json").as_bytes(), b"").link("/etc/passwd"),
            ])),
            "archive-symlink",
        ),
        (
            "hardlink",
            gz(&with(vec![
                Entry::new(b'1', root("fixtures/h.json").as_bytes(), b"")
                    .link(&root("manifest.json")),
            ])),
            "archive-hardlink",
        ),
        (
            "char-device",
            gz(&with(vec![Entry::new(b'3', root("null").as_bytes(), b"")])),
            "archive-special",
        ),
        (
            "block-device",
            gz(&with(vec![Entry::new(b'4', root("sda").as_bytes(), b"")])),
            "archive-special",
        ),
        (
            "fifo",
            gz(&with(vec![Entry::new(b'6', root("pipe").as_bytes(), b"")])),
            "archive-special",
        ),
        (
            "contiguous-file",
            gz(&with(vec![Entry::new(
                b'7',
                root("c.json").as_bytes(),
                b"{}",
            )])),
            "archive-unknown-type",
        ),
        (
            "unknown-type",
            gz(&with(vec![Entry::new(
                b'Z',
                root("z.json").as_bytes(),
                b"{}",
            )])),
            "archive-unknown-type",
        ),
        (
            "gnu-sparse",
            gz(&with(vec![
                Entry::new(b'S', root("s.json").as_bytes(), b"").magic(Magic::Gnu),
            ])),
            "archive-sparse",
        ),
        (
            "pax-sparse",
            gz(&with(vec![
                pax(&[("GNU.sparse.major", b"1"), ("GNU.sparse.minor", b"0")]),
                file(&root("s.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "global-pax",
            gz(&with(vec![Entry::new(
                b'g',
                b"pax_global_header",
                b"9 x=yy\n",
            )])),
            "archive-extension-header",
        ),
        (
            "pax-linkpath",
            gz(&with(vec![
                pax(&[("linkpath", b"/etc/shadow")]),
                file(&root("fixtures/p.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "gnu-long-link",
            gz(&with(vec![
                Entry::new(b'K', b"././@LongLink", b"/etc/shadow\0").magic(Magic::Gnu),
                file(&root("fixtures/k.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "pax-size-mismatch",
            gz(&with(vec![
                pax(&[("size", b"1024")]),
                file(&root("fixtures/q.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        // Header fields readers could read differently.
        (
            "size-field-leading-nul",
            gz(&with(vec![{
                // A NUL and then octal digits: 0 to a lenient reader, 512 to GNU tar.
                let mut e = file(&root("fixtures/evil.json"), b"");
                e.size_field = Some(b"\x0000000001000".to_vec());
                e
            }])),
            "archive-ambiguous-header",
        ),
        (
            "gnu-magic-with-prefix",
            gz(&with(vec![{
                let mut e = file("pre.json", b"{}").magic(Magic::Gnu);
                e.prefix = b"../../../../x".to_vec();
                e.name = root("fixtures/pre.json").into_bytes();
                e
            }])),
            "archive-ambiguous-header",
        ),
        // Paths.
        (
            "absolute-path",
            gz(&with(vec![file("/tmp/evil.json", b"{}")])),
            "archive-absolute-path",
        ),
        (
            "dotdot",
            gz(&with(vec![file(&root("../evil.json"), b"{}")])),
            "archive-dotdot",
        ),
        (
            "dotdot-in-ustar-prefix",
            gz(&with(vec![{
                let mut e = file("evil.json", b"{}");
                e.prefix = format!("{ROOT}/..").into_bytes();
                e
            }])),
            "archive-dotdot",
        ),
        (
            "pax-path-dotdot",
            gz(&with(vec![
                pax(&[("path", root("../../evil.json").as_bytes())]),
                file(&root("fixtures/innocent.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "pax-path-absolute",
            gz(&with(vec![
                pax(&[("path", b"/etc/cron.d/evil")]),
                file(&root("fixtures/innocent.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "pax-path-outside-root",
            gz(&with(vec![
                pax(&[("path", b"elsewhere/evil.json")]),
                file(&root("fixtures/innocent.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "gnu-long-name-dotdot",
            gz(&with(vec![
                gnu_long_name(&format!("{ROOT}/../{}", "y".repeat(120))),
                file(&root("fixtures/innocent.json"), b"{}").magic(Magic::Gnu),
            ])),
            "archive-extension-header",
        ),
        (
            "gnu-long-name-outside-root",
            gz(&tar(&[
                gnu_long_name(&format!("other-root/{}", "y".repeat(120))),
                file("other-root/short.json", b"{}").magic(Magic::Gnu),
            ])),
            "archive-extension-header",
        ),
        (
            "top-level-file",
            gz(&with(vec![file("evil.json", b"{}")])),
            "archive-outside-root",
        ),
        (
            "wrong-root",
            gz(&tar(&release_entries("0.9.0"))),
            "archive-outside-root",
        ),
        (
            "second-root",
            gz(&with(vec![dir("other"), file("other/x.json", b"{}")])),
            "archive-multiple-roots",
        ),
        (
            "dot-component",
            gz(&with(vec![file(&root("./fixtures/d.json"), b"{}")])),
            "archive-bad-path",
        ),
        (
            "empty-component",
            gz(&with(vec![file(&root("fixtures//e.json"), b"{}")])),
            "archive-bad-path",
        ),
        (
            "backslash",
            gz(&with(vec![file(&root("fixtures\\..\\e.json"), b"{}")])),
            "archive-bad-path",
        ),
        (
            "control-character",
            gz(&with(vec![file(&root("fixtures/e\n.json"), b"{}")])),
            "archive-bad-path",
        ),
        (
            "non-utf8-name",
            gz(&with(vec![Entry::new(
                b'0',
                &[ROOT.as_bytes(), b"/fixtures/\xff.json"].concat(),
                b"{}",
            )])),
            "archive-bad-path",
        ),
        // Duplicates.
        (
            "duplicate",
            gz(&with(vec![file(
                &root("manifest.json"),
                b"{\"evil\": true}",
            )])),
            "archive-duplicate",
        ),
        (
            "duplicate-via-long-name",
            gz(&with(vec![
                ustar_file(&long, b"{}"),
                gnu_long_name(&long),
                file(&root("fixtures/short.json"), b"{}").magic(Magic::Gnu),
            ])),
            "archive-extension-header",
        ),
        (
            "case-collision",
            gz(&with_last(vec![file(
                &root("fixtures/Order-Created.json"),
                b"{}",
            )])),
            "archive-case-collision",
        ),
        (
            "case-collision-directory",
            gz(&with_last(vec![file(&root("Fixtures/a.json"), b"{}")])),
            "archive-case-collision",
        ),
        (
            "file-then-inside-it",
            gz(&with(vec![
                file(&root("fixtures/f.json"), b"x"),
                file(&root("fixtures/f.json/inner.json"), b"{}"),
            ])),
            "archive-duplicate",
        ),
        // Sizes.
        (
            "entry-too-large",
            gz(&with(vec![
                file(&root("fixtures/huge.json"), b"").size(0o77777777777),
            ])),
            "archive-entry-too-large",
        ),
        // Streams.
        ("not-gzip", good.clone(), "archive-corrupt"),
        ("gzip-bad-method", gzip_header_junk, "archive-corrupt"),
        ("gzip-bad-crc", flipped_crc, "archive-corrupt"),
        ("gzip-bad-length", flipped_len, "archive-corrupt"),
        (
            "gzip-truncated-trailer",
            good_gz[..n - 4].to_vec(),
            "archive-truncated",
        ),
        (
            "gzip-truncated-deflate",
            good_gz[..n / 2].to_vec(),
            "archive-truncated",
        ),
        ("empty-file", Vec::new(), "archive-truncated"),
        (
            "gzip-second-member",
            second_member,
            "archive-trailing-garbage",
        ),
        ("gzip-trailing-bytes", trailing, "archive-trailing-garbage"),
        (
            "gzip-trailing-zeros",
            trailing_zeros,
            "archive-trailing-garbage",
        ),
        (
            "tar-garbage-after-end",
            gz(&tar_then_garbage),
            "archive-trailing-garbage",
        ),
        (
            "tar-entry-after-one-zero-block",
            gz(&hidden_entry),
            "archive-trailing-garbage",
        ),
        ("tar-one-end-block", gz(&one_end_block), "archive-truncated"),
        (
            "tar-no-end-blocks",
            gz(&tar_without_end(&release_entries(VERSION))),
            "archive-truncated",
        ),
        ("tar-entry-cut-short", gz(&cut_entry), "archive-truncated"),
        (
            "tar-bad-header-checksum",
            gz(&with(vec![bad_checksum])),
            "archive-corrupt",
        ),
        (
            "tar-v7-header",
            gz(&with(vec![
                file(&root("fixtures/v7.json"), b"{}").magic(Magic::V7),
            ])),
            "archive-ambiguous-header",
        ),
        (
            "pax-malformed",
            gz(&with(vec![
                Entry::new(b'x', b"PaxHeaders/x", b"99 path=x\n"),
                file(&root("fixtures/m.json"), b"{}"),
            ])),
            "archive-extension-header",
        ),
        (
            "pax-then-end",
            gz(&{
                let mut t = tar_without_end(&release_entries(VERSION));
                t.extend(pax(&[("path", root("fixtures/x.json").as_bytes())]).bytes());
                t.extend_from_slice(&[0u8; 1024]);
                t
            }),
            "archive-extension-header",
        ),
        (
            "directory-with-data",
            gz(&with(vec![Entry::new(
                b'5',
                root("fixtures/d/").as_bytes(),
                b"data",
            )])),
            "archive-ambiguous-header",
        ),
        // The version.
        (
            "version-mismatch",
            gz(&tar(&bad_version)),
            "archive-version-mismatch",
        ),
        (
            "version-missing",
            gz(&tar(&no_version)),
            "archive-version-mismatch",
        ),
    ];
    corpus.extend(layout_corpus());
    corpus
}

/// Paths no release has (the hostile names of issue #13): each is a canonical entry, so only the
/// layout rule refuses it.
fn layout_corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut git = release_entries(VERSION);
    git.push(dir(&root(".git")));
    git.push(file(
        &root(".git/config"),
        b"[core]\n\tfsmonitor = \"touch /tmp/pwned\"\n",
    ));
    let nfc = "fixtures/caf\u{e9}.json";
    let nfd = "fixtures/cafe\u{301}.json";
    let mut schema_as_file = release_entries(VERSION);
    schema_as_file.retain(|x| !x.name.windows(7).any(|w| w == b"/schema"));
    schema_as_file.push(file(&root("schema"), b"x"));
    let mut corpus = vec![
        ("layout-git-config", gz(&tar(&git))),
        (
            "layout-nested",
            gz(&with_last(vec![
                dir(&root("fixtures/d")),
                file(&root("fixtures/d/x.json"), b"{}"),
            ])),
        ),
        (
            "layout-nfc-nfd-twins",
            gz(&with_last(vec![
                file(&root(nfc), b"{}"),
                file(&root(nfd), b"{}"),
            ])),
        ),
        ("layout-file-as-data-dir", gz(&tar(&schema_as_file))),
    ];
    // One extra file entry each.
    for (name, path) in [
        ("layout-makefile", "Makefile"),
        ("layout-script", "run.sh"),
        ("layout-hidden-json", "fixtures/.hidden.json"),
        ("layout-hidden-top", ".hidden.json"),
        ("layout-nested-implied", "fixtures/d/x.json"),
        ("layout-nfd", nfd),
        ("layout-sigma", "fixtures/\u{3c3}.json"),
        ("layout-final-sigma", "fixtures/\u{3c2}.json"),
        ("layout-trailing-dot", "fixtures/a.json."),
        ("layout-trailing-space", "fixtures/a.json "),
        ("layout-device-nul", "fixtures/NUL.json"),
        ("layout-device-con", "fixtures/con"),
        ("layout-device-top", "con"),
        ("layout-bidi", "fixtures/a\u{202e}nosj.json"),
        ("layout-c1", "fixtures/a\u{85}b.json"),
        ("layout-not-json", "fixtures/notes.txt"),
        ("layout-dash", "fixtures/-rf.json"),
    ] {
        corpus.push((name, gz(&with_last(vec![file(&root(path), b"{}")]))));
    }
    corpus
        .into_iter()
        .map(|(name, asset)| (name, asset, "archive-layout"))
        .collect()
}

#[test]
fn the_control_archive_is_accepted_and_unpacked_with_fixed_modes() {
    let mirror = Mirror::new();
    // Files are written 0644 and directories 0755 whatever the umask (an archive asking for
    // other modes is not canonical and is refused: see the corpus).
    let entries = release_entries(VERSION);
    mirror.publish(VERSION, &gz(&tar(&entries)));
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("conformance");
    let (code, doc, stderr) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}\n{stderr}");
    assert_eq!(
        fs::read_to_string(dest.join("CONFORMANCE_VERSION")).unwrap(),
        "1.0.0\n"
    );
    let names: Vec<String> = snapshot(&dest).into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        names,
        [
            "CONFORMANCE_VERSION",
            "LICENSE",
            "fixtures",
            "fixtures/order-created.json",
            "fixtures/urn-alias.json",
            "manifest.json",
            "schema",
            "schema/message-envelope.schema.json"
        ]
    );
    for (rel, content) in snapshot(&dest) {
        let meta = fs::metadata(dest.join(&rel)).unwrap();
        let want = if content.is_some() { 0o644 } else { 0o755 };
        assert_eq!(meta.permissions().mode() & 0o7777, want, "{rel}");
        // The archive's mtime (1970) is not applied either.
        let age = SystemTime::now()
            .duration_since(meta.modified().unwrap())
            .unwrap_or_default();
        assert!(age < Duration::from_secs(3600), "{rel} has an old mtime");
    }
    let meta = fs::metadata(&dest).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o755);
    assert_eq!(meta.uid(), current_uid());
    // Only DEST is new in its parent: the staging directory is gone.
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 1);
    assert_eq!(doc["ok"], true);
}

/// The uid of the current process (the unpacked files belong to whoever fetched them).
fn current_uid() -> u32 {
    let probe = tempfile::tempfile().unwrap();
    probe.metadata().unwrap().uid()
}

#[test]
fn every_archive_of_the_corpus_is_refused_with_its_code_and_nothing_is_written() {
    let corpus = corpus();
    assert!(corpus.len() >= 25);
    let mut failures = Vec::new();
    for (name, asset, want) in &corpus {
        let mirror = Mirror::new();
        mirror.publish(VERSION, asset);
        let work = tempfile::tempdir().unwrap();
        fs::write(work.path().join("sibling.txt"), "keep").unwrap();
        let before = snapshot(work.path());
        let dest = work.path().join("dest");
        let (code, doc, stderr) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
        let got = codes(&doc);
        if code != 1 || got != [*want] {
            failures.push(format!(
                "{name}: exit {code}, codes {got:?}, want [{want}]; {stderr}"
            ));
        }
        let message = doc["diagnostics"][0]["message"].as_str().unwrap_or("");
        if message.is_empty() {
            failures.push(format!("{name}: no message"));
        }
        if snapshot(work.path()) != before || dest.exists() {
            failures.push(format!("{name}: something was written"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_refused_archive_leaves_an_existing_empty_dest_as_it_was() {
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    fs::create_dir(&dest).unwrap();
    fs::set_permissions(&dest, fs::Permissions::from_mode(0o750)).unwrap();
    for (name, asset, want) in corpus().into_iter().step_by(7) {
        let mirror = Mirror::new();
        mirror.publish(VERSION, &asset);
        let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
        assert_eq!((code, codes(&doc)), (1, vec![want.to_string()]), "{name}");
        assert_eq!(fs::read_dir(&dest).unwrap().count(), 0, "{name}");
        assert_eq!(
            fs::metadata(&dest).unwrap().permissions().mode() & 0o7777,
            0o750
        );
        assert_eq!(fs::read_dir(work.path()).unwrap().count(), 1, "{name}");
    }
    // And the control archive fills it.
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}");
    assert!(dest.join("manifest.json").is_file());
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 1);
}

/// Library calls with small limits: a decompression bomb, a total size and an entry count over
/// the cap, and an over-long download, each refused early.
#[test]
fn caps_stop_bombs_and_oversized_archives() {
    let small = Limits {
        max_entry_bytes: 1 << 20,
        max_total_bytes: 2 << 20,
        max_entries: 20,
        max_tar_bytes: 4 << 20,
        max_archive_bytes: 1 << 20,
        ..Limits::default()
    };
    let zeros = vec![0u8; 900 * 1024];
    let mut too_many = release_entries(VERSION);
    for i in 0..20 {
        too_many.push(file(&root(&format!("fixtures/{i}.json")), b"{}"));
    }
    let mut bomb_tar = tar(&release_entries(VERSION));
    bomb_tar.extend(std::iter::repeat_n(0u8, 8 << 20));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "total",
            gz(&with(vec![
                file(&root("fixtures/z1.json"), &zeros),
                file(&root("fixtures/z2.json"), &zeros),
                file(&root("fixtures/z3.json"), &zeros),
            ])),
            "archive-too-large",
        ),
        ("entries", gz(&tar(&too_many)), "archive-too-many-entries"),
        ("zero-bomb", gz(&bomb_tar), "archive-too-large"),
        (
            "download",
            {
                let mut a = control();
                a.extend(std::iter::repeat_n(7u8, 2 << 20));
                a
            },
            "archive-too-large",
        ),
    ];
    for (name, asset, want) in cases {
        assert!(asset.len() < (3 << 20), "{name} is small compressed");
        let mirror = Mirror::new();
        mirror.publish(VERSION, &asset);
        let work = tempfile::tempdir().unwrap();
        let dest = work.path().join("dest");
        let mut o = options(&mirror.url(), &dest);
        o.limits = small.clone();
        let report = fetch::fetch(&o).unwrap();
        let got: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(got, [want], "{name}: {:?}", report.diagnostics);
        assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0, "{name}");
    }
    // The same control archive passes under those limits.
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let mut o = options(&mirror.url(), &work.path().join("dest"));
    o.limits = small;
    assert!(fetch::fetch(&o).unwrap().is_clean());
}

#[test]
fn a_tampered_archive_is_a_checksum_mismatch() {
    let mirror = Mirror::new();
    let asset = control();
    mirror.publish(VERSION, &asset);
    let mut tampered = asset.clone();
    let mid = tampered.len() / 2;
    tampered[mid] ^= 0x20;
    fs::write(mirror.path().join(asset_name(VERSION)), &tampered).unwrap();
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["checksum-mismatch".to_string()])
    );
    assert!(
        doc["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains(&sha256_hex(&tampered))
    );
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_pinned_sha256_replaces_sha256sums_and_a_wrong_pin_is_refused() {
    let mirror = Mirror::new();
    let asset = control();
    let hash = mirror.publish(VERSION, &asset);
    fs::remove_file(mirror.path().join("SHA256SUMS")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let d = dest.to_str().unwrap();

    let wrong = "0".repeat(64);
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, d, "--sha256", &wrong]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["checksum-mismatch".to_string()])
    );
    assert!(!dest.exists());

    let (code, _, stderr) = fetch_json(&mirror.url(), &[VERSION, d, "--sha256", "abc"]);
    assert_eq!(code, 2, "{stderr}");

    // Without a pin, a missing SHA256SUMS means the version is not released there.
    let (code, _, stderr) = fetch_json(&mirror.url(), &[VERSION, d]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is not released at"), "{stderr}");

    let upper = hash.to_uppercase();
    let (code, doc, stderr) = fetch_json(&mirror.url(), &[VERSION, d, "--sha256", &upper]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    assert!(dest.join("manifest.json").is_file());
}

#[test]
fn sha256sums_without_the_assets_line_is_refused() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    fs::write(
        mirror.path().join("SHA256SUMS"),
        format!("{}  other.tar.gz\n", "1".repeat(64)),
    )
    .unwrap();
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["checksum-missing".to_string()])
    );
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn version_must_be_semver_and_dest_must_be_new_or_empty() {
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let d = dest.to_str().unwrap();
    let server = Server::start(|_, _| Reply::status(500));
    for version in ["latest", "v1.0.0", "1.0", "stable"] {
        let (code, _, stderr) = fetch_json(&server.base, &[version, d]);
        assert_eq!(code, 2, "{version}: {stderr}");
        assert!(stderr.contains("SemVer"), "{stderr}");
    }
    // A non-empty DEST: exit 2 before anything is downloaded, nothing written.
    fs::create_dir(&dest).unwrap();
    fs::write(dest.join("mine.txt"), "mine").unwrap();
    let before = snapshot(work.path());
    let (code, _, stderr) = fetch_json(&server.base, &[VERSION, d]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not empty"), "{stderr}");
    assert_eq!(snapshot(work.path()), before);
    // DEST is a file.
    let as_file = work.path().join("file");
    fs::write(&as_file, "x").unwrap();
    let (code, _, _) = fetch_json(&server.base, &[VERSION, as_file.to_str().unwrap()]);
    assert_eq!(code, 2);
    // An unsupported scheme is a usage error.
    let (code, _, stderr) = fetch_json("ftp://127.0.0.1/x", &[VERSION, &format!("{d}2")]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(server.requests().len(), 0, "nothing was downloaded");
    // DEST's parent does not exist: made for the download, and gone again when it fails.
    let orphan = work.path().join("no/such/parent");
    let (code, _, _) = fetch_json(&server.base, &[VERSION, orphan.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!work.path().join("no").exists());
}

fn http_assets(request: &Request, asset: &[u8]) -> Reply {
    if request.path.ends_with("/SHA256SUMS") {
        Reply::ok(&sums_for(VERSION, asset))
    } else if request.path.ends_with(&asset_name(VERSION)) {
        range_reply(asset, request)
    } else {
        Reply::status(404)
    }
}

#[test]
fn downloads_over_http_with_content_length_and_redirects() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| {
        if let Some(rest) = r.path.strip_prefix("/moved/") {
            return Reply::redirect(&format!("/v1.0.0/{rest}"));
        }
        http_assets(r, &served)
    });
    let work = tempfile::tempdir().unwrap();
    // Plain 200 responses, through the binary.
    let dest = work.path().join("a");
    let base = format!("{}/v{{version}}", server.base);
    let (code, doc, stderr) = fetch_json(&base, &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    assert!(dest.join("fixtures/order-created.json").is_file());
    let asset_request = server
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with(".tar.gz"))
        .unwrap();
    assert!(
        asset_request
            .headers
            .to_ascii_lowercase()
            .contains("accept-encoding: identity"),
        "{}",
        asset_request.headers
    );
    // 302 redirects (as GitHub release assets do), with a progress sink.
    let dest = work.path().join("b");
    let mut calls: Vec<(u64, Option<u64>)> = Vec::new();
    let report = fetch::fetch_with_progress(
        &options(&format!("{}/moved", server.base), &dest),
        &mut |done, total| calls.push((done, total)),
    )
    .unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert!(dest.join("manifest.json").is_file());
    assert_eq!(
        server.count("/moved/babelqueue-conformance-1.0.0.tar.gz"),
        1
    );
    let size = asset.len() as u64;
    assert_eq!(calls.last(), Some(&(size, Some(size))), "{calls:?}");
}

#[test]
fn a_404_says_the_version_is_not_released() {
    let server = Server::start(|_, _| Reply::status(404));
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, stderr) = fetch_json(&server.base, &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2, "{doc:#}");
    assert!(
        stderr.contains("version 9.9.9 is not released at") && stderr.contains(&server.base),
        "{stderr}"
    );
    assert_eq!(server.requests().len(), 1, "a 404 is not retried");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
    // The same for a file:// mirror without the version.
    let empty = Mirror::new();
    let (code, _, stderr) = fetch_json(&empty.url(), &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("version 9.9.9 is not released at file://"),
        "{stderr}"
    );
}

#[test]
fn a_flat_http_mirror_without_the_version_says_it_is_not_released() {
    // SHA256SUMS is served (it lists another version only); the asset of 9.9.9 is a 404.
    let server = Server::start(|r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(
                format!("{}  babelqueue-conformance-1.0.0.tar.gz\n", "a".repeat(64)).as_bytes(),
            )
        } else {
            Reply::status(404)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let (code, doc, stderr) = fetch_json(&server.base, &["9.9.9", dest.to_str().unwrap()]);
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "not-released", "{doc:#}");
    assert!(
        stderr.contains("version 9.9.9 is not released at"),
        "{stderr}"
    );
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_trickling_server_fails_in_bounded_time_with_a_clear_message() {
    // One byte every 50 ms: no read ever waits long, so only the overall limits end it.
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| {
        if r.path.ends_with(".tar.gz") {
            Reply::ok(&served).trickle(Duration::from_millis(50))
        } else {
            http_assets(r, &served)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    // The overall deadline (--timeout), through the command line.
    let (code, doc, stderr) = fetch_json(
        &server.base,
        &["--timeout", "1", VERSION, dest.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["error"]["kind"], "network");
    assert!(stderr.contains("--timeout SECONDS"), "{stderr}");
    // The minimum speed, through the library with a short window.
    let mut o = options(&server.base, &dest);
    o.network.min_speed = 10_000;
    o.network.speed_window = Duration::from_millis(300);
    let err = fetch::fetch(&o).unwrap_err().to_string();
    assert!(err.contains("below the minimum of 10000 bytes/s"), "{err}");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn server_errors_and_throttling_are_retried() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, n| match (r.path.ends_with(".tar.gz"), n) {
        (true, 0) => Reply::status(503),
        (true, 1) => Reply::status(429).header("Retry-After", "3600"),
        _ => http_assets(r, &served),
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    // Retry-After (an hour) is honoured only up to the cap (100 ms here), or this would hang.
    let report = fetch::fetch(&options(&server.base, &dest)).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert_eq!(server.count("/babelqueue-conformance-1.0.0.tar.gz"), 3);
    assert!(dest.join("manifest.json").is_file());
}

#[test]
fn retries_give_up_with_exit_2_and_nothing_written() {
    let server = Server::start(|r, _| {
        if r.path.ends_with("SHA256SUMS") {
            Reply::ok(&sums_for(VERSION, b"x"))
        } else {
            Reply::status(503)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let err = fetch::fetch(&options(&server.base, &dest)).unwrap_err();
    assert!(
        err.to_string().contains("gave up after 4 attempts"),
        "{err}"
    );
    assert_eq!(server.count("/babelqueue-conformance-1.0.0.tar.gz"), 4);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
    // A 4xx other than 404/408/429 is not retried.
    let forbidden = Server::start(|_, _| Reply::status(403));
    assert!(fetch::fetch(&options(&forbidden.base, &dest)).is_err());
    assert_eq!(forbidden.requests().len(), 1);
}

#[test]
fn connection_failures_and_stalls_are_bounded() {
    // Nothing listens on this port once the listener is dropped.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let err = fetch::fetch(&options(&format!("http://127.0.0.1:{port}"), &dest)).unwrap_err();
    assert!(
        err.to_string().contains("gave up after 4 attempts"),
        "{err}"
    );
    // A server that accepts and never answers: the read timeout ends each try.
    let server = Server::start(|_, _| Reply::stall(Duration::from_secs(30)));
    let mut o = options(&server.base, &dest);
    o.network.read_timeout = Duration::from_millis(300);
    o.network.attempts = 2;
    assert!(fetch::fetch(&o).is_err());
    assert_eq!(server.requests().len(), 2);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

#[test]
fn a_dropped_transfer_resumes_with_a_range_request() {
    // Big enough that the cut happens mid-body.
    let mut entries = release_entries(VERSION);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..300_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    entries.insert(4, file(&root("fixtures/noise.json"), &noise)); // in release order
    let asset = gz(&tar(&entries));
    assert!(asset.len() > 200_000);
    let served = asset.clone();
    let server = Server::start(move |r, n| {
        if r.path.ends_with(".tar.gz") && n == 0 {
            Reply::ok(&served).header("ETag", "\"v1\"").cut(100_000)
        } else {
            http_assets(r, &served)
        }
    });
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("dest");
    let report = fetch::fetch(&options(&server.base, &dest)).unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    assert_eq!(fs::read(dest.join("fixtures/noise.json")).unwrap(), noise);
    let tries: Vec<Request> = server
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with(".tar.gz"))
        .collect();
    assert_eq!(tries.len(), 2);
    assert_eq!(tries[1].range, Some(100_000));
    assert!(
        tries[1].headers.contains("\"v1\""),
        "If-Range: {}",
        tries[1].headers
    );

    // A server that ignores Range cannot resume: exit 2, nothing written.
    let served = asset.clone();
    let stubborn = Server::start(move |r, n| {
        if r.path.ends_with(".tar.gz") {
            if n == 0 {
                Reply::ok(&served).cut(100_000)
            } else {
                Reply::ok(&served)
            }
        } else {
            http_assets(r, &served)
        }
    });
    let dest = work.path().join("dest2");
    let err = fetch::fetch(&options(&stubborn.base, &dest)).unwrap_err();
    assert!(err.to_string().contains("cannot resume"), "{err}");
    assert!(!dest.exists());
}

#[test]
fn content_length_over_the_cap_is_refused_before_reading() {
    let asset = control();
    let served = asset.clone();
    let server = Server::start(move |r, _| http_assets(r, &served));
    let work = tempfile::tempdir().unwrap();
    let mut o = options(&server.base, &work.path().join("dest"));
    o.limits.max_archive_bytes = 100;
    let report = fetch::fetch(&o).unwrap();
    let got: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(got, ["archive-too-large"]);
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
}

/// A vendored copy made from the control archive (without LICENSE, as sync.sh vendors).
fn vendored(work: &Path, mirror: &Mirror) -> std::path::PathBuf {
    let dir = work.join("conformance");
    let (code, doc, _) = fetch_json(&mirror.url(), &[VERSION, dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}");
    fs::remove_file(dir.join("LICENSE")).unwrap();
    dir
}

fn check(mirror: &Mirror, dir: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--check", VERSION, dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    let before = snapshot(dir.parent().unwrap());
    let (code, doc, stderr) = fetch_json(&mirror.url(), &args);
    assert_eq!(
        snapshot(dir.parent().unwrap()),
        before,
        "--check wrote something"
    );
    assert!(doc.is_object(), "{stderr}");
    (code, doc)
}

/// The per-file findings (code, severity, file); a drifted copy's one summary finding
/// (`copy-drift`, first) is checked to be there, with the fix, and left out.
fn findings(doc: &Value) -> Vec<(String, String, String)> {
    let all = doc["diagnostics"].as_array().unwrap();
    let drifted = all
        .iter()
        .any(|d| d["code"].as_str().unwrap().starts_with("drift-"));
    assert_eq!(
        all.first().is_some_and(|d| d["code"] == "copy-drift"),
        drifted,
        "{doc:#}"
    );
    if drifted {
        assert!(
            all[0]["help"].as_str().unwrap().contains("fetch --update"),
            "{doc:#}"
        );
    }
    all.iter()
        .filter(|d| d["code"] != "copy-drift")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn check_passes_on_an_identical_copy_and_ignores_license_and_notes_unmanaged_files() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(findings(&doc), vec![]);
    // LICENSE (not vendored) is ignored; an SDK's own test file is a note, not drift.
    fs::write(dir.join("LICENSE"), "a different license").unwrap();
    fs::write(dir.join("ConformanceTest.php"), "<?php").unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        findings(&doc),
        vec![(
            "unmanaged-file".into(),
            "note".into(),
            "ConformanceTest.php".into()
        )]
    );
    // Human output says so too.
    let out = run(
        &mirror.url(),
        &["fetch", "--check", VERSION, dir.to_str().unwrap()],
    );
    assert_eq!(kit::code(&out), 0);
    let text = kit::stdout(&out);
    assert!(
        text.contains(&format!("matches release {VERSION}")),
        "{text}"
    );
}

#[test]
fn check_lists_changed_missing_and_extra_files_with_diffs() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    fs::write(
        dir.join("fixtures/order-created.json"),
        "{\n  \"job\": \"orders.cancelled\",\n  \"data\": {\"id\": 1}\n}\n",
    )
    .unwrap();
    fs::remove_file(dir.join("schema/message-envelope.schema.json")).unwrap();
    fs::write(dir.join("fixtures/local-only.json"), "{}").unwrap();
    fs::write(dir.join("manifest.json"), [0xff, 0xfe, 0x00]).unwrap();
    let (code, doc) = check(&mirror, &dir, &["--diff"]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&doc),
        vec![
            (
                "drift-extra".into(),
                "error".into(),
                "fixtures/local-only.json".into()
            ),
            (
                "drift-changed".into(),
                "error".into(),
                "fixtures/order-created.json".into()
            ),
            (
                "drift-changed".into(),
                "error".into(),
                "manifest.json".into()
            ),
            (
                "drift-missing".into(),
                "error".into(),
                "schema/message-envelope.schema.json".into()
            ),
        ]
    );
    let diff = doc["diagnostics"][2]["detail"].as_str().unwrap();
    assert!(
        diff.contains("-  \"job\": \"orders.created\",")
            && diff.contains("+  \"job\": \"orders.cancelled\",")
            && diff.contains("@@"),
        "{diff}"
    );
    let binary = doc["diagnostics"][3]["detail"].as_str().unwrap();
    assert!(binary.contains("binary files differ"), "{binary}");
    // Without --diff: the same findings, no detail.
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 1);
    assert!(doc["diagnostics"][2]["detail"].is_null());
    assert_eq!(findings(&doc).len(), 4);
}

#[test]
fn check_reports_type_changes_and_never_follows_links() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    // schema/ replaced by a link to an identical copy elsewhere: still drift.
    let elsewhere = work.path().join("elsewhere");
    fs::rename(dir.join("schema"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.join("schema")).unwrap();
    // A file replaced by a link to identical content.
    let target = work.path().join("urn.json");
    fs::copy(dir.join("fixtures/urn-alias.json"), &target).unwrap();
    fs::remove_file(dir.join("fixtures/urn-alias.json")).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("fixtures/urn-alias.json")).unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&doc),
        vec![
            (
                "drift-type".into(),
                "error".into(),
                "fixtures/urn-alias.json".into()
            ),
            ("drift-type".into(), "error".into(), "schema".into()),
        ]
    );
}

#[test]
fn check_of_a_refused_or_tampered_archive_reports_the_archive_not_drift() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let dir = vendored(work.path(), &mirror);
    fs::write(dir.join("manifest.json"), "changed").unwrap();
    let mirror2 = Mirror::new();
    mirror2.publish(
        VERSION,
        &gz(&with(vec![
            Entry::new(b'2', root("fixtures/l.json").as_bytes(), b"").link("/etc/passwd"),
        ])),
    );
    let (code, doc) = check(&mirror2, &dir, &[]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["archive-symlink".to_string()])
    );
    let mut tampered = control();
    let mid = tampered.len() / 2;
    tampered[mid] ^= 1;
    fs::write(mirror.path().join(asset_name(VERSION)), tampered).unwrap();
    let (code, doc) = check(&mirror, &dir, &[]);
    assert_eq!(
        (code, codes(&doc)),
        (1, vec!["checksum-mismatch".to_string()])
    );
    // A missing directory is exit 2.
    let (code, _, _) = fetch_json(
        &mirror.url(),
        &[
            "--check",
            VERSION,
            work.path().join("nope").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
}

#[test]
fn the_comparison_is_reusable_on_two_directories() {
    let mirror = Mirror::new();
    mirror.publish(VERSION, &control());
    let work = tempfile::tempdir().unwrap();
    let canonical = work.path().join("canonical");
    let (code, _, _) = fetch_json(&mirror.url(), &[VERSION, canonical.to_str().unwrap()]);
    assert_eq!(code, 0);
    let copy = work.path().join("copy");
    kit::copy_tree(&canonical, &copy);
    let opts = fetch::CompareOptions {
        diff: true,
        expected_label: "the canonical suite".into(),
        ..Default::default()
    };
    let same = fetch::compare_dirs(&canonical, &copy, &opts).unwrap();
    assert!(
        same.is_clean() && same.findings.is_empty(),
        "{:?}",
        same.findings
    );
    assert_eq!(same.matched, 5);
    fs::write(copy.join("fixtures/urn-alias.json"), "{}").unwrap();
    let drift = fetch::compare_dirs(&canonical, &copy, &opts).unwrap();
    assert_eq!(drift.findings.len(), 1);
    assert_eq!(drift.findings[0].code.as_str(), "drift-changed");
    assert!(drift.findings[0].message.contains("the canonical suite"));
}

#[test]
fn fetch_check_of_the_bundled_suite_against_its_own_release_is_clean() {
    let suite = kit::bundled_suite();
    let version = kit::bundled_version();
    let dist = tempfile::tempdir().unwrap();
    kit::released(&suite, dist.path());
    let base = kit::file_url(dist.path());
    let (code, doc, stderr) = fetch_json(&base, &["--check", &version, suite.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    // Clean: suite/ is byte for byte the release (the targets file sits at the repository root),
    // so there is not even a note about a file outside the vendored set.
    assert!(findings(&doc).is_empty(), "{doc:#}");
    // The real published release kept in the tests checks clean against it too while suite/ is
    // that release, byte for byte (until the proposal is adopted: then no real release has its
    // version yet).
    let real = real_release(&version);
    if real.is_dir() {
        let args = ["--check", &version, real.to_str().unwrap()];
        let (code, doc, stderr) = fetch_json(&base, &args);
        assert_eq!(code, 0, "{doc:#} {stderr}");
        assert!(findings(&doc).is_empty(), "{doc:#}");
    }
    // And it unpacks to the same vendored set.
    let work = tempfile::tempdir().unwrap();
    let dest = work.path().join("conformance");
    let (code, doc, stderr) = fetch_json(&base, &[&version, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#} {stderr}");
    let same = fetch::compare_dirs(&suite, &dest, &fetch::CompareOptions::default()).unwrap();
    assert!(same.findings.is_empty(), "{:?}", same.findings);
}

/// Thousands of damaged archives (bytes flipped in the tar stream, then gzipped; or in the gzip
/// stream itself; or cut anywhere): every one is refused or accepted, none panics or hangs, and
/// an accepted one has the control's listing.
#[test]
fn random_damage_never_panics_or_hangs() {
    use bqsuite_suite::archive::verify::{self, Discard, Summary};
    let limits = Limits::default();
    let run = |bytes: &[u8]| -> Result<Summary, verify::Fault> {
        let mut input = std::io::BufReader::new(bytes);
        verify::verify(
            &mut input,
            &verify::Expected::babelqueue(),
            VERSION,
            &limits,
            &mut Discard,
        )
    };
    let plain = tar(&release_entries(VERSION));
    let packed = gz(&plain);
    let control = run(&packed).expect("the control archive is accepted");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut refused, mut accepted) = (0, 0);
    for round in 0..3000 {
        let damaged = match round % 3 {
            0 => {
                let mut t = plain.clone();
                for _ in 0..=(next() % 4) {
                    let i = (next() as usize) % t.len();
                    t[i] = next() as u8;
                }
                gz(&t)
            }
            1 => {
                let mut g = packed.clone();
                let i = (next() as usize) % g.len();
                g[i] ^= 1 << (next() % 8);
                g
            }
            _ => packed[..(next() as usize) % packed.len()].to_vec(),
        };
        match run(&damaged) {
            Ok(summary) => {
                // A flip in file content, padding or an ignored header field (mtime, owner) is
                // not the verifier's to see (the sha256 is); the listing is then the control's.
                assert_eq!(summary, control, "round {round}");
                accepted += 1;
            }
            Err(_) => refused += 1,
        }
    }
    assert!(refused > 2000, "{refused} refused, {accepted} accepted");
}

/// The first vendoring into a new SDK repository: DEST's missing parents are made as `mkdir -p`
/// would, never through a link, and removed again when the fetch writes nothing.
#[test]
fn fetch_makes_the_missing_parents_of_dest_and_leaves_none_behind_on_failure() {
    let work = tempfile::tempdir().unwrap();
    let good = Mirror::new();
    good.publish(VERSION, &control());
    let dest = work.path().join("sdk/tests/conformance");
    let (code, doc, stderr) = fetch_json(&good.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 0, "{doc:#}\n{stderr}");
    assert!(dest.join("manifest.json").is_file());
    for made in ["sdk", "sdk/tests"] {
        let meta = fs::symlink_metadata(work.path().join(made)).unwrap();
        assert!(meta.is_dir(), "{made}");
    }

    // A refused asset: nothing written, not even the parents.
    let (_, bad, _) = corpus().into_iter().next().unwrap();
    let refused = Mirror::new();
    refused.publish(VERSION, &bad);
    let dest = work.path().join("other/tests/conformance");
    let (code, doc, _) = fetch_json(&refused.url(), &[VERSION, dest.to_str().unwrap()]);
    assert_eq!(code, 1, "{doc:#}");
    assert!(!work.path().join("other").exists());

    // A parent that is a file, or a link to nowhere: exit 2, nothing made through them.
    fs::write(work.path().join("file"), "x").unwrap();
    std::os::unix::fs::symlink(work.path().join("nowhere"), work.path().join("dangling")).unwrap();
    for parent in ["file/sub", "dangling/sub"] {
        let dest = work.path().join(parent).join("conformance");
        let (code, doc, _) = fetch_json(&good.url(), &[VERSION, dest.to_str().unwrap()]);
        assert_eq!(code, 2, "{parent}: {doc:#}");
        let message = doc["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(message.contains("is not a directory"), "{parent}: {doc:#}");
    }
    assert!(!work.path().join("nowhere").exists());
}
