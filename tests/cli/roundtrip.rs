//! Properties of release and fetch (issue #13), over generated suites:
//!
//! * any suite tree that `validate` passes round-trips through `release` and `fetch` byte for
//!   byte (every vendored file, plus the LICENSE release adds);
//! * any single-byte change to the asset is refused: against the published SHA256SUMS always;
//!   and when the checksums are rewritten to match, the verifier refuses it or (a deflate bit
//!   that does not change the output) what it unpacks is byte for byte the release.
//!
//! The suites are the bundled one with generated edits: descriptions of any printable text,
//! new fixtures with generated names and data, compact or CRLF formatting. Everything runs in
//! process through the library, against a file:// mirror.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use bqsuite_suite::archive::{self, verify};
use bqsuite_suite::kind::Kind;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::kit;
use crate::kit::{bundled_version, files, real_release};

/// Edits applied to a copy of the bundled suite.
#[derive(Debug, Clone)]
struct Edits {
    /// (roundtrip case index, new description)
    descriptions: Vec<(usize, String)>,
    /// New roundtrip fixtures: name stem -> data object.
    fixtures: BTreeMap<String, BTreeMap<String, Value>>,
    compact: bool,
    crlf: bool,
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
    ]
}

fn data() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("\\PC{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn edits() -> impl Strategy<Value = Edits> {
    (
        prop::collection::vec((0usize..64, "\\PC{1,40}"), 0..4),
        prop::collection::btree_map(
            "[a-z0-9][a-z0-9_.-]{0,24}",
            prop::collection::btree_map("\\PC{1,10}", data(), 0..5),
            0..3,
        ),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(descriptions, fixtures, compact, crlf)| Edits {
            descriptions,
            fixtures,
            compact,
            crlf,
        })
}

/// A copy of the bundled suite (with LICENSE beside it) with `edits` applied.
fn build(edits: &Edits) -> kit::SuiteCopy {
    let s = kit::SuiteCopy::new();
    let mut manifest = s.read_json("manifest.json");
    let envelope = s.read_json("fixtures/empty-data-roundtrip.json");
    {
        let cases = manifest["roundtrip"]["cases"].as_array_mut().unwrap();
        for (i, text) in &edits.descriptions {
            let n = cases.len();
            cases[i % n]["description"] = text.clone().into();
        }
        for (stem, data) in &edits.fixtures {
            let rel = format!("fixtures/gen-{stem}.json");
            let data: serde_json::Map<String, Value> = data.clone().into_iter().collect();
            let mut fixture = envelope.clone();
            fixture["data"] = Value::Object(data.clone());
            fs::write(
                s.file(&rel),
                serde_json::to_string_pretty(&fixture).unwrap(),
            )
            .unwrap();
            cases.push(json!({
                "name": format!("generated-{stem}"),
                "file": rel,
                "description": "Generated data comes back unchanged.",
                "expect_attempts": 1,
                "expect_preserved": { "/data": data },
            }));
        }
    }
    let mut text = if edits.compact {
        serde_json::to_string(&manifest).unwrap()
    } else {
        serde_json::to_string_pretty(&manifest).unwrap()
    };
    text.push('\n');
    if edits.crlf {
        text = text.replace('\n', "\r\n");
    }
    s.write("manifest.json", &text);
    s
}

/// What the suite vendors (the released set), plus the LICENSE release adds.
fn expected(s: &kit::SuiteCopy) -> BTreeMap<String, Vec<u8>> {
    let mut want: BTreeMap<String, Vec<u8>> = files(&s.path())
        .into_iter()
        .filter(|(rel, _)| bqsuite_suite::load::is_vendored(rel))
        .collect();
    want.insert(
        "LICENSE".into(),
        fs::read(s.dir.path().join(kit::SUITE_LICENSE)).unwrap(),
    );
    want
}

/// Releases `suite` into `out`; the asset's bytes.
fn release(suite: &Path, out: &Path) -> Vec<u8> {
    let version = fs::read_to_string(suite.join("CONFORMANCE_VERSION")).unwrap();
    let report = bqsuite::commands::release::release(&bqsuite::commands::release::Options {
        suite: suite.to_path_buf(),
        out: out.to_path_buf(),
        tag: None,
        allow_pre: false,
    })
    .unwrap();
    assert!(report.is_clean(), "{:?}", report.diagnostics);
    fs::read(out.join(Kind::babelqueue().asset_name(version.trim()))).unwrap()
}

/// Fetches from the mirror directory `mirror` into `dest`: whether the report was clean.
fn fetch(mirror: &Path, dest: &Path) -> bool {
    let options = bqsuite::commands::fetch::Options {
        version: bundled_version(),
        dest: dest.to_path_buf(),
        base_url: Some(format!("file://{}", mirror.display())),
        ..Default::default()
    };
    match bqsuite::commands::fetch::fetch(&options) {
        Ok(report) => report.is_clean(),
        Err(e) => panic!("fetch could not run: {e}"),
    }
}

