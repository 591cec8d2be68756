//! The Redis binding (broker-bindings §1).
//!
//! Payload identity: Redis lists carry no metadata, so the list element is the envelope JSON
//! byte for byte (no wrapping, no added fields), and reserve returns it unchanged.
//! Layout: the Laravel-compatible key names `<prefix><q>`, `<prefix><q>:delayed`,
//! `<prefix><q>:reserved`, `<prefix><q>:notify`, the prefix defaulting to `queues:`. The
//! behaviour of the queue on those keys is modelled in `redis_queue`.

use serde_json::{Map, Value};

use crate::switch::redis as mutant;

/// Produce: the queue element stored for an envelope (RPUSH). The bytes are the envelope's.
pub fn produce(envelope_json: &str) -> String {
    mutant::element(envelope_json)
}

/// Reserve: the envelope returned for a stored element, unchanged.
pub fn reserve(element: &str) -> &str {
    element
}

/// Whether produce followed by reserve gives back the identical bytes.
pub fn payload_identity_holds(envelope_json: &str) -> bool {
    reserve(&produce(envelope_json)).as_bytes() == envelope_json.as_bytes()
}

/// The keys of one queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutKeys {
    pub ready: String,
    pub delayed: String,
    pub reserved: String,
    pub notify: String,
}

impl LayoutKeys {
    /// The keys as a `{ready, delayed, reserved, notify}` map.
    pub fn to_map(&self) -> Map<String, Value> {
        [
            ("ready", &self.ready),
            ("delayed", &self.delayed),
            ("reserved", &self.reserved),
            ("notify", &self.notify),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::String(v.clone())))
        .collect()
    }
}

/// The key layout of queue `queue` (used verbatim, dots and all) with the Laravel default
/// prefix `queues:`.
pub fn layout_keys(queue: &str) -> LayoutKeys {
    layout_keys_with_prefix("queues:", queue)
}

/// The key layout of queue `queue` under `key_prefix`: the ready list is the prefix followed by
/// the queue name, the other keys are suffixes of it.
pub fn layout_keys_with_prefix(key_prefix: &str, queue: &str) -> LayoutKeys {
    let ready = format!("{}{queue}", mutant::prefix(key_prefix));
    LayoutKeys {
        delayed: format!("{ready}:delayed"),
        reserved: format!("{ready}:{}", mutant::reserved_suffix()),
        notify: format!("{ready}:notify"),
        ready,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identity() {
        for text in [
            "{}",
            "{\"job\":\"x\"}\n",
            "  {\"a\" : 1 }  ",
            "{\"t\":\"é😀\"}",
        ] {
            assert_eq!(produce(text), text);
            assert!(payload_identity_holds(text));
        }
    }

    #[test]
    fn layout_table() {
        for (queue, prefix) in [
            ("default", "queues:default"),
            ("orders", "queues:orders"),
            ("billing.invoices", "queues:billing.invoices"),
        ] {
            let keys = layout_keys(queue);
            assert_eq!(
                Value::Object(keys.to_map()),
                json!({
                    "ready": prefix,
                    "delayed": format!("{prefix}:delayed"),
                    "reserved": format!("{prefix}:reserved"),
                    "notify": format!("{prefix}:notify"),
                })
            );
        }
    }
}
