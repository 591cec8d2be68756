//! The archives `fetch` must refuse: the control release with one thing wrong in each.
#![cfg(unix)]

use super::download::*;
use crate::kit::tarball::*;

/// The adversarial corpus: (name, gzip asset, expected code). Every asset is the control
/// archive with one thing wrong.
pub(super) fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
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

/// Paths no release has (the hostile names a crafted asset carries): each is a canonical entry,
/// so only the
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