/// A mirror holding `asset` and a SHA256SUMS giving `sums_for`'s hash.
fn mirror(dir: &Path, asset: &[u8], sums_for: &[u8]) -> PathBuf {
    let name = Kind::babelqueue().asset_name(&bundled_version());
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join(&name), asset).unwrap();
    fs::write(
        dir.join("SHA256SUMS"),
        archive::sums_line(&archive::sha256_hex(sums_for), &name),
    )
    .unwrap();
    dir.to_path_buf()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_valid_suite_round_trips_and_a_changed_byte_is_refused(
        edits in edits(),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let s = build(&edits);
        let report = bqsuite::commands::validate::validate(&s.path()).unwrap();
        prop_assume!(report.is_clean(), "{:?}", report.diagnostics);

        let work = tempfile::tempdir().unwrap();
        let asset = release(&s.path(), &work.path().join("dist"));
        let dest = work.path().join("vendored");
        prop_assert!(fetch(&work.path().join("dist"), &dest));
        prop_assert_eq!(files(&dest), expected(&s));

        let mut changed = asset.clone();
        let i = at.index(changed.len());
        changed[i] ^= flip;
        // Against the published checksums: refused, nothing written.
        let published = mirror(&work.path().join("m1"), &changed, &asset);
        let dest = work.path().join("d1");
        prop_assert!(!fetch(&published, &dest));
        prop_assert!(!dest.exists());
        // With checksums rewritten to match: refused, or exactly the release unpacked.
        let rewritten = mirror(&work.path().join("m2"), &changed, &changed);
        let dest = work.path().join("d2");
        if fetch(&rewritten, &dest) {
            prop_assert_eq!(files(&dest), expected(&s), "byte {} ^ {:#x}", i, flip);
        } else {
            prop_assert!(!dest.exists());
        }
    }
}

/// The asset's bytes changed one at a time (two ways each, at the positions `at` picks), through
/// the verifier: each is refused, or (a deflate bit that does not change the output) unpacks to
/// the identical files. Returns how many positions were tried.
fn single_byte_changes_are_refused_or_change_nothing(
    asset: &[u8],
    version: &str,
    at: impl Fn(usize) -> bool,
) -> usize {
    let unpack = |asset: &[u8]| {
        let mut sink = verify::Collect::default();
        verify::verify(
            asset,
            &verify::Expected::babelqueue(),
            version,
            &verify::Limits::default(),
            &mut sink,
        )
        .ok()
        .map(|_| sink.files)
    };
    let original = unpack(asset).expect("the release verifies");
    let (mut refused, mut inert, mut tried) = (0, 0, 0);
    for i in (0..asset.len()).filter(|&i| at(i)) {
        tried += 1;
        for flip in [0x01u8, 0xff] {
            let mut changed = asset.to_vec();
            changed[i] ^= flip;
            match unpack(&changed) {
                None => refused += 1,
                Some(files) => {
                    assert_eq!(
                        files, original,
                        "byte {i} ^ {flip:#x} changed what is unpacked"
                    );
                    // Inside the deflate stream, or a gzip header field no decoder reads (the
                    // text flag, MTIME, XFL, OS); never the trailer or another header byte.
                    let ignored_header_field = (i == 3 && flip == 0x01) || (4..10).contains(&i);
                    assert!(
                        ignored_header_field || (10..asset.len() - 8).contains(&i),
                        "byte {i} ^ {flip:#x} accepted"
                    );
                    inert += 1;
                }
            }
        }
    }
    assert!(
        refused > 0 && inert * 100 < refused,
        "{refused} refused, {inert} inert"
    );
    tried
}

/// Every byte of a real release's asset, changed two ways, through the verifier. Exhaustive
/// over the asset of the real 1.4.0 (16,838 bytes, 28 files): the newest real release small
/// enough for it. The 1.8.0 asset is 39,530 bytes of a suite three times larger: every byte of it
/// took 650 s in a debug build (79,039 refused, 21 inert), so 1.8.0's is sampled below.
#[test]
fn every_single_byte_change_of_a_real_asset_is_refused_or_changes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let suite = work.path().join("suite");
    kit::copy_tree(&real_release("1.4.0"), &suite);
    fs::copy(kit::suite_license(), work.path().join(kit::SUITE_LICENSE)).unwrap();
    let asset = release(&suite, &work.path().join("dist"));
    let tried = single_byte_changes_are_refused_or_change_nothing(&asset, "1.4.0", |_| true);
    assert_eq!(tried, asset.len());
}

/// The bundled suite's asset (the real 1.8.0): every byte of the gzip header and trailer and of
/// the first and last 512 bytes of the deflate stream, and every 41st byte between: about 2,000
/// positions of its 39,530 bytes (about 20 s of CPU in a debug build). Releasing it needs the
/// suite to validate clean, so this needs the redis_layout evaluator.
#[test]
fn single_byte_changes_of_the_bundled_asset_are_refused_or_change_nothing() {
    let s = kit::SuiteCopy::new();
    let work = tempfile::tempdir().unwrap();
    let asset = release(&s.path(), work.path());
    let len = asset.len();
    let tried =
        single_byte_changes_are_refused_or_change_nothing(&asset, &bundled_version(), |i| {
            i < 10 + 512 || i >= len - 8 - 512 || i % 41 == 0
        });
    // Not a vacuous sample: the edges and a 41st of the rest.
    assert!(
        tried >= 1040 + (len - 1040) / 41 - 1,
        "{tried} positions of {len}"
    );
}
