//! The one rule for what a suite may contain, used everywhere a suite's names are read or
//! written: `validate` (through the loader), `release` (its walk), `fetch` (the archive verifier,
//! so `--check` and `--update` too), `sync` (through the loader) and `diff` (through the loader and
//! the archive verifier).
//!
//! A suite holds exactly:
//!
//! * `CONFORMANCE_VERSION` and `manifest.json`;
//! * `suite.json`, the suite's description, in a suite that is not BabelQueue's (see
//!   [`crate::kind`]);
//! * `LICENSE`, in a release only (release adds it; a vendored copy keeps the SDK's own);
//! * `fixtures/NAME.json` and `schema/NAME.json`, nothing nested deeper.
//!
//! Every NAME is portable, so that a name `validate` passes releases, fetches and vendors the
//! same on Linux, macOS and Windows:
//!
//! * only ASCII letters, digits, `.`, `_` and `-` (no spaces, no Unicode, so no NFC/NFD or
//!   σ/ς look-alikes and no control or bidi characters);
//! * not starting with `.` (hidden) or `-` (read as an option by tools);
//! * not ending with `.` (Windows drops a trailing dot);
//! * not a Windows device name (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, in any
//!   case and with any extension);
//! * at most [`MAX_NAME_BYTES`] bytes, the name field of a ustar header;
//! * unique ignoring ASCII case within its directory (see [`CaseFold`]).

use std::collections::HashMap;

bqsuite_core::finding_codes! {
    /// Why a path is not part of a suite's layout.
    pub enum Code {
        HiddenFile = "hidden-file",
        NestedPath = "nested-path",
        UnexpectedFile = "unexpected-file",
        UnportableName = "unportable-name",
        NameTooLong = "name-too-long",
        NameCaseClash = "name-case-clash",
    }
}

/// Longest portable name: a ustar header's name field.
pub const MAX_NAME_BYTES: usize = 100;

/// The two data directories.
pub const DATA_DIRS: [&str; 2] = ["fixtures", "schema"];

pub const MANIFEST: &str = "manifest.json";
pub const VERSION_FILE: &str = "CONFORMANCE_VERSION";
pub const DESCRIPTION: &str = "suite.json";

/// Where a path sits in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// `CONFORMANCE_VERSION`.
    Version,
    /// `manifest.json`.
    Manifest,
    /// `suite.json`, the description.
    Description,
    /// `LICENSE` (releases only).
    License,
    /// `fixtures/` or `schema/` itself.
    DataDir,
    /// `fixtures/NAME.json` or `schema/NAME.json`.
    DataFile,
}

/// Why a path is not part of the layout: a stable code and a sentence about the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// `hidden-file`, `nested-path`, `unexpected-file`, `unportable-name` or `name-too-long`.
    pub code: Code,
    pub reason: String,
}

impl Refusal {
    fn new(code: Code, reason: impl Into<String>) -> Self {
        Refusal {
            code,
            reason: reason.into(),
        }
    }

    /// What to do about it.
    pub fn help(&self) -> &'static str {
        match self.code {
            Code::HiddenFile => "remove it from the suite's data directories",
            Code::NestedPath => "move the file directly into `fixtures/` or `schema/`",
            Code::UnexpectedFile => {
                "a suite holds only CONFORMANCE_VERSION, manifest.json, suite.json, \
                 fixtures/*.json and schema/*.json; remove or rename it"
            }
            Code::UnportableName | Code::NameTooLong | Code::NameCaseClash => {
                "rename it using only ASCII letters, digits, `.`, `_` and `-`, starting with a \
                 letter or digit, at most 100 bytes"
            }
        }
    }

    /// The finding for `rel` (a suite-relative path), naming it with control and bidi characters
    /// escaped.
    pub fn diagnostic(&self, rel: &str) -> bqsuite_core::diag::Diagnostic {
        bqsuite_core::diag::Diagnostic::error(
            self.code,
            rel,
            format!("`{}` {}", bqsuite_core::shell::escape(rel), self.reason),
        )
        .help(self.help())
    }
}

/// Whether a suite or a release is being checked: only a release carries `LICENSE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Suite,
    Release,
}

/// Where `rel` (a `/`-separated path relative to the suite or release root, without a trailing
/// `/`) sits in a vendored suite, or why it has no place there.
pub fn suite_path(rel: &str) -> Result<Place, Refusal> {
    place(rel, Scope::Suite)
}

/// As [`suite_path`], for a path inside a release (which also carries `LICENSE`).
pub fn release_path(rel: &str) -> Result<Place, Refusal> {
    place(rel, Scope::Release)
}

