//! Standard base64 (RFC 4648 section 4, with `=` padding), the encoding of a DLQ `raw` that is
//! not valid UTF-8.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The padded standard base64 of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes padded standard base64; `None` for anything else (wrong length, a character
/// outside the alphabet, misplaced padding, non-zero padding bits).
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let quads = bytes.len() / 4;
    for (q, quad) in bytes.chunks(4).enumerate() {
        let pad = quad.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && q + 1 != quads) {
            return None;
        }
        let mut n = 0u32;
        for &b in &quad[..4 - pad] {
            let v = ALPHABET.iter().position(|&a| a == b)?;
            n = (n << 6) | v as u32;
        }
        n <<= 6 * pad as u32;
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pad;
        if decoded[keep..].iter().any(|&b| b != 0) {
            return None;
        }
        out.extend_from_slice(&decoded[..keep]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_padding() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"\xff", "/w=="),
            (b"\xe2\x82", "4oI="),
            (b"\xff\xfe\xfd", "//79"),
            (
                b"valid text \xff then more",
                "dmFsaWQgdGV4dCD/IHRoZW4gbW9yZQ==",
            ),
        ] {
            assert_eq!(encode(bytes), text);
            assert_eq!(decode(text).as_deref(), Some(bytes));
        }
        for bad in ["/w", "/w=", "_w==", "/x==", "/w==AAAA", "===="] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
