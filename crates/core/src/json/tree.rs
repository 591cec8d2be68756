//! The tree [`parse`](super::parse()) builds: values with the positions of their first
//! characters, objects with every member (repeated keys included), and the line/column
//! bookkeeping the parser and its callers share.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::pointer::{self, ArrayIndex};

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
    /// possible for hand-built nodes; [`parse`](super::parse()) rejects such numbers) becomes
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
/// for trees produced by [`parse`](super::parse()).
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
