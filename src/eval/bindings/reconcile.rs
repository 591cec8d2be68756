//! Consume-side attempts reconciliation: how each binding combines the body's `attempts` with
//! the broker's native delivery counter (`attempts_reconciliation`).
//!
//! - SQS: `max(body, ApproximateReceiveCount - 1)`; an absent or non-numeric count is ignored.
//! - ASB: `max(body, DeliveryCount - 1)` (1-based counter; 0 and 1 leave the body's count).
//! - Pulsar: `max(body, RedeliveryCount)` (0-based, no `- 1`).
//! - Artemis: `max(body, delivery-count)` (0-based, no `- 1`).
//! - Kafka: the `bq-attempts` header when present (authoritative, even when lower), else the
//!   body. Not a max.

use crate::eval::mutants::reconcile as mutant;

/// Parses an SQS `ApproximateReceiveCount` attribute: a non-empty string of ASCII digits.
/// Anything else (signs, spaces, decimals, words, a value beyond `u64`) is garbage: `None`.
pub fn parse_receive_count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok()
}

/// SQS: `max(body, ApproximateReceiveCount - 1)`, ignoring an absent or garbage count.
pub fn sqs(body_attempts: u64, approximate_receive_count: Option<&str>) -> u64 {
    match approximate_receive_count.and_then(parse_receive_count) {
        Some(count) => mutant::sqs(body_attempts, count)
            .unwrap_or_else(|| body_attempts.max(count.saturating_sub(1))),
        None => body_attempts,
    }
}

/// ASB: `max(body, DeliveryCount - 1)`; a count of 0 or 1 leaves the body's own count.
pub fn asb(body_attempts: u64, delivery_count: u64) -> u64 {
    mutant::asb(body_attempts, delivery_count)
        .unwrap_or_else(|| body_attempts.max(delivery_count.saturating_sub(1)))
}

/// Pulsar: `max(body, RedeliveryCount)`.
pub fn pulsar(body_attempts: u64, redelivery_count: u64) -> u64 {
    mutant::pulsar(body_attempts, redelivery_count)
        .unwrap_or_else(|| body_attempts.max(redelivery_count))
}

/// Artemis: `max(body, delivery-count)` (the AMQP header is 0-based).
pub fn artemis(body_attempts: u64, delivery_count: u64) -> u64 {
    mutant::artemis(body_attempts, delivery_count)
        .unwrap_or_else(|| body_attempts.max(delivery_count))
}

/// Kafka: the `bq-attempts` header when present, else the body's attempts.
pub fn kafka(body_attempts: u64, header_attempts: Option<u64>) -> u64 {
    mutant::kafka(body_attempts, header_attempts)
        .unwrap_or_else(|| header_attempts.unwrap_or(body_attempts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqs_table() {
        let table: &[(u64, Option<&str>, u64)] = &[
            (0, Some("1"), 0),
            (0, Some("3"), 2),
            (2, Some("5"), 4),
            (5, Some("1"), 5),
            (4, Some("not-a-number"), 4),
            (3, None, 3),
            (3, Some(""), 3),
            (3, Some("0"), 3),
            (0, Some("0"), 0),
            (1, Some(" 9"), 1),
            (1, Some("+9"), 1),
            (1, Some("9.0"), 1),
            (1, Some("-9"), 1),
            (1, Some("٩"), 1),
            (1, Some("99999999999999999999999"), 1),
            (0, Some("007"), 6),
        ];
        for (body, arc, want) in table {
            assert_eq!(sqs(*body, *arc), *want, "{body} {arc:?}");
        }
    }

    #[test]
    fn asb_table() {
        for (body, count, want) in [
            (0, 1, 0),
            (0, 3, 2),
            (2, 5, 4),
            (5, 2, 5),
            (4, 1, 4),
            (3, 0, 3),
        ] {
            assert_eq!(asb(body, count), want);
        }
    }

    #[test]
    fn zero_based_tables() {
        for (body, count, want) in [
            (0, 0, 0),
            (0, 2, 2),
            (2, 5, 5),
            (5, 1, 5),
            (4, 0, 4),
            (3, 3, 3),
        ] {
            assert_eq!(pulsar(body, count), want);
            assert_eq!(artemis(body, count), want);
        }
    }

    #[test]
    fn kafka_header_wins_even_when_lower() {
        for (body, header, want) in [
            (0, Some(0), 0),
            (0, Some(2), 2),
            (3, None, 3),
            (5, Some(1), 1),
            (1, Some(4), 4),
            (7, Some(0), 0),
        ] {
            assert_eq!(kafka(body, header), want);
        }
    }

    #[test]
    fn extremes_do_not_overflow() {
        assert_eq!(sqs(u64::MAX, Some("18446744073709551615")), u64::MAX);
        assert_eq!(asb(0, u64::MAX), u64::MAX - 1);
        assert_eq!(asb(0, 0), 0);
    }
}
