//! Strict RFC 8259 JSON parser that keeps source positions and duplicate keys.
//!
//! Unlike `serde_json`, the tree produced by [`parse`] remembers where every
//! value and every object key starts in the source text, and it keeps *all*
//! members of an object, including repeated keys, so that a validator can
//! report problems as `file:line:column`.
//!
//! Guarantees:
//!
//! * the parser never panics, for any `&str` input;
//! * it does not recurse: nesting is handled with an explicit stack, and
//!   documents nested deeper than [`MAX_DEPTH`] levels are rejected;
//! * it runs in time linear in the size of the input.

use std::fmt;

pub(crate) use super::tree::Tracker;
pub use super::tree::{Duplicate, Kind, Member, Node, Pos};

/// Maximum nesting depth of arrays and objects accepted by [`parse`].
///
/// The outermost array or object is at depth 1, so 256 nested `[` are
/// accepted and the 257th is reported as an error.
pub const MAX_DEPTH: usize = 256;

/// A syntax error: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the problem was detected.
    pub pos: Pos,
    /// Human-readable description, without the position.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// An open array or object on the parser's explicit stack.
enum Frame {
    Array {
        pos: Pos,
        items: Vec<Node>,
    },
    Object {
        pos: Pos,
        members: Vec<Member>,
        /// Key (and its position) whose value is being parsed.
        key: String,
        key_pos: Pos,
    },
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    tracker: Tracker,
}

/// Parses a complete JSON text (RFC 8259), keeping positions and repeated
/// keys.
///
/// Whitespace is limited to space, tab, `\n` and `\r`; a leading byte order
/// mark is rejected. Numbers that `serde_json` cannot represent (e.g.
/// `1e400`) are rejected with "number out of range", so every successfully
/// parsed tree converts losslessly with [`Node::to_value`].
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if text.starts_with('\u{FEFF}') {
        return Err(SyntaxError {
            pos: Pos { line: 1, column: 1 },
            message: "byte order mark before JSON text".to_string(),
        });
    }
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        i: 0,
        tracker: Tracker::START,
    };
    let node = p.parse_document()?;
    p.skip_ws();
    if p.i < p.bytes.len() {
        return Err(p.error_at(p.i, "trailing characters after the JSON value"));
    }
    Ok(node)
}

/// Describes the character at a byte offset for error messages.
fn describe_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else if c.is_ascii() || c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}' (U+{:04X})", c as u32)
    }
}

