//! Consume-side attempts reconciliation: how a binding combines the body's `attempts` with the
//! broker's native delivery counter (`attempts_reconciliation`), driven by the binding's
//! [`CounterRule`]:
//!
//! - a 1-based counter (SQS `ApproximateReceiveCount`, ASB `DeliveryCount`) reads 1 on a first
//!   delivery, so `counter - 1` is the number of earlier attempts; a 0-based counter (Pulsar
//!   `RedeliveryCount`, the Artemis AMQP `delivery-count`) is read as it is;
//! - `MaxWithBody`: the larger of the body's count and the counter, so a count the runtime
//!   raised by republishing is never lowered;
//! - `CounterWins` (Kafka `bq-attempts`): the counter when present, even when lower;
//! - an absent counter (null, or SQS text that is not a plain number) leaves the body's count.

use super::broker_table::{Authority, CounterRule};
use crate::switch::reconcile as mutant;
use crate::switch::{javascript, php};

/// Parses a counter given as text (SQS `ApproximateReceiveCount`, Pulsar `bq-attempts`): a
/// non-empty run of ASCII digits. Anything else (signs, spaces, decimals, words, a value beyond
/// `u64`) is not a count: `None`.
pub fn parse_count(text: &str) -> Option<u64> {
    if let Some(habit) = php::count(text).or_else(|| javascript::count(text)) {
        return habit;
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok()
}

/// The reconciled attempts of `section` under `rule`, from the body's count and the native
/// counter (`None` when the broker did not give one).
pub fn reconcile(section: &str, rule: &CounterRule, body: u64, counter: Option<u64>) -> u64 {
    let counter = crate::switch::go::counter_read(section, mutant::counter_read(section, counter));
    let Some(counter) = counter else {
        return body;
    };
    match mutant::authority(section, rule.authority) {
        Authority::CounterWins => counter,
        Authority::MaxWithBody => {
            body.max(counter.saturating_sub(mutant::base(section, rule.base)))
        }
    }
}

/// Kafka's rule (the `bq-attempts` header when present, else the body), for the Kafka backoff
/// model that reconciles before it republishes.
pub fn kafka(body: u64, header: Option<u64>) -> u64 {
    let rule = super::broker_table::binding("kafka").and_then(|b| b.reconciliation);
    match rule {
        Some(rule) => reconcile("kafka", &rule, body, header),
        None => header.unwrap_or(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::broker_table::{PULSAR_COUNTER, binding};

    fn run(section: &str, body: u64, counter: Option<u64>) -> u64 {
        let rule = binding(section)
            .and_then(|b| b.reconciliation)
            .expect("binding with a counter");
        reconcile(section, &rule, body, counter)
    }

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
            assert_eq!(
                run("sqs", *body, arc.and_then(parse_count)),
                *want,
                "{body} {arc:?}"
            );
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
            assert_eq!(run("asb", body, Some(count)), want);
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
            assert_eq!(run("pulsar", body, Some(count)), want);
            assert_eq!(run("artemis", body, Some(count)), want);
            assert_eq!(
                reconcile("pulsar_exhaustion", &PULSAR_COUNTER, body, Some(count)),
                want
            );
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
            assert_eq!(run("kafka", body, header), want);
        }
    }

    #[test]
    fn extremes_do_not_overflow() {
        assert_eq!(
            run("sqs", u64::MAX, parse_count("18446744073709551615")),
            u64::MAX
        );
        assert_eq!(run("asb", 0, Some(u64::MAX)), u64::MAX - 1);
        assert_eq!(run("asb", 0, Some(0)), 0);
    }
}
