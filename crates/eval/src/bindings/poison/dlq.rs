//! The DLQ record a poison body produces (`poison_dlq`).
//!
//! - `splice`: the body is valid UTF-8 and one strict RFC 8259 object (no `NaN` / `Infinity`,
//!   no unpaired surrogate escape anywhere), without a top-level `dead_letter` member, and
//!   every value of it survives a re-encoding writer: the record is the body's bytes with a
//!   `dead_letter` member added before the closing brace.
//! - `splice_or_wrapper`: such an object that a re-encoding writer cannot carry losslessly: a
//!   number that does not survive a double round trip, nesting deeper than [`DEPTH_LIMIT`], or
//!   a member name repeated in one object at any depth. Only a byte-level splice or the
//!   wrapper is allowed.
//! - `wrapper`: anything else. `{"raw": <body text>}` when the body is valid UTF-8, else
//!   `{"raw": <padded standard base64 of the bytes>, "raw_encoding": "base64"}`.

use serde_json::{Map, Value, json};

use super::base64;
use super::number::survives_double_round_trip;
use super::scan::{Doc, Kind, scan};
use crate::model::{MODEL_LANG, PLACEHOLDER_TIME_MS};
use crate::switch::{Mutant, on};

/// Nesting deeper than this many levels is beyond a common parser's limit (PHP's
/// `json_decode` default): a writer that re-parses the body may not be able to read it.
pub const DEPTH_LIMIT: usize = 512;

/// The record shape a body gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Splice,
    SpliceOrWrapper,
    Wrapper,
}

impl Shape {
    /// The manifest spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Splice => "splice",
            Shape::SpliceOrWrapper => "splice_or_wrapper",
            Shape::Wrapper => "wrapper",
        }
    }
}

/// What the model makes of a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis<'b> {
    pub shape: Shape,
    /// Why the body has that shape.
    pub why: String,
    /// The text a splice starts from (the body, when it is an object).
    pub text: Option<&'b str>,
    /// The wrapper record without `dead_letter`: `raw` and, for bytes, `raw_encoding`.
    pub wrapper: Map<String, Value>,
    /// Byte spans of the body a re-encoding writer would lose (`splice_or_wrapper` only).
    pub lossy: Vec<(usize, usize)>,
}

/// The `dead_letter` member the model writes for a poison body (only `reason` and
/// `original_queue` are pinned; the rest is SDK-specific).
pub fn dead_letter_block(original_queue: &str) -> Value {
    json!({
        "reason": "poison",
        "original_queue": original_queue,
        "attempts": 0,
        "error": "undecodable body",
        "failed_at": PLACEHOLDER_TIME_MS,
        "lang": MODEL_LANG,
    })
}

/// Decides the record shape of the body `bytes`.
pub fn analyse(bytes: &[u8]) -> Analysis<'_> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => return wrapped(mutant::undecodable_raw(bytes), "not valid UTF-8"),
    };
    let text = mutant::dlq_bom_skipped(text);
    let mut raw = Map::new();
    raw.insert("raw".into(), Value::String(text.to_string()));
    mutant::text_raw_encoding(&mut raw);
    let lenient = mutant::non_finite_literals_read(text);
    let doc = match scan(lenient.as_deref().unwrap_or(text)) {
        Ok(doc) => doc,
        Err(e) => return wrapped(raw, &format!("not JSON ({})", e.message)),
    };
    if !matches!(doc.root().kind, Kind::Object(_)) {
        return wrapped(raw, "JSON that is not an object");
    }
    if mutant::lone_surrogate_seen(&doc) {
        return wrapped(raw, "an unpaired surrogate escape");
    }
    if mutant::dead_letter_seen(&doc) {
        return wrapped(raw, "a top-level dead_letter member");
    }
    if mutant::whitespace_wrapped(text) {
        return wrapped(raw, "not an object");
    }
    if on(Mutant::DlqWrapsEverything) {
        return wrapped(raw, "every body is wrapped");
    }
    let lossy = lossy_spans(&doc);
    let (shape, why) = if lossy.is_empty() {
        (Shape::Splice, "a strict object".to_string())
    } else {
        let why = "an object a re-encoding writer cannot carry losslessly";
        (Shape::SpliceOrWrapper, why.to_string())
    };
    Analysis {
        shape,
        why,
        text: Some(text),
        wrapper: raw,
        lossy,
    }
}

fn wrapped<'b>(wrapper: Map<String, Value>, why: &str) -> Analysis<'b> {
    Analysis {
        shape: Shape::Wrapper,
        why: why.to_string(),
        text: None,
        wrapper,
        lossy: Vec::new(),
    }
}

