//! `bqsuite diff` and `validate --since`: the classification of a suite change and the SemVer
//! rule.
//!
//! Test data: `tests/data/upstream-suite/` is a verbatim copy of the upstream earlier revision
//! (`../shared/reference/upstream-suite/`), which has no CONFORMANCE_VERSION; the copy adds one
//! holding `1.0.0` (the revision predates 1.1.0's schema_version_gate, so it is the 1.0.0 suite).
//! Nothing else in it was edited. It is a subset of the real 1.0.0 release
//! (`tests/data/real-releases/1.0.0`), with the same descriptions.
//!
//! Every change is made to a copy of the real release 1.8.0 (`tests/data/real-releases/1.8.0`,
//! which `suite/` holds until the proposal is adopted): the next minor release is 1.9.0, the next
//! patch 1.8.1, the next major 2.0.0 (the constants below).

mod shape;
mod suites;

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::kit::*;

/// The suite every test starts from: the real release 1.8.0 (what `suite/` holds until the
/// proposal is adopted).
fn base() -> std::path::PathBuf {
    real_1_8_0()
}

/// A private copy of [`base`] to edit.
fn base_copy() -> SuiteCopy {
    suite_copy_of(&base())
}

/// The version of [`base`], and the versions after it.
const CURRENT: &str = "1.8.0";
const NEXT_PATCH: &str = "1.8.1";
const NEXT_MINOR: &str = "1.9.0";
const NEXT_MINOR_PRE: &str = "1.9.0-pre";
const LOWER: &str = "1.7.9";

#[test]
fn the_version_constants_follow_the_base_suite() {
    let version = fs::read_to_string(base().join("CONFORMANCE_VERSION")).unwrap();
    assert_eq!(version.trim(), CURRENT);
}

/// Runs `diff OLD NEW --format json`; returns (exit code, document).
fn diff_json(old: &Path, new: &Path) -> (i32, Value) {
    let out = bqsuite(&["diff", s(old), s(new), "--format", "json"]);
    (code(&out), json(&out))
}

