use super::*;

crate::finding_codes! {
    /// Codes for the tests of this crate's renderers.
    pub(crate) enum TestCode {
        MissingFile = "missing-file",
        SyncFailed = "sync-failed",
        DriftChanged = "drift-changed",
        UnmanagedFile = "unmanaged-file",
        W = "w",
        E = "e",
    }
}

#[test]
fn a_code_is_its_text_and_knows_its_variant() {
    let code: Code = TestCode::DriftChanged.into();
    assert_eq!(code.as_str(), "drift-changed");
    assert_eq!(code, TestCode::DriftChanged);
    assert_eq!(TestCode::of(code), Some(TestCode::DriftChanged));
    assert_eq!(TestCode::ALL.len(), 6);
    assert_eq!(
        Diagnostic::error(TestCode::W, "f", "m").code.to_string(),
        "w"
    );
}

#[test]
fn human_rendering_names_place_pointer_and_case() {
    let d = Diagnostic::error(TestCode::MissingFile, "manifest.json", "fixture not found")
        .line_col(12, 7)
        .at("/cases/0/file")
        .case("cases", "order-created")
        .help("add the file");
    let text = render_diagnostic(&d);
    assert!(text.starts_with("error[missing-file]: fixture not found"));
    assert!(
        text.contains(
            "--> manifest.json:12:7 at /cases/0/file (section cases, case order-created)"
        )
    );
    assert!(text.contains("help: add the file"));
}

#[test]
fn rendering_drops_os_error_numbers_and_escapes_control_characters() {
    let d = Diagnostic::error(
        TestCode::SyncFailed,
        "a\u{1b}[2Jb.json",
        "cannot read `x`: Permission denied (os error 13)",
    );
    let text = render_diagnostic(&d);
    assert!(!text.contains("os error"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("a\\u{1b}[2Jb.json"), "{text}");
    let mut r = Report::new("s");
    r.push(d);
    assert!(!render_json(&r, "sync").contains("os error"));
}

#[test]
fn every_document_carries_the_format_version_of_the_published_schema() {
    let schema: Value =
        serde_json::from_str(include_str!("../../../docs/reference/output.schema.json")).unwrap();
    let version = &schema["properties"]["format_version"]["const"];
    assert_eq!(version, &json!(FORMAT_VERSION));
    let ran: Value = serde_json::from_str(&render_json(&Report::new("s"), "validate")).unwrap();
    let failed: Value = serde_json::from_str(&render_error_json(
        "fetch",
        "d",
        error_json("usage", "m", None, None),
    ))
    .unwrap();
    for doc in [ran, failed] {
        assert_eq!(&doc["format_version"], version, "{doc:#}");
        // The first member, so that a reader sees it before anything it may not understand.
        assert_eq!(
            doc.as_object().unwrap().keys().next().unwrap(),
            "format_version"
        );
    }
}

#[test]
fn json_rendering_counts_errors_only_for_ok() {
    let mut r = Report::new("suite");
    r.push(Diagnostic::warning(TestCode::W, "a", "m"));
    let v: Value = serde_json::from_str(&render_json(&r, "validate")).unwrap();
    assert_eq!(v["ok"], true);
    r.push(Diagnostic::error(TestCode::E, "a", "m"));
    let v: Value = serde_json::from_str(&render_json(&r, "validate")).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["diagnostics"][1]["code"], "e");
}
