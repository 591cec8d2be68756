//! Reading a case's raw body: `body` (a JSON string holding the text) or `body_base64` (the
//! standard base64 of bytes that are not valid UTF-8).

use super::base64;
use crate::case::{Case, Step};

/// The exact bytes of the case's body.
pub fn body_bytes(c: &Case<'_>) -> Step<Vec<u8>> {
    match (c.get("body"), c.get("body_base64")) {
        (Some(_), Some(_)) => Err(c.malformed(
            "body_base64",
            "a case holds either `body` or `body_base64`, not both",
        )),
        (None, Some(_)) => {
            let text = c.str("body_base64")?;
            base64::decode(text).ok_or_else(|| {
                c.malformed(
                    "body_base64",
                    "`body_base64` must be padded standard base64",
                )
            })
        }
        _ => Ok(c.str("body")?.as_bytes().to_vec()),
    }
}
