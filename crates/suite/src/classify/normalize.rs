//! What "the same" means when two suite revisions are compared: which members are descriptions
//! (ignored for content, reported as description edits) and how fixtures are compared.
//!
//! - In manifest.json, a description is a string `description` member of a structural object:
//!   the manifest root, a section, a sub-block (an object sub-key of a section), a case object and
//!   an `exceptions` entry. A `description` key nested deeper in a case (inside `data`, `expect`,
//!   `meta`...) is payload, and a change to it is a change of the case.
//! - In a JSON Schema (a `schema/*.schema.json` file, or the `schema` parameter of a manifest
//!   block), the annotations `description`, `title` and `$comment` are descriptions, wherever a
//!   subschema can stand (a property *named* `description` is not an annotation). `examples` and
//!   `default` are content: tools generate data from them.
//! - Fixtures are envelopes, fed to SDKs byte for byte: they are compared as parsed JSON trees in
//!   which member order, repeated keys and number spelling (`1.0` is not `1`) are significant;
//!   only whitespace and string-escape spelling are cosmetic.

use serde_json::{Map, Value};

use bqsuite_core::json::{Kind, Node};

/// JSON Schema keywords that are annotations without effect on validation.
pub const SCHEMA_ANNOTATIONS: [&str; 3] = ["description", "title", "$comment"];

/// Keywords whose value is an object mapping names to subschemas.
const SCHEMA_MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "definitions",
    "$defs",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is a subschema or an array of subschemas.
const SCHEMA_SUBSCHEMAS: [&str; 17] = [
    "items",
    "additionalItems",
    "prefixItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
    "additionalContains",
];

/// `schema` with every annotation (description, title, $comment) removed, at every place a
/// subschema can stand. Depth is bounded by the parser's depth limit.
pub fn strip_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (key, value) in map {
                if SCHEMA_ANNOTATIONS.contains(&key.as_str()) && value.is_string() {
                    continue;
                }
                let kept = if SCHEMA_MAPS.contains(&key.as_str()) {
                    match value {
                        Value::Object(named) => Value::Object(
                            named
                                .iter()
                                .map(|(name, sub)| (name.clone(), strip_schema(sub)))
                                .collect(),
                        ),
                        other => other.clone(),
                    }
                } else if SCHEMA_SUBSCHEMAS.contains(&key.as_str()) {
                    strip_schema(value)
                } else {
                    value.clone()
                };
                out.insert(key.clone(), kept);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(strip_schema).collect()),
        other => other.clone(),
    }
}

/// The string `description` of an object, if it has one.
pub fn description_of(value: &Value) -> Option<&str> {
    value.get("description").and_then(Value::as_str)
}

/// `value` without its own string `description` member (nested ones are kept).
pub fn strip_own_description(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.get("description").is_some_and(Value::is_string) => {
            let mut out = map.clone();
            out.shift_remove("description");
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// True when two parsed trees are the same JSON text up to whitespace and string escapes:
/// member order, repeated keys and number spelling count. Positions are ignored.
pub fn same_tree(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(x), Kind::Bool(y)) => x == y,
        (Kind::Number(x), Kind::Number(y)) => x == y,
        (Kind::String(x), Kind::String(y)) => x == y,
        (Kind::Array(x), Kind::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_tree(p, q))
        }
        (Kind::Object(x), Kind::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.key == q.key && same_tree(&p.value, &q.value))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_annotations_are_stripped_only_where_a_schema_stands() {
        let schema = json!({
            "title": "T",
            "description": "top",
            "$comment": "c",
            "type": "object",
            "properties": {
                "description": { "type": "string", "description": "a property named description" },
                "n": { "type": "integer", "examples": [1] }
            },
            "items": [{ "description": "x" }],
            "enum": [{ "description": "data, kept" }]
        });
        let stripped = strip_schema(&schema);
        assert_eq!(
            stripped,
            json!({
                "type": "object",
                "properties": {
                    "description": { "type": "string" },
                    "n": { "type": "integer", "examples": [1] }
                },
                "items": [{}],
                "enum": [{ "description": "data, kept" }]
            })
        );
    }

    #[test]
    fn own_description_only() {
        let case = json!({ "name": "a", "description": "d", "data": { "description": "payload" } });
        assert_eq!(
            strip_own_description(&case),
            json!({ "name": "a", "data": { "description": "payload" } })
        );
        assert_eq!(
            strip_own_description(&json!({ "description": 1 })),
            json!({ "description": 1 })
        );
    }

    #[test]
    fn trees_compare_order_duplicates_and_number_spelling() {
        let p = |s: &str| bqsuite_core::json::parse(s).unwrap();
        assert!(same_tree(
            &p("{\"a\": 1,\n \"b\": \"\\u00e9\"}"),
            &p("{\"a\":1,\"b\":\"é\"}")
        ));
        assert!(!same_tree(&p("{\"a\":1,\"b\":2}"), &p("{\"b\":2,\"a\":1}")));
        assert!(!same_tree(&p("{\"a\":1,\"a\":2}"), &p("{\"a\":2}")));
        assert!(!same_tree(&p("[1.0]"), &p("[1]")));
    }
}
