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

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::pointer::{self, ArrayIndex};

/// Maximum nesting depth of arrays and objects accepted by [`parse`].
///
/// The outermost array or object is at depth 1, so 256 nested `[` are
/// accepted and the 257th is reported as an error.
pub const MAX_DEPTH: usize = 256;

/// A position in the source text.
///
/// Both fields are 1-based. `column` counts Unicode scalar values (not bytes),
/// so it matches the column an editor shows for text without tabs or
/// combining characters. Line breaks are `\n`, `\r\n` and a lone `\r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A JSON value together with the position of its first character.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Position of the first character of the value (`{`, `[`, `"`, `-`, a
    /// digit, or the first letter of `true`/`false`/`null`).
    pub pos: Pos,
    /// The value itself.
    pub kind: Kind,
}

/// The kind and content of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as its raw source text (e.g. `"-1.50e3"`).
    Number(String),
    /// A string, with escapes decoded.
    String(String),
    /// An array, elements in source order.
    Array(Vec<Node>),
    /// An object, members in source order; repeated keys are all kept.
    Object(Vec<Member>),
}

impl Kind {
    /// The JSON type name: `"null"`, `"boolean"`, `"number"`, `"string"`,
    /// `"array"` or `"object"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "boolean",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }
}

/// One `"key": value` member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, with escapes decoded.
    pub key: String,
    /// Position of the opening `"` of the key.
    pub key_pos: Pos,
    /// The member's value.
    pub value: Node,
}

/// A key that occurs more than once in the same object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// RFC 6901 pointer of the object containing the repeated key (`""` for
    /// the root).
    pub pointer: String,
    /// The repeated key (decoded).
    pub key: String,
    /// Position of the first occurrence of the key.
    pub first: Pos,
    /// Position of this repetition of the key.
    pub repeated: Pos,
}

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

