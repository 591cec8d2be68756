//! Kafka retry tiers (broker-bindings §6.3–6.5): the record a delayed publish or a retry parks
//! on a tier topic.
//!
//! Tiers are the configured delays in milliseconds, strictly ascending; tier `n` (1-based) is
//! `tiers[n-1]` and its topic is `<work_topic>.retry.<n>`. Two rules that must stay apart:
//!
//! - requested delay (§6.4): a publish delayed by `delay_ms` goes to the first (smallest) tier
//!   whose delay is at least `delay_ms`, with `bq-delay` = the requested delay; a delay above
//!   the largest tier, or no tier at all, is refused;
//! - retry (§6.5): a record that already had `attempts_before` attempts goes to tier
//!   `n = min(attempts_before, N-1) + 1` (it stays on the last tier once they run out), with
//!   `bq-attempts` = `attempts_before + 1` (the body's `attempts` says the same) and `bq-delay`
//!   = the tier's own delay, whatever delay the worker runtime computed and handed over; no tier
//!   at all is refused. The record key is written back as it came.
//!
//! Conformance 1.5.0 described the retry differently: the release named a delay
//! (`release_delay_ms`) and the tier came from the requested-delay rule, with `bq-delay` = that
//! delay. [`release_by_delay`] keeps that reading for the 1.5.0 cases.
//!
//! Header values are UTF-8 decimal strings (§6.3).

use serde_json::{Map, Value};

/// The RECOMMENDED tier list (§6.4), exposed by SDKs as `DEFAULT_RETRY_TIERS_MS`.
pub const DEFAULT_RETRY_TIERS_MS: [u64; 4] = [5_000, 30_000, 300_000, 1_800_000];

/// Why no record can be parked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackoffError {
    /// No tier is configured.
    NoTiers,
    /// The requested delay is above the largest tier.
    AboveLargestTier,
}

/// The record parked on a tier topic.
#[derive(Debug, Clone, PartialEq)]
pub struct TierRecord {
    /// The 1-based tier index.
    pub n: u64,
    /// `<work_topic>.retry.<n>`.
    pub topic: String,
    /// The tier's delay in milliseconds.
    pub tier_ms: u64,
    /// The headers this rule sets (`bq-delay`, `bq-original-topic`, and `bq-attempts` on a
    /// retry). Other headers of the record are not pinned.
    pub headers: Map<String, Value>,
    /// The body's `attempts` after a retry (`None` for a delayed publish, which leaves it).
    pub body_attempts: Option<u64>,
    /// The record key, as the consumed record carried it.
    pub key: Option<String>,
}

/// The tier list the transport works with (a mutant may swap an empty list for the defaults).
fn effective_tiers(tiers: &[u64]) -> Vec<u64> {
    crate::switch::javascript::tiers(tiers)
        .or_else(|| mutant::configured_tiers(tiers))
        .unwrap_or_else(|| tiers.to_vec())
}

/// The retry topic of tier `n` of `work_topic` (§6.4).
pub fn retry_topic(work_topic: &str, n: u64) -> String {
    format!("{work_topic}.retry.{}", mutant::topic_index(n))
}

/// The recommended default tiers, as the SDK constant holds them.
pub fn default_tiers() -> Vec<u64> {
    mutant::default_tiers().unwrap_or_else(|| DEFAULT_RETRY_TIERS_MS.to_vec())
}

/// The requested-delay rule (§6.4): the 1-based index and delay of the smallest tier at least
/// `delay_ms`. `tiers` is ascending.
pub fn tier_for_delay(tiers: &[u64], delay_ms: u64) -> Result<(u64, u64), BackoffError> {
    let tiers = crate::switch::copied::requested_delay_tiers(&DEFAULT_RETRY_TIERS_MS)
        .unwrap_or_else(|| effective_tiers(tiers));
    if tiers.is_empty() {
        return Err(BackoffError::NoTiers);
    }
    if let Some(choice) = mutant::tier_for_delay(&tiers, delay_ms) {
        return choice.ok_or(BackoffError::AboveLargestTier);
    }
    tiers
        .iter()
        .zip(1u64..)
        .find(|(tier, _)| **tier >= delay_ms)
        .map(|(tier, n)| (n, *tier))
        .ok_or(BackoffError::AboveLargestTier)
}

