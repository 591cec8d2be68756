//! `bqsuite validate`: the bundled suite is sound, and each kind of breakage in a copy of it is
//! reported with exit 1, its stable code and the exact file and place. The bundled suite is the
//! real published 1.8.0; each breakage is made on a real case, fixture or manifest entry.
//!
//! Depends on the `redis_layout` evaluator landing: until it does, validate reports `case-shape`
//! errors in `redis_layout`, so the tests that expect a clean bundled suite
//! (`bundled_suite_is_sound`, `json_output_of_a_clean_suite`, `pre_release_version_is_semver`,
//! `urn_alias_is_exempt_from_the_producer_schema`) fail.

mod fields;
mod since;
mod streaming;

use serde_json::{Value, json};

use crate::kit::*;

/// The verdict is one sentence naming what was found sound: `ok: suite is sound (N cases in M
/// sections)`, with the counts of `--format json`.
#[test]
fn bundled_suite_is_sound() {
    let out = bqsuite(&["validate"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let data = json(&bqsuite(&["validate", "--format", "json"]))["data"].clone();
    let text = stdout(&out);
    assert_eq!(
        text.lines().last().unwrap(),
        format!(
            "ok: suite is sound ({} cases in {} sections)",
            data["cases"], data["sections"]
        ),
        "{text}"
    );
}

#[test]
fn json_output_of_a_clean_suite() {
    let (exit, diags) = validate_json(&bundled_suite());
    assert_eq!(exit, 0, "{diags:#?}");
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn missing_directory_cannot_run() {
    let out = bqsuite(&["validate", "/nonexistent/suite"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("/nonexistent/suite"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn syntax_error_has_line_and_column() {
    let s = SuiteCopy::new();
    s.write(
        "fixtures/order-created.json",
        "{\n  \"job\": \"x\",\n  \"data\": {,\n}\n",
    );
    let d = assert_finding(
        &s.path(),
        "json-syntax",
        &[("file", "fixtures/order-created.json")],
    );
    assert_eq!(d["line"], 3);
    assert_eq!(d["column"], 12);
}

#[test]
fn manifest_syntax_error_is_reported_not_fatal() {
    let s = SuiteCopy::new();
    let text = std::fs::read_to_string(s.file("manifest.json")).unwrap();
    s.write(
        "manifest.json",
        &text.replacen("\"schema_version\": 1,", "\"schema_version\": 1,,", 1),
    );
    let d = assert_finding(&s.path(), "json-syntax", &[("file", "manifest.json")]);
    assert_eq!(d["line"], 2);
}

#[test]
fn duplicate_key_in_manifest() {
    let s = SuiteCopy::new();
    let text = std::fs::read_to_string(s.file("manifest.json")).unwrap();
    s.write(
        "manifest.json",
        &text.replacen(
            "\"schema_version\": 1,",
            "\"schema_version\": 1,\n  \"schema_version\": 1,",
            1,
        ),
    );
    let d = assert_finding(&s.path(), "duplicate-key", &[("message", "schema_version")]);
    assert_eq!(d["line"], 3);
}

#[test]
fn envelope_schema_must_compile() {
    let s = SuiteCopy::new();
    s.edit_json("schema/message-envelope.schema.json", |v| {
        v["type"] = json!(12)
    });
    assert_finding(
        &s.path(),
        "schema-compile",
        &[("file", "schema/message-envelope.schema.json")],
    );
}

#[test]
fn results_schema_must_be_draft_2020_12() {
    let s = SuiteCopy::new();
    s.edit_json("schema/results.schema.json", |v| {
        v["$schema"] = json!("http://json-schema.org/draft-07/schema#")
    });
    assert_finding(
        &s.path(),
        "schema-draft",
        &[("file", "schema/results.schema.json")],
    );
}

#[test]
fn schema_version_must_be_1() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["schema_version"] = json!(2));
    let d = assert_finding(
        &s.path(),
        "schema-version",
        &[("pointer", "/schema_version")],
    );
    assert!(d["line"].is_u64());
}

#[test]
fn conformance_version_must_be_semver() {
    let s = SuiteCopy::new();
    s.write("CONFORMANCE_VERSION", "1.5\n");
    assert_finding(
        &s.path(),
        "version-not-semver",
        &[("file", "CONFORMANCE_VERSION")],
    );
}

#[test]
fn pre_release_version_is_semver() {
    let s = SuiteCopy::new();
    // A pre-release of the next suite, as a release candidate of 1.9.0 would carry it.
    s.write("CONFORMANCE_VERSION", "1.9.0-pre\n");
    s.edit_manifest(|m| m["conformance_version"] = json!("1.9.0-pre"));
    let (exit, diags) = validate_json(&s.path());
    assert_eq!(exit, 0, "{diags:#?}");
}

#[test]
fn versions_must_agree() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["conformance_version"] = json!("1.4.0"));
    assert_finding(
        &s.path(),
        "version-mismatch",
        // CONFORMANCE_VERSION of the suite says its version.
        &[
            ("pointer", "/conformance_version"),
            ("message", &bundled_version()),
        ],
    );
}

#[test]
fn every_block_needs_a_scope() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["sections"].as_object_mut().unwrap().remove("backoff");
    });
    assert_finding(&s.path(), "section-unmapped", &[("pointer", "/backoff")]);
}

