//! The top-level keys of an envelope text in the order written, repeats included: what a parser
//! with last-wins semantics hides, needed to tell that a key was repeated (`cases`,
//! duplicate-keys-last-wins). A byte scan over text already checked to be valid JSON.

/// The top-level keys of `text` in textual order, repeats included (escapes decoded), or `None`
/// when `text` is not a JSON object.
pub fn top_level_keys(text: &str) -> Option<Vec<String>> {
    // Checked whole first (building nothing); the scan below only finds the keys.
    bqsuite_core::json::check_syntax(text).ok()?;
    let bytes = text.as_bytes();
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(bytes, i + 1);
    let mut keys = Vec::new();
    if bytes.get(i) == Some(&b'}') {
        return Some(keys);
    }
    loop {
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let end = string_end(bytes, i)?;
        let raw = text.get(i..end)?;
        keys.push(serde_json::from_str::<String>(raw).ok()?);
        i = skip_ws(bytes, end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = skip_value(bytes, skip_ws(bytes, i + 1))?;
        i = skip_ws(bytes, i);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b'}') => return Some(keys),
            _ => return None,
        }
    }
}

/// Keys that appear more than once at the top level of `text`, each once, in the order of their
/// first repetition. Empty when nothing repeats or `text` is not a JSON object.
pub fn duplicate_top_level_keys(text: &str) -> Vec<String> {
    let Some(keys) = top_level_keys(text) else {
        return Vec::new();
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut repeated: Vec<String> = Vec::new();
    for key in &keys {
        if seen.contains(&key.as_str()) {
            if !repeated.iter().any(|r| r == key) {
                repeated.push(key.clone());
            }
        } else {
            seen.push(key);
        }
    }
    repeated
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Index just past the closing quote of the string starting at `start` (which holds `"`).
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Index just past the JSON value starting at `start` (input already known to be valid JSON).
fn skip_value(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => string_end(bytes, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = start;
            while let Some(b) = bytes.get(i) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_scanner() {
        let table: &[(&str, &[&str])] = &[
            (r#"{"a":1,"b":2}"#, &[]),
            (r#"{}"#, &[]),
            (r#"{"a":1,"\u0061":2}"#, &["a"]),
            (
                r#"{"a\"b":{"x":"}\"","y":[1,{"z":"]"}]},"a\"b":null}"#,
                &["a\"b"],
            ),
            (r#"{"k":"v\\","k":true,"k":false}"#, &["k"]),
            (r#"{"n":-1.5e3 , "m":[] ,"n":{}}"#, &["n"]),
            (r#"{"in":{"x":1,"x":2}}"#, &[]),
            (r#"[1,1]"#, &[]),
            (r#"{"a":1,"a":"#, &[]),
            ("", &[]),
        ];
        for (text, want) in table {
            assert_eq!(duplicate_top_level_keys(text), *want, "{text}");
        }
        assert_eq!(
            top_level_keys(r#" { "x" : 1 , "y" : "é" } "#),
            Some(vec!["x".to_string(), "y".to_string()])
        );
    }
}