fn diags(doc: &Value) -> Vec<Value> {
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

/// The codes of the findings, in order.
fn codes(doc: &Value) -> Vec<String> {
    diags(doc)
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn count(doc: &Value, code_name: &str) -> usize {
    codes(doc).iter().filter(|c| *c == code_name).count()
}

/// The needed bump from the summary line `bump: <bump> (...)`.
fn bump(doc: &Value) -> String {
    doc["summary"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find_map(|l| l.strip_prefix("bump: "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("no bump line: {doc:#}"))
        .to_string()
}

/// The finding with `code` (and, when given, case id), or a panic listing what there is.
fn finding(doc: &Value, code_name: &str, case: Option<&str>) -> Value {
    diags(doc)
        .into_iter()
        .find(|d| d["code"] == code_name && case.is_none_or(|c| d["case"] == c))
        .unwrap_or_else(|| panic!("no `{code_name}` {case:?} finding: {doc:#}"))
}

/// Sets CONFORMANCE_VERSION and the manifest's conformance_version of a copy (editing the text,
/// so that the manifest's formatting stays as it is).
fn set_version(copy: &SuiteCopy, version: &str) {
    let old = fs::read_to_string(copy.file("CONFORMANCE_VERSION")).unwrap();
    copy.write("CONFORMANCE_VERSION", &format!("{version}\n"));
    let text = fs::read_to_string(copy.file("manifest.json")).unwrap();
    let from = format!("\"conformance_version\": \"{}\"", old.trim());
    assert!(text.contains(&from), "{from}");
    copy.write(
        "manifest.json",
        &text.replacen(&from, &format!("\"conformance_version\": \"{version}\""), 1),
    );
}

/// A copy of the suite with `version`, edited by `edit`.
fn edited(version: &str, edit: impl FnOnce(&SuiteCopy)) -> SuiteCopy {
    let copy = base_copy();
    edit(&copy);
    set_version(&copy, version);
    copy
}

// ------------------------------------------------------------------------------------------------
// The upstream revision (and the real 1.0.0) against 1.8.0.

#[test]
fn upstream_to_current_is_additive_once_descriptions_are_ignored() {
    let (exit, doc) = diff_json(&upstream(), &base());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "minor", "{doc:#}");
    assert_eq!(doc["errors"], 0);
    for major in [
        "case-removed",
        "case-changed",
        "fixture-changed",
        "fixture-removed",
        "schema-changed",
        "schema-removed",
        "section-removed",
        "section-changed",
    ] {
        assert_eq!(count(&doc, major), 0, "unexpected {major}: {doc:#}");
    }
    // The upstream revision shares its descriptions with 1.8.0.
    assert_eq!(count(&doc, "description-changed"), 0, "{doc:#}");
    // Per section: the 1.3.0 cases, the 1.1.0 gates (unnamed: their ids are indexes), the
    // sections added from 1.0.0 on (the upstream revision has 10 sections, 1.8.0 has 32).
    let added = finding(&doc, "case-added", Some("invalid-wrong-case-job"));
    assert_eq!(added["section"], "cases");
    for section in ["sqs", "asb", "pulsar", "kafka", "artemis"] {
        assert!(
            diags(&doc).iter().any(|d| d["code"] == "case-added"
                && d["section"] == section
                && d["case"] == "schema_version_gate/0"),
            "{section} gate: {doc:#}"
        );
    }
    assert_eq!(count(&doc, "section-added"), 22, "{doc:#}");
    let trim = diags(&doc)
        .into_iter()
        .find(|d| d["code"] == "section-added" && d["pointer"] == "/trim")
        .unwrap();
    assert!(
        trim["message"].as_str().unwrap().contains("scope core"),
        "{trim:#}"
    );
    for key in ["conformance_version", "sections", "exceptions"] {
        assert!(
            diags(&doc)
                .iter()
                .any(|d| d["code"] == "metadata-added" && d["pointer"] == format!("/{key}")),
            "metadata-added {key}: {doc:#}"
        );
    }
    finding(&doc, "exception-added", None);
    finding(&doc, "schema-added", None);
    finding(&doc, "fixture-added", None);
    let summary = doc["summary"].to_string();
    assert!(
        summary.contains("1.0.0 → 1.8.0 is a minor bump: sufficient"),
        "{summary}"
    );

    // The real 1.0.0 against 1.8.0: 1.4.0 reworded the descriptions of two sections (and changed
    // nothing else of them). They are classified as description edits, not as changes of the
    // sections' cases, and the change stays additive.
    let (exit, doc) = diff_json(&real_release("1.0.0"), &base());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "minor", "{doc:#}");
    let described: Vec<String> = diags(&doc)
        .iter()
        .filter(|d| d["code"] == "description-changed")
        .map(|d| d["pointer"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        described,
        ["/roundtrip/description", "/forbidden_keys/description"],
        "{doc:#}"
    );
    for major in ["case-changed", "section-changed", "case-removed"] {
        assert_eq!(count(&doc, major), 0, "unexpected {major}: {doc:#}");
    }
}

#[test]
fn upstream_to_a_patch_release_is_insufficient() {
    let copy = base_copy();
    set_version(&copy, "1.0.1");
    let (exit, doc) = diff_json(&upstream(), &copy.path());
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(bump(&doc), "minor");
    let e = finding(&doc, "version-bump-insufficient", None);
    assert_eq!(e["severity"], "error");
    let message = e["message"].as_str().unwrap();
    for part in ["1.0.0", "1.0.1", "minor"] {
        assert!(message.contains(part), "{message}");
    }
    assert!(e["help"].as_str().unwrap().contains("1.1.0"), "{e:#}");
}

#[test]
fn human_output_lists_changes_and_the_bump() {
    let out = bqsuite(&["diff", s(&upstream()), s(&base())]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("note[case-added]: case `make-trims-ascii-space` added to section `trim`"),
        "{text}"
    );
    assert!(text.contains("bump: minor (only additions)"), "{text}");
    assert!(
        text.contains("ok: ") && text.contains("makes a sufficient version bump"),
        "{text}"
    );
}

// ------------------------------------------------------------------------------------------------
// Changes that need a major release.

/// Asserts the change from the base suite to `copy` needs major: with a minor bump NEW fails
/// (exit 1, `version-bump-insufficient`), with a major one it passes. Returns the 2.0.0 report.
fn assert_needs_major(edit: impl Fn(&SuiteCopy)) -> Value {
    let minor = edited(NEXT_MINOR, &edit);
    let (exit, doc) = diff_json(&base(), &minor.path());
    assert_eq!(bump(&doc), "major", "{doc:#}");
    assert_eq!(exit, 1, "a minor bump must not do: {doc:#}");
    let e = finding(&doc, "version-bump-insufficient", None);
    let message = e["message"].as_str().unwrap();
    for part in [CURRENT, NEXT_MINOR, "major"] {
        assert!(message.contains(part), "{message}");
    }
    let major = edited("2.0.0", &edit);
    let (exit, doc) = diff_json(&base(), &major.path());
    assert_eq!(exit, 0, "a major bump does: {doc:#}");
    doc
}

#[test]
fn removed_case_needs_major() {
    let doc = assert_needs_major(|c| {
        c.edit_manifest(|m| {
            m["cases"].as_array_mut().unwrap().remove(1);
        })
    });
    let d = finding(&doc, "case-removed", Some("urn-alias"));
    assert_eq!(d["section"], "cases");
    assert_eq!(count(&doc, "case-removed"), 1, "{doc:#}");
}

#[test]
fn changed_expectation_needs_major() {
    let doc =
        assert_needs_major(|c| c.edit_manifest(|m| m["cases"][0]["expect"]["attempts"] = json!(1)));
    let d = finding(&doc, "case-changed", Some("order-created"));
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("field `expect` changed"),
        "{d:#}"
    );
    assert_eq!(count(&doc, "case-changed"), 1, "{doc:#}");
}

#[test]
fn changed_fixture_value_needs_major() {
    let doc = assert_needs_major(|c| {
        c.edit_json("fixtures/order-created.json", |f| {
            f["data"]["order_id"] = json!(1043)
        })
    });
    let d = finding(&doc, "fixture-changed", None);
    assert_eq!(d["file"], "fixtures/order-created.json");
    assert_eq!(d["pointer"], "/data/order_id");
    assert!(
        d["detail"]
            .as_str()
            .unwrap()
            .contains("cases: order-created"),
        "{d:#}"
    );
}

#[test]
fn removed_schema_property_needs_major() {
    let doc = assert_needs_major(|c| {
        c.edit_json("schema/message-envelope.schema.json", |s| {
            s["properties"].as_object_mut().unwrap().remove("attempts");
        })
    });
    let d = finding(&doc, "schema-changed", None);
    assert_eq!(d["file"], "schema/message-envelope.schema.json");
    assert_eq!(d["pointer"], "/properties/attempts");
}

#[test]
fn removed_schema_file_and_fixture_need_major() {
    assert_needs_major(|c| fs::remove_file(c.file("schema/results.example.json")).unwrap());
    let doc = assert_needs_major(|c| {
        fs::remove_file(c.file("fixtures/urn-alias.json")).unwrap();
    });
    finding(&doc, "fixture-removed", None);
}

#[test]
fn block_parameter_change_changes_every_case_of_the_block() {
    // poison_dlq's `original_queue` is a section parameter that every one of its cases reads.
    let doc = assert_needs_major(|c| {
        c.edit_manifest(|m| m["poison_dlq"]["original_queue"] = json!("payments"))
    });
    let section = finding(&doc, "section-changed", None);
    assert_eq!(section["pointer"], "/poison_dlq");
    assert!(
        section["message"]
            .as_str()
            .unwrap()
            .contains("`original_queue`")
    );
    let changed = diags(&doc)
        .iter()
        .filter(|d| d["code"] == "case-changed" && d["section"] == "poison_dlq")
        .count();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(base().join("manifest.json")).unwrap()).unwrap();
    let every = manifest["poison_dlq"]["cases"].as_array().unwrap().len();
    assert_eq!(every, 43, "the real 1.8.0 poison_dlq has 43 cases");
    assert_eq!(changed, every, "{doc:#}");
    assert_eq!(count(&doc, "case-changed"), every, "{doc:#}");
}

#[test]
fn sub_block_parameter_change_changes_every_case_of_the_sub_block() {
    let doc = assert_needs_major(|c| {
        c.edit_manifest(|m| m["sqs"]["schema_version_gate"]["property"] = json!("bq-version"))
    });
    let block = finding(&doc, "section-changed", None);
    assert_eq!(block["pointer"], "/sqs/schema_version_gate");
    let changed: Vec<String> = diags(&doc)
        .iter()
        .filter(|d| d["code"] == "case-changed")
        .map(|d| d["case"].as_str().unwrap().to_string())
        .collect();
    // The real 1.8.0 sqs gate has 18 cases (unnamed: schema_version_gate/0 to /17).
    assert_eq!(changed.len(), 18, "{doc:#}");
    assert!(
        changed
            .iter()
            .all(|id| id.starts_with("schema_version_gate/")),
        "{changed:?}"
    );
}

#[test]
fn scope_change_and_removed_exception_need_major() {
    // delay is scoped to sqs: moving it to core makes it required of every SDK.
    assert_needs_major(|c| {
        c.edit_manifest(|m| {
            assert_eq!(m["sections"]["delay"], json!({"scope": "sqs"}));
            m["sections"]["delay"] = json!({"scope": "core"})
        })
    });
    let doc = assert_needs_major(|c| c.edit_manifest(|m| m["exceptions"] = json!([])));
    finding(&doc, "exception-removed", None);
}

#[test]
fn new_field_that_old_runners_know_changes_the_case() {
    // `producer_schema_valid` already exists on a roundtrip case: a runner of 1.8.0 reads it.
    let doc = assert_needs_major(|c| {
        c.edit_manifest(|m| {
            let cases = m["roundtrip"]["cases"].as_array_mut().unwrap();
            let i = cases
                .iter()
                .position(|c| c.get("producer_schema_valid").is_none())
                .unwrap();
            cases[i]["producer_schema_valid"] = json!(false);
        })
    });
    assert_eq!(count(&doc, "case-changed"), 1, "{doc:#}");
    let d = finding(&doc, "case-changed", None);
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("field `producer_schema_valid` added"),
        "{d:#}"
    );
}

