//! Consumer idempotency (ADR-0022): a seen-set keyed on `meta.id`, post-success dedupe.
//!
//! - the dedup key is `meta.id` verbatim (never trimmed, never `trace_id`);
//! - a delivery whose id is empty or absent cannot be deduped: it always runs (fail open);
//! - otherwise an id already remembered is skipped (handler not invoked, delivery acked);
//!   a new id runs the handler, and only an `ok` outcome remembers it (a `throw` leaves it
//!   unmarked so a redelivery runs again);
//! - `forget_before` evicts the id from the store before the delivery is considered;
//! - the effect count is the number of handler invocations (every `run`, whether it then
//!   returns or throws: the side-effect has fired either way).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::switch::idempotency as mutant;

/// The three-method store interface every SDK's helper is backed by.
pub trait Store {
    fn seen(&self, id: &str) -> bool;
    fn remember(&mut self, id: &str);
    fn forget(&mut self, id: &str);
}

/// The process-local reference store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InMemoryStore {
    ids: BTreeSet<String>,
}

impl InMemoryStore {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Store for InMemoryStore {
    fn seen(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    fn remember(&mut self, id: &str) {
        self.ids.insert(id.to_owned());
    }

    fn forget(&mut self, id: &str) {
        self.ids.remove(id);
    }
}

/// The dedup key of an envelope: `meta.id` verbatim when it is a non-empty string. `None`
/// (empty, absent or not a string) means the message cannot be deduped.
pub fn dedup_key(envelope: &Value) -> Option<&str> {
    envelope
        .pointer(mutant::key_pointer())
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
}

/// The handler's result for a delivery that runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerOutcome {
    Ok,
    Throw,
}

impl HandlerOutcome {
    /// Parses the manifest spelling (`ok` / `throw`).
    pub fn parse(text: &str) -> Option<HandlerOutcome> {
        match text {
            "ok" => Some(HandlerOutcome::Ok),
            "throw" => Some(HandlerOutcome::Throw),
            _ => None,
        }
    }
}

/// What the helper does with one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The handler is invoked.
    Run,
    /// The id is known: the handler is not invoked and the delivery is acked.
    Skip,
}

impl Effect {
    /// The manifest spelling (`run` / `skip`).
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Run => "run",
            Effect::Skip => "skip",
        }
    }

    /// Parses the manifest spelling.
    pub fn parse(text: &str) -> Option<Effect> {
        match text {
            "run" => Some(Effect::Run),
            "skip" => Some(Effect::Skip),
            _ => None,
        }
    }
}

/// One delivery of a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery<'a> {
    /// The message's `meta.id`; `None` when absent.
    pub meta_id: Option<&'a str>,
    /// Evict the id from the store before this delivery.
    pub forget_before: bool,
    /// The handler's outcome should it run.
    pub outcome: HandlerOutcome,
}

/// The key a delivery is deduped on, or `None` when it fails open.
fn key_of<'a>(delivery: &Delivery<'a>) -> Option<&'a str> {
    if mutant::empty_id_is_a_key() {
        return Some(delivery.meta_id.unwrap_or(""));
    }
    delivery.meta_id.filter(|id| !id.is_empty())
}

/// Handles one delivery against `store`, returning its effect.
pub fn deliver(store: &mut dyn Store, delivery: &Delivery<'_>) -> Effect {
    let Some(key) = key_of(delivery).and_then(crate::switch::go::dedup_key) else {
        return Effect::Run;
    };
    let key = match crate::switch::php::dedup_key(&key) {
        Some(folded) => std::borrow::Cow::Owned(folded),
        None => key,
    };
    let key = crate::switch::jvm_dotnet::store_key(key);
    if delivery.forget_before {
        store.forget(&key);
    }
    if store.seen(&key) {
        return Effect::Skip;
    }
    if delivery.outcome == HandlerOutcome::Ok || mutant::marks_before_handler() {
        store.remember(&key);
    }
    Effect::Run
}

/// The result of replaying a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The effect of each delivery, in order.
    pub effects: Vec<Effect>,
    /// The number of handler invocations (side-effects fired).
    pub total_effects: u64,
}

/// Replays `deliveries` through one helper backed by one fresh in-memory store.
pub fn replay(deliveries: &[Delivery<'_>]) -> Replay {
    let mut store = InMemoryStore::new();
    let effects: Vec<Effect> = deliveries.iter().map(|d| deliver(&mut store, d)).collect();
    let total_effects = effects.iter().filter(|e| **e == Effect::Run).count() as u64;
    Replay {
        effects,
        total_effects,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Effect::{Run, Skip};
    use HandlerOutcome::{Ok as Fine, Throw};
    use serde_json::json;

    fn d(id: Option<&str>, outcome: HandlerOutcome, forget: bool) -> Delivery<'_> {
        Delivery {
            meta_id: id,
            forget_before: forget,
            outcome,
        }
    }

    #[test]
    fn sequences() {
        let a = Some("id-A");
        let table: Vec<(Vec<Delivery<'_>>, Vec<Effect>, u64)> = vec![
            (
                vec![d(a, Fine, false), d(a, Fine, false)],
                vec![Run, Skip],
                1,
            ),
            (vec![d(a, Fine, false); 4], vec![Run, Skip, Skip, Skip], 1),
            (
                vec![
                    d(a, Fine, false),
                    d(Some("id-B"), Fine, false),
                    d(Some("id-C"), Fine, false),
                ],
                vec![Run, Run, Run],
                3,
            ),
            (
                vec![
                    d(a, Throw, false),
                    d(a, Throw, false),
                    d(a, Fine, false),
                    d(a, Fine, false),
                ],
                vec![Run, Run, Run, Skip],
                3,
            ),
            (
                vec![d(Some(""), Fine, false), d(Some(""), Fine, false)],
                vec![Run, Run],
                2,
            ),
            (
                vec![d(None, Fine, false), d(None, Fine, false)],
                vec![Run, Run],
                2,
            ),
            (
                vec![d(a, Fine, false), d(a, Fine, false), d(a, Fine, true)],
                vec![Run, Skip, Run],
                2,
            ),
            (
                vec![d(Some(" id-A"), Fine, false), d(a, Fine, false)],
                vec![Run, Run],
                2,
            ),
            (vec![], vec![], 0),
        ];
        for (deliveries, effects, total) in table {
            let out = replay(&deliveries);
            assert_eq!(out.effects, effects, "{deliveries:?}");
            assert_eq!(out.total_effects, total, "{deliveries:?}");
        }
    }

    #[test]
    fn key_is_meta_id_verbatim() {
        assert_eq!(
            dedup_key(&json!({ "trace_id": "t", "meta": { "id": " x " } })),
            Some(" x ")
        );
        assert_eq!(dedup_key(&json!({ "trace_id": "t", "meta": {} })), None);
        assert_eq!(dedup_key(&json!({ "meta": { "id": "" } })), None);
        assert_eq!(dedup_key(&json!({ "meta": { "id": 5 } })), None);
        assert_eq!(dedup_key(&json!([])), None);
    }

    #[test]
    fn store_methods() {
        let mut store = InMemoryStore::new();
        assert!(!store.seen("a"));
        store.remember("a");
        assert!(store.seen("a"));
        store.forget("a");
        assert!(!store.seen("a"));
        store.forget("never");
    }
}
