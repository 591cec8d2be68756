//! The reference model of the BabelQueue envelope: a pure (no I/O), panic-free re-statement of
//! the wire contract that the section runners derive their verdicts from.
//!
//! - [`accepts`](mod@accepts): the consumer's accept gate (decode plus a usable `trace_id`);
//! - [`blank`]: the ASCII blank set and ASCII trim;
//! - [`constants`]: the contract's keys, versions and reasons, and the model's placeholders;
//! - [`decode`](mod@decode): consumer side (accept / reject, identity, warnings, preserved unknown keys);
//! - [`encode`](mod@encode): re-emit, attempts bump, dead-letter move;
//! - [`make`](mod@make): producer side (trimming, meta write API checks);
//! - [`keys`]: the top-level keys of an envelope text, repeats included;
//! - [`pointer`]: strict RFC 6901 pointers;
//! - [`expect`]: expectation checks shared by the section runners.

pub mod accepts;
pub mod blank;
pub mod constants;
pub mod decode;
pub mod encode;
pub mod expect;
pub mod keys;
pub mod make;
#[cfg(test)]
pub(crate) mod testkit;

pub use blank::{ascii_trim, is_ascii_blank};
pub use constants::{
    CANONICAL_TOP_KEYS, CORE_META_KEYS, DEAD_LETTER_REASONS, FORBIDDEN_META_KEYS,
    FORBIDDEN_TOP_KEYS, MODEL_LANG, PLACEHOLDER_MESSAGE_ID, PLACEHOLDER_TIME_MS,
    PLACEHOLDER_TRACE_ID, SUPPORTED_SCHEMA_VERSION,
};
pub use decode::{
    Decoded, IdentitySource, Meta, RejectKind, Rejection, Warning, decode, decode_value,
    duplicate_top_level_keys, top_level_keys,
};
pub use encode::{DeadLetterError, EncodeError, bump_attempts, dead_letter_move, encode};
pub use make::{MakeError, MakeInput, make};