// ------------------------------------------------------------------------------------------------
// Additions, descriptions, cosmetics.

#[test]
fn added_case_needs_minor_and_a_pre_release_of_it_is_fine() {
    let add = |c: &SuiteCopy| {
        c.edit_manifest(|m| {
            let mut case = m["redis_layout"]["cases"][0].clone();
            case["name"] = json!("another-queue");
            m["redis_layout"]["cases"]
                .as_array_mut()
                .unwrap()
                .push(case);
        })
    };
    for (version, exit) in [(NEXT_PATCH, 1), (NEXT_MINOR, 0), (NEXT_MINOR_PRE, 0)] {
        let copy = edited(version, add);
        let (got, doc) = diff_json(&base(), &copy.path());
        assert_eq!(bump(&doc), "minor", "{doc:#}");
        assert_eq!(got, exit, "{version}: {doc:#}");
        let d = finding(&doc, "case-added", Some("another-queue"));
        assert_eq!(d["section"], "redis_layout");
    }
}

#[test]
fn field_new_to_its_section_extends_the_case() {
    let copy = edited(NEXT_MINOR, |c| {
        c.edit_manifest(|m| m["redis_layout"]["cases"][0]["expect_ttl"] = json!(60))
    });
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "minor", "{doc:#}");
    finding(&doc, "case-extended", None);
}

