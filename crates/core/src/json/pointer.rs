//! RFC 6901 JSON Pointer helpers over `serde_json::Value`.

use std::fmt;

use serde_json::Value;

/// A malformed JSON pointer, or a reference token that is not a valid array
/// index where an array index is required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointerError {
    /// The pointer as given.
    pub pointer: String,
    /// 0-based index, in Unicode scalar values, of the offending character
    /// in `pointer`.
    pub index: usize,
    /// What is wrong, e.g. `'~' must be followed by '0' or '1', found '2'`.
    pub message: String,
}

/// Displays as `<message> (at character index <index>)`, without the
/// pointer itself, so callers can embed it after quoting the pointer.
impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character index {})", self.message, self.index)
    }
}

impl std::error::Error for PointerError {}

/// Parses an RFC 6901 pointer into its decoded reference tokens.
///
/// `""` is the whole document (no tokens); otherwise the pointer must start
/// with `/`. `~0` decodes to `~` and `~1` to `/`; any other use of `~` is an
/// error.
pub fn parse_pointer(p: &str) -> Result<Vec<String>, PointerError> {
    Ok(parse_with_indices(p)?
        .into_iter()
        .map(|(token, _)| token)
        .collect())
}

/// Like [`parse_pointer`], also returning the character index at which each
/// token starts (just after its `/`).
fn parse_with_indices(p: &str) -> Result<Vec<(String, usize)>, PointerError> {
    let error = |index: usize, message: String| PointerError {
        pointer: p.to_string(),
        index,
        message,
    };
    let mut tokens = Vec::new();
    let mut chars = p.chars().enumerate().peekable();
    match chars.next() {
        None => return Ok(tokens),
        Some((_, '/')) => {}
        Some((_, c)) => {
            return Err(error(
                0,
                format!("a JSON pointer must be empty or start with '/', found {c:?}"),
            ));
        }
    }
    let mut token = String::new();
    let mut start = 1;
    while let Some((i, c)) = chars.next() {
        match c {
            '/' => {
                tokens.push((std::mem::take(&mut token), start));
                start = i + 1;
            }
            '~' => match chars.next() {
                Some((_, '0')) => token.push('~'),
                Some((_, '1')) => token.push('/'),
                Some((_, other)) => {
                    return Err(error(
                        i,
                        format!("'~' must be followed by '0' or '1', found {other:?}"),
                    ));
                }
                None => {
                    return Err(error(
                        i,
                        "'~' at the end must be followed by '0' or '1'".to_string(),
                    ));
                }
            },
            c => token.push(c),
        }
    }
    tokens.push((token, start));
    Ok(tokens)
}

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Appends an (unescaped) token to a pointer: `join("/a", "b/c")` is
/// `"/a/b~1c"`, `join("", "x")` is `"/x"`.
pub fn join(base: &str, token: &str) -> String {
    format!("{base}/{}", escape(token))
}

/// How a reference token addresses an array element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayIndex {
    /// A valid decimal index (possibly out of bounds).
    Index(usize),
    /// `-`: the (nonexistent) element after the last one.
    End,
}

/// Interprets a token as an array index: decimal digits without leading
/// zeros, or `-`. Indices too large for `usize` are reported as
/// `Index(usize::MAX)`, which is never in bounds.
pub fn array_index(token: &str) -> Result<ArrayIndex, String> {
    if token == "-" {
        return Ok(ArrayIndex::End);
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "array index {token:?} must be a non-negative decimal integer"
        ));
    }
    if token.len() > 1 && token.starts_with('0') {
        return Err(format!("array index {token:?} must not have leading zeros"));
    }
    Ok(ArrayIndex::Index(token.parse().unwrap_or(usize::MAX)))
}

