//! The adopted manifest as text: the suite's `manifest.json` byte for byte wherever the adoption
//! leaves it as it was, what the proposal adds written at the end of the array or object it goes
//! to (indented like the entries before it), and the version replaced where it stands. The
//! maintainer's diff of `manifest.json` then shows what was adopted, not a reformatted file.
//!
//! The text is checked: it must parse to exactly the adopted manifest, else [`over`] gives
//! `None` and the manifest is written pretty-printed whole.

use serde_json::Value;

use bqsuite_core::json::{self, Kind, Node, Pos, scan};

/// `value` (the adopted manifest) written over `original` (the suite's manifest text), or `None`
/// when the original's layout cannot be kept.
pub fn over(original: &str, value: &Value) -> Option<String> {
    let tree = json::parse(original).ok()?;
    let source = Source::new(original);
    let start = source.offset(tree.pos)?;
    let mut out = String::with_capacity(original.len() + original.len() / 4);
    out.push_str(&original[..start]);
    let end = source.emit(&tree, value, &mut out)?;
    out.push_str(&original[end..]);
    let written: Value = serde_json::from_str(&out).ok()?;
    (written == *value).then_some(out)
}

/// The original text, with where each of its lines starts.
struct Source<'a> {
    text: &'a str,
    lines: Vec<usize>,
}

impl<'a> Source<'a> {
    fn new(text: &'a str) -> Self {
        let mut lines = vec![0];
        let bytes = text.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            let breaks = *b == b'\n' || (*b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if breaks {
                lines.push(i + 1);
            }
        }
        Source { text, lines }
    }

    /// The byte offset of `pos` (a line and a column counted in characters).
    fn offset(&self, pos: Pos) -> Option<usize> {
        let start = *self.lines.get(pos.line.checked_sub(1)? as usize)?;
        let skip = pos.column.checked_sub(1)? as usize;
        let rest = self.text.get(start..)?;
        match rest.char_indices().nth(skip) {
            Some((i, _)) => Some(start + i),
            None if rest.chars().count() == skip => Some(self.text.len()),
            None => None,
        }
    }

    /// The whitespace before `offset` on its line, when nothing else precedes it there.
    fn indent(&self, offset: usize) -> Option<&'a str> {
        let before = self.text.get(self.line_start(offset)..offset)?;
        before
            .chars()
            .all(|c| c == ' ' || c == '\t')
            .then_some(before)
    }

    /// The whitespace that starts the line holding `offset`.
    fn line_indent(&self, offset: usize) -> &'a str {
        let rest = &self.text[self.line_start(offset)..offset];
        let end = rest.find(|c| c != ' ' && c != '\t').unwrap_or(rest.len());
        &rest[..end]
    }

    fn line_start(&self, offset: usize) -> usize {
        self.lines[self.lines.partition_point(|&s| s <= offset) - 1]
    }

    /// Writes `value` where the original has `node`, keeping the original's text for whatever
    /// is unchanged; returns the offset just past `node` in the original.
    fn emit(&self, node: &Node, value: &Value, out: &mut String) -> Option<usize> {
        let start = self.offset(node.pos)?;
        match (&node.kind, value) {
            (Kind::Object(members), Value::Object(map))
                if !members.is_empty()
                    && members.len() <= map.len()
                    && members.iter().zip(map.keys()).all(|(m, k)| m.key == *k) =>
            {
                let mut at = start;
                for (member, value) in members.iter().zip(map.values()) {
                    let from = self.offset(member.value.pos)?;
                    out.push_str(self.text.get(at..from)?);
                    at = self.emit(&member.value, value, out)?;
                }
                let last = self.offset(members.last()?.key_pos)?;
                for (key, value) in map.iter().skip(members.len()) {
                    let key = serde_json::to_string(key).ok()?;
                    self.append(last, &format!("{key}: "), value, out)?;
                }
                self.close(at, b'}', out)
            }
            (Kind::Array(items), Value::Array(values))
                if !items.is_empty() && items.len() <= values.len() =>
            {
                let mut at = start;
                for (item, value) in items.iter().zip(values) {
                    let from = self.offset(item.pos)?;
                    out.push_str(self.text.get(at..from)?);
                    at = self.emit(item, value, out)?;
                }
                let last = self.offset(items.last()?.pos)?;
                for value in values.iter().skip(items.len()) {
                    self.append(last, "", value, out)?;
                }
                self.close(at, b']', out)
            }
            _ => {
                let end = self.end_of(start)?;
                let same = json::parse(self.text.get(start..end)?)
                    .ok()
                    .is_some_and(|n| n.to_value() == *value);
                if same {
                    out.push_str(&self.text[start..end]);
                } else {
                    out.push_str(&pretty(value, self.line_indent(start))?);
                }
                Some(end)
            }
        }
    }

    /// Writes `, <lead><value>` after the last entry of a container, whose first character is at
    /// `last`: on a line of its own at the same indentation, or on the same line when the
    /// entries share one.
    fn append(&self, last: usize, lead: &str, value: &Value, out: &mut String) -> Option<()> {
        match self.indent(last) {
            Some(indent) => {
                out.push_str(",\n");
                out.push_str(indent);
                out.push_str(lead);
                out.push_str(&pretty(value, indent)?);
            }
            None => {
                out.push_str(", ");
                out.push_str(lead);
                out.push_str(&serde_json::to_string(value).ok()?);
            }
        }
        Some(())
    }

    /// Copies the whitespace from `at` up to the closing `bracket` and the bracket; returns the
    /// offset past it.
    fn close(&self, at: usize, bracket: u8, out: &mut String) -> Option<usize> {
        let rest = self.text.as_bytes().get(at..)?;
        let gap = rest.iter().position(|b| !b.is_ascii_whitespace())?;
        (rest[gap] == bracket).then_some(())?;
        let end = at + gap + 1;
        out.push_str(&self.text[at..end]);
        Some(end)
    }

    /// The offset just past the value that starts at `start`.
    fn end_of(&self, start: usize) -> Option<usize> {
        scan::value_end(self.text.as_bytes(), start)
    }
}