#[test]
fn added_exception_is_additive() {
    let copy = edited(NEXT_MINOR, |c| {
        c.edit_manifest(|m| {
            m["exceptions"].as_array_mut().unwrap().push(json!({
                "family": "go", "binding": "artemis", "adr": "ADR-0099"
            }))
        })
    });
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "minor", "{doc:#}");
    finding(&doc, "exception-added", None);
}

#[test]
fn description_edit_needs_patch() {
    let edit = |c: &SuiteCopy| {
        c.edit_manifest(|m| {
            m["cases"][0]["description"] = json!("Reworded.");
            m["trim"]["description"] = json!("Reworded too.");
        });
        c.edit_json("schema/message-envelope.schema.json", |s| {
            s["properties"]["job"]["description"] = json!("Reworded as well.")
        });
    };
    let same = edited(CURRENT, edit);
    let (exit, doc) = diff_json(&base(), &same.path());
    assert_eq!(bump(&doc), "patch", "{doc:#}");
    assert_eq!(exit, 1, "a patch change needs a new version: {doc:#}");
    assert_eq!(count(&doc, "description-changed"), 3, "{doc:#}");
    finding(&doc, "description-changed", Some("order-created"));
    let patch = edited(NEXT_PATCH, edit);
    let (exit, doc) = diff_json(&base(), &patch.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "patch");
}

