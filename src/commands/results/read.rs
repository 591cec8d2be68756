//! Reading one results file: bounded, UTF-8, parsed with positions, and the part of its shape
//! that every `results` command needs (sdk, versions, sections → case → status), taken from the
//! positioned tree with last-wins for repeated keys (as `serde_json` would read it).

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::Path;

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::{Error, Result};
use bqsuite_core::json::{self, Kind, Member, Node, Pos};

/// Largest results file read. A real run of every section is tens of kilobytes; the cap bounds
/// the memory a hostile file can cost.
pub const MAX_RESULTS_BYTES: u64 = 16 * 1024 * 1024;

/// Longest name a results file may hold: a key (section name, case id...), `sdk`, `version`,
/// `conformance_version`, `generated_at` or a binding. Real ones are tens of bytes; every command
/// repeats names (the matrix once per cell), so an unbounded one multiplies memory.
pub const MAX_NAME_BYTES: usize = 256;
/// Longest other string (a case's `reason`).
pub const MAX_TEXT_BYTES: usize = 4096;
/// Most sections in one results file.
pub const MAX_SECTIONS: usize = 1000;
/// Most cases in one results file, all sections together.
pub const MAX_CASES: usize = 100_000;

/// A results file that parsed as JSON.
#[derive(Debug)]
pub struct Parsed {
    pub tree: Node,
}

/// What reading a results file gave: the parsed tree, or the one finding that says why there is
/// none (too large, not UTF-8, not JSON).
#[derive(Debug)]
pub enum Loaded {
    Parsed(Parsed),
    Unreadable(Diagnostic),
}

/// How a path is named in findings: as the user gave it.
pub fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Reads and parses `path`. Fails (exit 2) only when the file cannot be read at all (missing,
/// a directory, an I/O error); a file that is too large or is not JSON is a finding.
pub fn load(path: &Path) -> Result<Loaded> {
    let meta = fs::metadata(path).map_err(|e| Error::io("read results file", path, e))?;
    check_regular(path, &meta)?;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // A FIFO swapped in after the check above must not block the open.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .map_err(|e| Error::io("open results file", path, e))?;
    let meta = file
        .metadata()
        .map_err(|e| Error::io("read results file", path, e))?;
    check_regular(path, &meta)?;
    let mut bytes = Vec::new();
    file.take(MAX_RESULTS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("read results file", path, e))?;
    let name = shown(path);
    if bytes.len() as u64 > MAX_RESULTS_BYTES {
        return Ok(Loaded::Unreadable(findings::file_too_large(
            &name,
            MAX_RESULTS_BYTES,
        )));
    }
    Ok(parse_bytes(&name, &bytes))
}

/// Only a regular file is read: a directory, FIFO or device is exit 2 (a FIFO would hang).
fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device"
    };
    Err(Error::bad_path(
        path,
        format!("is {what}, not a results file; pass the results.json file the runner wrote"),
    ))
}

/// The first way `tree` exceeds the limits ([`MAX_NAME_BYTES`], [`MAX_TEXT_BYTES`],
/// [`MAX_SECTIONS`], [`MAX_CASES`]), as a finding at the place.
fn exceeds_limits(name: &str, tree: &Node) -> Option<Diagnostic> {
    let too_large = |d: Diagnostic, pos: Pos| Some(d.line_col(pos.line, pos.column));
    let long = |text: &str, limit: usize| text.len() > limit;
    // The identity strings and the counts first (the most telling finding), then every key and
    // string.
    let top: &[Member] = match &tree.kind {
        Kind::Object(members) => members,
        _ => &[],
    };
    for m in top {
        let names: Vec<&Node> = match (m.key.as_str(), &m.value.kind) {
            ("sdk" | "version" | "conformance_version" | "generated_at", _) => vec![&m.value],
            ("bindings", Kind::Array(items)) => items.iter().collect(),
            _ => Vec::new(),
        };
        for node in names {
            if let Kind::String(text) = &node.kind
                && long(text, MAX_NAME_BYTES)
            {
                return too_large(
                    findings::name_too_long(name, &m.key, text.len(), MAX_NAME_BYTES),
                    node.pos,
                );
            }
        }
        if m.key == "sections"
            && let Kind::Object(sections) = &m.value.kind
        {
            if sections.len() > MAX_SECTIONS {
                return too_large(
                    findings::too_many_sections(name, sections.len(), MAX_SECTIONS),
                    m.value.pos,
                );
            }
            let cases: usize = sections
                .iter()
                .map(|s| match &s.value.kind {
                    Kind::Object(cases) => cases.len(),
                    _ => 0,
                })
                .sum();
            if cases > MAX_CASES {
                return too_large(
                    findings::too_many_cases(name, cases, MAX_CASES),
                    m.value.pos,
                );
            }
        }
    }
    let mut stack: Vec<&Node> = vec![tree];
    while let Some(node) = stack.pop() {
        match &node.kind {
            Kind::Object(members) => {
                for m in members {
                    if long(&m.key, MAX_NAME_BYTES) {
                        return too_large(
                            findings::key_too_long(name, m.key.len(), MAX_NAME_BYTES),
                            m.key_pos,
                        );
                    }
                    stack.push(&m.value);
                }
            }
            Kind::Array(items) => stack.extend(items),
            Kind::String(text) if long(text, MAX_TEXT_BYTES) => {
                return too_large(
                    findings::string_too_long(name, text.len(), MAX_TEXT_BYTES),
                    node.pos,
                );
            }
            _ => {}
        }
    }
    None
}

