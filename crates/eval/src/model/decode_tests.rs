//! Tests of decode: identity, shape rejections, wrong-case and forbidden keys, repeated keys,
//! `trace_id`, and the rule points where a catalogue mutant switches decode's behaviour.

use super::*;
use serde_json::json;

fn envelope(extra: Value) -> String {
    let mut base = json!({
        "job": "urn:babel:orders:created",
        "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
        "data": {"order_id": 1042},
        "meta": {
            "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
            "queue": "orders",
            "lang": "php",
            "schema_version": 1,
            "created_at": 1749132727000u64
        },
        "attempts": 0
    });
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            if v == &json!("__remove__") {
                b.remove(k);
            } else {
                b.insert(k.clone(), v.clone());
            }
        }
    }
    base.to_string()
}

#[test]
fn accepts_a_normal_envelope() {
    let d = decode(&envelope(json!({}))).expect("accepted");
    assert_eq!(d.urn, "urn:babel:orders:created");
    assert_eq!(d.identity_source, IdentitySource::Job);
    assert_eq!(d.attempts, 0);
    assert_eq!(d.meta.lang, Some(json!("php")));
    assert_eq!(d.meta.schema_version, 1);
    assert!(d.warnings.is_empty());
    assert!(d.extras.is_empty() && d.meta.extras.is_empty());
}

