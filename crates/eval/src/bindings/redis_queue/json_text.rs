//! A small JSON reader with two dialects, kept as a tree that remembers every member of an
//! object (duplicates included) and how each number was written.
//!
//! - [`Dialect::Cjson`]: what the `cjson.decode` bundled with Redis accepts. Besides standard
//!   JSON it reads `NaN`, `Infinity` / `-Infinity` (any case), hexadecimal and leading-zero
//!   numbers, `1.` style fractions, raw control characters inside strings; an out-of-range
//!   number such as `1e400` overflows to an infinity instead of failing.
//! - [`Dialect::Strict`]: the consumer SDK's strict reader: standard JSON only (no `NaN` /
//!   `Infinity` constants, no byte order mark, no raw control characters in strings); a lone
//!   surrogate escape is accepted (as the Python reader does) and an out-of-range number reads
//!   as an infinity.
//!
//! Both refuse nesting deeper than [`MAX_DEPTH`] and anything after the single root value
//! except whitespace. Pure, bounded by the input length, never panics.

/// The deepest nesting either dialect reads (Redis' cjson default decode depth).
pub const MAX_DEPTH: usize = 1000;

/// Which reader to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Cjson,
    Strict,
    /// The strict reader plus the constants `NaN`, `Infinity` and `-Infinity` (what Python's
    /// `json.loads` reads when nothing refuses them).
    Python,
}

/// A number as read: its value as a double and whether it was written as a plain integer
/// literal (no fraction, no exponent, decimal) with its exact value when that fits `i128`.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    pub value: f64,
    pub integer: Option<i128>,
    /// Written as a decimal integer literal (possibly too long for `integer`).
    pub int_literal: bool,
}

/// A parsed JSON value; objects keep every member in order, duplicates included.
#[derive(Debug, Clone, PartialEq)]
pub enum JVal {
    Null,
    Bool(bool),
    Num(Num),
    Str(String),
    Arr(Vec<JVal>),
    Obj(Vec<(String, JVal)>),
}