#[test]
fn every_scope_entry_needs_a_block() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["sections"]["ghost"] = json!({"scope": "core"}));
    assert_finding(
        &s.path(),
        "section-missing-block",
        &[("pointer", "/sections/ghost")],
    );
}

#[test]
fn scope_must_be_known() {
    let s = SuiteCopy::new();
    // The real manifests map each section to {"scope": "<scope>"}.
    s.edit_manifest(|m| m["sections"]["rabbitmq"] = json!({"scope": "rabbit"}));
    assert_finding(
        &s.path(),
        "invalid-scope",
        &[("pointer", "/sections/rabbitmq")],
    );
    s.edit_manifest(|m| m["sections"]["rabbitmq"] = json!({"scope": ["amqp", "core"]}));
    assert_finding(
        &s.path(),
        "invalid-scope",
        &[("pointer", "/sections/rabbitmq")],
    );
    // A bare scope string is not the 1.8.0 form either.
    s.edit_manifest(|m| m["sections"]["rabbitmq"] = json!("amqp"));
    assert_finding(
        &s.path(),
        "invalid-scope",
        &[("pointer", "/sections/rabbitmq")],
    );
}

#[test]
fn exception_needs_an_adr() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["exceptions"][0]["adr"] = json!("ADR-21"));
    assert_finding(
        &s.path(),
        "exception-invalid",
        &[("pointer", "/exceptions/0"), ("message", "ADR-NNNN")],
    );
    s.edit_manifest(|m| {
        m["exceptions"] = json!([{ "family": "php", "binding": "ftp", "adr": "ADR-0021" }])
    });
    assert_finding(&s.path(), "exception-invalid", &[("message", "binding")]);
}

#[test]
fn case_file_must_exist() {
    let s = SuiteCopy::new();
    std::fs::remove_file(s.file("fixtures/urn-alias.json")).unwrap();
    let d = assert_finding(
        &s.path(),
        "missing-fixture",
        &[("message", "fixtures/urn-alias.json")],
    );
    assert_eq!(d["case"], "urn-alias");
    assert_eq!(d["section"], "cases");
    assert!(d["line"].is_u64());
}

#[test]
fn case_file_must_stay_inside_fixtures() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["cases"][0]["file"] = json!("../manifest.json"));
    assert_finding(
        &s.path(),
        "bad-file-reference",
        &[("pointer", "/cases/0/file")],
    );
}

