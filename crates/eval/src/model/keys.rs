//! The top-level keys of an envelope text in the order written, repeats included: what a parser
//! with last-wins semantics hides, needed to tell that a key was repeated (`cases`,
//! duplicate-keys-last-wins). A byte scan over text already checked to be valid JSON.

use bqsuite_core::json::scan::{skip_ws, string_end, value_end};

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
        i = value_end(bytes, skip_ws(bytes, i + 1))?;
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
