//! The spec's case-id rule: how a manifest section is split into individually addressable cases.
//!
//! - the top-level `cases` array is the section named `cases`;
//! - a section's own `cases` array yields each case's `name`, or `<section>#<index>`;
//! - a sub-key whose object has a `cases` array yields `<sub-key>/<name>` (`<sub-key>/<index>`);
//! - any other object sub-key is a single case named after the sub-key;
//! - `description` and `schema` are never cases, nor are scalar or array parameters.

use serde_json::Value;

/// One case of a section, with where it sits in the manifest.
#[derive(Debug, Clone)]
pub struct CaseRef<'a> {
    /// The case id, as results files and findings name it.
    pub id: String,
    /// The RFC 6901 pointer of the case object inside manifest.json.
    pub pointer: String,
    /// The case object itself.
    pub case: &'a Value,
    /// The sub-key that holds the case (`attempts_reconciliation`), or `None` for direct cases.
    pub sub_key: Option<&'a str>,
    /// The object that owns the `cases` array (or the single-case object): holds shared
    /// parameters such as `envelope_file`, `schema`, `property`.
    pub parent: &'a Value,
}

/// Keys of a section object that are never cases.
pub const NON_CASE_KEYS: [&str; 2] = ["description", "schema"];

/// Escapes one reference token for a JSON pointer (RFC 6901 §3).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn case_name(case: &Value) -> Option<&str> {
    case.get("name").and_then(Value::as_str)
}

fn push_array<'a>(
    out: &mut Vec<CaseRef<'a>>,
    items: &'a [Value],
    base_pointer: &str,
    unnamed_prefix: &str,
    named_prefix: &str,
    sub_key: Option<&'a str>,
    parent: &'a Value,
) {
    for (index, case) in items.iter().enumerate() {
        let id = match case_name(case) {
            Some(name) => format!("{named_prefix}{name}"),
            None => format!("{unnamed_prefix}{index}"),
        };
        out.push(CaseRef {
            id,
            pointer: format!("{base_pointer}/{index}"),
            case,
            sub_key,
            parent,
        });
    }
}

/// Lists the cases of `section` (whose manifest value is `block`), in manifest order.
pub fn section_cases<'a>(section: &str, block: &'a Value) -> Vec<CaseRef<'a>> {
    let mut out = Vec::new();
    let section_ptr = format!("/{}", escape_token(section));
    match block {
        Value::Array(items) => push_array(
            &mut out,
            items,
            &section_ptr,
            &format!("{section}#"),
            "",
            None,
            block,
        ),
        Value::Object(map) => {
            for (key, value) in map {
                if NON_CASE_KEYS.contains(&key.as_str()) {
                    continue;
                }
                let key_ptr = format!("{section_ptr}/{}", escape_token(key));
                if key == "cases" {
                    if let Value::Array(items) = value {
                        push_array(
                            &mut out,
                            items,
                            &key_ptr,
                            &format!("{section}#"),
                            "",
                            None,
                            block,
                        );
                    }
                    continue;
                }
                let Value::Object(sub) = value else { continue };
                match sub.get("cases") {
                    Some(Value::Array(items)) => push_array(
                        &mut out,
                        items,
                        &format!("{key_ptr}/cases"),
                        &format!("{key}/"),
                        &format!("{key}/"),
                        Some(key.as_str()),
                        value,
                    ),
                    _ => out.push(CaseRef {
                        id: key.clone(),
                        pointer: key_ptr,
                        case: value,
                        sub_key: Some(key.as_str()),
                        parent: value,
                    }),
                }
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(section: &str, block: &Value) -> Vec<String> {
        section_cases(section, block)
            .into_iter()
            .map(|c| c.id)
            .collect()
    }

    #[test]
    fn top_level_array_uses_names_then_indexes() {
        let block = json!([{ "name": "a" }, {}]);
        assert_eq!(ids("cases", &block), ["a", "cases#1"]);
    }

    #[test]
    fn sub_keys_with_cases_are_prefixed() {
        let block = json!({
            "description": "x",
            "projection": { "envelope_file": "f" },
            "reconcile": { "cases": [{ "name": "first" }, {}] },
            "tiers": [1, 2],
            "schema": {}
        });
        assert_eq!(
            ids("sqs", &block),
            ["projection", "reconcile/first", "reconcile/1"]
        );
    }

    #[test]
    fn direct_cases_array() {
        let block = json!({ "schema": {}, "cases": [{ "name": "v" }, { "data": 1 }] });
        assert_eq!(ids("payload_schema", &block), ["v", "payload_schema#1"]);
        let c = &section_cases("payload_schema", &block)[1];
        assert_eq!(c.pointer, "/payload_schema/cases/1");
    }

    #[test]
    fn pointers_escape_tokens() {
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
    }
}
