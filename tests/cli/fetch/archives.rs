//! `bqsuite fetch` refusing unsafe or damaged archives: every asset is the control archive with
//! one thing wrong, and nothing is written for any of them.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::{Duration, SystemTime};

use bqsuite::commands::fetch::{self, Limits};

use super::corpus::corpus;
use super::download::*;
use crate::kit::server::*;
use crate::kit::tarball::*;
use crate::kit::{sha256_hex, snapshot};

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
