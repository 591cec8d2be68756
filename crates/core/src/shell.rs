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
/// single quotes; hidden characters (controls, separators, bidi) use `$'\xNN'` quoting so the
/// text stays printable and reads in order.
pub fn quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        return arg.to_string();
    }
    // `##[` is a workflow command anywhere in a GitHub Actions log line: `#` is written `\x23`.
    let legacy = arg.contains("##[");
    if legacy || arg.chars().any(crate::show::is_hidden) {
        let mut out = String::from("$'");
        for c in arg.chars() {
            match c {
                '\'' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                '#' if legacy => out.push_str("\\x23"),
                c if crate::show::is_hidden(c) => {
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

/// `text` with every hidden character escaped (`\n`, `\r`, `\t`, else `\u{..}`), for showing a
/// name taken from a file or the file system: the one rule of [`crate::show::text`].
pub fn escape(text: &str) -> String {
    crate::show::text(text)
}

/// A character never printed raw: see [`crate::show::is_hidden`].
pub fn unsafe_to_show(c: char) -> bool {
    crate::show::is_hidden(c)
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
        assert_eq!(quote("a\u{202e}b"), r"$'a\xe2\x80\xaeb'");
        assert_eq!(quote("a##[x]"), r"$'a\x23\x23[x]'");
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