impl Parser<'_> {
    fn pos(&mut self, offset: usize) -> Pos {
        self.tracker.pos(self.bytes, offset)
    }

    fn error_at(&mut self, offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            pos: self.pos(offset),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    /// The character at the current offset, for messages (`i` is always on a
    /// char boundary when this is called).
    fn found(&self) -> String {
        match self.text.get(self.i..).and_then(|s| s.chars().next()) {
            Some(c) => describe_char(c),
            None => "end of input".to_string(),
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn unexpected_eof(&mut self, expected: &str, open: Option<(&str, Pos)>) -> SyntaxError {
        let message = match open {
            Some((what, pos)) => {
                format!("unexpected end of input: expected {expected} ({what} opened at {pos})")
            }
            None => format!("unexpected end of input: expected {expected}"),
        };
        self.error_at(self.i, message)
    }

    /// Parses the top-level value with an explicit stack instead of
    /// recursion.
    fn parse_document(&mut self) -> Result<Node, SyntaxError> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            // Parse the start of a value at the current offset.
            self.skip_ws();
            let node = match self.peek() {
                None => return Err(self.unexpected_eof("a JSON value", None)),
                Some(open @ (b'[' | b'{')) => match self.open(open, &mut stack)? {
                    Some(empty) => empty,
                    None => continue,
                },
                Some(_) => self.parse_scalar()?,
            };
            if let Some(root) = self.attach(node, &mut stack)? {
                return Ok(root);
            }
        }
    }

    /// Opens the array or object whose `open` bracket is at the current offset: the whole
    /// container when it is empty, else `None` with a frame pushed for its first value.
    fn open(&mut self, open: u8, stack: &mut Vec<Frame>) -> Result<Option<Node>, SyntaxError> {
        let pos = self.pos(self.i);
        if stack.len() >= MAX_DEPTH {
            return Err(SyntaxError {
                pos,
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
            });
        }
        self.i += 1;
        self.skip_ws();
        if open == b'[' {
            if self.peek() == Some(b']') {
                self.i += 1;
                return Ok(Some(Node {
                    pos,
                    kind: Kind::Array(Vec::new()),
                }));
            }
            stack.push(Frame::Array {
                pos,
                items: Vec::new(),
            });
            return Ok(None);
        }
        match self.peek() {
            Some(b'}') => {
                self.i += 1;
                Ok(Some(Node {
                    pos,
                    kind: Kind::Object(Vec::new()),
                }))
            }
            Some(b'"') => {
                let (key, key_pos) = self.parse_key()?;
                stack.push(Frame::Object {
                    pos,
                    members: Vec::new(),
                    key,
                    key_pos,
                });
                Ok(None)
            }
            None => Err(self.unexpected_eof("string key or '}'", Some(("object", pos)))),
            Some(_) => {
                let msg = format!("expected string key or '}}', found {}", self.found());
                Err(self.error_at(self.i, msg))
            }
        }
    }

    /// A value is complete: attaches it to its parent, closing as many containers as end here.
    /// The whole document when the outermost one closed, else `None`: another value follows.
    fn attach(
        &mut self,
        mut node: Node,
        stack: &mut Vec<Frame>,
    ) -> Result<Option<Node>, SyntaxError> {
        loop {
            let Some(frame) = stack.last_mut() else {
                return Ok(Some(node));
            };
            let closed = match frame {
                Frame::Array { pos, items } => {
                    items.push(node);
                    self.after_element(*pos, items)?
                }
                Frame::Object {
                    pos,
                    members,
                    key,
                    key_pos,
                } => {
                    members.push(Member {
                        key: std::mem::take(key),
                        key_pos: *key_pos,
                        value: node,
                    });
                    self.after_member(*pos, members, key, key_pos)?
                }
            };
            match closed {
                Some(container) => {
                    node = container;
                    stack.pop();
                }
                None => return Ok(None),
            }
        }
    }

    /// After an array element: `]` closes the array (returned), `,` expects another element.
    fn after_element(
        &mut self,
        pos: Pos,
        items: &mut Vec<Node>,
    ) -> Result<Option<Node>, SyntaxError> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                let comma = self.i;
                self.i += 1;
                self.skip_ws();
                if self.peek() == Some(b']') {
                    return Err(self.error_at(comma, "trailing comma before ']' is not allowed"));
                }
                Ok(None)
            }
            Some(b']') => {
                self.i += 1;
                Ok(Some(Node {
                    pos,
                    kind: Kind::Array(std::mem::take(items)),
                }))
            }
            None => {
                Err(self.unexpected_eof("',' or ']' after array element", Some(("array", pos))))
            }
            Some(_) => Err(self.error_at(self.i, "expected ',' or ']' after array element")),
        }
    }

    /// After an object member: `}` closes the object (returned), `,` reads the next key into
    /// `key` and `key_pos`.
    fn after_member(
        &mut self,
        pos: Pos,
        members: &mut Vec<Member>,
        key: &mut String,
        key_pos: &mut Pos,
    ) -> Result<Option<Node>, SyntaxError> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                let comma = self.i;
                self.i += 1;
                self.skip_ws();
                match self.peek() {
                    Some(b'"') => {
                        (*key, *key_pos) = self.parse_key()?;
                        Ok(None)
                    }
                    Some(b'}') => {
                        Err(self.error_at(comma, "trailing comma before '}' is not allowed"))
                    }
                    None => Err(self.unexpected_eof("string key after ','", Some(("object", pos)))),
                    Some(_) => {
                        let msg = format!("expected string key after ',', found {}", self.found());
                        Err(self.error_at(self.i, msg))
                    }
                }
            }
            Some(b'}') => {
                self.i += 1;
                Ok(Some(Node {
                    pos,
                    kind: Kind::Object(std::mem::take(members)),
                }))
            }
            None => {
                Err(self.unexpected_eof("',' or '}' after object member", Some(("object", pos))))
            }
            Some(_) => Err(self.error_at(self.i, "expected ',' or '}' after object member")),
        }
    }

    /// Parses `"key"` and the following `:`; leaves `i` after the colon.
    fn parse_key(&mut self) -> Result<(String, Pos), SyntaxError> {
        let key_pos = self.pos(self.i);
        let key = self.parse_string(key_pos)?;
        self.skip_ws();
        match self.peek() {
            Some(b':') => {
                self.i += 1;
                Ok((key, key_pos))
            }
            None => Err(self.unexpected_eof("':' after object key", None)),
            Some(_) => Err(self.error_at(self.i, "expected ':' after object key")),
        }
    }

    /// Parses a string, number or literal starting at the current offset.
    fn parse_scalar(&mut self) -> Result<Node, SyntaxError> {
        let start = self.i;
        let pos = self.pos(start);
        let kind = match self.peek() {
            Some(b'"') => Kind::String(self.parse_string(pos)?),
            Some(b'-' | b'0'..=b'9') => Kind::Number(self.parse_number()?),
            Some(b't') => self.parse_literal("true", Kind::Bool(true))?,
            Some(b'f') => self.parse_literal("false", Kind::Bool(false))?,
            Some(b'n') => self.parse_literal("null", Kind::Null)?,
            _ => {
                let msg = format!("expected a JSON value, found {}", self.found());
                return Err(self.error_at(start, msg));
            }
        };
        Ok(Node { pos, kind })
    }

    fn parse_literal(&mut self, word: &str, kind: Kind) -> Result<Kind, SyntaxError> {
        if self.bytes[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(kind)
        } else {
            Err(self.error_at(self.i, format!("invalid literal, expected '{word}'")))
        }
    }

    fn eat_digits(&mut self) -> usize {
        let from = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - from
    }

    fn parse_number(&mut self) -> Result<String, SyntaxError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                let zero = self.i;
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error_at(zero, "leading zeros are not allowed"));
                }
            }
            Some(b'1'..=b'9') => {
                self.eat_digits();
            }
            _ => {
                let msg = format!("expected a digit after '-', found {}", self.found());
                return Err(self.error_at(self.i, msg));
            }
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.eat_digits() == 0 {
                let msg = format!("expected a digit after '.', found {}", self.found());
                return Err(self.error_at(self.i, msg));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.eat_digits() == 0 {
                let msg = format!("expected a digit in the exponent, found {}", self.found());
                return Err(self.error_at(self.i, msg));
            }
        }
        // The grammar only admits ASCII, so these are char boundaries.
        let raw = &self.text[start..self.i];
        if raw.parse::<serde_json::Number>().is_err() {
            return Err(self.error_at(start, "number out of range"));
        }
        Ok(raw.to_string())
    }

    /// Parses a string whose opening quote is at the current offset;
    /// `open` is the position of that quote.
    fn parse_string(&mut self, open: Pos) -> Result<String, SyntaxError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let run = self.i;
            while let Some(&b) = self.bytes.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // Stopped at an ASCII byte or the end: a char boundary.
            out.push_str(&self.text[run..self.i]);
            match self.peek() {
                None => {
                    return Err(SyntaxError {
                        pos: open,
                        message: "unterminated string".to_string(),
                    });
                }
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.parse_escape(&mut out, open)?,
                Some(b) => {
                    let msg = format!("control character U+{b:04X} in string");
                    return Err(self.error_at(self.i, msg));
                }
            }
        }
    }

    /// Parses an escape sequence starting at the backslash at `i`.
    fn parse_escape(&mut self, out: &mut String, open: Pos) -> Result<(), SyntaxError> {
        let esc = self.i;
        self.i += 1;
        let decoded = match self.peek().map(|b| (b, simple_escape(b))) {
            None => {
                return Err(SyntaxError {
                    pos: open,
                    message: "unterminated string".to_string(),
                });
            }
            Some((_, Some(c))) => c,
            Some((b'u', None)) => {
                self.i += 1;
                let unit = self.hex4(esc, open)?;
                return self.finish_unicode_escape(out, esc, unit, open);
            }
            Some((_, None)) => {
                let c = self.text[self.i..].chars().next().unwrap_or('\u{FFFD}');
                let msg = if c.is_ascii_graphic() || !(c.is_ascii() || c.is_control()) {
                    format!("invalid escape \\{c}")
                } else {
                    format!("invalid escape: '\\' followed by U+{:04X}", c as u32)
                };
                return Err(self.error_at(esc, msg));
            }
        };
        self.i += 1;
        out.push(decoded);
        Ok(())
    }

    fn finish_unicode_escape(
        &mut self,
        out: &mut String,
        esc: usize,
        unit: u32,
        open: Pos,
    ) -> Result<(), SyntaxError> {
        let lone = |p: &mut Self| {
            // `esc..esc + 6` is `\uXXXX`, all ASCII.
            let msg = format!("lone surrogate {}", &p.text[esc..esc + 6]);
            Err(p.error_at(esc, msg))
        };
        let c = match unit {
            0xD800..=0xDBFF => {
                if !self.bytes[self.i..].starts_with(b"\\u") {
                    return lone(self);
                }
                let second = self.i;
                self.i += 2;
                let low = self.hex4(second, open)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return lone(self);
                }
                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..=0xDFFF => return lone(self),
            _ => unit,
        };
        // Surrogates are excluded above, so this always succeeds.
        out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
        Ok(())
    }

    /// Reads the four hex digits of a `\u` escape whose backslash is at
    /// `esc`.
    fn hex4(&mut self, esc: usize, open: Pos) -> Result<u32, SyntaxError> {
        let mut value = 0u32;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => {
                    return Err(SyntaxError {
                        pos: open,
                        message: "unterminated string".to_string(),
                    });
                }
                Some(b) => (b as char).to_digit(16),
            };
            let Some(d) = digit else {
                return Err(self.error_at(
                    esc,
                    "invalid unicode escape: expected 4 hex digits after \\u",
                ));
            };
            value = value * 16 + d;
            self.i += 1;
        }
        Ok(value)
    }
}

/// The character a one-letter JSON escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) stands
/// for, given the letter after the backslash; `None` for `u` and anything else.
pub fn simple_escape(letter: u8) -> Option<char> {
    Some(match letter {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
