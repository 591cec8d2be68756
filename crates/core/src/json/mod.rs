//! Position-aware JSON: a strict RFC 8259 parser that records the line and
//! column of every value and key (and keeps duplicate keys), plus RFC 6901
//! JSON Pointer helpers.
//!
//! Typical use in a validator: [`parse()`] the file once, report any
//! [`SyntaxError`] as `file:line:column: message`, report
//! [`Node::duplicate_keys`], validate [`Node::to_value`] with `serde_json`
//! based tooling, and map each pointer-addressed finding back to a position
//! with [`Node::at`].

pub mod locate;
pub mod parse;
pub mod pointer;
pub mod scan;
mod tree;
pub mod value;

pub use locate::{key_position_of, position_of};
pub use parse::{Duplicate, Kind, MAX_DEPTH, Member, Node, Pos, SyntaxError, parse};
pub use pointer::{PointerError, escape, join, parse_pointer, resolve};
pub use value::{check_syntax, parse_value, parse_value_noting_repeats};

/// Line and column (1-based, columns in Unicode scalar values, same rules as
/// [`Pos`]) of a byte offset in `text`.
///
/// An offset inside a multi-byte character is treated as the start of that
/// character; an offset past the end is clamped to the end of `text`.
pub fn line_col_of_offset(text: &str, byte_offset: usize) -> Pos {
    let mut offset = byte_offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let mut tracker = parse::Tracker::START;
    tracker.pos(text.as_bytes(), offset)
}

/// The position of the value at `pointer` in `tree` or, when nothing is there (a member that is
/// missing), of its nearest ancestor that is.
pub fn nearest_position(tree: &Node, pointer: &str) -> Option<Pos> {
    let mut at = pointer;
    loop {
        if let Some(node) = tree.at(at) {
            return Some(node.pos);
        }
        at = &at[..at.rfind('/')?];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    #[test]
    fn offsets_to_positions() {
        let text = "ab\né😀x\r\ny\rz";
        assert_eq!(line_col_of_offset(text, 0), pos(1, 1));
        assert_eq!(line_col_of_offset(text, 2), pos(1, 3));
        assert_eq!(line_col_of_offset(text, 3), pos(2, 1));
        // 'é' is 2 bytes, '😀' is 4 bytes.
        assert_eq!(line_col_of_offset(text, 5), pos(2, 2));
        assert_eq!(line_col_of_offset(text, 9), pos(2, 3));
        // Inside '😀': its start.
        assert_eq!(line_col_of_offset(text, 7), pos(2, 2));
        assert_eq!(line_col_of_offset(text, 10), pos(2, 4));
        // After "\r\n".
        assert_eq!(line_col_of_offset(text, 12), pos(3, 1));
        // After a lone '\r'.
        assert_eq!(line_col_of_offset(text, 14), pos(4, 1));
        assert_eq!(line_col_of_offset(text, 15), pos(4, 2));
        assert_eq!(line_col_of_offset(text, 1000), pos(4, 2));
        assert_eq!(line_col_of_offset("", 3), pos(1, 1));
    }

    #[test]
    fn offsets_agree_with_parser() {
        let text = "{\"é\": [1,\n  \"😀\", {\"k\": null}]}";
        let root = parse(text).unwrap();
        let offset = text.find("null").unwrap();
        assert_eq!(
            root.at("/é/2/k").unwrap().pos,
            line_col_of_offset(text, offset)
        );
        let offset = text.find("\"😀\"").unwrap();
        assert_eq!(
            root.at("/é/1").unwrap().pos,
            line_col_of_offset(text, offset)
        );
    }

    #[test]
    fn a_missing_member_is_placed_at_its_nearest_ancestor() {
        let root = parse("{\"a\": [1,\n {\"b\": 2}]}").unwrap();
        assert_eq!(nearest_position(&root, "/a/1/b"), Some(pos(2, 8)));
        assert_eq!(nearest_position(&root, "/a/1/c/d"), Some(pos(2, 2)));
        assert_eq!(nearest_position(&root, "/z"), Some(pos(1, 1)));
        assert_eq!(nearest_position(&root, ""), Some(pos(1, 1)));
    }

    #[test]
    fn reexports_are_usable() {
        let root = parse("{\"a\": [1]}").unwrap();
        assert_eq!(
            root.at(&join("/a", "0")).unwrap().kind,
            Kind::Number("1".into())
        );
        assert_eq!(position_of("{\"a\": [1]}", "/a/0"), Some(pos(1, 8)));
        assert!(resolve(&root.to_value(), "/a/0").unwrap().is_some());
        assert_eq!(MAX_DEPTH, 256);
        assert_eq!(escape("/"), "~1");
        assert!(parse_pointer("x").is_err());
        assert!(root.duplicate_keys().is_empty());
        let _: Option<&Member> = root.member("a");
        let _: Vec<Duplicate> = Vec::new();
        let _: Result<(), SyntaxError> = Ok(());
        let _: Result<(), PointerError> = Ok(());
        assert_eq!(key_position_of("{\"a\": 1}", "/a"), Some(pos(1, 2)));
    }
}
