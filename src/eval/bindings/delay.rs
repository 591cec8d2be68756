//! SQS delivery delay (broker-bindings §3.4–3.5): `DelaySeconds` on send and the
//! `ChangeMessageVisibility` timeout of a release.
//!
//! - standard queue: a delay of 0..=900 s is sent as `DelaySeconds = delay`; above the 900 s cap
//!   the send is rejected (BabelQueueException);
//! - FIFO queue: per-message delay is not supported, so any delay > 0 is rejected and a delay of
//!   0 is sent without `DelaySeconds`;
//! - release (retry later): the visibility timeout is set to the requested delay.

use crate::eval::mutants::delay as mutant;

/// The SQS cap on `DelaySeconds`.
pub const MAX_DELAY_SECONDS: u64 = 900;

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

/// What the transport does with a delayed send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendOutcome {
    /// The message is sent; `delay_seconds` is the `DelaySeconds` parameter, `None` when it is
    /// not set at all.
    Send { delay_seconds: Option<u64> },
    /// The transport raises instead of sending.
    Reject,
}

/// The send-side delay rule.
pub fn send(queue_type: QueueType, delay_seconds: u64) -> SendOutcome {
    match queue_type {
        QueueType::Standard if delay_seconds <= MAX_DELAY_SECONDS => SendOutcome::Send {
            delay_seconds: Some(delay_seconds),
        },
        QueueType::Standard => match mutant::standard_above_cap(delay_seconds, MAX_DELAY_SECONDS) {
            Some(sent) => SendOutcome::Send {
                delay_seconds: Some(sent),
            },
            None => SendOutcome::Reject,
        },
        QueueType::Fifo if delay_seconds == 0 => SendOutcome::Send {
            delay_seconds: mutant::fifo_sets_zero().then_some(0),
        },
        QueueType::Fifo if mutant::fifo_sends_delay() => SendOutcome::Send {
            delay_seconds: Some(delay_seconds),
        },
        QueueType::Fifo => SendOutcome::Reject,
    }
}

/// The `ChangeMessageVisibility` timeout of a release after `release_delay_seconds`.
pub fn release_visibility_timeout(release_delay_seconds: u64) -> u64 {
    release_delay_seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_table() {
        let table = [
            (
                QueueType::Standard,
                30,
                SendOutcome::Send {
                    delay_seconds: Some(30),
                },
            ),
            (
                QueueType::Standard,
                0,
                SendOutcome::Send {
                    delay_seconds: Some(0),
                },
            ),
            (
                QueueType::Standard,
                900,
                SendOutcome::Send {
                    delay_seconds: Some(900),
                },
            ),
            (QueueType::Standard, 901, SendOutcome::Reject),
            (QueueType::Standard, u64::MAX, SendOutcome::Reject),
            (QueueType::Fifo, 5, SendOutcome::Reject),
            (QueueType::Fifo, 1, SendOutcome::Reject),
            (
                QueueType::Fifo,
                0,
                SendOutcome::Send {
                    delay_seconds: None,
                },
            ),
        ];
        for (queue, delay, want) in table {
            assert_eq!(send(queue, delay), want, "{queue:?} {delay}");
        }
    }

    #[test]
    fn release_table() {
        for delay in [0, 30, 900, 43_200] {
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
