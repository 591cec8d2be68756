//! Consumer-side W3C `traceparent` extraction (ADR-0028), with the v0.1 fallback (ADR-0025).
//!
//! A header of exactly `00-<32 hex>-<16 hex>-<2 hex>` (hex = `[0-9a-f]`) wins: the context's
//! source is `traceparent` and its trace id, parent span id and flags are the header's. Any
//! other header, or none, is ignored (never an error) and the context comes from the envelope's
//! `trace_id`: source `trace_id`, trace id = that string without its dashes, ASCII-lowercased
//! (the 128 bits of the UUID written as lowercase hex), no parent span id and no flags.
//! Only this structure is pinned by the suite; the finer W3C rules (all-zero ids, version `ff`,
//! upper-case hex) are left to the W3C parsers, so no case depends on how the model reads them
//! (it reads them strictly: version `00` and lowercase hex only).

use crate::switch::traceparent as mutant;

/// Where the extracted context came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A well-formed `traceparent` header.
    Traceparent,
    /// The envelope's `trace_id` (no usable header).
    TraceId,
}

impl Source {
    /// The word the suite uses for the source (`traceparent`, `trace_id`).
    pub fn word(self) -> &'static str {
        match self {
            Source::Traceparent => "traceparent",
            Source::TraceId => "trace_id",
        }
    }
}

/// The extracted trace context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    pub source: Source,
    /// 32 hex digits from the header, or the envelope trace_id's hex on fallback.
    pub trace_id_hex: String,
    /// The header's parent span id (16 hex digits); `None` on fallback.
    pub parent_span_id: Option<String>,
    /// The header's trace flags (2 hex digits); `None` on fallback.
    pub flags: Option<String>,
}

/// The parts of a structurally valid `traceparent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traceparent<'a> {
    pub trace_id: &'a str,
    pub parent_id: &'a str,
    pub flags: &'a str,
}

const VERSION: &str = "00";

fn is_lower_hex(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

/// Parses `00-<32 hex>-<16 hex>-<2 hex>` exactly; anything else is `None`.
pub fn parse(header: &str) -> Option<Traceparent<'_>> {
    let mut parts = header.split('-');
    let version = parts.next()?;
    let trace_id = parts.next()?;
    let parent_id = parts.next()?;
    let flags = parts.next()?;
    if (parts.next().is_some() && !mutant::trailing_fields_accepted()) || version != VERSION {
        return None;
    }
    let well_formed = [(trace_id, 32), (parent_id, 16), (flags, 2)]
        .iter()
        .all(|(part, len)| part.len() == *len && is_lower_hex(part.as_bytes()));
    well_formed.then_some(Traceparent {
        trace_id,
        parent_id,
        flags,
    })
}

/// The fallback trace id: the envelope's `trace_id` with every `-` removed, ASCII-lowercased.
pub fn derive_trace_hex(envelope_trace_id: &str) -> String {
    if let Some(hex) = mutant::fallback(envelope_trace_id) {
        return hex;
    }
    envelope_trace_id
        .chars()
        .filter(|c| *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Extracts the trace context: a well-formed header wins, anything else (including `None`, the
/// header being absent) falls back to the envelope's `trace_id`.
pub fn extract(header: Option<&str>, envelope_trace_id: &str) -> TraceContext {
    match header.and_then(parse) {
        Some(tp) => TraceContext {
            source: Source::Traceparent,
            trace_id_hex: tp.trace_id.to_owned(),
            parent_span_id: Some(tp.parent_id.to_owned()),
            flags: Some(mutant::flags(tp.flags).to_owned()),
        },
        None => TraceContext {
            source: Source::TraceId,
            trace_id_hex: derive_trace_hex(envelope_trace_id),
            parent_span_id: None,
            flags: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENV: &str = "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b";
    const DERIVED: &str = "7b3f9c2ae41d4f889b2a1c0d5e6f7a8b";
    const VALID: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn valid_header_wins() {
        let ctx = extract(Some(VALID), ENV);
        assert_eq!(ctx.source, Source::Traceparent);
        assert_eq!(ctx.trace_id_hex, "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(ctx.parent_span_id.as_deref(), Some("00f067aa0ba902b7"));
        assert_eq!(ctx.flags.as_deref(), Some("01"));
        let unsampled = extract(Some(&VALID.replace("-01", "-00")), ENV);
        assert_eq!(unsampled.flags.as_deref(), Some("00"));
    }

    #[test]
    fn fallbacks() {
        let long = "0".repeat(1 << 20);
        let long_dash = "-".repeat(100_000);
        let headers: Vec<Option<&str>> = vec![
            None,
            Some(""),
            Some("00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-00"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1"),
            Some("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            Some("not a traceparent"),
            Some("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"),
            Some(" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\n"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e473é-00f067aa0ba902b7-01"),
            Some("00-ééééééééééééééééé-00f067aa0ba902b7-01"),
            Some("00-４bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"),
            Some("00--00f067aa0ba902b7-01"),
            Some("---"),
            Some("-"),
            Some("\u{FEFF}00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            Some("😀😀😀"),
            Some(&long),
            Some(&long_dash),
        ];
        for header in headers {
            let ctx = extract(header, ENV);
            assert_eq!(ctx.source, Source::TraceId, "{:?}", header.map(|h| h.len()));
            assert_eq!(ctx.trace_id_hex, DERIVED);
            assert_eq!((ctx.parent_span_id, ctx.flags), (None, None));
        }
    }

    #[test]
    fn derivation_lowercases_ascii_only() {
        assert_eq!(derive_trace_hex("7B3F9C2A-E41D"), "7b3f9c2ae41d");
        assert_eq!(derive_trace_hex("ÄB-"), "Äb");
        assert_eq!(derive_trace_hex(""), "");
    }
}