/// Where `rel` sits in the layout of `scope`.
pub fn place(rel: &str, scope: Scope) -> Result<Place, Refusal> {
    let mut parts = rel.split('/');
    let first = parts.next().unwrap_or_default();
    let second = parts.next();
    if parts.next().is_some() {
        // Report the first component that is wrong in itself before the nesting.
        for part in rel.split('/') {
            portable_name(part)?;
        }
        return Err(Refusal::nested_path());
    }
    match (first, second) {
        (VERSION_FILE, None) => Ok(Place::Version),
        (MANIFEST, None) => Ok(Place::Manifest),
        (DESCRIPTION, None) => Ok(Place::Description),
        ("LICENSE", None) if scope == Scope::Release => Ok(Place::License),
        (dir, None) if DATA_DIRS.contains(&dir) => Ok(Place::DataDir),
        (dir, Some(name)) if DATA_DIRS.contains(&dir) => {
            portable_name(name)?;
            if !name.ends_with(".json") {
                return Err(Refusal::not_json(dir));
            }
            Ok(Place::DataFile)
        }
        (name, _) => {
            portable_name(name)?;
            Err(match scope {
                Scope::Suite => Refusal::not_in_suite(),
                Scope::Release => Refusal::not_in_release(),
            })
        }
    }
}

/// Checks one name against the portability rule.
pub fn portable_name(name: &str) -> Result<(), Refusal> {
    if name.is_empty() {
        return Err(Refusal::empty_name());
    }
    if name.starts_with('.') {
        return Err(Refusal::hidden_name());
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(Refusal::unportable_character(&describe_char(c)));
    }
    if name.starts_with('-') {
        return Err(Refusal::leading_dash());
    }
    if name.ends_with('.') {
        return Err(Refusal::trailing_dot());
    }
    if is_device_name(name) {
        return Err(Refusal::device_name());
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(Refusal::name_too_long(name.len()));
    }
    Ok(())
}

/// `CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, in any case, alone or before an
/// extension (`nul.json` is as reserved as `NUL`).
fn is_device_name(name: &str) -> bool {
    let stem = name
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_uppercase();
    match stem.as_bytes() {
        b"CON" | b"PRN" | b"AUX" | b"NUL" => true,
        [a, b, c, d] => (matches!(&[*a, *b, *c], b"COM" | b"LPT")) && d.is_ascii_digit(),
        _ => false,
    }
}

