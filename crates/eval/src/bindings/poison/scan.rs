//! A small strict JSON scanner for raw message bodies.
//!
//! `serde_json` hides exactly what the poison rules look at, so the body is read here instead:
//! every member of an object is kept (a repeated name is seen twice), a number is kept as the
//! text it was written with (`1e3`, `1.0`, `1e400` stay apart), a `\uD800` escape that is not
//! half of a pair is flagged instead of refused, and the nesting depth is recorded rather than
//! capped. Everything else is RFC 8259: whitespace is space, tab, LF and CR only, so a leading
//! byte order mark, `NaN`, single quotes, a leading zero or trailing data is a syntax error.
//!
//! The tree is a flat list of nodes that point at their children by index, so neither the scan
//! nor dropping the result recurses, whatever the depth. Work is linear in the text length.

/// One value of the scanned document.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: Kind,
    /// Byte offset of the value's first character in the text.
    pub start: usize,
    /// Byte offset just past the value's last character.
    pub end: usize,
    /// Nesting depth of the value: the root is at 1, its members and elements at 2.
    pub depth: usize,
}

/// The member name that holds a value inside an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// The name with its escapes decoded (a lone surrogate escape decodes to U+FFFD).
    pub text: String,
    /// Byte offset of the opening quote of the name.
    pub start: usize,
    /// The name holds a surrogate escape that is not half of a pair.
    pub lone_surrogate: bool,
}

/// What a node is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    /// A number; its lexeme is `text[start..end]`.
    Number,
    /// A string with its escapes decoded; `lone_surrogate` flags an unpaired surrogate escape
    /// (decoded to U+FFFD).
    String {
        value: String,
        lone_surrogate: bool,
    },
    /// Indexes of the elements, in document order.
    Array(Vec<usize>),
    /// Names and indexes of the members, in document order, repeated names included.
    Object(Vec<(Name, usize)>),
}

/// A scanned document: `nodes[0]` is the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc<'t> {
    pub text: &'t str,
    pub nodes: Vec<Node>,
    /// The deepest nesting level of the document.
    pub max_depth: usize,
}

/// Why the text is not one JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub offset: usize,
    pub message: String,
}

impl<'t> Doc<'t> {
    /// The root value.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The source text of a node (a number's lexeme, a container's full text).
    pub fn source(&self, index: usize) -> &'t str {
        let n = &self.nodes[index];
        self.text.get(n.start..n.end).unwrap_or("")
    }

    /// The members of the object at `index` (empty for any other node).
    pub fn members(&self, index: usize) -> &[(Name, usize)] {
        match &self.nodes[index].kind {
            Kind::Object(members) => members,
            _ => &[],
        }
    }

    /// Every node index below `index` (itself included), in no particular order.
    pub fn subtree(&self, index: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![index];
        while let Some(i) = stack.pop() {
            out.push(i);
            match &self.nodes[i].kind {
                Kind::Array(items) => stack.extend(items.iter().copied()),
                Kind::Object(members) => stack.extend(members.iter().map(|(_, v)| *v)),
                _ => {}
            }
        }
        out
    }

    /// True when a string value or a member name anywhere holds an unpaired surrogate escape.
    pub fn has_lone_surrogate(&self) -> bool {
        self.nodes.iter().any(|n| match &n.kind {
            Kind::String { lone_surrogate, .. } => *lone_surrogate,
            Kind::Object(members) => members.iter().any(|(name, _)| name.lone_surrogate),
            _ => false,
        })
    }
}

/// An open container while scanning.
struct Open {
    node: usize,
    /// The name whose value is being scanned (objects only).
    pending: Option<Name>,
}

struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    i: usize,
    nodes: Vec<Node>,
    max_depth: usize,
}

/// Scans `text` as exactly one JSON value surrounded by optional JSON whitespace.
pub fn scan(text: &str) -> Result<Doc<'_>, ScanError> {
    let mut s = Scanner {
        text,
        bytes: text.as_bytes(),
        i: 0,
        nodes: Vec::new(),
        max_depth: 0,
    };
    s.document()?;
    s.skip_ws();
    if s.i < s.bytes.len() {
        return Err(s.error("trailing data after the JSON value"));
    }
    Ok(Doc {
        text,
        nodes: s.nodes,
        max_depth: s.max_depth,
    })
}