#[test]
fn description_inside_case_data_is_content() {
    let doc = assert_needs_major(|c| {
        c.edit_manifest(|m| m["cases"][0]["expect"]["data"]["description"] = json!("x"))
    });
    finding(&doc, "case-changed", Some("order-created"));
}

#[test]
fn whitespace_only_fixture_edit_is_cosmetic() {
    let edit = |c: &SuiteCopy| {
        let text = fs::read_to_string(c.file("fixtures/order-created.json")).unwrap();
        let compact: Value = serde_json::from_str(&text).unwrap();
        c.write(
            "fixtures/order-created.json",
            &serde_json::to_string(&compact).unwrap(),
        );
    };
    let copy = base_copy();
    edit(&copy);
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(bump(&doc), "patch", "{doc:#}");
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(
        codes(&doc),
        ["fixture-cosmetic", "version-bump-insufficient"],
        "{doc:#}"
    );
    let patch = edited(NEXT_PATCH, edit);
    assert_eq!(diff_json(&base(), &patch.path()).0, 0);
}

#[test]
fn whitespace_only_schema_edit_is_cosmetic() {
    let copy = base_copy();
    let schema = fs::read_to_string(copy.file("schema/results.schema.json")).unwrap();
    copy.write("schema/results.schema.json", &format!("\n{schema}\n\n"));
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(bump(&doc), "patch", "{doc:#}");
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(
        codes(&doc),
        ["schema-cosmetic", "version-bump-insufficient"],
        "{doc:#}"
    );
}

#[test]
fn reordered_fixture_members_are_a_change() {
    // Fixtures are fed to SDKs as text: member order is part of what a case tests.
    let doc = assert_needs_major(|c| {
        let text = fs::read_to_string(c.file("fixtures/order-created.json")).unwrap();
        let job = "  \"job\": \"urn:babel:orders:created\",\n";
        assert!(text.contains(job));
        let reordered = text.replacen(job, "", 1).replacen(
            "  \"attempts\": 0\n",
            "  \"attempts\": 0,\n  \"job\": \"urn:babel:orders:created\"\n",
            1,
        );
        c.write("fixtures/order-created.json", &reordered);
    });
    finding(&doc, "fixture-changed", None);
}

#[test]
fn dropping_a_repeated_key_is_a_change() {
    // duplicate-keys-last-wins repeats `job`: dropping the first one leaves the same last-wins
    // value, but not the same fixture.
    let doc = assert_needs_major(|c| {
        let rel = "fixtures/duplicate-keys-last-wins.json";
        let text = fs::read_to_string(c.file(rel)).unwrap();
        let tree: Value = serde_json::from_str(&text).unwrap();
        let first = text.find("\"job\"").unwrap();
        let line_end = first + text[first..].find('\n').unwrap() + 1;
        let line_start = text[..first].rfind('\n').unwrap() + 1;
        let dropped = format!("{}{}", &text[..line_start], &text[line_end..]);
        let again: Value = serde_json::from_str(&dropped).unwrap();
        assert_eq!(tree, again, "the last-wins value is unchanged");
        c.write(rel, &dropped);
    });
    finding(&doc, "fixture-changed", None);
}

