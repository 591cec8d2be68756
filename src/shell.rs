//! Text meant for a terminal: commands a user can paste (every fix is named as one), and names
//! with their control characters escaped so a hostile file name cannot drive the terminal.

use std::fmt::Write as _;
use std::path::Path;

/// `bqsuite` followed by `args`, each quoted for a POSIX shell where it needs it.
pub fn command(args: &[String]) -> String {
    let mut out = String::from("bqsuite");
    for arg in args {
        out.push(' ');
        out.push_str(&quote(arg));
    }
    out
}

/// `path` as a command-line argument (lossy for non-UTF-8 names).
pub fn arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// One argument for a POSIX shell: as it is when it holds only safe characters, otherwise in
/// single quotes; control characters use `$'\xNN'` quoting so the text stays printable.
pub fn quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        return arg.to_string();
    }
    if arg.chars().any(char::is_control) {
        let mut out = String::from("$'");
        for c in arg.chars() {
            match c {
                '\'' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(out, "\\x{b:02x}");
                    }
                }
                c => out.push(c),
            }
        }
        out.push('\'');
        return out;
    }
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// `text` with every control character (C0, DEL, C1) and the bidirectional controls escaped —
/// `\n`, `\r`, `\t`, else `\u{..}` — for showing a name taken from a file or the file system, so a
/// hostile name cannot rewrite the terminal or forge a log line.
pub fn escape(text: &str) -> String {
    if !text.chars().any(unsafe_to_show) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_to_show(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A character a terminal would act on or that changes how the text around it reads: a control
/// character (C0, DEL, C1) or a bidirectional formatting character.
pub fn unsafe_to_show(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quote("suite"), "suite");
        assert_eq!(quote("../ws/x-1.json"), "../ws/x-1.json");
        assert_eq!(quote("my dir"), "'my dir'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("a\nb"), r"$'a\x0ab'");
        assert_eq!(
            command(&["sync".into(), "--workspace".into(), "a b".into()]),
            "bqsuite sync --workspace 'a b'"
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(escape("plain é"), "plain é");
        assert_eq!(escape("a\u{1b}[31m"), "a\\u{1b}[31m");
        assert_eq!(escape("x\u{202e}y"), "x\\u{202e}y");
    }
}