impl Node {
    /// Follows already-decoded RFC 6901 reference tokens (see
    /// [`pointer::parse_pointer`]) from this node.
    ///
    /// Objects use last-wins semantics: if a key occurs several times, the
    /// last member with that key is followed (as `serde_json` does). Array
    /// tokens must be decimal indices without leading zeros; `-` and
    /// anything else that is not a valid index yields `None`.
    pub fn get<I>(&self, tokens: I) -> Option<&Node>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut current = self;
        for token in tokens {
            let token = token.as_ref();
            current = match &current.kind {
                Kind::Object(_) => &current.member(token)?.value,
                Kind::Array(items) => match pointer::array_index(token) {
                    Ok(ArrayIndex::Index(i)) => items.get(i)?,
                    Ok(ArrayIndex::End) | Err(_) => return None,
                },
                _ => return None,
            };
        }
        Some(current)
    }

    /// Resolves an RFC 6901 pointer such as `/tests/0/name` (last-wins for
    /// duplicate keys). Returns `None` if the pointer is malformed or does
    /// not point at anything.
    pub fn at(&self, pointer: &str) -> Option<&Node> {
        let tokens = pointer::parse_pointer(pointer).ok()?;
        self.get(&tokens)
    }

    /// If this node is an object, the last member with the given key.
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(members) => members.iter().rev().find(|m| m.key == key),
            _ => None,
        }
    }

    /// Every repeated object key anywhere in the tree, in document order.
    ///
    /// A key that occurs `n` times in one object produces `n - 1` entries,
    /// each with `first` set to the position of the first occurrence.
    pub fn duplicate_keys(&self) -> Vec<Duplicate> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        collect_duplicates(self, &mut path, &mut out);
        out
    }

    /// Converts to a `serde_json::Value`, exactly as `serde_json` would have
    /// parsed the same text: for repeated keys the last value wins (at the
    /// position of the first occurrence, `preserve_order`), and numbers are
    /// converted by `serde_json`, so `1` stays an integer and `1.0` a float.
    ///
    /// A `Kind::Number` whose text `serde_json` cannot represent (only
    /// possible for hand-built nodes; [`parse`] rejects such numbers) becomes
    /// `Value::Null`.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number(raw) => raw
                .parse::<serde_json::Number>()
                .map_or(Value::Null, Value::Number),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Kind::Object(members) => {
                let mut map = Map::with_capacity(members.len());
                for m in members {
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

/// A step on the path from the root to the node being visited.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_to_pointer(path: &[Step<'_>]) -> String {
    let mut s = String::new();
    for step in path {
        s.push('/');
        match step {
            Step::Key(k) => s.push_str(&pointer::escape(k)),
            Step::Index(i) => s.push_str(&i.to_string()),
        }
    }
    s
}

/// Recursion is bounded by the tree depth, which is at most [`MAX_DEPTH`]
/// for trees produced by [`parse`].
fn collect_duplicates<'a>(node: &'a Node, path: &mut Vec<Step<'a>>, out: &mut Vec<Duplicate>) {
    match &node.kind {
        Kind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                collect_duplicates(item, path, out);
                path.pop();
            }
        }
        Kind::Object(members) => {
            if members.len() > 1 {
                let mut seen: HashMap<&str, Pos> = HashMap::with_capacity(members.len());
                // Built lazily, only if this object has a duplicate.
                let mut here: Option<String> = None;
                for m in members {
                    match seen.get(m.key.as_str()) {
                        Some(&first) => out.push(Duplicate {
                            pointer: here.get_or_insert_with(|| path_to_pointer(path)).clone(),
                            key: m.key.clone(),
                            first,
                            repeated: m.key_pos,
                        }),
                        None => {
                            seen.insert(&m.key, m.key_pos);
                        }
                    }
                }
            }
            for m in members {
                path.push(Step::Key(&m.key));
                collect_duplicates(&m.value, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Incremental byte-offset → line/column conversion.
///
/// Positions are requested in (mostly) increasing order, so remembering the
/// last converted offset makes the total cost linear in the input size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tracker {
    offset: usize,
    line: u32,
    column: u32,
}

impl Tracker {
    pub(crate) const START: Tracker = Tracker {
        offset: 0,
        line: 1,
        column: 1,
    };

    /// Position of byte `to` of `bytes`. `to` should be a char boundary;
    /// offsets past the end are clamped.
    pub(crate) fn pos(&mut self, bytes: &[u8], to: usize) -> Pos {
        let to = to.min(bytes.len());
        if to < self.offset {
            *self = Tracker::START;
        }
        let Tracker {
            mut line,
            mut column,
            offset,
        } = *self;
        for (j, &b) in bytes[offset..to].iter().enumerate() {
            let lone_cr = b == b'\r' && bytes.get(offset + j + 1) != Some(&b'\n');
            if b == b'\n' || lone_cr {
                line = line.saturating_add(1);
                column = 1;
            } else if b & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new scalar value starts.
                column = column.saturating_add(1);
            }
        }
        *self = Tracker {
            offset: to,
            line,
            column,
        };
        Pos { line, column }
    }
}

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
        'value: loop {
            // Parse the start of a value at the current offset.
            self.skip_ws();
            let start = self.i;
            let mut node = match self.peek() {
                None => return Err(self.unexpected_eof("a JSON value", None)),
                Some(open @ (b'[' | b'{')) => {
                    let pos = self.pos(start);
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
                            Node {
                                pos,
                                kind: Kind::Array(Vec::new()),
                            }
                        } else {
                            stack.push(Frame::Array {
                                pos,
                                items: Vec::new(),
                            });
                            continue 'value;
                        }
                    } else {
                        match self.peek() {
                            Some(b'}') => {
                                self.i += 1;
                                Node {
                                    pos,
                                    kind: Kind::Object(Vec::new()),
                                }
                            }
                            Some(b'"') => {
                                let (key, key_pos) = self.parse_key()?;
                                stack.push(Frame::Object {
                                    pos,
                                    members: Vec::new(),
                                    key,
                                    key_pos,
                                });
                                continue 'value;
                            }
                            None => {
                                return Err(
                                    self.unexpected_eof("string key or '}'", Some(("object", pos)))
                                );
                            }
                            Some(_) => {
                                let msg =
                                    format!("expected string key or '}}', found {}", self.found());
                                return Err(self.error_at(self.i, msg));
                            }
                        }
                    }
                }
                Some(_) => self.parse_scalar()?,
            };

            // A value is complete: attach it to its parent, closing as many
            // containers as end here.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(node);
                };
                match frame {
                    Frame::Array { pos, items } => {
                        items.push(node);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                let comma = self.i;
                                self.i += 1;
                                self.skip_ws();
                                if self.peek() == Some(b']') {
                                    return Err(self.error_at(
                                        comma,
                                        "trailing comma before ']' is not allowed",
                                    ));
                                }
                                continue 'value;
                            }
                            Some(b']') => {
                                self.i += 1;
                                node = Node {
                                    pos: *pos,
                                    kind: Kind::Array(std::mem::take(items)),
                                };
                                stack.pop();
                            }
                            None => {
                                let open = Some(("array", *pos));
                                return Err(
                                    self.unexpected_eof("',' or ']' after array element", open)
                                );
                            }
                            Some(_) => {
                                return Err(self
                                    .error_at(self.i, "expected ',' or ']' after array element"));
                            }
                        }
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
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                let comma = self.i;
                                let open = *pos;
                                self.i += 1;
                                self.skip_ws();
                                match self.peek() {
                                    Some(b'"') => {
                                        let (k, kp) = self.parse_key()?;
                                        *key = k;
                                        *key_pos = kp;
                                        continue 'value;
                                    }
                                    Some(b'}') => {
                                        return Err(self.error_at(
                                            comma,
                                            "trailing comma before '}' is not allowed",
                                        ));
                                    }
                                    None => {
                                        return Err(self.unexpected_eof(
                                            "string key after ','",
                                            Some(("object", open)),
                                        ));
                                    }
                                    Some(_) => {
                                        let msg = format!(
                                            "expected string key after ',', found {}",
                                            self.found()
                                        );
                                        return Err(self.error_at(self.i, msg));
                                    }
                                }
                            }
                            Some(b'}') => {
                                self.i += 1;
                                node = Node {
                                    pos: *pos,
                                    kind: Kind::Object(std::mem::take(members)),
                                };
                                stack.pop();
                            }
                            None => {
                                let open = Some(("object", *pos));
                                return Err(
                                    self.unexpected_eof("',' or '}' after object member", open)
                                );
                            }
                            Some(_) => {
                                return Err(self
                                    .error_at(self.i, "expected ',' or '}' after object member"));
                            }
                        }
                    }
                }
            }
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
mod tests {
    use super::*;
    use serde_json::json;

