//! Text fields (subject, Error message, handshake payload): strict UTF-8 under a byte limit.
//!
//! The model reads the bytes as they are: the limit is measured on the wire bytes, then the
//! bytes must be UTF-8. A leading BOM (`ef bb bf`) is valid UTF-8 and stays in the text as
//! U+FEFF. Two mistakes change this: [`Mistake::BomStripped`] drops a leading BOM first, and
//! [`Mistake::Utf8Lenient`] replaces bad bytes with U+FFFD and measures the limit afterwards.

use crate::mistakes::{Mistake, Mistakes};

const BOM: &[u8] = b"\xef\xbb\xbf";

/// Why a text field is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextDefect {
    /// More than the limit: `len` bytes (after replacement under the lenient mistake).
    TooLong { len: usize },
    /// Not UTF-8: the first bad byte is at `offset` in the field.
    NotUtf8 { offset: usize },
}

/// The text of a field of `bytes`, at most `limit` bytes long.
pub(crate) fn text_field(bytes: &[u8], limit: usize, m: Mistakes) -> Result<String, TextDefect> {
    let (skipped, bytes) = match bytes.strip_prefix(BOM) {
        Some(rest) if m.has(Mistake::BomStripped) => (BOM.len(), rest),
        _ => (0, bytes),
    };
    if m.has(Mistake::Utf8Lenient) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        return match text.len() > limit {
            true => Err(TextDefect::TooLong { len: text.len() }),
            false => Ok(text),
        };
    }
    if bytes.len() > limit {
        return Err(TextDefect::TooLong { len: bytes.len() });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_owned()),
        Err(e) => Err(TextDefect::NotUtf8 {
            offset: skipped + e.valid_up_to(),
        }),
    }
}
