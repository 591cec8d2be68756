//! The reference model of the BabelQueue envelope: a pure (no I/O), panic-free re-statement of
//! the wire contract that the section runners derive their verdicts from.
//!
//! - [`accepts`](mod@accepts): the consumer's accept gate (decode plus a usable `trace_id`);
//! - [`blank`]: the ASCII blank set and ASCII trim;
//! - [`decode`](mod@decode): consumer side (accept / reject, identity, warnings, preserved unknown keys);
//! - [`encode`](mod@encode): re-emit, attempts bump, dead-letter move;
//! - [`make`](mod@make): producer side (trimming, meta write API checks);
//! - [`keys`]: the top-level keys of an envelope text, repeats included;
//! - [`pointer`]: strict RFC 6901 pointers;
//! - [`expect`]: expectation checks shared by the section runners.

pub mod accepts;
pub mod blank;
pub mod decode;
pub mod encode;
pub mod expect;
pub mod keys;
pub mod make;
#[cfg(test)]
pub(crate) mod testkit;

pub use blank::{ascii_trim, is_ascii_blank};
pub use decode::{
    Decoded, IdentitySource, Meta, RejectKind, Rejection, Warning, decode, decode_value,
    duplicate_top_level_keys, top_level_keys,
};
pub use encode::{DeadLetterError, EncodeError, bump_attempts, dead_letter_move, encode};
pub use make::{MakeError, MakeInput, make};

/// The only envelope schema version the model accepts.
pub const SUPPORTED_SCHEMA_VERSION: u64 = 1;

/// The five core meta keys, owned by the SDK (never writable through the meta write API).
pub const CORE_META_KEYS: [&str; 5] = ["id", "queue", "lang", "schema_version", "created_at"];

/// Forbidden meta keys: decode warns and drops them, encode and make refuse them.
pub const FORBIDDEN_META_KEYS: [&str; 4] = ["max_retries", "attempts", "source", "ts"];

/// Forbidden top-level keys that encode refuses in preserved extras. Decode drops `timestamp`
/// with a warning and `urn` with a warning when `job` already gives the identity.
pub const FORBIDDEN_TOP_KEYS: [&str; 2] = ["timestamp", "urn"];

/// The canonical top-level keys encode writes itself (a preserved extra may not shadow them).
pub const CANONICAL_TOP_KEYS: [&str; 6] =
    ["job", "trace_id", "data", "meta", "attempts", "dead_letter"];

/// Dead-letter reasons the DLQ helper accepts.
pub const DEAD_LETTER_REASONS: [&str; 3] = ["failed", "unknown_urn", "poison"];

/// The language tag the reference model writes as a producer and as a dead-lettering SDK.
pub const MODEL_LANG: &str = "php";

/// Deterministic stand-in for the generated `trace_id` (per-message fields are asserted for
/// shape, never value).
pub const PLACEHOLDER_TRACE_ID: &str = "00000000-0000-4000-8000-000000000000";

/// Deterministic stand-in for the generated `meta.id`.
pub const PLACEHOLDER_MESSAGE_ID: &str = "00000000-0000-4000-8000-000000000001";

/// Deterministic stand-in for `meta.created_at` and `dead_letter.failed_at` (Unix ms).
pub const PLACEHOLDER_TIME_MS: u64 = 0;
