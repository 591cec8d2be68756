//! Lowercase hex, strictly: the form frameIds take in logs, JSON and the suite's cases.
//!
//! Parsing accepts only `0-9` and `a-f`, two digits per byte. An uppercase digit, any other
//! character, or an odd number of digits is an error that names the byte offset in the text.

use std::fmt;

use crate::frame::{FRAME_ID_LEN, FrameId};

/// Why a hex text is refused, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexError {
    /// Byte offset in the text: of the offending character, or where a missing digit belongs.
    pub offset: usize,
    pub what: HexDefect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexDefect {
    /// `A-F`: hex is lowercase.
    Uppercase,
    /// Not a hex digit.
    NotHex,
    /// An odd number of digits: the last byte lacks its second digit.
    OddLength,
    /// The wrong number of digits for a fixed-size value (a frameId is 32).
    WrongLength { expected: usize, found: usize },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match self.what {
            HexDefect::Uppercase => write!(f, "uppercase hex digit at byte {at}: use a-f"),
            HexDefect::NotHex => write!(f, "not a hex digit at byte {at}"),
            HexDefect::OddLength => write!(f, "odd number of hex digits ({at})"),
            HexDefect::WrongLength { expected, found } => {
                write!(f, "{found} hex digits where {expected} belong")
            }
        }
    }
}

/// The bytes `text` spells in lowercase hex.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, HexError> {
    let digits = text
        .bytes()
        .enumerate()
        .map(|(offset, c)| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Err(HexError {
                offset,
                what: HexDefect::Uppercase,
            }),
            _ => Err(HexError {
                offset,
                what: HexDefect::NotHex,
            }),
        })
        .collect::<Result<Vec<u8>, HexError>>()?;
    if digits.len() % 2 == 1 {
        return Err(HexError {
            offset: digits.len(),
            what: HexDefect::OddLength,
        });
    }
    Ok(digits.chunks(2).map(|d| (d[0] << 4) | d[1]).collect())
}

/// The frameId `text` spells: exactly 32 lowercase hex digits.
pub fn parse_frame_id(text: &str) -> Result<FrameId, HexError> {
    let bytes = parse_hex(text)?;
    let expected = 2 * FRAME_ID_LEN;
    bytes.as_slice().try_into().map_err(|_| HexError {
        offset: text.len().min(expected),
        what: HexDefect::WrongLength {
            expected,
            found: text.len(),
        },
    })
}

/// `bytes` in lowercase hex.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> (usize, HexDefect) {
        let e = parse_hex(text).unwrap_err();
        (e.offset, e.what)
    }

    #[test]
    fn lowercase_hex_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        let text = to_hex(&all);
        assert_eq!(&text[..8], "00010203");
        assert!(!text.bytes().any(|b| b.is_ascii_uppercase()));
        assert_eq!(parse_hex(&text), Ok(all));
        assert_eq!(parse_hex(""), Ok(vec![]));
    }

    #[test]
    fn uppercase_non_hex_and_odd_lengths_are_refused_with_their_offset() {
        assert_eq!(refused("00aB"), (3, HexDefect::Uppercase));
        assert_eq!(refused("0g"), (1, HexDefect::NotHex));
        assert_eq!(refused("00 11"), (2, HexDefect::NotHex));
        assert_eq!(refused("0x00"), (1, HexDefect::NotHex));
        assert_eq!(refused("aé"), (1, HexDefect::NotHex));
        assert_eq!(refused("abc"), (3, HexDefect::OddLength));
        // The first bad character is reported before the parity.
        assert_eq!(refused("abF"), (2, HexDefect::Uppercase));
    }

    #[test]
    fn a_frame_id_is_exactly_32_lowercase_digits() {
        let id = "000102030405060708090a0b0c0d0e0f";
        assert_eq!(parse_frame_id(id), Ok(core::array::from_fn(|i| i as u8)));
        let short = parse_frame_id(&id[..30]).unwrap_err();
        let wrong = |found| HexDefect::WrongLength {
            expected: 32,
            found,
        };
        assert_eq!((short.offset, short.what), (30, wrong(30)));
        let long = parse_frame_id(&format!("{id}00")).unwrap_err();
        assert_eq!((long.offset, long.what), (32, wrong(34)));
        let upper = parse_frame_id(&id.to_uppercase()).unwrap_err();
        assert_eq!((upper.offset, upper.what), (21, HexDefect::Uppercase));
    }
}