    fn p(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    fn err(text: &str) -> (Pos, String) {
        let e = parse(text).expect_err(text);
        (e.pos, e.message)
    }

    fn assert_err(text: &str, pos: Pos, message: &str) {
        assert_eq!(err(text), (pos, message.to_string()), "input {text:?}");
    }

    #[test]
    fn scalars() {
        assert_eq!(parse("null").unwrap().kind, Kind::Null);
        assert_eq!(parse(" true ").unwrap().kind, Kind::Bool(true));
        assert_eq!(parse("\nfalse").unwrap().pos, p(2, 1));
        for n in [
            "0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "-1.25e-3", "0.0",
        ] {
            assert_eq!(parse(n).unwrap().kind, Kind::Number(n.to_string()), "{n}");
        }
        assert_eq!(parse("\"\"").unwrap().kind, Kind::String(String::new()));
        let s = parse(r#""a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00\u2028""#).unwrap();
        assert_eq!(
            s.kind,
            Kind::String("a\"\\/\u{8}\u{c}\n\r\t\u{41}é😀\u{2028}".to_string())
        );
        // Raw non-ASCII and DEL are fine.
        assert_eq!(
            parse("\"é😀\u{7f}\"").unwrap().kind,
            Kind::String("é😀\u{7f}".into())
        );
    }

    #[test]
    fn containers_and_positions() {
        let text = "{\n  \"a\": [1, {\"b\": null}],\n  \"é\": \"x\", \"c\": {}\n}";
        let root = parse(text).unwrap();
        assert_eq!(root.pos, p(1, 1));
        let Kind::Object(members) = &root.kind else {
            panic!()
        };
        assert_eq!(members.len(), 3);
        assert_eq!(members[0].key, "a");
        assert_eq!(members[0].key_pos, p(2, 3));
        assert_eq!(members[0].value.pos, p(2, 8));
        assert_eq!(root.at("/a/0").unwrap().pos, p(2, 9));
        assert_eq!(root.at("/a/1").unwrap().pos, p(2, 12));
        assert_eq!(root.at("/a/1/b").unwrap().pos, p(2, 18));
        assert_eq!(members[1].key_pos, p(3, 3));
        // "é" is one column wide although it is two bytes.
        assert_eq!(root.at("/é").unwrap().pos, p(3, 8));
        assert_eq!(members[2].key_pos, p(3, 13));
        assert_eq!(root.at("/c").unwrap().pos, p(3, 18));
        assert_eq!(root.at("/c").unwrap().kind, Kind::Object(vec![]));
        assert_eq!(
            root.to_value(),
            json!({"a": [1, {"b": null}], "é": "x", "c": {}})
        );
        assert_eq!(parse("[]").unwrap().kind, Kind::Array(vec![]));
        assert_eq!(parse(" [ ] ").unwrap().pos, p(1, 2));
    }

    #[test]
    fn line_breaks_crlf_and_cr() {
        let root = parse("[\r\n1,\r2,\n\t3]").unwrap();
        assert_eq!(root.at("/0").unwrap().pos, p(2, 1));
        assert_eq!(root.at("/1").unwrap().pos, p(3, 1));
        assert_eq!(root.at("/2").unwrap().pos, p(4, 2));
    }

    #[test]
    fn error_messages_and_positions() {
        assert_err("\u{FEFF}{}", p(1, 1), "byte order mark before JSON text");
        assert_err(
            "{\"a\": 1 \"b\": 2}",
            p(1, 9),
            "expected ',' or '}' after object member",
        );
        assert_err("[1 2]", p(1, 4), "expected ',' or ']' after array element");
        assert_err("[\"abc", p(1, 2), "unterminated string");
        assert_err("\"ab\\", p(1, 1), "unterminated string");
        assert_err("\"\\u12", p(1, 1), "unterminated string");
        assert_err("[\"a\\xb\"]", p(1, 4), "invalid escape \\x");
        assert_err(
            "\"\\u12G4\"",
            p(1, 2),
            "invalid unicode escape: expected 4 hex digits after \\u",
        );
        assert_err("{} x", p(1, 4), "trailing characters after the JSON value");
        assert_err("1 2", p(1, 3), "trailing characters after the JSON value");
        assert_err("truex", p(1, 5), "trailing characters after the JSON value");
        assert_err("\"\\ud800\"", p(1, 2), "lone surrogate \\ud800");
        assert_err("\"x\\uD800x\"", p(1, 3), "lone surrogate \\uD800");
        assert_err("\"\\ud800\\u0041\"", p(1, 2), "lone surrogate \\ud800");
        assert_err("\"\\udc00\"", p(1, 2), "lone surrogate \\udc00");
        assert_err(
            "[\n \"ab\ncd\"]",
            p(2, 5),
            "control character U+000A in string",
        );
        assert_err("\"\t\"", p(1, 2), "control character U+0009 in string");
        assert_err("[01]", p(1, 2), "leading zeros are not allowed");
        assert_err("-00", p(1, 2), "leading zeros are not allowed");
        assert_err(
            "-",
            p(1, 2),
            "expected a digit after '-', found end of input",
        );
        assert_err("-a", p(1, 2), "expected a digit after '-', found 'a'");
        assert_err(
            "1.",
            p(1, 3),
            "expected a digit after '.', found end of input",
        );
        assert_err("1.e3", p(1, 3), "expected a digit after '.', found 'e'");
        assert_err(
            "1e+",
            p(1, 4),
            "expected a digit in the exponent, found end of input",
        );
        assert_err("[1e400]", p(1, 2), "number out of range");
        assert_err(
            "",
            p(1, 1),
            "unexpected end of input: expected a JSON value",
        );
        assert_err(
            " \n ",
            p(2, 2),
            "unexpected end of input: expected a JSON value",
        );
        assert_err("[1,]", p(1, 3), "trailing comma before ']' is not allowed");
        assert_err(
            "{\"a\":1,\n}",
            p(1, 7),
            "trailing comma before '}' is not allowed",
        );
        assert_err("[,1]", p(1, 2), "expected a JSON value, found ','");
        assert_err("{\"a\": }", p(1, 7), "expected a JSON value, found '}'");
        assert_err("{'a': 1}", p(1, 2), "expected string key or '}', found '''");
        assert_err(
            "{\"a\":1, b}",
            p(1, 9),
            "expected string key after ',', found 'b'",
        );
        assert_err("{\"a\" 1}", p(1, 6), "expected ':' after object key");
        assert_err("tru", p(1, 1), "invalid literal, expected 'true'");
        assert_err("[nul]", p(1, 2), "invalid literal, expected 'null'");
        assert_err("True", p(1, 1), "expected a JSON value, found 'T'");
        assert_err("\u{a0}1", p(1, 1), "expected a JSON value, found U+00A0");
        assert_err("[é]", p(1, 2), "expected a JSON value, found 'é' (U+00E9)");
        assert_err(
            "[1,\n [2",
            p(2, 4),
            "unexpected end of input: expected ',' or ']' after array element (array opened at 2:2)",
        );
        assert_err(
            "{\"a\": 1",
            p(1, 8),
            "unexpected end of input: expected ',' or '}' after object member (object opened at 1:1)",
        );
        assert_err(
            "{",
            p(1, 2),
            "unexpected end of input: expected string key or '}' (object opened at 1:1)",
        );
        assert_err(
            "{\"a\"",
            p(1, 5),
            "unexpected end of input: expected ':' after object key",
        );
        // Columns count scalar values, not bytes.
        assert_err("[\"é😀\", x]", p(1, 8), "expected a JSON value, found 'x'");
        // A BOM later on is just an unexpected character.
        assert_err(
            "[\u{FEFF}]",
            p(1, 2),
            "expected a JSON value, found '\u{feff}' (U+FEFF)",
        );
    }

    #[test]
    fn depth_limit() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_err(&too_deep, p(1, 257), "nesting deeper than 256 levels");
        let objects = "{\"a\":".repeat(300);
        assert_err(
            &objects,
            p(1, 1 + 256 * 5),
            "nesting deeper than 256 levels",
        );
    }

    #[test]
    fn very_deep_input_does_not_overflow_the_stack() {
        let deep = "[".repeat(100_000);
        assert_err(&deep, p(1, 257), "nesting deeper than 256 levels");
        let deep_closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_err(&deep_closed, p(1, 257), "nesting deeper than 256 levels");
    }

    #[test]
    fn large_flat_input() {
        // One long line: positions must stay cheap (linear overall).
        let n = 200_000;
        let text = format!("[{}0]", "0,".repeat(n));
        let root = parse(&text).unwrap();
        assert_eq!(
            root.at(&format!("/{n}")).unwrap().pos,
            p(1, 2 + 2 * n as u32)
        );
    }

    #[test]
    fn duplicate_keys_everywhere() {
        let text = r#"{
  "a": 1,
  "list": [{"x": 1, "y": 2, "x": 3}, {"z": {"q": 1, "q": 2, "q": 3}}],
  "a/b~": {"k": 0, "k": 1},
  "a": 2
}"#;
        let root = parse(text).unwrap();
        let d = root.duplicate_keys();
        let expected = vec![
            Duplicate {
                pointer: String::new(),
                key: "a".into(),
                first: p(2, 3),
                repeated: p(5, 3),
            },
            Duplicate {
                pointer: "/list/0".into(),
                key: "x".into(),
                first: p(3, 13),
                repeated: p(3, 29),
            },
            Duplicate {
                pointer: "/list/1/z".into(),
                key: "q".into(),
                first: p(3, 45),
                repeated: p(3, 53),
            },
            Duplicate {
                pointer: "/list/1/z".into(),
                key: "q".into(),
                first: p(3, 45),
                repeated: p(3, 61),
            },
            Duplicate {
                pointer: "/a~1b~0".into(),
                key: "k".into(),
                first: p(4, 12),
                repeated: p(4, 20),
            },
        ];
        assert_eq!(d, expected);
        assert!(
            parse("[{\"a\":1},{\"a\":2}]")
                .unwrap()
                .duplicate_keys()
                .is_empty()
        );
        // Keys compare after unescaping.
        let d = parse(r#"{"a": 1, "\u0061": 2}"#).unwrap().duplicate_keys();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].repeated, p(1, 10));
    }

    #[test]
    fn last_wins() {
        let root =
            parse(r#"{"a": 1, "b": {"c": true}, "a": [10, 20], "b": {"c": false}}"#).unwrap();
        assert_eq!(root.at("/a/1").unwrap().kind, Kind::Number("20".into()));
        assert_eq!(root.at("/b/c").unwrap().kind, Kind::Bool(false));
        assert_eq!(root.member("a").unwrap().key_pos, p(1, 28));
        let v = root.to_value();
        assert_eq!(v, json!({"a": [10, 20], "b": {"c": false}}));
        let expected: Value =
            serde_json::from_str(r#"{"a": 1, "b": {"c": true}, "a": [10, 20], "b": {"c": false}}"#)
                .unwrap();
        assert_eq!(v, expected);
        // Same key order as serde_json (first occurrence keeps its place).
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        let expected_keys: Vec<_> = expected.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, expected_keys);
    }

    #[test]
    fn get_and_at() {
        let root = parse(r#"{"": 0, "a/b": 1, "m~n": 2, "arr": [5, 6]}"#).unwrap();
        assert_eq!(root.at("").unwrap(), &root);
        assert_eq!(root.at("/").unwrap().kind, Kind::Number("0".into()));
        assert_eq!(root.at("/a~1b").unwrap().kind, Kind::Number("1".into()));
        assert_eq!(root.at("/m~0n").unwrap().kind, Kind::Number("2".into()));
        assert_eq!(
            root.get(["arr", "1"]).unwrap().kind,
            Kind::Number("6".into())
        );
        assert_eq!(root.get(Vec::<String>::new()).unwrap(), &root);
        assert!(root.at("/arr/01").is_none());
        assert!(root.at("/arr/-").is_none());
        assert!(root.at("/arr/2").is_none());
        assert!(root.at("/arr/+1").is_none());
        assert!(root.at("/arr/99999999999999999999999").is_none());
        assert!(root.at("/arr/0/x").is_none());
        assert!(root.at("/missing").is_none());
        assert!(root.at("arr").is_none());
        assert!(root.at("/~2").is_none());
    }

    #[test]
    fn numbers_keep_their_kind() {
        let root =
            parse("[1, 1.0, -0, 1e2, 18446744073709551615, -9223372036854775808, 1e-400]").unwrap();
        let v = root.to_value();
        assert!(v[0].is_u64());
        assert!(v[1].is_f64());
        assert!(v[2].is_f64());
        assert!(v[3].is_f64());
        assert!(v[4].is_u64());
        assert!(v[5].is_i64());
        assert_eq!(v[6].as_f64(), Some(0.0));
        let bad = Node {
            pos: p(1, 1),
            kind: Kind::Number("nope".into()),
        };
        assert_eq!(bad.to_value(), Value::Null);
    }

    #[test]
    fn display() {
        let e = parse("[1,]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:3: trailing comma before ']' is not allowed"
        );
        assert_eq!(Kind::Array(vec![]).type_name(), "array");
    }

    /// Deterministic pseudo-random generator (64-bit LCG, Knuth's MMIX
    /// constants).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }

        fn below(&mut self, n: usize) -> usize {
            if n == 0 {
                0
            } else {
                (self.next() % n as u64) as usize
            }
        }
    }

    /// Upper bound of the nesting depth, ignoring strings.
    fn rough_depth(text: &str) -> usize {
        let (mut depth, mut max) = (0usize, 0usize);
        for b in text.bytes() {
            match b {
                b'[' | b'{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        max
    }

    fn mutate(rng: &mut Lcg, doc: &[u8]) -> Vec<u8> {
        const INTERESTING: &[&[u8]] = &[
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b",",
            b":",
            b"\\",
            b"\\u",
            b"\\ud83d",
            b"\\ude00",
            b"-",
            b"0",
            b"1",
            b"9",
            b".",
            b"e",
            b"E",
            b"+",
            b" ",
            b"\n",
            b"\t",
            b"\r",
            b"\x00",
            b"\x1f",
            b"\x7f",
            b"true",
            b"null",
            b"n",
            b"\xc3\xa9",
            b"\xff",
            b"\xef\xbb\xbf",
            b"1e400",
            b"00",
        ];
        let mut out = doc.to_vec();
        let len = out.len();
        match rng.below(6) {
            0 => out.truncate(rng.below(len + 1)),
            1 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            2 => {
                let i = rng.below(len + 1);
                let ins = INTERESTING[rng.below(INTERESTING.len())];
                out.splice(i..i, ins.iter().copied());
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(3.min(len - i));
                out.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = rng.below(len);
                out[i] = INTERESTING[rng.below(INTERESTING.len())][0];
            }
            _ => {
                // Duplicate a chunk elsewhere.
                let a = rng.below(len + 1);
                let b = a + rng.below(len - a + 1).min(16);
                let chunk = out[a..b].to_vec();
                let at = rng.below(len + 1);
                out.splice(at..at, chunk);
            }
        }
        out
    }

    #[test]
    fn fuzz_against_serde_json() {
        let seeds: &[&str] = &[
            r#"{"name": "t1", "args": [1, -2.5e3, true, null, "x\"y"], "nested": {"a": {"b": []}}}"#,
            r#"[0, 1.0, "\u00e9\ud83d\ude00", {"k": "v", "k": 2}, [[], {}], false]"#,
            "{\n  \"é\": \"ü😀\",\n  \"n\": -0.0e-0\n}",
            r#""just a \\ string \/ with \b\f\n\r\t escapes""#,
            "123456789012345678901234567890",
            "[\"\\u0000\", 18446744073709551616, -9223372036854775809]",
        ];
        let mut rng = Lcg(0x5eed_1234_abcd_ef01);
        let (mut agreed_ok, mut agreed_err) = (0, 0);
        for round in 0..2000 {
            let seed = seeds[round % seeds.len()].as_bytes();
            let mut bytes = seed.to_vec();
            for _ in 0..1 + rng.below(4) {
                bytes = mutate(&mut rng, &bytes);
            }
            let text = match String::from_utf8(bytes) {
                Ok(s) => s,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            };
            let ours = parse(&text);
            if let Ok(node) = &ours {
                // Exercise the rest of the API on whatever parsed.
                let _ = node.duplicate_keys();
                let _ = node.at("/0/a");
            }
            if rough_depth(&text) >= 100 {
                continue;
            }
            let theirs = serde_json::from_str::<Value>(&text);
            match (ours, theirs) {
                (Ok(node), Ok(value)) => {
                    assert_eq!(node.to_value(), value, "input {text:?}");
                    agreed_ok += 1;
                }
                (Err(_), Err(_)) => agreed_err += 1,
                (ours, theirs) => {
                    panic!("disagreement on {text:?}: ours {ours:?}, serde_json {theirs:?}")
                }
            }
        }
        // The mutations must produce a healthy mix of both outcomes.
        eprintln!("fuzz: {agreed_ok} ok, {agreed_err} err");
        assert!(agreed_ok > 100, "only {agreed_ok} valid inputs");
        assert!(agreed_err > 100, "only {agreed_err} invalid inputs");
    }
}
