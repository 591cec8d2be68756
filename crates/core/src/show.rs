//! The one rule for showing untrusted text (a file name from a vendored copy, a results file's
//! `sdk` name or case id, a line of a targets file, an archive entry name...).
//!
//! A character is *hidden* ([`is_hidden`]) when a terminal or a log viewer would act on it or
//! when it changes how the text around it reads: C0 and C1 controls, DEL, the line and paragraph
//! separators (U+2028, U+2029) and the Unicode format characters (bidirectional controls, zero
//! width characters, the BOM, tag characters...). No renderer ever prints one raw:
//!
//! * human text (and the GitHub annotations and job summary built on it) shows it as a visible
//!   escape, `\n`, `\r`, `\t` or `\u{202e}` ([`text`]);
//! * a JSON document shows it as `\uXXXX` ([`json`]);
//! * a whole human output is passed through [`guard`], so that no line of it can be a GitHub
//!   Actions workflow command because of data: a line that starts (after white space) with `::`
//!   and the legacy `##[` form, which the runner honours anywhere in a line, are defused.

use std::fmt::Write as _;

/// A character that is never printed raw: a control character (C0, DEL, C1), a line or
/// paragraph separator, or a format character (general category Cf: the bidirectional controls,
/// zero-width characters, the BOM, tag characters...).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
        )
}

/// `text` as shown to a person: every hidden character as a visible escape (`\n`, `\r`, `\t`,
/// else `\u{..}` in lower-case hex). The result holds no hidden character, so it stays on one
/// line and nothing reorders it; applying it twice changes nothing more.
pub fn text(text: &str) -> String {
    if !text.chars().any(is_hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text made of lines: each line shown with [`text`], the line breaks kept. Only for text whose
/// line structure is the renderer's own (a finding's detail), never for a name.
pub fn lines(text_: &str) -> String {
    text_.split('\n').map(text).collect::<Vec<_>>().join("\n")
}

/// A serialized JSON document with every hidden character inside its strings written as
/// `\uXXXX` (a UTF-16 surrogate pair beyond U+FFFF), and `##[` as `#\u0023[`: the same value for
/// every JSON reader, but no raw control, separator or bidi character, and no legacy workflow
/// command when the document lands in a CI log. `serde_json` escapes C0 itself; the document's
/// own line breaks (pretty printing) are kept.
pub fn json(doc: &str) -> String {
    if !doc.chars().any(|c| c != '\n' && is_hidden(c)) && !doc.contains("##[") {
        return doc.to_string();
    }
    let mut out = String::with_capacity(doc.len() + 16);
    for c in doc.chars() {
        if c != '\n' && is_hidden(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    // `##[` occurs only inside strings (JSON's own syntax has no `#`).
    out.replace("##[", "#\\u0023[")
}

/// A complete human output made safe for a CI log: a line that starts, after white space, with
/// `::` (a GitHub Actions workflow command) gets its first colon escaped (`\u{3a}:`), and `##[`
/// (the legacy command form, honoured anywhere in a line) becomes `#\u{23}[`. Hidden characters
/// are escaped too, except the line breaks, which are the renderer's own. No renderer writes such
/// a line or sequence itself, so only text that came from data is changed.
pub fn guard(output: &str) -> String {
    let needs = output.contains("##[")
        || output.chars().any(|c| c != '\n' && is_hidden(c))
        || output.split('\n').any(starts_command);
    if !needs {
        return output.to_string();
    }
    let mut out = String::with_capacity(output.len() + 16);
    for (i, line) in output.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = escape_but_styles(line);
        if starts_command(&line) {
            let at = line.find("::").unwrap_or(0);
            out.push_str(&line[..at]);
            out.push_str("\\u{3a}");
            out.push_str(&line[at + 1..]);
        } else {
            out.push_str(&line);
        }
    }
    out.replace("##[", "#\\u{23}[")
}

/// A line the runner would read as a workflow command: `::` after leading white space.
fn starts_command(line: &str) -> bool {
    line.trim_start_matches(char::is_whitespace)
        .starts_with("::")
}

/// `line` with its hidden characters escaped, except the terminal styles (`ESC [ … m`) a
/// renderer paints with when colour is on.
fn escape_but_styles(line: &str) -> String {
    if !line.chars().any(is_hidden) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && let Some(len) = style_len(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        out.push_str(&text(&rest[..c.len_utf8()]));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of an SGR sequence (`ESC [ digits;… m`) at the start of `s`.
fn style_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\u{1b}[")?;
    let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    (body[end..].starts_with('m')).then_some(2 + end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_set() {
        for c in [
            '\0',
            '\n',
            '\r',
            '\t',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9b}',
            '\u{2028}',
            '\u{2029}',
            '\u{202e}',
            '\u{2066}',
            '\u{200b}',
            '\u{feff}',
            '\u{61c}',
            '\u{e0041}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in ['a', ' ', 'é', '😀', '\u{a0}', ':', '#', '\\'] {
            assert!(!is_hidden(c), "{c:?}");
        }
    }

    #[test]
    fn text_escapes_visibly() {
        assert_eq!(text("plain é"), "plain é");
        assert_eq!(text("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(text("a\u{1b}[31m"), "a\\u{1b}[31m");
        assert_eq!(text("x\u{202e}y\u{2028}"), "x\\u{202e}y\\u{2028}");
        assert_eq!(text(&text("\u{85}x")), text("\u{85}x"));
    }

    #[test]
    fn json_escapes_what_serde_leaves() {
        let doc = serde_json::to_string_pretty(&serde_json::json!({
            "k": "a\u{202e}b\u{7f}\u{85}\u{2028}\n\u{e0041}##[stop-commands]x"
        }))
        .unwrap();
        let shown = json(&doc);
        assert!(!shown.chars().any(|c| c != '\n' && is_hidden(c)), "{shown}");
        assert!(!shown.contains("##["), "{shown}");
        assert!(
            shown.contains("\\u202e") && shown.contains("\\udb40\\udc41"),
            "{shown}"
        );
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        let orig: serde_json::Value = serde_json::from_str(&doc).unwrap();
        assert_eq!(back, orig);
    }

    #[test]
    fn guard_defuses_workflow_commands() {
        assert_eq!(guard("ok\n  ::warning::x\n"), "ok\n  \\u{3a}:warning::x\n");
        assert_eq!(guard("a ##[error]b"), "a #\\u{23}[error]b");
        assert_eq!(guard("\u{3000}::x"), "\u{3000}\\u{3a}:x");
        assert_eq!(guard("error[x]: a::b\n"), "error[x]: a::b\n");
        assert_eq!(
            guard("\u{1b}[1mok\u{1b}[0m\u{202e}"),
            "\u{1b}[1mok\u{1b}[0m\\u{202e}"
        );
        assert_eq!(guard("a\u{1b}]0;t\u{7}"), "a\\u{1b}]0;t\\u{7}");
        assert_eq!(guard("a\u{1b}<"), "a\\u{1b}<");
    }
}
