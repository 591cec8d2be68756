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
#[path = "parse_tests.rs"]
mod tests;