#[test]
fn moved_case_is_not_a_change() {
    let copy = base_copy();
    copy.edit_manifest(|m| {
        m["cases"].as_array_mut().unwrap().swap(0, 5);
    });
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert!(
        !codes(&doc).iter().any(|c| c.starts_with("case-")),
        "{doc:#}"
    );
    // The file's bytes differ, so it is a formatting-level change.
    assert_eq!(
        codes(&doc),
        ["manifest-cosmetic", "version-bump-insufficient"]
    );
    assert_eq!(exit, 1);
}

#[test]
fn no_change_needs_no_bump() {
    let copy = base_copy();
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "none");
    assert!(codes(&doc).is_empty(), "{doc:#}");
    // Only the version moved: still no change of the suite.
    let bumped = edited(NEXT_PATCH, |_| {});
    let (exit, doc) = diff_json(&base(), &bumped.path());
    assert_eq!(exit, 0, "{doc:#}");
    assert_eq!(bump(&doc), "none", "{doc:#}");
    // A lower version never satisfies anything.
    let lower = edited(LOWER, |_| {});
    let (exit, doc) = diff_json(&base(), &lower.path());
    assert_eq!(exit, 1, "{doc:#}");
    finding(&doc, "version-bump-insufficient", None);
}

#[test]
fn missing_version_is_an_error() {
    let copy = base_copy();
    fs::remove_file(copy.file("CONFORMANCE_VERSION")).unwrap();
    let (exit, doc) = diff_json(&base(), &copy.path());
    assert_eq!(exit, 1, "{doc:#}");
    finding(&doc, "version-missing", None);
}

// ------------------------------------------------------------------------------------------------
// Release notes.

#[test]
fn markdown_release_notes_list_new_cases_per_section() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    // From the real 1.0.0, which 1.4.0 reworded two section descriptions of.
    let out = bqsuite(&[
        "diff",
        s(&real_release("1.0.0")),
        s(&base()),
        "--markdown",
        s(&notes),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = fs::read_to_string(&notes).unwrap();
    assert!(
        text.starts_with("# BabelQueue conformance suite 1.8.0\n"),
        "{text}"
    );
    assert!(text.contains("**minor**"), "{text}");
    let trim = text
        .find("### `trim` (new section, scope `core`)")
        .expect(&text);
    let case = text.find("- `make-trims-ascii-space`").expect(&text);
    let next = text.find("### `job_type`").expect(&text);
    assert!(trim < case && case < next, "{text}");
    assert!(text.contains("### `cases` (2 new cases)"), "{text}");
    // A section that existed gets a count, not a scope.
    assert!(text.contains("### `roundtrip` (5 new cases)"), "{text}");
    // Each section's list is its own paragraph.
    assert!(
        text.contains("\n\n### `sqs` (18 new cases)\n\n- `schema_version_gate/0`\n"),
        "{text}"
    );
    // A case without a description is listed bare; one with, after a dash.
    assert!(text.contains("- `invalid-wrong-case-job`\n"), "{text}");
    assert!(
        text.contains("- `duplicate-keys-last-wins` — A repeated envelope key"),
        "{text}"
    );
    assert!(
        text.contains(
            "## Descriptions and formatting\n\n- description of section `roundtrip` changed\n"
        ),
        "{text}"
    );
    assert!(text.contains("## Other additions"), "{text}");
}

// ------------------------------------------------------------------------------------------------
// Tarballs.

/// The findings without the subject (which names the paths).
fn findings_only(doc: &Value) -> (Value, Value, Value) {
    (
        doc["diagnostics"].clone(),
        doc["summary"].clone(),
        doc["ok"].clone(),
    )
}

#[test]
fn released_tarball_diffs_like_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let copy = base_copy();
    let tarball = released(&copy.path(), dir.path());

    let (exit_dir, from_dir) = diff_json(&upstream(), &copy.path());
    let (exit_tar, from_tar) = diff_json(&upstream(), &tarball);
    assert_eq!(exit_dir, 0);
    assert_eq!(exit_tar, 0);
    assert_eq!(findings_only(&from_tar), findings_only(&from_dir));

    // As OLD, under another file name (the version comes from the root directory).
    let renamed = dir.path().join("old.tar.gz");
    fs::copy(&tarball, &renamed).unwrap();
    let changed = edited(NEXT_MINOR, |c| {
        c.edit_manifest(|m| m["cases"][0]["expect"]["attempts"] = json!(1))
    });
    let (exit_dir, from_dir) = diff_json(&copy.path(), &changed.path());
    let (exit_tar, from_tar) = diff_json(&renamed, &changed.path());
    assert_eq!((exit_dir, exit_tar), (1, 1));
    assert_eq!(findings_only(&from_tar), findings_only(&from_dir));
    finding(&from_tar, "case-changed", Some("order-created"));
}