#[test]
fn orphan_fixture_is_reported() {
    let s = SuiteCopy::new();
    s.write("fixtures/unused.json", "{}\n");
    assert_finding(
        &s.path(),
        "orphan-fixture",
        &[("file", "fixtures/unused.json")],
    );
}

#[test]
fn non_json_file_in_fixtures_is_reported() {
    let s = SuiteCopy::new();
    s.write("fixtures/notes.txt", "scratch\n");
    assert_finding(
        &s.path(),
        "unexpected-file",
        &[("file", "fixtures/notes.txt")],
    );
}

#[cfg(unix)]
#[test]
fn symlink_in_suite_is_reported() {
    let s = SuiteCopy::new();
    std::os::unix::fs::symlink("/etc/hostname", s.file("fixtures/link.json")).unwrap();
    assert_finding(&s.path(), "symlink", &[("file", "fixtures/link.json")]);
}

#[test]
fn required_file_missing() {
    let s = SuiteCopy::new();
    std::fs::remove_file(s.file("schema/results.example.json")).unwrap();
    assert_finding(
        &s.path(),
        "missing-file",
        &[("file", "schema/results.example.json")],
    );
}

#[test]
fn valid_case_needs_expect() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["cases"][0].as_object_mut().unwrap().remove("expect");
    });
    let d = assert_finding(&s.path(), "missing-expect", &[("pointer", "/cases/0")]);
    assert_eq!(d["case"], "order-created");
}

#[test]
fn invalid_case_needs_reason() {
    let s = SuiteCopy::new();
    let index = find_case(
        &s.read_json("manifest.json")["cases"],
        "invalid-missing-urn",
    );
    s.edit_manifest(|m| {
        m["cases"][index].as_object_mut().unwrap().remove("reason");
    });
    assert_finding(
        &s.path(),
        "missing-reason",
        &[("case", "invalid-missing-urn")],
    );
}

