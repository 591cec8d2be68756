use super::*;
use serde_json::json;

pub(crate) fn rules() -> SuiteRules {
    let manifest = json!({
        "conformance_version": "1.5.0",
        "sections": {"cases": {"scope": "core"}, "asb": {"scope": "asb"}, "delay": {"scope": "sqs"}, "sqs": {"scope": "sqs"}},
        "exceptions": [{"family": "php", "binding": "asb", "adr": "ADR-0021"}],
        "cases": [{"name": "a"}, {"name": "b"}],
        "asb": {"x": {}},
        "sqs": {"g": {"cases": [{"name": "v1"}, {}]}},
        "delay": {"cases": [{}]}
    });
    let schema = json!({"$schema": DRAFT_2020_12, "type": "object"});
    let validator = schema::compile_for_draft(&schema, DRAFT_2020_12, false).unwrap();
    SuiteRules::from_manifest(
        SuiteKind::babelqueue(),
        &manifest,
        "1.5.0".into(),
        validator,
    )
}

fn codes(text: &str) -> Vec<&'static str> {
    let tree = json::parse(text).unwrap();
    check_tree(&rules(), "f", &tree)
        .findings
        .iter()
        .map(|d| d.code.as_str())
        .collect()
}

#[test]
fn findings_are_capped_but_all_counted() {
    let cases: serde_json::Map<String, Value> = (0..1500)
        .map(|i| (format!("x{i}"), json!({"status": "pass"})))
        .collect();
    let doc = json!({"conformance_version": "1.5.0", "bindings": [],
                     "sections": {"cases": cases}});
    let tree = json::parse(&doc.to_string()).unwrap();
    let fc = check_tree(&rules(), "f", &tree);
    // 1500 unknown ids and the two missing cases.
    assert_eq!(fc.reasons, 1502);
    assert_eq!(fc.findings.len(), MAX_FINDINGS_PER_FILE + 1);
    let last = fc.findings.last().unwrap();
    assert_eq!(last.code.as_str(), "results-findings-truncated");
    assert!(
        last.message.starts_with("502 more findings"),
        "{}",
        last.message
    );
    assert_eq!(fc.verdict(), "NOT Compatible (1502 reasons)");
}

#[test]
fn ids_and_scopes_come_from_the_manifest() {
    let r = rules();
    assert_eq!(r.section("sqs").unwrap().ids, ["g/v1", "g/1"]);
    assert_eq!(r.section("delay").unwrap().ids, ["delay#0"]);
    assert_eq!(r.section("delay").unwrap().scope, "sqs");
    assert!(r.exception(Some("PHP"), "asb").is_some());
    assert!(r.exception(None, "asb").is_none());
}

#[test]
fn a_complete_core_file_is_compatible() {
    assert!(codes(r#"{"conformance_version": "1.5.0", "bindings": [], "sections": {"cases": {"a": {"status": "pass"}, "b": {"status": "skip", "reason": "ADR-0001"}}}}"#).is_empty());
}

#[test]
fn each_reason_has_its_code() {
    let found = codes(
        r#"{"sdk": "php-sdk", "conformance_version": "1.4.0", "bindings": ["asb", "sqs", "nats"],
           "sections": {"cases": {"a": {"status": "fail"}, "zz": {"status": "pass"}},
                        "asb": {"x": {"status": "pass"}},
                        "sqs": {"g/v1": {"status": "skip", "reason": "n/a"}, "g/1": {"status": "pass"}},
                        "extra": {}}}"#,
    );
    for code in [
        "results-version",
        "results-binding-excepted",
        "results-binding-unknown",
        "results-case-failed",
        "results-case-unknown",
        "results-case-missing",
        "results-section-out-of-scope",
        "results-skip-without-adr",
        "results-section-missing",
        "results-section-unknown",
    ] {
        assert!(found.contains(&code), "{code} not in {found:?}");
    }
}
