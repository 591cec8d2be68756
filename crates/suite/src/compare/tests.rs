//! The comparer on small trees: every kind of drift, links never followed.

use super::*;

fn options() -> CompareOptions {
    CompareOptions {
        diff: true,
        expected_label: "release 1.0.0".into(),
        keep_manifest: false,
    }
}

fn map(entries: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    entries
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect()
}

#[test]
fn vendored_set() {
    assert!(is_vendored("manifest.json"));
    assert!(is_vendored("fixtures/a.json"));
    assert!(is_vendored("schema"));
    assert!(!is_vendored("LICENSE"));
    assert!(!is_vendored("manifest.json/x"));
    assert!(!is_vendored("fixturesx/a.json"));
}

#[test]
fn identical_changed_missing_extra_unmanaged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("fixtures")).unwrap();
    fs::write(d.join("CONFORMANCE_VERSION"), "1.0.0\n").unwrap();
    fs::write(d.join("fixtures/a.json"), "{\"a\": 1}\n").unwrap();
    fs::write(d.join("fixtures/extra.json"), "{}").unwrap();
    fs::write(d.join("LICENSE"), "x").unwrap();
    fs::write(d.join("ConformanceTest.php"), "<?php").unwrap();
    let expected = map(&[
        ("CONFORMANCE_VERSION", "1.0.0\n"),
        ("fixtures/a.json", "{\"a\": 2}\n"),
        ("manifest.json", "{}"),
        ("LICENSE", "ignored"),
    ]);
    let c = compare_files(&expected, d, &options()).unwrap();
    let codes: Vec<(&str, &str)> = c
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.file.as_str()))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("unmanaged-file", "ConformanceTest.php"),
            ("drift-changed", "fixtures/a.json"),
            ("drift-extra", "fixtures/extra.json"),
            ("drift-missing", "manifest.json"),
        ]
    );
    assert_eq!(c.matched, 1);
    let diff = c.findings[1].detail.as_deref().unwrap();
    assert!(
        diff.contains("-{\"a\": 2}") && diff.contains("+{\"a\": 1}"),
        "{diff}"
    );
    assert!(!c.is_clean());
}

#[test]
fn without_diff_a_longer_or_shorter_file_with_the_same_start_is_changed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("fixtures")).unwrap();
    fs::write(d.join("fixtures/same.json"), "{\"a\": 1}").unwrap();
    fs::write(d.join("fixtures/longer.json"), "{\"a\": 1}\n").unwrap();
    fs::write(d.join("fixtures/shorter.json"), "{\"a\"").unwrap();
    fs::write(d.join("fixtures/empty.json"), "").unwrap();
    let expected = map(&[
        ("fixtures/same.json", "{\"a\": 1}"),
        ("fixtures/longer.json", "{\"a\": 1}"),
        ("fixtures/shorter.json", "{\"a\": 1}"),
        ("fixtures/empty.json", ""),
    ]);
    let plain = CompareOptions {
        diff: false,
        expected_label: "release 1.0.0".into(),
        keep_manifest: false,
    };
    let c = compare_files(&expected, d, &plain).unwrap();
    let changed: Vec<(&str, &str)> = c
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.file.as_str()))
        .collect();
    assert_eq!(
        changed,
        [
            ("drift-changed", "fixtures/longer.json"),
            ("drift-changed", "fixtures/shorter.json")
        ]
    );
    assert!(
        c.findings[0].message.contains("9 bytes here, 8 in"),
        "{}",
        c.findings[0].message
    );
    assert_eq!(c.matched, 2);
}

#[cfg(unix)]
#[test]
fn links_are_drift_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    fs::write(elsewhere.path().join("a.json"), "same").unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("fixtures")).unwrap();
    let c = compare_files(&map(&[("fixtures/a.json", "same")]), dir.path(), &options()).unwrap();
    assert_eq!(c.findings.len(), 1, "{:?}", c.findings);
    assert_eq!(c.findings[0].code.as_str(), "drift-type");
    assert_eq!(c.findings[0].file, "fixtures");
}