/// Resolves an RFC 6901 pointer in a `serde_json::Value`.
///
/// Returns `Ok(None)` if the pointer is well-formed but points at nothing
/// (missing key, index out of bounds, `-`, or stepping into a scalar).
/// Returns `Err` if the pointer is malformed, or if a token used on an array
/// is not a decimal index without leading zeros (e.g. `/01`, `/x`), as
/// RFC 6901 section 4 requires.
pub fn resolve<'a>(value: &'a Value, p: &str) -> Result<Option<&'a Value>, PointerError> {
    let mut current = value;
    for (token, index) in parse_with_indices(p)? {
        let next = match current {
            Value::Object(map) => map.get(&token),
            Value::Array(items) => match array_index(&token) {
                Ok(ArrayIndex::Index(i)) => items.get(i),
                Ok(ArrayIndex::End) => None,
                Err(message) => {
                    return Err(PointerError {
                        pointer: p.to_string(),
                        index,
                        message,
                    });
                }
            },
            _ => None,
        };
        match next {
            Some(v) => current = v,
            None => return Ok(None),
        }
    }
    Ok(Some(current))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parse_valid_pointers() {
        assert_eq!(parse_pointer("").unwrap(), Vec::<String>::new());
        assert_eq!(parse_pointer("/").unwrap(), vec![""]);
        assert_eq!(parse_pointer("/a/b").unwrap(), vec!["a", "b"]);
        assert_eq!(parse_pointer("/a~1b/m~0n").unwrap(), vec!["a/b", "m~n"]);
        // ~01 is "~1" literally, not "/".
        assert_eq!(parse_pointer("/~01").unwrap(), vec!["~1"]);
        assert_eq!(parse_pointer("//x/").unwrap(), vec!["", "x", ""]);
        assert_eq!(parse_pointer("/é/ü").unwrap(), vec!["é", "ü"]);
    }

    #[test]
    fn parse_invalid_pointers() {
        let e = parse_pointer("a").unwrap_err();
        assert_eq!(e.index, 0);
        assert_eq!(
            e.message,
            "a JSON pointer must be empty or start with '/', found 'a'"
        );
        let e = parse_pointer("/~2").unwrap_err();
        assert_eq!(e.index, 1);
        assert_eq!(e.message, "'~' must be followed by '0' or '1', found '2'");
        assert_eq!(
            e.to_string(),
            "'~' must be followed by '0' or '1', found '2' (at character index 1)"
        );
        let e = parse_pointer("/~").unwrap_err();
        assert_eq!(e.index, 1);
        assert_eq!(e.message, "'~' at the end must be followed by '0' or '1'");
        // Index counts characters, not bytes.
        let e = parse_pointer("/éé/~x").unwrap_err();
        assert_eq!(e.index, 4);
    }

    #[test]
    fn escape_and_join() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(escape("~1"), "~01");
        assert_eq!(join("", "x"), "/x");
        assert_eq!(join("/a", "b/c"), "/a/b~1c");
        assert_eq!(join("/a", ""), "/a/");
        for token in ["", "~", "/", "~1", "a~/b", "é"] {
            let p = join("/root", token);
            assert_eq!(parse_pointer(&p).unwrap(), vec!["root", token]);
        }
    }

    #[test]
    fn resolve_values() {
        let v = json!({"a/b": 1, "m~n": 2, "": 3, "arr": [10, [20, 21]], "o": {"k": null}});
        assert_eq!(resolve(&v, "").unwrap(), Some(&v));
        assert_eq!(resolve(&v, "/a~1b").unwrap(), Some(&json!(1)));
        assert_eq!(resolve(&v, "/m~0n").unwrap(), Some(&json!(2)));
        assert_eq!(resolve(&v, "/").unwrap(), Some(&json!(3)));
        assert_eq!(resolve(&v, "/arr/1/0").unwrap(), Some(&json!(20)));
        assert_eq!(resolve(&v, "/o/k").unwrap(), Some(&Value::Null));
        assert_eq!(resolve(&v, "/arr/2").unwrap(), None);
        assert_eq!(resolve(&v, "/arr/-").unwrap(), None);
        assert_eq!(resolve(&v, "/arr/99999999999999999999999").unwrap(), None);
        assert_eq!(resolve(&v, "/missing").unwrap(), None);
        assert_eq!(resolve(&v, "/a~1b/x").unwrap(), None);
        // On objects, "01" is just a key.
        assert_eq!(resolve(&json!({"01": 5}), "/01").unwrap(), Some(&json!(5)));
    }

    #[test]
    fn resolve_errors() {
        let v = json!({"arr": [10, 11]});
        let e = resolve(&v, "/arr/01").unwrap_err();
        assert_eq!(e.index, 5);
        assert_eq!(e.message, "array index \"01\" must not have leading zeros");
        let e = resolve(&v, "/arr/x").unwrap_err();
        assert_eq!(e.index, 5);
        assert_eq!(
            e.message,
            "array index \"x\" must be a non-negative decimal integer"
        );
        assert!(resolve(&v, "/arr/").is_err());
        assert!(resolve(&v, "/arr/+1").is_err());
        assert!(resolve(&v, "/arr/-1").is_err());
        assert!(resolve(&v, "arr").is_err());
        assert!(resolve(&v, "/~2").is_err());
        // The malformed tail is reported even if the head is missing.
        assert!(resolve(&v, "/nope/~").is_err());
        // Not an error when the array is never reached.
        assert_eq!(resolve(&v, "/nope/01").unwrap(), None);
    }
}
