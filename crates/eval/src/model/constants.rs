//! The constants the model is built on: the schema version it accepts, the core, forbidden and
//! canonical keys, the dead-letter reasons, and the deterministic values it writes as a producer.

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