fn headers(attempts: Option<u64>, delay_ms: u64, work_topic: &str) -> Map<String, Value> {
    let mut headers = Map::new();
    if let Some(attempts) = attempts {
        headers.insert("bq-attempts".into(), Value::String(attempts.to_string()));
    }
    let delay = crate::switch::python::ms_header(delay_ms).unwrap_or_else(|| delay_ms.to_string());
    headers.insert("bq-delay".into(), Value::String(delay));
    headers.insert("bq-original-topic".into(), Value::String(work_topic.into()));
    headers
}

/// A publish delayed by `delay_ms` (§6.4).
pub fn delayed_publish(
    tiers: &[u64],
    work_topic: &str,
    delay_ms: u64,
) -> Result<TierRecord, BackoffError> {
    let (n, tier_ms) = tier_for_delay(tiers, delay_ms)?;
    let written_delay = mutant::delay_header(delay_ms, tier_ms);
    Ok(TierRecord {
        n,
        topic: mutant::delayed_topic(work_topic, tier_ms)
            .unwrap_or_else(|| retry_topic(work_topic, n)),
        tier_ms,
        headers: headers(None, written_delay, work_topic),
        body_attempts: None,
        key: None,
    })
}

/// The retry of a record that had `attempts_before` attempts (§6.5), whose key was `key`, handed
/// the delay its worker runtime computed (`worker_delay_ms`), which the rule does not use.
pub fn retry(
    tiers: &[u64],
    work_topic: &str,
    attempts_before: u64,
    key: Option<&str>,
    worker_delay_ms: u64,
) -> Result<TierRecord, BackoffError> {
    let tiers = effective_tiers(tiers);
    let last = tiers.len() as u64;
    if last == 0 {
        return Err(BackoffError::NoTiers);
    }
    let n = match mutant::retry_tier(attempts_before, &tiers, worker_delay_ms) {
        Some(choice) => choice.ok_or(BackoffError::AboveLargestTier)?,
        None => attempts_before.min(last - 1) + 1,
    };
    let tier_ms = tiers[usize::try_from(n - 1).unwrap_or(0).min(tiers.len() - 1)];
    let attempts = attempts_before.saturating_add(1);
    Ok(TierRecord {
        n,
        topic: retry_topic(work_topic, n),
        tier_ms,
        headers: headers(
            Some(attempts),
            mutant::retry_delay_header(tier_ms, worker_delay_ms),
            work_topic,
        ),
        body_attempts: Some(mutant::body_attempts(attempts_before, attempts)),
        key: mutant::forwarded_key(key).map(str::to_owned),
    })
}

/// The 1.5.0 reading of a release: the tier comes from `release_delay_ms` by the
/// requested-delay rule, `bq-delay` is that delay, and attempts advance by one.
pub fn release_by_delay(
    tiers: &[u64],
    work_topic: &str,
    attempts_before: u64,
    release_delay_ms: u64,
) -> Result<TierRecord, BackoffError> {
    let (n, tier_ms) = tier_for_delay(tiers, release_delay_ms)?;
    let attempts = attempts_before.saturating_add(1);
    Ok(TierRecord {
        n,
        topic: retry_topic(work_topic, n),
        tier_ms,
        headers: headers(Some(attempts), release_delay_ms, work_topic),
        body_attempts: Some(mutant::body_attempts(attempts_before, attempts)),
        key: None,
    })
}

/// The backoff mutants' variations ([`crate::switch::backoff`]), with the one that falls back to
/// this file's [`DEFAULT_RETRY_TIERS_MS`].
mod mutant {
    pub use crate::switch::backoff::*;
    use crate::switch::{Mutant, on};