/// Parses the bytes of a results file named `name`.
pub fn parse_bytes(name: &str, bytes: &[u8]) -> Loaded {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let pos = json::line_col_of_offset(valid, valid.len());
            return Loaded::Unreadable(findings::not_utf8(name).line_col(pos.line, pos.column));
        }
    };
    match json::parse(text) {
        Ok(tree) => match exceeds_limits(name, &tree) {
            Some(d) => Loaded::Unreadable(d),
            None => Loaded::Parsed(Parsed { tree }),
        },
        Err(e) => Loaded::Unreadable(
            findings::not_json(name, &e.message).line_col(e.pos.line, e.pos.column),
        ),
    }
}

/// A case's `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Pass,
    Fail,
    Skip,
    /// Not an object with a `status` of pass/fail/skip (the schema check says what is wrong).
    Invalid,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Invalid => "invalid",
        }
    }
}

/// A case's `reason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    Absent,
    Text(String),
    /// Present but not a string.
    NotText,
}

impl Reason {
    pub fn text(&self) -> Option<&str> {
        match self {
            Reason::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// One case entry of a results file.
#[derive(Debug, Clone)]
pub struct CaseEntry {
    pub id: String,
    /// Position of the case id (the key).
    pub key_pos: Pos,
    /// Whether the value is an object (otherwise the schema check reports it).
    pub is_object: bool,
    pub status: Status,
    pub reason: Reason,
}

/// One section of a results file.
#[derive(Debug, Clone)]
pub struct SectionEntry {
    pub name: String,
    /// Position of the section name (the key).
    pub key_pos: Pos,
    /// Position of the section's value.
    pub value_pos: Pos,
    /// The cases, in file order, or `None` when the value is not an object.
    pub cases: Option<Vec<CaseEntry>>,
}

/// The members of an object with last-wins for repeated keys, in the order of their last
/// occurrence (what `serde_json` keeps is the value of the last one).
pub fn last_wins(members: &[Member]) -> Vec<&Member> {
    let mut last: HashMap<&str, usize> = HashMap::with_capacity(members.len());
    for (i, m) in members.iter().enumerate() {
        last.insert(m.key.as_str(), i);
    }
    members
        .iter()
        .enumerate()
        .filter(|(i, m)| last.get(m.key.as_str()) == Some(i))
        .map(|(_, m)| m)
        .collect()
}

/// The string value of a top-level member, if it is a string.
pub fn top_string(tree: &Node, key: &str) -> Option<String> {
    match &tree.member(key)?.value.kind {
        Kind::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn case_entry(member: &Member) -> CaseEntry {
    let value = &member.value;
    let (is_object, status, reason) = match &value.kind {
        Kind::Object(_) => {
            let status = match value.member("status").map(|m| &m.value.kind) {
                Some(Kind::String(s)) if s == "pass" => Status::Pass,
                Some(Kind::String(s)) if s == "fail" => Status::Fail,
                Some(Kind::String(s)) if s == "skip" => Status::Skip,
                _ => Status::Invalid,
            };
            let reason = match value.member("reason").map(|m| &m.value.kind) {
                None => Reason::Absent,
                Some(Kind::String(s)) => Reason::Text(s.clone()),
                Some(_) => Reason::NotText,
            };
            (true, status, reason)
        }
        _ => (false, Status::Invalid, Reason::Absent),
    };
    CaseEntry {
        id: member.key.clone(),
        key_pos: member.key_pos,
        is_object,
        status,
        reason,
    }
}

/// The `sections` member: `None` when it is absent or not an object.
pub fn sections(tree: &Node) -> Option<(Pos, Vec<SectionEntry>)> {
    let node = &tree.member("sections")?.value;
    let Kind::Object(members) = &node.kind else {
        return None;
    };
    let entries = last_wins(members)
        .into_iter()
        .map(|m| SectionEntry {
            name: m.key.clone(),
            key_pos: m.key_pos,
            value_pos: m.value.pos,
            cases: match &m.value.kind {
                Kind::Object(cases) => Some(last_wins(cases).into_iter().map(case_entry).collect()),
                _ => None,
            },
        })
        .collect();
    Some((node.pos, entries))
}

/// True when `reason` cites an ADR as `ADR-NNNN`: four digits, not inside a longer word or
/// number (the schema's pattern: `ADR-12345` and `XADR-0031` are no citations).
pub fn cites_adr(reason: &str) -> bool {
    let bytes = reason.as_bytes();
    (0..bytes.len()).any(|i| {
        let before_ok = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        let digits = bytes.get(i + 4..i + 8);
        let after_ok = bytes.get(i + 8).is_none_or(|b| !b.is_ascii_digit());
        before_ok
            && bytes[i..].starts_with(b"ADR-")
            && digits.is_some_and(|d| d.iter().all(u8::is_ascii_digit))
            && after_ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adr_citations() {
        assert!(cites_adr("single dict (ADR-0031)"));
        assert!(cites_adr("ADR-0031"));
        assert!(!cites_adr("ADR-31"));
        assert!(!cites_adr("adr-0031"));
        assert!(!cites_adr("not applicable"));
        assert!(!cites_adr(""));
        assert!(cites_adr("é ADR-1234 é"));
        assert!(cites_adr("ADR-0031, then ADR-0032."));
        assert!(!cites_adr("ADR-12345"));
        assert!(!cites_adr("see XADR-0031"));
        assert!(cites_adr("ADR-12345 and ADR-0031"));
    }

    #[test]
    fn last_wins_keeps_the_last_value() {
        let tree = json::parse(
            r#"{"sections": {"a": {"x": {"status": "pass"}, "x": {"status": "fail"}}}}"#,
        )
        .unwrap();
        let (_, secs) = sections(&tree).unwrap();
        let cases = secs[0].cases.as_ref().unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].status, Status::Fail);
    }

    fn refused(text: &str) -> Diagnostic {
        match parse_bytes("f", text.as_bytes()) {
            Loaded::Unreadable(d) => d,
            Loaded::Parsed(_) => panic!("accepted: {}", &text[..text.len().min(200)]),
        }
    }

    #[test]
    fn names_texts_and_counts_are_bounded() {
        let ok = r#"{"sdk": "babelqueue-go/redis", "bindings": ["redis"],
            "sections": {"envelope": {"case-1": {"status": "skip", "reason": "ADR-0031"}}}}"#;
        assert!(matches!(parse_bytes("f", ok.as_bytes()), Loaded::Parsed(_)));
        let name = "n".repeat(MAX_NAME_BYTES + 1);
        let at_limit = "n".repeat(MAX_NAME_BYTES);
        assert!(matches!(
            parse_bytes("f", format!(r#"{{"sdk": "{at_limit}"}}"#).as_bytes()),
            Loaded::Parsed(_)
        ));
        let d = refused(&format!("{{\n\"sdk\": \"{name}\"}}"));
        assert_eq!(d.code.as_str(), "results-too-large");
        assert_eq!(d.line_col, Some((2, 8)));
        assert!(d.message.contains("`sdk`"), "{}", d.message);
        for text in [
            format!(r#"{{"version": "{name}"}}"#),
            format!(r#"{{"bindings": ["redis", "{name}"]}}"#),
            format!(r#"{{"sections": {{"{name}": {{}}}}}}"#),
            format!(r#"{{"sections": {{"s": {{"{name}": {{"status": "pass"}}}}}}}}"#),
            format!(
                r#"{{"sections": {{"s": {{"c": {{"status": "skip", "reason": "{}"}}}}}}}}"#,
                "r".repeat(MAX_TEXT_BYTES + 1)
            ),
        ] {
            assert_eq!(refused(&text).code.as_str(), "results-too-large");
        }
        let cases: Vec<String> = (0..=MAX_CASES)
            .map(|i| format!(r#""c{i}":{{"status":"pass"}}"#))
            .collect();
        let split = cases.len() / 2;
        let text = format!(
            r#"{{"sections": {{"a": {{{}}}, "b": {{{}}}}}}}"#,
            cases[..split].join(","),
            cases[split..].join(",")
        );
        assert!(refused(&text).message.contains("cases"));
        let sections: Vec<String> = (0..=MAX_SECTIONS)
            .map(|i| format!(r#""s{i}":{{}}"#))
            .collect();
        let text = format!(r#"{{"sections": {{{}}}}}"#, sections.join(","));
        assert!(refused(&text).message.contains("members"));
    }

    #[test]
    fn unreadable_inputs_are_findings() {
        let Loaded::Unreadable(d) = parse_bytes("f", b"{\n  \"a\": \xff}") else {
            panic!()
        };
        assert_eq!(d.code.as_str(), "results-json-syntax");
        assert_eq!(d.line_col, Some((2, 8)));
        let Loaded::Unreadable(d) = parse_bytes("f", b"{\"a\": }") else {
            panic!()
        };
        assert_eq!(d.code.as_str(), "results-json-syntax");
        let Loaded::Unreadable(_) = parse_bytes("f", b"") else {
            panic!()
        };
        let deep = "[".repeat(100_000);
        let Loaded::Unreadable(_) = parse_bytes("f", deep.as_bytes()) else {
            panic!()
        };
    }
}
