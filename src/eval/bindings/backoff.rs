//! Kafka retry backoff (broker-bindings §6.3–6.5): retry-tier selection and the retry
//! republish.
//!
//! - tier selection: the smallest configured tier >= the requested delay; none (the delay is
//!   above the largest tier) -> reject. The republished record carries `bq-delay` (the
//!   requested delay in seconds, as a decimal string) and `bq-original-topic`;
//! - retry republish: attempts are reconciled the Kafka way (the `bq-attempts` header when
//!   present, else the body), then incremented by one; the new count goes into the
//!   `bq-attempts` header (string) and the body's `attempts` (number), which stay in sync.

use serde_json::{Map, Value};

use super::reconcile;
use crate::eval::mutants::backoff as mutant;

/// Why a retry cannot be scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackoffError {
    /// The requested delay is above the largest tier (or no tier is configured).
    AboveLargestTier,
}

/// The smallest tier >= `requested_delay`, whatever the order of `tiers`.
pub fn select_tier(tiers: &[u64], requested_delay: u64) -> Option<u64> {
    if let Some(tier) = mutant::select_tier(tiers, requested_delay) {
        return tier;
    }
    tiers
        .iter()
        .copied()
        .filter(|tier| *tier >= requested_delay)
        .min()
}

/// The `bq-delay` / `bq-original-topic` headers of a retry record.
pub fn delay_headers(requested_delay: u64, topic: &str) -> Map<String, Value> {
    let mut headers = Map::new();
    headers.insert(
        "bq-delay".to_owned(),
        Value::String(requested_delay.to_string()),
    );
    headers.insert(
        "bq-original-topic".to_owned(),
        Value::String(topic.to_owned()),
    );
    headers
}

/// A retry record ready to be republished.
#[derive(Debug, Clone, PartialEq)]
pub struct Republish {
    /// The tier (topic delay) the record goes to.
    pub tier: u64,
    /// `bq-attempts`, `bq-delay`, `bq-original-topic`.
    pub headers: Map<String, Value>,
    /// The body's new `attempts`.
    pub body_attempts: u64,
}

/// The retry republish of a record whose body says `body_attempts` and whose `bq-attempts`
/// header says `header_attempts` (`None` = absent).
pub fn retry_republish(
    tiers: &[u64],
    topic: &str,
    body_attempts: u64,
    header_attempts: Option<u64>,
    requested_delay: u64,
) -> Result<Republish, BackoffError> {
    let tier = select_tier(tiers, requested_delay).ok_or(BackoffError::AboveLargestTier)?;
    let current = mutant::current_attempts(body_attempts, header_attempts)
        .unwrap_or_else(|| reconcile::kafka(body_attempts, header_attempts));
    let attempts = current.saturating_add(1);
    let mut headers = Map::new();
    headers.insert(
        "bq-attempts".to_owned(),
        Value::String(attempts.to_string()),
    );
    headers.extend(delay_headers(
        mutant::delay_header(requested_delay, tier),
        topic,
    ));
    Ok(Republish {
        tier,
        headers,
        body_attempts: mutant::body_attempts(body_attempts, attempts),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TIERS: [u64; 4] = [5, 30, 300, 1800];

    #[test]
    fn tier_table() {
        let table = [
            (0, Some(5)),
            (1, Some(5)),
            (5, Some(5)),
            (30, Some(30)),
            (31, Some(300)),
            (1800, Some(1800)),
            (1801, None),
            (u64::MAX, None),
        ];
        for (requested, want) in table {
            assert_eq!(select_tier(&TIERS, requested), want, "{requested}");
        }
        assert_eq!(select_tier(&[1800, 5, 300, 30], 31), Some(300));
        assert_eq!(select_tier(&[], 0), None);
    }

    #[test]
    fn headers_are_strings() {
        assert_eq!(
            Value::Object(delay_headers(1, "orders")),
            json!({ "bq-delay": "1", "bq-original-topic": "orders" })
        );
    }

    #[test]
    fn republish_table() {
        let table = [
            (2, Some(2), 30, "3", 3),
            (1, None, 5, "2", 2),
            (1, Some(4), 300, "5", 5),
            (6, Some(0), 5, "1", 1),
        ];
        for (body, header, delay, want_header, want_body) in table {
            let out = retry_republish(&TIERS, "orders", body, header, delay).expect("tier exists");
            assert_eq!(out.headers["bq-attempts"], json!(want_header));
            assert_eq!(out.headers["bq-delay"], json!(delay.to_string()));
            assert_eq!(out.headers["bq-original-topic"], json!("orders"));
            assert_eq!(out.body_attempts, want_body);
        }
        assert_eq!(
            retry_republish(&TIERS, "orders", 0, None, 1801),
            Err(BackoffError::AboveLargestTier)
        );
        let out = retry_republish(&TIERS, "t", u64::MAX, None, 5).expect("tier exists");
        assert_eq!(out.body_attempts, u64::MAX);
    }
}
