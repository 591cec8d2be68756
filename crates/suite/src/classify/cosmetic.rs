//! Formatting-only edits of manifest.json (the version value cut out).

use super::change::Change;
use super::codes::Code;
use crate::Suite;
use crate::load::MANIFEST;
use bqsuite_core::json::{Kind, Node, Pos};

/// The byte offset of a parser position in `text`.
pub(super) fn offset_of(text: &str, pos: Pos) -> Option<usize> {
    let (mut line, mut column) = (1u32, 1u32);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if line == pos.line && column == pos.column {
            return Some(i);
        }
        match c {
            '\n' => {
                line += 1;
                column = 1;
            }
            '\r' => {
                if chars.peek().is_some_and(|(_, n)| *n == '\n') {
                    chars.next();
                }
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
    }
    None
}

/// The manifest text with the value of the top-level `conformance_version` cut out (it changes
/// with every release and is not a change of the suite).
pub(super) fn without_version(text: &str, tree: &Node) -> String {
    let Some(member) = tree.member("conformance_version") else {
        return text.to_string();
    };
    let Some(start) = offset_of(text, member.value.pos) else {
        return text.to_string();
    };
    let bytes = text.as_bytes();
    let end = match &member.value.kind {
        Kind::String(_) if bytes.get(start) == Some(&b'"') => {
            let mut i = start + 1;
            loop {
                match bytes.get(i) {
                    None => return text.to_string(),
                    Some(b'\\') => i += 2,
                    Some(b'"') => break i + 1,
                    Some(_) => i += 1,
                }
            }
        }
        Kind::Number(raw) => start + raw.len(),
        _ => return text.to_string(),
    };
    match (text.get(..start), text.get(end..)) {
        (Some(head), Some(tail)) => format!("{head}{tail}"),
        _ => text.to_string(),
    }
}

pub(super) fn manifest_cosmetic(old: &Suite, new: &Suite, out: &mut Vec<Change>) {
    fn text_and_tree(s: &Suite) -> Option<(&str, &Node)> {
        let file = s.file(MANIFEST)?;
        Some((file.text()?, file.tree()?))
    }
    let (Some((old_text, old_tree)), Some((new_text, new_tree))) =
        (text_and_tree(old), text_and_tree(new))
    else {
        return;
    };
    if without_version(old_text, old_tree) != without_version(new_text, new_tree) {
        out.push(Change::new(
            Code::ManifestCosmetic,
            MANIFEST,
            "manifest.json differs only in formatting, key order or the order of cases (no case, \
             section or metadata changed)"
                .to_string(),
        ));
    }
}