/// Identity rules: (overrides, expected urn or None for reject, expected warning pointers).
#[test]
fn identity_table() {
    let o = "urn:babel:orders:created";
    let table: Vec<(Value, Option<&str>, Vec<&str>)> = vec![
        (json!({}), Some(o), vec![]),
        (json!({"job": "__remove__", "urn": o}), Some(o), vec![]),
        (json!({"job": "__remove__"}), None, vec![]),
        (json!({"job": "  ", "urn": "urn:x"}), Some("urn:x"), vec![]),
        (json!({"job": "", "urn": "urn:x"}), Some("urn:x"), vec![]),
        (
            json!({"job": "\u{0B}\u{0C}", "urn": "urn:x"}),
            Some("urn:x"),
            vec![],
        ),
        (json!({"job": "  "}), None, vec![]),
        (json!({"job": "\t", "urn": "\r\n"}), None, vec![]),
        (json!({"job": "\u{0B}\u{0C}"}), None, vec![]),
        (json!({"job": "\u{00A0}"}), Some("\u{00A0}"), vec![]),
        (json!({"job": "\u{0085}"}), Some("\u{0085}"), vec![]),
        (json!({"job": "\u{3000}"}), Some("\u{3000}"), vec![]),
        (json!({"job": "\u{FEFF}"}), Some("\u{FEFF}"), vec![]),
        (json!({"job": " urn:p "}), Some(" urn:p "), vec![]),
        (json!({"job": null, "urn": o}), Some(o), vec!["/job"]),
        (json!({"job": 42, "urn": o}), Some(o), vec!["/job"]),
        (json!({"job": true, "urn": o}), Some(o), vec!["/job"]),
        (json!({"job": {"a": 1}, "urn": o}), Some(o), vec!["/job"]),
        (json!({"job": ["a"], "urn": o}), Some(o), vec!["/job"]),
        (json!({"job": 42}), None, vec![]),
        (json!({"job": "__remove__", "urn": 7}), None, vec![]),
        (json!({"job": null, "urn": null}), None, vec![]),
        (json!({"urn": "urn:other"}), Some(o), vec!["/urn"]),
        (json!({"urn": ""}), Some(o), vec!["/urn"]),
        (
            json!({"job": "\u{2003}", "urn": o}),
            Some("\u{2003}"),
            vec!["/urn"],
        ),
        (json!({"job": "__remove__", "JOB": o}), None, vec![]),
    ];
    for (overrides, want, warns) in table {
        let text = envelope(overrides.clone());
        match (decode(&text), want) {
            (Ok(d), Some(urn)) => {
                assert_eq!(d.urn, urn, "{overrides}");
                let got: Vec<&str> = d.warnings.iter().map(|w| w.pointer.as_str()).collect();
                assert_eq!(got, warns, "{overrides}");
            }
            (Err(r), None) => assert_eq!(r.kind, RejectKind::NoIdentity, "{overrides}"),
            (got, want) => panic!("{overrides}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn shape_rejections() {
    let table: Vec<(String, RejectKind)> = vec![
        ("not json".to_string(), RejectKind::NotJson),
        ("[1, 2]".to_string(), RejectKind::NotObject),
        ("\"x\"".to_string(), RejectKind::NotObject),
        (envelope(json!({"data": [1, 2]})), RejectKind::Data),
        (envelope(json!({"data": null})), RejectKind::Data),
        (envelope(json!({"data": "order 1042"})), RejectKind::Data),
        (envelope(json!({"data": "__remove__"})), RejectKind::Data),
        (envelope(json!({"meta": "__remove__"})), RejectKind::Meta),
        (envelope(json!({"meta": []})), RejectKind::Meta),
        (
            envelope(json!({"meta": {"schema_version": 2}})),
            RejectKind::SchemaVersion,
        ),
        (
            envelope(json!({"meta": {"schema_version": "1"}})),
            RejectKind::SchemaVersion,
        ),
        (
            envelope(json!({"meta": {"schema_version": 1.0}})),
            RejectKind::SchemaVersion,
        ),
        (envelope(json!({"meta": {}})), RejectKind::SchemaVersion),
        (
            envelope(json!({"meta": {"Schema_Version": 1}})),
            RejectKind::SchemaVersion,
        ),
        (envelope(json!({"attempts": -1})), RejectKind::Attempts),
        (envelope(json!({"attempts": "1"})), RejectKind::Attempts),
        (envelope(json!({"attempts": 1.5})), RejectKind::Attempts),
    ];
    for (text, kind) in table {
        assert_eq!(
            decode(&text).map(|_| ()).map_err(|r| r.kind),
            Err(kind),
            "{text}"
        );
    }
    let absent = decode(&envelope(json!({"attempts": "__remove__"}))).expect("accepted");
    assert_eq!(absent.attempts, 0);
    let empty = decode(&envelope(json!({"data": {}}))).expect("accepted");
    assert!(empty.data.is_empty());
}

#[test]
fn wrong_case_keys_are_unknown_extras() {
    let text = envelope(json!({
        "JOB": "urn:babel:orders:shadow",
        "Data": {"x": 1},
        "meta": {
            "id": "i", "queue": "orders", "lang": "php", "schema_version": 1,
            "created_at": 0, "Queue": "Shadow"
        }
    }));
    let d = decode(&text).expect("accepted");
    assert_eq!(d.urn, "urn:babel:orders:created");
    assert_eq!(
        d.data,
        json!({"order_id": 1042})
            .as_object()
            .cloned()
            .unwrap_or_default()
    );
    assert_eq!(d.extras.get("JOB"), Some(&json!("urn:babel:orders:shadow")));
    assert_eq!(d.extras.get("Data"), Some(&json!({"x": 1})));
    assert_eq!(d.meta.queue, Some(json!("orders")));
    assert_eq!(d.meta.extras.get("Queue"), Some(&json!("Shadow")));
    assert!(d.warnings.is_empty());
}

#[test]
fn forbidden_keys_warn_and_drop() {
    let table: &[(&str, Value, &str)] = &[
        ("top", json!({"timestamp": 1}), "/timestamp"),
        ("meta", json!({"max_retries": 3}), "/meta/max_retries"),
        ("meta", json!({"attempts": 5}), "/meta/attempts"),
        ("meta", json!({"source": "x"}), "/meta/source"),
        ("meta", json!({"ts": 1}), "/meta/ts"),
    ];
    for (level, add, pointer) in table {
        let mut v: Value = serde_json::from_str(&envelope(json!({}))).unwrap_or_default();
        let target = if *level == "top" {
            v.as_object_mut()
        } else {
            v.get_mut("meta").and_then(Value::as_object_mut)
        };
        if let (Some(t), Some(a)) = (target, add.as_object()) {
            for (k, val) in a {
                t.insert(k.clone(), val.clone());
            }
        }
        let d = decode_value(v).expect("accepted");
        assert!(d.warned_about(pointer), "{pointer}");
        assert!(d.extras.is_empty() && d.meta.extras.is_empty(), "{pointer}");
        assert_eq!(d.attempts, 0);
    }
}

#[test]
fn duplicate_keys_last_wins_not_merged() {
    let text = r#"{
  "job": "urn:babel:orders:draft",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": {"order_id": 1, "stale": true},
  "job": "urn:babel:orders:created",
  "data": {"order_id": 1042},
  "meta": {"id": "i", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 0},
  "attempts": 0
}"#;
    let d = decode(text).expect("accepted");
    assert_eq!(d.urn, "urn:babel:orders:created");
    assert_eq!(Value::Object(d.data), json!({"order_id": 1042}));
    assert_eq!(
        super::super::keys::duplicate_top_level_keys(text),
        ["job", "data"]
    );
}

#[test]
fn trace_id_kept_as_is() {
    let d = decode(&envelope(json!({"trace_id": "  "}))).expect("accepted");
    assert_eq!(d.trace_id.as_deref(), Some("  "));
    let d = decode(&envelope(json!({"trace_id": 5}))).expect("accepted");
    assert_eq!(d.trace_id, None);
    assert!(d.warned_about("/trace_id"));
    let d = decode(&envelope(json!({"trace_id": "__remove__"}))).expect("accepted");
    assert_eq!(d.trace_id, None);
    assert!(d.warnings.is_empty());
}

/// The decode rule points three catalogue mutants switch: a boolean `attempts`
/// (`python-bool-is-int`), a loosely equal `meta.schema_version`
/// (`php-schema-version-loose-equals`) and forbidden keys in another casing
/// (`dotnet-forbidden-keys-ignore-case`). Without its mutant each stays the rule.
#[test]
fn mutant_rule_points() {
    use crate::switch::{Mutant, with_mutant};
    let boolean = envelope(json!({"attempts": true}));
    assert_eq!(
        decode(&boolean).map_err(|r| r.kind).err(),
        Some(RejectKind::Attempts)
    );
    with_mutant(Mutant::PyBoolIsInt, || {
        assert_eq!(decode(&boolean).map(|d| d.attempts), Ok(1));
    });

    let mut v: Value = serde_json::from_str(&envelope(json!({}))).unwrap_or_default();
    v["meta"]["schema_version"] = json!("1");
    assert_eq!(
        decode_value(v.clone()).map_err(|r| r.kind).err(),
        Some(RejectKind::SchemaVersion)
    );
    with_mutant(Mutant::PhpSchemaVersionLooseEquals, || {
        assert_eq!(decode_value(v).map(|d| d.meta.schema_version), Ok(1));
    });

    let mut v: Value = serde_json::from_str(&envelope(json!({"Timestamp": 1}))).unwrap_or_default();
    v["meta"]["TS"] = json!(2);
    let kept = decode_value(v.clone()).expect("accepted");
    assert!(kept.warnings.is_empty());
    assert!(kept.extras.contains_key("Timestamp") && kept.meta.extras.contains_key("TS"));
    with_mutant(Mutant::DotnetForbiddenKeysIgnoreCase, || {
        let dropped = decode_value(v).expect("accepted");
        assert!(dropped.warned_about("/Timestamp") && dropped.warned_about("/meta/TS"));
        assert!(dropped.extras.is_empty() && dropped.meta.extras.is_empty());
    });
}