fn find_case(cases: &Value, name: &str) -> usize {
    cases
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

fn fixture_of(s: &SuiteCopy, section: &str, name: &str) -> String {
    let m = s.read_json("manifest.json");
    let cases = if section == "cases" {
        &m["cases"]
    } else {
        &m[section]["cases"]
    };
    cases[find_case(cases, name)]["file"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn roundtrip_fixture_must_satisfy_the_producer_schema() {
    let s = SuiteCopy::new();
    let file = fixture_of(&s, "roundtrip", "unknown-toplevel-roundtrip");
    s.edit_json(&file, |f| f["meta"]["created_at"] = json!("yesterday"));
    let d = assert_finding(
        &s.path(),
        "fixture-schema-invalid",
        &[("file", &file), ("pointer", "/meta/created_at")],
    );
    assert_eq!(d["case"], "unknown-toplevel-roundtrip");
    assert!(d["line"].is_u64());
}

#[test]
fn forbidden_keys_fixture_must_satisfy_the_producer_schema() {
    let s = SuiteCopy::new();
    let file = fixture_of(&s, "forbidden_keys", "forbidden-key-timestamp");
    s.edit_json(&file, |f| f["meta"]["lang"] = json!("cobol"));
    assert_finding(
        &s.path(),
        "fixture-schema-invalid",
        &[("file", &file), ("pointer", "/meta/lang")],
    );
}

#[test]
fn valid_envelope_case_fixture_must_satisfy_the_producer_schema() {
    let s = SuiteCopy::new();
    s.edit_json("fixtures/dead-lettered.json", |f| {
        f["dead_letter"]["reason"] = json!("bored")
    });
    assert_finding(
        &s.path(),
        "fixture-schema-invalid",
        &[("file", "fixtures/dead-lettered.json")],
    );
}

#[test]
fn urn_alias_is_exempt_from_the_producer_schema() {
    // The alias fixture has no `job`, which the producer schema requires: not a finding.
    let (exit, diags) = validate_json(&bundled_suite());
    assert_eq!(exit, 0);
    assert!(!diags.iter().any(|d| d["file"] == "fixtures/urn-alias.json"));
}

#[test]
fn data_array_rejected_must_fail_the_producer_schema() {
    let s = SuiteCopy::new();
    let file = fixture_of(&s, "data_shape", "data-array-rejected");
    s.edit_json(&file, |f| f["data"] = json!({ "items": [1, 2] }));
    assert_finding(
        &s.path(),
        "fixture-schema-unexpected-pass",
        &[("case", "data-array-rejected")],
    );
}

#[test]
fn stale_producer_schema_valid_marker_is_reported() {
    let s = SuiteCopy::new();
    let file = fixture_of(&s, "roundtrip", "unknown-lang");
    s.edit_json(&file, |f| f["meta"]["lang"] = json!("php"));
    assert_finding(
        &s.path(),
        "fixture-schema-unexpected-pass",
        &[("case", "unknown-lang")],
    );
}

#[test]
fn pointer_syntax_is_checked() {
    let s = SuiteCopy::new();
    let i = find_case(
        &s.read_json("manifest.json")["roundtrip"]["cases"],
        "unknown-meta-roundtrip",
    );
    s.edit_manifest(|m| {
        let preserved = m["roundtrip"]["cases"][i]["expect_preserved"]
            .as_object_mut()
            .unwrap();
        preserved.insert("meta/vendor_flag".into(), json!(true));
    });
    let d = assert_finding(&s.path(), "bad-pointer", &[("message", "meta/vendor_flag")]);
    assert_eq!(d["case"], "unknown-meta-roundtrip");
    s.edit_manifest(|m| {
        let preserved = m["roundtrip"]["cases"][i]["expect_preserved"]
            .as_object_mut()
            .unwrap();
        preserved.remove("meta/vendor_flag");
        preserved.insert("/meta/~2".into(), json!(true));
    });
    assert_finding(&s.path(), "bad-pointer", &[("message", "/meta/~2")]);
}

#[test]
fn forbidden_key_must_exist_in_its_fixture() {
    let s = SuiteCopy::new();
    let i = find_case(
        &s.read_json("manifest.json")["forbidden_keys"]["cases"],
        "forbidden-key-meta-ts",
    );
    s.edit_manifest(|m| m["forbidden_keys"]["cases"][i]["forbidden_key"] = json!("/meta/tss"));
    let d = assert_finding(
        &s.path(),
        "pointer-not-in-fixture",
        &[("message", "/meta/tss")],
    );
    assert_eq!(d["case"], "forbidden-key-meta-ts");
}

#[test]
fn preserved_pointer_must_exist_in_its_fixture() {
    let s = SuiteCopy::new();
    let i = find_case(
        &s.read_json("manifest.json")["roundtrip"]["cases"],
        "unknown-meta-roundtrip",
    );
    s.edit_manifest(|m| {
        m["roundtrip"]["cases"][i]["expect_preserved"]["/meta/vendor_flg"] = json!(true);
    });
    assert_finding(
        &s.path(),
        "pointer-not-in-fixture",
        &[("message", "/meta/vendor_flg")],
    );
}

#[test]
fn case_ids_are_unique_per_section() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["cases"][1]["name"] = m["cases"][0]["name"].clone());
    let d = assert_finding(&s.path(), "duplicate-case-id", &[("pointer", "/cases/1")]);
    assert_eq!(d["section"], "cases");
}

#[test]
fn unnamed_sub_cases_get_index_ids_that_must_be_unique() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        // Name a case like the index id of an unnamed one.
        let cases = m["sqs"]["attempts_reconciliation"]["cases"]
            .as_array_mut()
            .unwrap();
        cases[0].as_object_mut().unwrap().remove("name");
        cases[1]["name"] = json!("0");
    });
    assert_finding(
        &s.path(),
        "duplicate-case-id",
        &[("case", "attempts_reconciliation/0")],
    );
}

