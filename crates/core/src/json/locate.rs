//! Maps an RFC 6901 JSON pointer back to its position (of the value or of its key) in the
//! source text.

use super::parse::{Pos, parse};
use super::pointer::parse_pointer;

/// Position in `text` of the **value** at pointer `p` (for an object member,
/// the first character of its value, not of its key; see
/// [`key_position_of`] for that).
///
/// Duplicate keys resolve to the last occurrence, like `serde_json`.
/// Returns `None` if `text` is not valid JSON, the pointer is malformed, or
/// nothing is there. This parses `text` on every call; to look up many
/// pointers, [`parse`] once and use `Node::at`.
pub fn position_of(text: &str, p: &str) -> Option<Pos> {
    parse(text).ok()?.at(p).map(|node| node.pos)
}

/// Position in `text` of the **key** of the object member at pointer `p`
/// (its opening quote), the natural place to report an unexpected or
/// repeated property. For array elements and the root, where there is no
/// key, this is the value's position, as in [`position_of`].
pub fn key_position_of(text: &str, p: &str) -> Option<Pos> {
    let root = parse(text).ok()?;
    let mut tokens = parse_pointer(p).ok()?;
    let Some(last) = tokens.pop() else {
        return Some(root.pos);
    };
    let parent = root.get(&tokens)?;
    match parent.member(&last) {
        Some(member) => Some(member.key_pos),
        None => parent.get([last]).map(|node| node.pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    const DOC: &str = r#"{
  "tests": [
    {"name": "a", "args": [1, 2]},
    {
      "name": "é",
      "x/y": {"~": true}
    }
  ],
  "tests": [{"name": "last"}]
}"#;

    #[test]
    fn positions_of_values() {
        assert_eq!(position_of(DOC, ""), Some(pos(1, 1)));
        // Duplicate "tests": the last one wins.
        assert_eq!(position_of(DOC, "/tests"), Some(pos(9, 12)));
        assert_eq!(position_of(DOC, "/tests/0/name"), Some(pos(9, 22)));
        assert_eq!(position_of(DOC, "/tests/1"), None);
        assert_eq!(position_of(DOC, "/tests/-"), None);
        assert_eq!(position_of(DOC, "/tests/00"), None);
        assert_eq!(position_of(DOC, "tests"), None);
        assert_eq!(position_of("[1,", ""), None);

        let doc = DOC.replacen("\"tests\": [{\"name\": \"last\"}]", "\"other\": 0", 1);
        assert_eq!(position_of(&doc, "/tests"), Some(pos(2, 12)));
        assert_eq!(position_of(&doc, "/tests/0"), Some(pos(3, 5)));
        assert_eq!(position_of(&doc, "/tests/0/args/1"), Some(pos(3, 31)));
        assert_eq!(position_of(&doc, "/tests/1/name"), Some(pos(5, 15)));
        assert_eq!(position_of(&doc, "/tests/1/x~1y/~0"), Some(pos(6, 20)));
    }

    #[test]
    fn positions_of_keys() {
        assert_eq!(key_position_of(DOC, ""), Some(pos(1, 1)));
        assert_eq!(key_position_of(DOC, "/tests"), Some(pos(9, 3)));
        assert_eq!(key_position_of(DOC, "/tests/0"), Some(pos(9, 13)));
        assert_eq!(key_position_of(DOC, "/tests/0/name"), Some(pos(9, 14)));
        assert_eq!(key_position_of(DOC, "/tests/0/nope"), None);
        assert_eq!(key_position_of(DOC, "/nope/x"), None);
    }
}
