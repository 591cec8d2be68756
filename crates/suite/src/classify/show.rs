//! How values and names appear in a change's message and detail: compact JSON cut to a length,
//! a scope name, text on one line, a list of names, and two values compared member by member.

use serde_json::Value;

const SHOWN_CHARS: usize = 160;

/// Compact JSON, shortened for a message.
pub(super) fn show(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    shorten(&text, SHOWN_CHARS)
}

/// An entry of the `sections` map as a scope name (`"sqs"`), or as JSON when it has no scope.
pub(super) fn show_scope(entry: &Value) -> String {
    match crate::rules::scope_in(entry) {
        Some(scope) => format!("\"{scope}\""),
        None => show(entry),
    }
}

/// `text` cut to `max` characters (with `…`).
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

/// Description text on one line.
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn quote_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The differences between two objects' members, as `field \`k\` changed/added/removed` and
/// `-`/`+` detail lines.
fn member_diff(
    old: &serde_json::Map<String, Value>,
    new: &serde_json::Map<String, Value>,
    what: &str,
) -> (Vec<String>, Vec<String>) {
    let mut summary = Vec::new();
    let mut detail = Vec::new();
    for (key, old_value) in old {
        match new.get(key) {
            None => {
                summary.push(format!("{what} `{key}` removed"));
                detail.push(format!("- {key}: {}", show(old_value)));
            }
            Some(new_value) if new_value != old_value => {
                summary.push(format!("{what} `{key}` changed"));
                detail.push(format!("- {key}: {}", show(old_value)));
                detail.push(format!("+ {key}: {}", show(new_value)));
            }
            Some(_) => {}
        }
    }
    for (key, new_value) in new {
        if !old.contains_key(key) {
            summary.push(format!("{what} `{key}` added"));
            detail.push(format!("+ {key}: {}", show(new_value)));
        }
    }
    (summary, detail)
}

/// The differences between two values (objects member by member, anything else as a whole).
pub(super) fn value_diff(old: &Value, new: &Value, what: &str) -> (Vec<String>, Vec<String>) {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => member_diff(o, n, what),
        _ if old == new => (Vec::new(), Vec::new()),
        _ => (
            vec!["its value changed".to_string()],
            vec![format!("- {}", show(old)), format!("+ {}", show(new))],
        ),
    }
}