/// The wrapper of bytes that are not UTF-8: padded standard base64 and `raw_encoding`.
pub fn base64_wrapper(bytes: &[u8]) -> Map<String, Value> {
    let mut raw = Map::new();
    raw.insert("raw".into(), Value::String(base64::encode(bytes)));
    raw.insert("raw_encoding".into(), Value::String("base64".into()));
    raw
}

/// The spans a re-encoding writer would lose: each number that does not survive a double
/// round trip, each member whose name repeats in its object (name to end of value), and the
/// first container opened beyond [`DEPTH_LIMIT`].
pub fn lossy_spans(doc: &Doc<'_>) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut too_deep = false;
    for (i, node) in doc.nodes.iter().enumerate() {
        match &node.kind {
            Kind::Number if !survives_double_round_trip(doc.source(i)) => {
                spans.push((node.start, node.end));
            }
            Kind::Object(members) => {
                if !too_deep && node.depth > DEPTH_LIMIT {
                    too_deep = true;
                    spans.push((node.start, node.end));
                }
                let mut names: Vec<&str> = members.iter().map(|(n, _)| n.text.as_str()).collect();
                names.sort_unstable();
                for (name, v) in members {
                    let count = names.iter().filter(|n| **n == name.text).count();
                    if count > 1 {
                        spans.push((name.start, doc.nodes[*v].end));
                    }
                }
            }
            Kind::Array(_) if !too_deep && node.depth > DEPTH_LIMIT => {
                too_deep = true;
                spans.push((node.start, node.end));
            }
            _ => {}
        }
    }
    spans.sort_unstable();
    spans
}

/// The record text the model writes: a byte-level splice of an object body (also for
/// `splice_or_wrapper`, where the lossless splice is the reference choice), else the wrapper.
pub fn write_record(analysis: &Analysis<'_>, block: &Value) -> String {
    let block_text = block.to_string();
    match (analysis.shape, analysis.text) {
        (Shape::Splice | Shape::SpliceOrWrapper, Some(text)) => {
            mutant::reencoded_splice(text, &block_text).unwrap_or_else(|| splice(text, &block_text))
        }
        _ => {
            let mut record = analysis.wrapper.clone();
            record.insert("dead_letter".into(), block.clone());
            Value::Object(record).to_string()
        }
    }
}

/// Adds `"dead_letter": <block_text>` to the object `text` at byte level: every byte of the
/// object is kept, only the closing brace moves after the new member.
pub fn splice(text: &str, block_text: &str) -> String {
    let ws: &[char] = &[' ', '\t', '\n', '\r'];
    let object = text.trim_matches(ws);
    let inner = object
        .get(1..object.len().saturating_sub(1))
        .unwrap_or("")
        .trim_matches(ws);
    if inner.is_empty() {
        return format!("{{\"dead_letter\":{block_text}}}");
    }
    let open = object.get(..object.len() - 1).unwrap_or(object);
    format!("{open},\"dead_letter\":{block_text}}}")
}

/// The poison mutants' variations ([`crate::switch::poison`]), with the two that build on this
/// file's wrapper and depth limit.
mod mutant {
    use serde_json::{Map, Value};

    use crate::bindings::poison::{dlq, scan, value};
    pub use crate::switch::poison::*;
    use crate::switch::{Mutant, on};

    /// The wrapper of bytes that are not UTF-8.
    pub fn undecodable_raw(bytes: &[u8]) -> Map<String, Value> {
        if on(Mutant::DlqReplacementChar) {
            let mut raw = Map::new();
            let text = String::from_utf8_lossy(bytes).into_owned();
            raw.insert("raw".into(), Value::String(text));
            return raw;
        }
        let mut raw = dlq::base64_wrapper(bytes);
        if on(Mutant::DlqBase64Unpadded)
            && let Some(Value::String(s)) = raw.get_mut("raw")
        {
            s.truncate(s.trim_end_matches('=').len());
        }
        raw
    }