impl Scanner<'_> {
    fn error(&self, message: &str) -> ScanError {
        ScanError {
            offset: self.i,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn push(&mut self, kind: Kind, start: usize, depth: usize) -> usize {
        self.max_depth = self.max_depth.max(depth);
        self.nodes.push(Node {
            kind,
            start,
            end: self.i,
            depth,
        });
        self.nodes.len() - 1
    }

    /// Scans the top-level value with an explicit stack of open containers.
    fn document(&mut self) -> Result<(), ScanError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // A value starts here.
            self.skip_ws();
            let start = self.i;
            let depth = stack.len() + 1;
            let mut done = match self.peek() {
                Some(b'{') | Some(b'[') => {
                    let object = self.peek() == Some(b'{');
                    self.i += 1;
                    let kind = if object {
                        Kind::Object(Vec::new())
                    } else {
                        Kind::Array(Vec::new())
                    };
                    let node = self.push(kind, start, depth);
                    self.skip_ws();
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.i += 1;
                        self.nodes[node].end = self.i;
                        node
                    } else {
                        let pending = if object { Some(self.name()?) } else { None };
                        stack.push(Open { node, pending });
                        continue;
                    }
                }
                Some(b'"') => {
                    let (value, lone_surrogate) = self.string()?;
                    self.push(
                        Kind::String {
                            value,
                            lone_surrogate,
                        },
                        start,
                        depth,
                    )
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                    self.push(Kind::Number, start, depth)
                }
                Some(b't') => self.literal("true", Kind::Bool(true), start, depth)?,
                Some(b'f') => self.literal("false", Kind::Bool(false), start, depth)?,
                Some(b'n') => self.literal("null", Kind::Null, start, depth)?,
                None => return Err(self.error("expected a JSON value, found the end")),
                Some(_) => return Err(self.error("expected a JSON value")),
            };
            // A value is complete: attach it and close every container that ends here.
            loop {
                let Some(open) = stack.last_mut() else {
                    return Ok(());
                };
                let parent = open.node;
                let pending = open.pending.take();
                match (&mut self.nodes[parent].kind, pending) {
                    (Kind::Object(members), Some(name)) => members.push((name, done)),
                    (Kind::Array(items), _) => items.push(done),
                    _ => return Err(self.error("internal: member without a name")),
                }
                let object = matches!(self.nodes[parent].kind, Kind::Object(_));
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.i += 1;
                        if object {
                            self.skip_ws();
                            let name = self.name()?;
                            if let Some(open) = stack.last_mut() {
                                open.pending = Some(name);
                            }
                        }
                        break;
                    }
                    Some(b'}') if object => {}
                    Some(b']') if !object => {}
                    _ => return Err(self.error("expected ',' or the end of the container")),
                }
                self.i += 1;
                self.nodes[parent].end = self.i;
                stack.pop();
                done = parent;
            }
        }
    }

    /// A member name and its colon.
    fn name(&mut self) -> Result<Name, ScanError> {
        let start = self.i;
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a member name"));
        }
        let (text, lone_surrogate) = self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("expected ':' after a member name"));
        }
        self.i += 1;
        Ok(Name {
            text,
            start,
            lone_surrogate,
        })
    }

    fn literal(
        &mut self,
        word: &str,
        kind: Kind,
        start: usize,
        depth: usize,
    ) -> Result<usize, ScanError> {
        if !self.bytes[self.i..].starts_with(word.as_bytes()) {
            return Err(self.error("invalid literal"));
        }
        self.i += word.len();
        Ok(self.push(kind, start, depth))
    }

    fn digits(&mut self) -> usize {
        let from = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - from
    }

    /// Checks the number grammar of RFC 8259; the lexeme is kept by position.
    fn number(&mut self) -> Result<(), ScanError> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error("leading zero"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.error("expected a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(())
    }

    /// A string whose opening quote is at `i`: its decoded value and whether it held an
    /// unpaired surrogate escape.
    fn string(&mut self) -> Result<(String, bool), ScanError> {
        self.i += 1;
        let mut out = String::new();
        let mut lone = false;
        loop {
            let run = self.i;
            while let Some(&b) = self.bytes.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(self.text.get(run..self.i).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok((out, lone));
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self
                        .peek()
                        .map(|b| (b, bqsuite_core::json::parse::simple_escape(b)))
                    {
                        Some((_, Some(c))) => c,
                        Some((b'u', _)) => {
                            self.i += 1;
                            let (c, paired) = self.unicode_escape()?;
                            lone |= !paired;
                            out.push(c);
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.i += 1;
                    out.push(c);
                }
                None => return Err(self.error("unterminated string")),
                Some(_) => return Err(self.error("control character in a string")),
            }
        }
    }

    /// The character of a `\u` escape whose hex digits start at `i` (a following low half is
    /// consumed with a high half), and false when a surrogate was left unpaired.
    fn unicode_escape(&mut self) -> Result<(char, bool), ScanError> {
        let unit = self.hex4()?;
        match unit {
            0xD800..=0xDBFF => {
                if self.bytes[self.i..].starts_with(b"\\u") {
                    let save = self.i;
                    self.i += 2;
                    let low = self.hex4()?;
                    if (0xDC00..=0xDFFF).contains(&low) {
                        let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        return Ok((char::from_u32(c).unwrap_or('\u{FFFD}'), true));
                    }
                    // Not a low half: it is read again as an escape of its own.
                    self.i = save;
                }
                Ok(('\u{FFFD}', false))
            }
            0xDC00..=0xDFFF => Ok(('\u{FFFD}', false)),
            _ => Ok((char::from_u32(unit).unwrap_or('\u{FFFD}'), true)),
        }
    }

    fn hex4(&mut self) -> Result<u32, ScanError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| (b as char).to_digit(16));
            let Some(d) = digit else {
                return Err(self.error("expected four hex digits after \\u"));
            };
            value = value * 16 + d;
            self.i += 1;
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_repeated_names_lexemes_and_spans() {
        let doc = scan(r#" {"job":5,"job":"urn:x","n":1e400,"d":{"a":[1.0]}} "#).unwrap();
        let names: Vec<&str> = doc
            .members(0)
            .iter()
            .map(|(n, _)| n.text.as_str())
            .collect();
        assert_eq!(names, ["job", "job", "n", "d"]);
        let n = doc.members(0)[2].1;
        assert_eq!(doc.source(n), "1e400");
        assert_eq!(
            doc.source(0),
            r#"{"job":5,"job":"urn:x","n":1e400,"d":{"a":[1.0]}}"#
        );
        assert_eq!(doc.max_depth, 4);
        assert_eq!(doc.subtree(doc.members(0)[3].1).len(), 3);
    }

    #[test]
    fn refuses_what_rfc_8259_refuses() {
        for bad in [
            "",
            "  ",
            "\u{feff}{}",
            "{} x",
            "{}{}",
            "{'a':1}",
            "[01]",
            "[NaN]",
            "[-Infinity]",
            "{\"a\":1,}",
            "[1,]",
            "\"\t\"",
            "\"\\x\"",
            "{\"a\"}",
            "[1",
            "tru",
            "-",
            "1.",
            "1e",
        ] {
            assert!(scan(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn flags_unpaired_surrogates_anywhere() {
        assert!(
            !scan(r#"{"a":"\ud83d\ude00"}"#)
                .unwrap()
                .has_lone_surrogate()
        );
        for lone in [
            r#"{"a":"\ud800"}"#,
            r#"{"a":"\udc00"}"#,
            r#"{"a":"\ud800\u0041"}"#,
            r#"{"\ud800":1}"#,
            r#"[["\udbff"]]"#,
        ] {
            assert!(scan(lone).unwrap().has_lone_surrogate(), "{lone}");
        }
        let doc = scan(r#""\ud800\u0041""#).unwrap();
        assert!(matches!(&doc.root().kind, Kind::String { value, .. } if value == "\u{FFFD}A"));
    }

    #[test]
    fn deep_nesting_neither_recurses_nor_is_capped() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let doc = scan(&text).unwrap();
        assert_eq!(doc.max_depth, 100_000);
        drop(doc);
    }
}