impl JVal {
    /// The last member named `key` of an object (the value a map-based reader keeps).
    pub fn member(&self, key: &str) -> Option<&JVal> {
        match self {
            JVal::Obj(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses `text` in `dialect`; `None` when that reader refuses it.
pub fn parse(text: &str, dialect: Dialect) -> Option<JVal> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        dialect,
    };
    let value = p.value(0)?;
    p.ws();
    (p.i == p.s.len()).then_some(value)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    dialect: Dialect,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn lit(&mut self, word: &[u8]) -> bool {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<JVal> {
        self.ws();
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(JVal::Str),
            b't' if self.lit(b"true") => Some(JVal::Bool(true)),
            b'f' if self.lit(b"false") => Some(JVal::Bool(false)),
            b'n' if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Some(JVal::Null)
            }
            _ => self.number().map(JVal::Num),
        }
    }

    fn object(&mut self, depth: usize) -> Option<JVal> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        let mut members = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Some(JVal::Obj(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return None;
            }
            self.i += 1;
            let value = self.value(depth)?;
            members.push((key, value));
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(JVal::Obj(members));
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<JVal> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Some(JVal::Arr(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(JVal::Arr(items));
                }
                _ => return None,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.s.get(self.i..self.i + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(text, 16).ok()
    }

    /// A string token starting at the opening quote.
    fn string(&mut self) -> Option<String> {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = self.peek()?;
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    let c = match (e, bqsuite_core::json::parse::simple_escape(e)) {
                        (_, Some(c)) => c,
                        (b'u', None) => self.unicode_escape()?,
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0x00..=0x1f if self.dialect != Dialect::Cjson => return None,
                _ => out.push(b),
            }
        }
    }

    /// The character of a `\u` escape (and of its low-surrogate partner when there is one).
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        let lone = match self.dialect {
            Dialect::Cjson => None,
            Dialect::Strict | Dialect::Python => Some('\u{FFFD}'),
        };
        match first {
            0xD800..=0xDBFF => {
                if self.s[self.i..].starts_with(b"\\u") {
                    let save = self.i;
                    self.i += 2;
                    let second = self.hex4()?;
                    if (0xDC00..=0xDFFF).contains(&second) {
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        return char::from_u32(code);
                    }
                    self.i = save;
                }
                lone
            }
            0xDC00..=0xDFFF => lone,
            _ => char::from_u32(first),
        }
    }

    fn number(&mut self) -> Option<Num> {
        match self.dialect {
            Dialect::Strict => self.strict_number(),
            Dialect::Python => self.python_number(),
            Dialect::Cjson => self.cjson_number(),
        }
    }

    fn python_number(&mut self) -> Option<Num> {
        for (word, value) in [
            (&b"NaN"[..], f64::NAN),
            (b"Infinity", f64::INFINITY),
            (b"-Infinity", f64::NEG_INFINITY),
        ] {
            if self.lit(word) {
                return Some(Num {
                    value,
                    integer: None,
                    int_literal: false,
                });
            }
        }
        self.strict_number()
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn strict_number(&mut self) -> Option<Num> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        let mut int_literal = true;
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
            int_literal = false;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
            int_literal = false;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        Some(num_of(text, int_literal))
    }

    /// What C's `strtod` reads where cjson expects a number: `-`, a digit, or the start of
    /// `inf` / `nan` (any case).
    fn cjson_number(&mut self) -> Option<Num> {
        let rest = &self.s[self.i..];
        let lower: Vec<u8> = rest.iter().take(9).map(u8::to_ascii_lowercase).collect();
        let first = *rest.first()?;
        let (sign, body) = match first {
            b'-' => (-1.0, &lower[1..]),
            b'0'..=b'9' => (1.0, &lower[..]),
            b'i' | b'I' | b'n' | b'N' => (1.0, &lower[..]),
            _ => return None,
        };
        let skip = usize::from(first == b'-');
        if body.starts_with(b"inf") {
            let len = if body.starts_with(b"infinity") { 8 } else { 3 };
            self.i += skip + len;
            return Some(Num {
                value: sign * f64::INFINITY,
                integer: None,
                int_literal: false,
            });
        }
        if body.starts_with(b"nan") {
            self.i += skip + 3;
            return Some(Num {
                value: f64::NAN,
                integer: None,
                int_literal: false,
            });
        }
        if !matches!(first, b'-' | b'0'..=b'9') {
            return None;
        }
        let start = self.i;
        self.i += skip;
        if body.starts_with(b"0x") {
            self.i += 2;
            let hex_start = self.i;
            while matches!(self.peek(), Some(b) if b.is_ascii_hexdigit()) {
                self.i += 1;
            }
            if self.i == hex_start {
                // strtod reads the bare `0` and stops before the `x`.
                self.i = hex_start - 1;
                return Some(num_of("0", true));
            }
            let text = std::str::from_utf8(&self.s[hex_start..self.i]).ok()?;
            let value = text.bytes().fold(0.0f64, |acc, b| {
                acc * 16.0 + f64::from((b as char).to_digit(16).unwrap_or(0))
            });
            return Some(Num {
                value: sign * value,
                integer: None,
                int_literal: false,
            });
        }
        let int_digits = self.digits();
        let mut int_literal = true;
        let mut frac_digits = 0;
        if self.peek() == Some(b'.') {
            self.i += 1;
            frac_digits = self.digits();
            int_literal = false;
        }
        if int_digits + frac_digits == 0 {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let save = self.i;
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                self.i = save;
            } else {
                int_literal = false;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        let text = text.strip_suffix('.').unwrap_or(text);
        Some(num_of(text, int_literal))
    }
}

/// The number written as `text` (a decimal literal Rust can read).
fn num_of(text: &str, int_literal: bool) -> Num {
    let value = text.parse::<f64>().unwrap_or(f64::NAN);
    let integer = if int_literal {
        text.parse::<i128>().ok()
    } else {
        None
    };
    Num {
        value,
        integer,
        int_literal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjson_reads_non_finite_numbers_the_strict_reader_refuses() {
        for text in [
            "1e400",
            "-1e400",
            "NaN",
            "Infinity",
            "-Infinity",
            "inf",
            "0x1A",
            "1.",
        ] {
            let doc = format!("{{\"n\":{text}}}");
            assert!(parse(&doc, Dialect::Cjson).is_some(), "{doc}");
        }
        for text in ["NaN", "Infinity", "0x1A", "1.", "01x"] {
            let doc = format!("{{\"n\":{text}}}");
            assert!(parse(&doc, Dialect::Strict).is_none(), "{doc}");
        }
        let Some(JVal::Obj(m)) = parse("{\"n\":1e400}", Dialect::Strict) else {
            panic!()
        };
        assert!(matches!(&m[0].1, JVal::Num(n) if n.value.is_infinite()));
    }

    #[test]
    fn both_refuse_broken_text_and_keep_duplicates() {
        for text in [
            "",
            "{",
            "{\"a\":1}x",
            "[1,]",
            "\u{feff}{}",
            "{\"a\" 1}",
            "'a'",
        ] {
            assert!(parse(text, Dialect::Cjson).is_none(), "{text:?}");
            assert!(parse(text, Dialect::Strict).is_none(), "{text:?}");
        }
        let v = parse("{\"a\":1,\"a\":\"x\"}", Dialect::Strict).unwrap();
        assert_eq!(v.member("a"), Some(&JVal::Str("x".into())));
        assert!(matches!(v, JVal::Obj(ref m) if m.len() == 2));
        assert!(parse("\"\u{1}\"", Dialect::Strict).is_none());
        assert!(parse("\"\u{1}\"", Dialect::Cjson).is_some());
        assert!(parse("\"\\udc00\"", Dialect::Cjson).is_none());
        assert!(parse("\"\\udc00\"", Dialect::Strict).is_some());
    }

    #[test]
    fn depth_is_bounded() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&deep(MAX_DEPTH), Dialect::Cjson).is_some());
        assert!(parse(&deep(MAX_DEPTH + 1), Dialect::Cjson).is_none());
        assert!(parse(&deep(100_000), Dialect::Strict).is_none());
    }
}