#[test]
fn broken_tarball_cannot_be_compared() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("babelqueue-conformance-1.8.0.tar.gz");
    fs::write(&bad, b"\x1f\x8b\x08\x00garbage").unwrap();
    let out = bqsuite(&["diff", s(&bad), "suite"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stderr(&out).contains("archive-"), "{}", stderr(&out));
    let other = dir.path().join("notes.txt");
    fs::write(&other, b"hello").unwrap();
    let out = bqsuite(&["diff", s(&other), "suite"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("not a release tarball"),
        "{}",
        stderr(&out)
    );
}

// ------------------------------------------------------------------------------------------------
// validate --since.

fn validate_since(suite: &Path, old: &Path) -> (i32, Value) {
    let out = bqsuite(&["validate", s(suite), "--since", s(old), "--format", "json"]);
    (code(&out), json(&out))
}

#[test]
fn validate_since_adds_the_version_rule_to_the_report() {
    // Sound and sufficiently bumped: validate stays clean, and lists the changes.
    let (exit, doc) = validate_since(&base(), &upstream());
    assert_eq!(exit, 0, "{doc:#}");
    let bump_note = finding(&doc, "version-bump", None);
    assert!(
        bump_note["message"]
            .as_str()
            .unwrap()
            .contains("needs a minor bump"),
        "{bump_note:#}"
    );
    finding(&doc, "case-added", Some("make-trims-ascii-space"));

    // A sound suite whose version was not bumped: the bump error is validate's only error.
    let copy = edited(CURRENT, |c| {
        c.edit_manifest(|m| {
            let mut case = m["redis_layout"]["cases"][0].clone();
            case["name"] = json!("another-queue");
            m["redis_layout"]["cases"]
                .as_array_mut()
                .unwrap()
                .push(case);
        })
    });
    let (exit, plain) = {
        let out = bqsuite(&["validate", s(&copy.path()), "--format", "json"]);
        (code(&out), stdout(&out))
    };
    assert_eq!(exit, 0, "the copy itself is sound: {plain}");
    let (exit, doc) = validate_since(&copy.path(), &base());
    assert_eq!(exit, 1, "{doc:#}");
    assert_eq!(doc["errors"], 1, "{doc:#}");
    let e = finding(&doc, "version-bump-insufficient", None);
    assert!(e["message"].as_str().unwrap().contains("minor"), "{e:#}");
    finding(&doc, "case-added", Some("another-queue"));
}

#[test]
fn validate_since_a_tarball() {
    let dir = tempfile::tempdir().unwrap();
    let copy = base_copy();
    let tarball = released(&copy.path(), dir.path());
    let (exit, doc) = validate_since(&base(), &tarball);
    assert_eq!(exit, 0, "{doc:#}");
    let note = finding(&doc, "version-bump", None);
    assert!(
        note["message"]
            .as_str()
            .unwrap()
            .contains("nothing changed"),
        "{note:#}"
    );
    assert_eq!(codes(&doc), ["version-bump"], "{doc:#}");
}