#[test]
fn payload_schema_verdict_must_match_a_real_validator() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["payload_schema"]["cases"][0]["valid"] = json!(false));
    let d = assert_finding(
        &s.path(),
        "expectation-mismatch",
        &[("section", "payload_schema"), ("case", "valid-minimal")],
    );
    assert_eq!(d["pointer"], "/payload_schema/cases/0/valid");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("JSON Schema validator"),
        "{d}"
    );
}

#[test]
fn payload_schema_unicode_counts_code_points() {
    let s = SuiteCopy::new();
    let i = find_case(
        &s.read_json("manifest.json")["payload_schema_unicode"]["cases"],
        "emoji-1cp-min2",
    );
    s.edit_manifest(|m| m["payload_schema_unicode"]["cases"][i]["valid"] = json!(true));
    assert_finding(
        &s.path(),
        "expectation-mismatch",
        &[("case", "emoji-1cp-min2")],
    );
}

#[test]
fn results_example_must_conform() {
    let s = SuiteCopy::new();
    s.edit_json("schema/results.example.json", |v| {
        v["bindings"] = json!(["smtp"])
    });
    let d = assert_finding(
        &s.path(),
        "results-example-invalid",
        &[("file", "schema/results.example.json")],
    );
    assert_eq!(d["pointer"], "/bindings/0");
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| {
        m["schema_version"] = json!(3);
        m["conformance_version"] = json!("9.9.9");
    });
    s.write("fixtures/unused.json", "{}\n");
    let (exit, diags) = validate_json(&s.path());
    assert_eq!(exit, 1);
    for code_name in ["schema-version", "version-mismatch", "orphan-fixture"] {
        assert!(
            diags.iter().any(|d| d["code"] == code_name),
            "{code_name} missing: {diags:#?}"
        );
    }
}

#[test]
fn human_output_names_file_place_and_help() {
    let s = SuiteCopy::new();
    s.edit_manifest(|m| m["schema_version"] = json!(2));
    // Run beside the suite, as from a repository root: the place is the file as the suite was
    // passed, which a terminal or an editor opens from there.
    let out = bqsuite_in(s.dir.path(), &["validate", "suite"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("error[schema-version]"), "{text}");
    assert!(text.contains("--> suite/manifest.json:2:"), "{text}");
    // Passed by another path, it is named by that path.
    let out = bqsuite(&["validate", s.path().to_str().unwrap()]);
    let full = format!("--> {}:2:", s.file("manifest.json").display());
    assert!(stdout(&out).contains(&full), "{}", stdout(&out));
    // The JSON document keeps each file relative to the suite, as documented.
    let (_, diags) = validate_json(&s.path());
    assert!(
        diags.iter().any(|d| d["file"] == "manifest.json"),
        "{diags:#?}"
    );
    let out = bqsuite_in(s.dir.path(), &["validate", "suite"]);
    let text = stdout(&out);
    assert!(text.contains("at /schema_version"), "{text}");
    assert!(text.contains("help:"), "{text}");
    assert!(text.contains("FAILED"), "{text}");
}

#[test]
fn duplicate_keys_fixture_must_really_repeat_its_keys() {
    let s = SuiteCopy::new();
    let file = fixture_of(&s, "cases", "duplicate-keys-last-wins");
    let raw = std::fs::read_to_string(s.file(&file)).unwrap();
    assert!(raw.matches("\"job\"").count() >= 2 && raw.matches("\"data\"").count() >= 2);
    // Rewriting the fixture through a JSON value keeps only the last `job` and `data`: the
    // case would then no longer test last-wins.
    s.edit_json(&file, |_| {});
    let d = assert_finding(
        &s.path(),
        "expectation-mismatch",
        &[("case", "duplicate-keys-last-wins")],
    );
    assert_eq!(d["section"], "cases");
}