    /// The tiers a transport works with when `tiers` is configured (`None`: as configured).
    pub fn configured_tiers(tiers: &[u64]) -> Option<Vec<u64>> {
        (on(Mutant::BackoffNoTiersUseDefaults) && tiers.is_empty())
            .then(|| crate::bindings::backoff::DEFAULT_RETRY_TIERS_MS.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TIERS: [u64; 4] = DEFAULT_RETRY_TIERS_MS;

    #[test]
    fn requested_delay_goes_to_the_smallest_tier_that_holds_it() {
        let table = [
            (0, Ok((1, 5_000))),
            (1_000, Ok((1, 5_000))),
            (5_000, Ok((1, 5_000))),
            (5_001, Ok((2, 30_000))),
            (1_800_000, Ok((4, 1_800_000))),
            (1_800_001, Err(BackoffError::AboveLargestTier)),
            (u64::MAX, Err(BackoffError::AboveLargestTier)),
        ];
        for (delay, want) in table {
            assert_eq!(tier_for_delay(&TIERS, delay), want, "{delay}");
        }
        assert_eq!(tier_for_delay(&[], 0), Err(BackoffError::NoTiers));
    }

    #[test]
    fn a_delayed_publish_carries_the_requested_delay() {
        let record = delayed_publish(&TIERS, "orders", 1_000).expect("a tier holds it");
        assert_eq!(record.topic, "orders.retry.1");
        assert_eq!(
            Value::Object(record.headers),
            json!({"bq-delay": "1000", "bq-original-topic": "orders"})
        );
        assert_eq!(record.body_attempts, None);
    }

    #[test]
    fn a_retry_climbs_the_tiers_and_stays_on_the_last() {
        let table = [
            (0, 1, 5_000),
            (1, 2, 30_000),
            (3, 4, 1_800_000),
            (10, 4, 1_800_000),
        ];
        for (before, n, tier_ms) in table {
            let record = retry(&TIERS, "orders.v2", before, Some("k"), 0).expect("tiers exist");
            assert_eq!((record.n, record.tier_ms), (n, tier_ms), "{before}");
            assert_eq!(record.topic, format!("orders.v2.retry.{n}"));
            assert_eq!(record.body_attempts, Some(before + 1));
            assert_eq!(record.key.as_deref(), Some("k"));
            assert_eq!(
                Value::Object(record.headers),
                json!({"bq-attempts": (before + 1).to_string(), "bq-delay": tier_ms.to_string(),
                       "bq-original-topic": "orders.v2"})
            );
        }
        let single = retry(&[10_000], "o", 5, None, 0).expect("one tier");
        assert_eq!((single.n, single.tier_ms), (1, 10_000));
        assert_eq!(retry(&[], "o", 0, None, 0), Err(BackoffError::NoTiers));
        let huge = retry(&TIERS, "o", u64::MAX, None, 0).expect("tiers exist");
        assert_eq!(huge.n, 4);
    }

    #[test]
    fn a_retry_ignores_the_worker_delay() {
        for worker_delay_ms in [1, 2_000, 5_000, 60_000, 3_600_000, u64::MAX] {
            let record = retry(&TIERS, "orders", 1, None, worker_delay_ms).expect("tiers exist");
            assert_eq!((record.n, record.tier_ms), (2, 30_000), "{worker_delay_ms}");
            assert_eq!(record.headers["bq-delay"], json!("30000"));
        }
        assert_eq!(retry(&[], "o", 0, None, 5_000), Err(BackoffError::NoTiers));
    }

    #[test]
    fn the_1_5_release_follows_the_requested_delay() {
        let record = release_by_delay(&TIERS, "orders", 2, 30_000).expect("a tier holds it");
        assert_eq!((record.n, record.tier_ms), (2, 30_000));
        assert_eq!(record.headers["bq-delay"], json!("30000"));
        assert_eq!(record.headers["bq-attempts"], json!("3"));
        assert_eq!(record.body_attempts, Some(3));
    }

    #[test]
    fn topics_and_defaults() {
        assert_eq!(retry_topic("orders.v2", 2), "orders.v2.retry.2");
        assert_eq!(default_tiers(), vec![5_000, 30_000, 300_000, 1_800_000]);
    }
}