    /// Under the mutant, the record a re-encoding writer makes: the body parsed (numbers as
    /// doubles, 1e400 becoming null; a repeated member keeping its last value) plus dead_letter.
    /// A body its parser cannot read (nesting beyond its limit) is left to the splice.
    pub fn reencoded_splice(text: &str, block_text: &str) -> Option<String> {
        if !on(Mutant::DlqReencodedSplice) {
            return None;
        }
        let doc = scan::scan(text).ok()?;
        if doc.max_depth > dlq::DEPTH_LIMIT {
            return None;
        }
        let mut replaced = String::new();
        let mut last = 0;
        for (i, node) in doc.nodes.iter().enumerate() {
            if node.kind == scan::Kind::Number
                && doc.source(i).parse::<serde_json::Number>().is_err()
            {
                replaced.push_str(&text[last..node.start]);
                replaced.push_str("null");
                last = node.end;
            }
        }
        replaced.push_str(&text[last..]);
        let reread = scan::scan(&replaced).ok()?;
        let mut object = match value::to_value(&reread)? {
            Value::Object(map) => map,
            _ => return None,
        };
        let block: Value = serde_json::from_str(block_text).ok()?;
        object.insert("dead_letter".into(), block);
        Some(Value::Object(object).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(body: &str) -> Shape {
        analyse(body.as_bytes()).shape
    }

    #[test]
    fn shapes() {
        assert_eq!(
            shape(r#" {"a":1.50,"b":[{"c":"\ud83d\ude00"}]} "#),
            Shape::Splice
        );
        assert_eq!(
            shape(r#"{"a":{"k":[{"x":1,"x":1}]}}"#),
            Shape::SpliceOrWrapper
        );
        assert_eq!(shape(r#"{"a":9007199254740993}"#), Shape::SpliceOrWrapper);
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(512), "]".repeat(512));
        assert_eq!(shape(&deep), Shape::SpliceOrWrapper);
        let shallow = format!("{{\"a\":{}{}}}", "[".repeat(511), "]".repeat(511));
        assert_eq!(shape(&shallow), Shape::Splice);
        assert_eq!(shape(r#"{"a":[{"b":"\udc00"}]}"#), Shape::Wrapper);
        assert_eq!(shape(r#"{"dead_letter":null}"#), Shape::Wrapper);
        assert_eq!(shape(r#"{"data":{"dead_letter":1}}"#), Shape::Splice);
    }

    #[test]
    fn wrappers() {
        let a = analyse(b"\xff\xfe");
        assert_eq!(
            Value::Object(a.wrapper),
            json!({"raw": "//4=", "raw_encoding": "base64"})
        );
        let a = analyse("\u{feff}{}".as_bytes());
        assert_eq!(Value::Object(a.wrapper), json!({"raw": "\u{feff}{}"}));
    }

    #[test]
    fn splices_keep_every_byte() {
        let block = "{\"reason\":\"poison\"}";
        assert_eq!(
            splice(" {} ", block),
            "{\"dead_letter\":{\"reason\":\"poison\"}}"
        );
        assert_eq!(
            splice("{ \n }", block),
            "{\"dead_letter\":{\"reason\":\"poison\"}}"
        );
        assert_eq!(
            splice("\n{\"n\":1e400 }\n", block),
            "{\"n\":1e400 ,\"dead_letter\":{\"reason\":\"poison\"}}"
        );
    }

    #[test]
    fn lossy_spans_cover_what_a_re_encoder_loses() {
        let text = r#"{"job":"a","n":1e400,"job":5}"#;
        let doc = scan(text).unwrap();
        let spans: Vec<&str> = lossy_spans(&doc)
            .iter()
            .map(|&(s, e)| &text[s..e])
            .collect();
        assert_eq!(spans, [r#""job":"a""#, "1e400", r#""job":5"#]);
    }

    mod never_panics {
        use proptest::prelude::*;

        use super::super::{analyse, dead_letter_block, write_record};
        use crate::bindings::poison::classify::classify;
        use crate::bindings::poison::scan::scan;

        /// Bodies built from the characters the rules care about, plus arbitrary bytes.
        fn body() -> impl Strategy<Value = Vec<u8>> {
            let pieces = prop::sample::select(vec![
                "{",
                "}",
                "[",
                "]",
                ",",
                ":",
                "\"",
                "job",
                "urn",
                "dead_letter",
                "\\ud800",
                "\\udc00",
                "\\u0041",
                "1e400",
                "-0",
                "1.5",
                "9223372036854775808",
                "null",
                "NaN",
                " ",
                "\t",
                "\u{feff}",
                "\\",
            ]);
            let text = prop::collection::vec(pieces, 0..24).prop_map(|p| p.concat().into_bytes());
            prop_oneof![text, prop::collection::vec(any::<u8>(), 0..24)]
        }

        proptest! {
            #[test]
            fn scan_classify_and_write_never_panic(bytes in body()) {
                let _ = classify(&bytes);
                let analysis = analyse(&bytes);
                let record = write_record(&analysis, &dead_letter_block("orders"));
                prop_assert!(scan(&record).is_ok(), "{record}");
            }
        }
    }
}
