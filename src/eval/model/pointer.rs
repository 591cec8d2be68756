//! RFC 6901 JSON pointers: strict syntax check and resolution over `serde_json::Value`.

use serde_json::Value;

/// Why a pointer string is not an RFC 6901 pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointerError {
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for PointerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid JSON pointer {:?}: {}",
            self.pointer, self.message
        )
    }
}

/// Splits `pointer` into unescaped reference tokens. `""` is the whole document (no tokens);
/// anything else must start with `/`, and `~` may only appear as `~0` or `~1`.
pub fn parse_pointer(pointer: &str) -> Result<Vec<String>, PointerError> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(PointerError {
            pointer: pointer.to_string(),
            message: "must be empty or start with '/'".to_string(),
        });
    };
    let mut tokens = Vec::new();
    for raw in rest.split('/') {
        let mut token = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '~' {
                match chars.next() {
                    Some('0') => token.push('~'),
                    Some('1') => token.push('/'),
                    _ => {
                        return Err(PointerError {
                            pointer: pointer.to_string(),
                            message: "'~' must be followed by '0' or '1'".to_string(),
                        });
                    }
                }
            } else {
                token.push(c);
            }
        }
        tokens.push(token);
    }
    Ok(tokens)
}

/// An array index token: `0` or a digit string without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let well_formed = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    if well_formed {
        token.parse().ok()
    } else {
        None
    }
}

/// The value `pointer` designates in `doc`, `Ok(None)` when it designates nothing, or an error
/// when `pointer` is not a well-formed pointer.
pub fn resolve<'v>(doc: &'v Value, pointer: &str) -> Result<Option<&'v Value>, PointerError> {
    let tokens = parse_pointer(pointer)?;
    let mut current = doc;
    for token in &tokens {
        let next = match current {
            Value::Object(map) => map.get(token.as_str()),
            Value::Array(items) => array_index(token).and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(value) => current = value,
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
    fn syntax() {
        let table: &[(&str, Option<&[&str]>)] = &[
            ("", Some(&[])),
            ("/", Some(&[""])),
            ("/meta/vendor_flag", Some(&["meta", "vendor_flag"])),
            ("/a~1b/c~0d", Some(&["a/b", "c~d"])),
            ("/~01", Some(&["~1"])),
            ("meta", None),
            ("/a~", None),
            ("/a~2", None),
            ("#/a", None),
        ];
        for (input, want) in table {
            let got = parse_pointer(input).ok();
            let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
            assert_eq!(got, want, "{input:?}");
        }
    }

    #[test]
    fn resolution() {
        let doc =
            json!({"meta": {"ext": {"acme": {"tags": ["a", "b"]}}}, "a/b": 1, "": 2, "data": {}});
        let table: &[(&str, Option<Value>)] = &[
            ("/meta/ext/acme/tags/1", Some(json!("b"))),
            ("/meta/ext/acme/tags/01", None),
            ("/meta/ext/acme/tags/2", None),
            ("/meta/ext/acme/tags/-", None),
            ("/a~1b", Some(json!(1))),
            ("/", Some(json!(2))),
            ("/data", Some(json!({}))),
            ("/data/x", None),
            ("/urn", None),
        ];
        for (ptr, want) in table {
            assert_eq!(resolve(&doc, ptr).ok().flatten().cloned(), *want, "{ptr}");
        }
        assert!(resolve(&doc, "meta").is_err());
        assert_eq!(resolve(&doc, "").ok().flatten(), Some(&doc));
    }
}