/// A character as a message shows it: by code point, and quoted too when it is safe to show.
fn describe_char(c: char) -> String {
    if bqsuite_core::shell::unsafe_to_show(c) || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}` (U+{:04X})", c as u32)
    }
}

/// Remembers the names seen (by their ASCII-lowercased form) to find two that differ only in
/// case, which would be one file on macOS and Windows.
#[derive(Debug, Default)]
pub struct CaseFold {
    seen: HashMap<String, String>,
}

impl CaseFold {
    /// Records `rel`; returns the earlier path it clashes with, if any.
    pub fn clash(&mut self, rel: &str) -> Option<String> {
        let folded = rel.to_ascii_lowercase();
        match self.seen.get(&folded) {
            Some(other) if other != rel => Some(other.clone()),
            Some(_) => None,
            None => {
                self.seen.insert(folded, rel.to_string());
                None
            }
        }
    }
}

// Findings: one constructor per refusal, owning its words (the help is [`Refusal::help`]'s, by
// code).

impl Refusal {
    fn nested_path() -> Self {
        Refusal::new(
            Code::NestedPath,
            "lies in a subdirectory; fixtures/ and schema/ hold files directly",
        )
    }

    fn not_json(dir: &str) -> Self {
        Refusal::new(
            Code::UnexpectedFile,
            format!("is not a `.json` file; {dir}/ holds only JSON documents"),
        )
    }

    fn not_in_suite() -> Self {
        Refusal::new(Code::UnexpectedFile, "is not part of a suite")
    }

    fn not_in_release() -> Self {
        Refusal::new(Code::UnexpectedFile, "is not part of a release")
    }

    fn empty_name() -> Self {
        Refusal::new(Code::UnportableName, "has an empty name")
    }

    fn hidden_name() -> Self {
        Refusal::new(
            Code::HiddenFile,
            "is a hidden name (editor, OS or tool leftovers are never part of a suite)",
        )
    }

    /// `described`: the character as [`describe_char`] shows it.
    fn unportable_character(described: &str) -> Self {
        Refusal::new(
            Code::UnportableName,
            format!(
                "has the character {described} (names are ASCII letters, digits, `.`, `_` and `-`)"
            ),
        )
    }

    fn leading_dash() -> Self {
        Refusal::new(
            Code::UnportableName,
            "starts with `-` (tools would read it as an option)",
        )
    }

    fn trailing_dot() -> Self {
        Refusal::new(Code::UnportableName, "ends with `.` (Windows drops it)")
    }

    fn device_name() -> Self {
        Refusal::new(Code::UnportableName, "is a Windows device name")
    }

    fn name_too_long(len: usize) -> Self {
        Refusal::new(
            Code::NameTooLong,
            format!(
                "has a name of {len} bytes; a ustar header holds a name of at most {MAX_NAME_BYTES} bytes"
            ),
        )
    }
}

/// `rel` and `other` (suite-relative paths) differ only in ASCII case.
pub(crate) fn case_clash(rel: &str, other: &str) -> bqsuite_core::diag::Diagnostic {
    bqsuite_core::diag::Diagnostic::error(
        Code::NameCaseClash,
        rel,
        format!(
            "`{}` differs from `{}` only in case; they are one file on macOS and \
             Windows",
            bqsuite_core::shell::escape(rel),
            bqsuite_core::shell::escape(other)
        ),
    )
    .help("rename or remove one of them")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(rel: &str) -> &'static str {
        match release_path(rel) {
            Ok(_) => "ok",
            Err(r) => r.code.as_str(),
        }
    }

    #[test]
    fn the_layout_and_nothing_else() {
        for ok in [
            "CONFORMANCE_VERSION",
            "manifest.json",
            "LICENSE",
            "fixtures",
            "schema",
            "fixtures/order-created.json",
            "schema/message-envelope.schema.json",
            "fixtures/a_b-1.2.json",
        ] {
            assert_eq!(code(ok), "ok", "{ok}");
        }
        assert_eq!(
            suite_path("LICENSE").unwrap_err().code.as_str(),
            "unexpected-file"
        );
        for (rel, want) in [
            (".git/config", "hidden-file"),
            (".git", "hidden-file"),
            ("Makefile", "unexpected-file"),
            ("run.sh", "unexpected-file"),
            ("fixtures/.hidden.json", "hidden-file"),
            ("fixtures/d/x.json", "nested-path"),
            ("fixtures/d", "unexpected-file"),
            ("fixtures/x.txt", "unexpected-file"),
            ("fixtures/caf\u{e9}.json", "unportable-name"),
            ("fixtures/cafe\u{301}.json", "unportable-name"),
            ("fixtures/\u{3c3}.json", "unportable-name"),
            ("fixtures/\u{3c2}.json", "unportable-name"),
            ("fixtures/a.json.", "unportable-name"),
            ("fixtures/a.json ", "unportable-name"),
            ("fixtures/NUL.json", "unportable-name"),
            ("fixtures/con", "unportable-name"),
            ("fixtures/Com1.json", "unportable-name"),
            ("fixtures/lpt9", "unportable-name"),
            ("fixtures/a\u{202e}nosj.json", "unportable-name"),
            ("fixtures/a\u{85}.json", "unportable-name"),
            ("fixtures/a\tb.json", "unportable-name"),
            ("fixtures/-rf.json", "unportable-name"),
            ("fixtures/", "unportable-name"),
        ] {
            assert_eq!(code(rel), want, "{rel:?}");
        }
        let long = format!("fixtures/{}.json", "a".repeat(96));
        assert_eq!(code(&long), "name-too-long");
        let fits = format!("fixtures/{}.json", "a".repeat(95));
        assert_eq!(code(&fits), "ok");
        // Device names only as the whole stem.
        assert_eq!(code("fixtures/console.json"), "ok");
        assert_eq!(code("fixtures/com10.json"), "ok");
    }

    #[test]
    fn control_characters_are_described_not_shown() {
        let r = release_path("fixtures/a\u{1b}[31m.json").unwrap_err();
        assert!(r.reason.contains("U+001B"), "{}", r.reason);
        assert!(!r.reason.contains('\u{1b}'));
        let r = release_path("fixtures/a\u{202e}.json").unwrap_err();
        assert!(r.reason.contains("U+202E") && !r.reason.contains('\u{202e}'));
    }

    #[test]
    fn case_twins_clash() {
        let mut fold = CaseFold::default();
        assert_eq!(fold.clash("fixtures/A.json"), None);
        assert_eq!(fold.clash("fixtures/A.json"), None);
        assert_eq!(
            fold.clash("fixtures/a.json"),
            Some("fixtures/A.json".into())
        );
    }
}