/// `value` pretty-printed, its lines after the first indented by `indent`.
fn pretty(value: &Value, indent: &str) -> Option<String> {
    let text = serde_json::to_string_pretty(value).ok()?;
    Some(text.replace('\n', &format!("\n{indent}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_original_text_is_kept_and_additions_follow_their_siblings() {
        let original = "{\n  \"conformance_version\": \"1.8.0\",\n  \"s\": {\n    \"cases\": [\n      {\"name\": \"a\", \"x\": { \"k\": 1 }}\n    ],\n    \"p\": [1, 2]\n  }\n}\n";
        let mut value: Value = serde_json::from_str(original).unwrap();
        value["conformance_version"] = json!("1.9.0");
        value["s"]["cases"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "b"}));
        value["s"]["p"].as_array_mut().unwrap().push(json!(3));
        value["s"]["q"] = json!(true);
        value["t"] = json!({"cases": []});
        let text = over(original, &value).unwrap();
        assert_eq!(
            text,
            "{\n  \"conformance_version\": \"1.9.0\",\n  \"s\": {\n    \"cases\": [\n      {\"name\": \"a\", \"x\": { \"k\": 1 }},\n      {\n        \"name\": \"b\"\n      }\n    ],\n    \"p\": [1, 2, 3],\n    \"q\": true\n  },\n  \"t\": {\n    \"cases\": []\n  }\n}\n"
        );
    }

    #[test]
    fn an_unchanged_manifest_is_its_original_text() {
        let original = "{ \"a\" : [ 1 ,2 ], \"b\": \"\\u00e9\\\"\" }\r\n";
        let value: Value = serde_json::from_str(original).unwrap();
        assert_eq!(over(original, &value).as_deref(), Some(original));
    }

    #[test]
    fn a_block_whose_keys_changed_is_written_whole_and_still_says_the_value() {
        // A member removed: the original's keys are not a prefix of the value's.
        let original = "{\n  \"s\": {\"a\": 1, \"b\": 1},\n  \"t\": 2\n}";
        let value = json!({"s": {"b": 1}, "t": 2});
        let text = over(original, &value).unwrap();
        assert_eq!(text, "{\n  \"s\": {\n    \"b\": 1\n  },\n  \"t\": 2\n}");
        assert_eq!(over("not json", &value), None);
    }
}
