//! Amazon SQS delays (broker-bindings §3.4–3.5): `DelaySeconds` on a delayed publish and the
//! `ChangeMessageVisibility` timeout of a release.
//!
//! - standard queue: a delay of 1..=900 s is sent as `DelaySeconds = delay`; above the 900 s
//!   cap the publish fails (BabelQueueException), it is never shortened or dropped;
//! - FIFO queue: there is no per-message delay, so a positive delay fails;
//! - release: the visibility timeout is the requested delay (0 redelivers now), up to the SQS
//!   maximum of 43200 s.
//!
//! A delay of 0 or below on publish, and a release above 43200 s, are not pinned by the
//! contract: callers keep them out of the model.

use crate::switch::delay as mutant;

/// The SQS cap on `DelaySeconds`.
pub const MAX_DELAY_SECONDS: u64 = 900;

/// The SQS maximum visibility timeout (12 h).
pub const MAX_VISIBILITY_TIMEOUT: u64 = 43_200;

/// The kind of SQS queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueType {
    Standard,
    Fifo,
}

impl QueueType {
    /// Parses the manifest spelling (`standard` / `fifo`).
    pub fn parse(text: &str) -> Option<QueueType> {
        match text {
            "standard" => Some(QueueType::Standard),
            "fifo" => Some(QueueType::Fifo),
            _ => None,
        }
    }
}

/// What the transport does with a delayed publish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendOutcome {
    /// One SendMessage carrying `DelaySeconds = delay_seconds`.
    Send { delay_seconds: u64 },
    /// The transport raises and sends nothing.
    Reject,
}

/// A publish delayed by `delay_seconds` (at least 1) on a `queue_type` queue.
pub fn send(queue_type: QueueType, delay_seconds: u64) -> SendOutcome {
    match queue_type {
        QueueType::Fifo if mutant::fifo_sends_delay() => SendOutcome::Send { delay_seconds },
        QueueType::Fifo => SendOutcome::Reject,
        QueueType::Standard if delay_seconds <= mutant::cap(MAX_DELAY_SECONDS) => {
            SendOutcome::Send { delay_seconds }
        }
        QueueType::Standard => match mutant::above_cap(MAX_DELAY_SECONDS) {
            Some(sent) => SendOutcome::Send {
                delay_seconds: sent,
            },
            None => SendOutcome::Reject,
        },
    }
}

/// The `VisibilityTimeout` of a release after `delay_seconds` (0..=43200).
pub fn release_visibility_timeout(delay_seconds: u64) -> u64 {
    crate::switch::javascript::visibility_timeout(delay_seconds)
        .unwrap_or_else(|| mutant::visibility_timeout(delay_seconds, MAX_DELAY_SECONDS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_table() {
        let send_of = |delay_seconds| SendOutcome::Send { delay_seconds };
        let table = [
            (QueueType::Standard, 1, send_of(1)),
            (QueueType::Standard, 900, send_of(900)),
            (QueueType::Standard, 901, SendOutcome::Reject),
            (QueueType::Standard, u64::MAX, SendOutcome::Reject),
            (QueueType::Fifo, 1, SendOutcome::Reject),
            (QueueType::Fifo, 30, SendOutcome::Reject),
        ];
        for (queue, delay, want) in table {
            assert_eq!(send(queue, delay), want, "{queue:?} {delay}");
        }
    }

    #[test]
    fn release_table() {
        for delay in [0, 30, 900, 901, MAX_VISIBILITY_TIMEOUT] {
            assert_eq!(release_visibility_timeout(delay), delay);
        }
    }

    #[test]
    fn queue_type_spelling() {
        assert_eq!(QueueType::parse("standard"), Some(QueueType::Standard));
        assert_eq!(QueueType::parse("fifo"), Some(QueueType::Fifo));
        assert_eq!(QueueType::parse("FIFO"), None);
    }
}
