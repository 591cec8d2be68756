//! The ASCII blank set shared by every SDK: space, `\t`, `\n`, `\v` (U+000B), `\f` (U+000C) and
//! `\r`. Nothing else is blank: not NBSP (U+00A0), NEL (U+0085), EM SPACE (U+2003), IDEOGRAPHIC
//! SPACE (U+3000) nor the BOM (U+FEFF). This is deliberately not `char::is_ascii_whitespace`
//! (which lacks `\v`) and never Unicode-aware.

/// True for exactly the six ASCII blank characters.
pub fn is_ascii_blank_char(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// True when `s` is empty or made only of ASCII blank characters.
pub fn is_ascii_blank(s: &str) -> bool {
    s.chars().all(is_ascii_blank_char)
}

/// `s` without leading and trailing ASCII blank characters (inner characters untouched).
pub fn ascii_trim(s: &str) -> &str {
    s.trim_matches(is_ascii_blank_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_set() {
        let table: &[(&str, bool)] = &[
            ("", true),
            (" ", true),
            ("\t", true),
            ("\n", true),
            ("\u{0B}", true),
            ("\u{0C}", true),
            ("\r", true),
            (" \t\n\u{0B}\u{0C}\r", true),
            ("\u{00A0}", false),
            ("\u{0085}", false),
            ("\u{2003}", false),
            ("\u{3000}", false),
            ("\u{FEFF}", false),
            ("\u{1C}", false),
            (" \u{00A0} ", false),
            ("x", false),
            (" 1", false),
        ];
        for (input, blank) in table {
            assert_eq!(is_ascii_blank(input), *blank, "{input:?}");
        }
    }

    #[test]
    fn differs_from_std_ascii_whitespace_on_vt() {
        assert!(!'\u{0B}'.is_ascii_whitespace());
        assert!(is_ascii_blank_char('\u{0B}'));
    }

    #[test]
    fn trim_set() {
        let table: &[(&str, &str)] = &[
            (" urn:a ", "urn:a"),
            ("\t\nurn:a\r\n", "urn:a"),
            ("\u{0B}\u{0C}urn:a\u{0C}\u{0B}", "urn:a"),
            ("\u{00A0}urn:a\u{00A0}", "\u{00A0}urn:a\u{00A0}"),
            ("\u{2003}urn:a\u{2003}", "\u{2003}urn:a\u{2003}"),
            ("urn:a\u{3000}", "urn:a\u{3000}"),
            ("\u{FEFF}urn:a", "\u{FEFF}urn:a"),
            ("\u{0085}urn:a\u{0085}", "\u{0085}urn:a\u{0085}"),
            (" a b ", "a b"),
            (" \t\r\n", ""),
            ("", ""),
        ];
        for (input, out) in table {
            assert_eq!(ascii_trim(input), *out, "{input:?}");
        }
    }
}
