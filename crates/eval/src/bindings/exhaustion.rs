//! The Pulsar max-attempts settle decision (`pulsar_exhaustion`, ADR-0036 decisions 1 and 2):
//! what a consumer does with a delivery whose handler failed, whose URN is unknown, or whose
//! body is poison (does not decode into an envelope).
//!
//! - attempts: the `bq-attempts` property when present and a plain count, else the body's
//!   `attempts` (a poison body has none: 0), raised to the 0-based RedeliveryCount by Pulsar's
//!   reconciliation; this delivery counts one more (`counted`);
//! - the bounded path: `counted < max_attempts` retries (republish with attempts + 1), otherwise
//!   dead-lettering on writes the ADR-0035 record (`dead_letter.attempts = counted`) and off
//!   acknowledges and drops;
//! - a failed handler and an unknown URN under `fail` take the bounded path;
//! - `delete` drops an unknown URN or a poison body; `dead_letter` dead-letters it directly,
//!   whatever the dead-lettering setting (an SDK without any DLQ writer drops instead);
//! - poison under `fail` or `release` with dead-lettering on is dead-lettered at once (no
//!   retry, the record's attempts not compared); with it off it takes the bounded path without
//!   the write: retry while `counted < max_attempts`, then drop (`release` never releases it).

use super::broker_table::PULSAR_COUNTER;
use super::reconcile::{parse_count, reconcile};
use super::settle::Strategy;
use crate::switch::settle as mutant;

/// The max-attempts default: the total number of deliveries, the first included.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 3;

/// What went wrong with the delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Failed,
    UnknownUrn,
    Poison,
}

impl Kind {
    pub const WORDS: [&'static str; 3] = ["failed", "unknown_urn", "poison"];

    pub fn parse(word: &str) -> Option<Kind> {
        match word {
            "failed" => Some(Kind::Failed),
            "unknown_urn" => Some(Kind::UnknownUrn),
            "poison" => Some(Kind::Poison),
            _ => None,
        }
    }

    /// The `dead_letter.reason` of a record written for this kind.
    pub fn reason(self) -> &'static str {
        match self {
            Kind::Failed => "failed",
            Kind::UnknownUrn => "unknown_urn",
            Kind::Poison => "poison",
        }
    }
}

/// One delivery and the consumer's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery<'a> {
    pub kind: Kind,
    /// The envelope's `attempts` (`None` for poison: no decodable body).
    pub body_attempts: Option<u64>,
    /// The `bq-attempts` property as text, when set.
    pub bq_attempts: Option<&'a str>,
    pub redelivery_count: u64,
    pub max_attempts: u64,
    /// Dead-lettering on.
    pub dead_letter: bool,
    pub strategy: Strategy,
}

/// The consumer's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// `retry`, `dlq` or `drop` (a mutant may say otherwise).
    pub outcome: &'static str,
    /// `dead_letter.reason` of the record, on `dlq`.
    pub reason: Option<&'static str>,
    /// `dead_letter.attempts` of the record, when the rule fixes it (the bounded path).
    pub dead_letter_attempts: Option<u64>,
    /// What an SDK without any DLQ writer does instead, when it differs.
    pub outcome_no_writer: Option<&'static str>,
}

/// Why a delivery is not a case of the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotACase {
    /// `unknown_urn` with `release`: released at once without counting (a known gap).
    UnknownUrnRelease,
}

impl Decision {
    fn plain(outcome: &'static str) -> Decision {
        Decision {
            outcome,
            reason: None,
            dead_letter_attempts: None,
            outcome_no_writer: None,
        }
    }

    fn dlq(kind: Kind, attempts: Option<u64>) -> Decision {
        Decision {
            reason: Some(kind.reason()),
            dead_letter_attempts: attempts,
            ..Decision::plain("dlq")
        }
    }
}

/// The reconciled attempts of the delivery (before this delivery is counted).
pub fn reconciled(d: &Delivery<'_>) -> u64 {
    let property = mutant::exhaustion_property(d.bq_attempts, d.bq_attempts.and_then(parse_count));
    let own = property.or(d.body_attempts).unwrap_or(0);
    reconcile(
        "pulsar_exhaustion",
        &PULSAR_COUNTER,
        own,
        Some(d.redelivery_count),
    )
}

/// The bounded path: retry below the cap, then dead-letter (`write`) or drop.
fn bounded(d: &Delivery<'_>, write: bool) -> Decision {
    let reconciled = reconciled(d);
    let counted = reconciled.saturating_add(1);
    if mutant::exhaustion_compared(reconciled, counted) < d.max_attempts {
        Decision::plain("retry")
    } else if write {
        Decision::dlq(
            d.kind,
            Some(mutant::exhaustion_record_attempts(reconciled, counted)),
        )
    } else {
        Decision::plain("drop")
    }
}

/// The direct dead-letter of the `dead_letter` strategy, with what a writer-less SDK does.
fn strategy_dead_letter(d: &Delivery<'_>) -> Decision {
    if !mutant::exhaustion_strategy_writes(d.dead_letter) {
        return Decision::plain("drop");
    }
    Decision {
        outcome_no_writer: (!d.dead_letter).then_some("drop"),
        ..Decision::dlq(d.kind, None)
    }
}

/// The decision of ADR-0036 for `d`.
pub fn decide(d: &Delivery<'_>) -> Result<Decision, NotACase> {
    Ok(match (d.kind, d.strategy) {
        (Kind::Failed, _) | (Kind::UnknownUrn, Strategy::Fail) => bounded(d, d.dead_letter),
        (Kind::UnknownUrn, Strategy::Release) => return Err(NotACase::UnknownUrnRelease),
        (Kind::UnknownUrn | Kind::Poison, Strategy::Delete) => Decision::plain("drop"),
        (Kind::UnknownUrn | Kind::Poison, Strategy::DeadLetter) => strategy_dead_letter(d),
        (Kind::Poison, Strategy::Release) if mutant::exhaustion_release_honoured() => {
            Decision::plain("release")
        }
        (Kind::Poison, Strategy::Fail | Strategy::Release) => {
            if d.dead_letter && !mutant::exhaustion_poison_retried() {
                Decision::dlq(Kind::Poison, None)
            } else {
                bounded(d, d.dead_letter)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(kind: Kind, body: Option<u64>, dead_letter: bool) -> Delivery<'static> {
        Delivery {
            kind,
            body_attempts: body,
            bq_attempts: None,
            redelivery_count: 0,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            dead_letter,
            strategy: Strategy::Fail,
        }
    }

    #[test]
    fn the_cap_counts_this_delivery() {
        let at = |body| decide(&delivery(Kind::Failed, Some(body), true)).map(|d| d.outcome);
        assert_eq!(at(1), Ok("retry"));
        assert_eq!(at(2), Ok("dlq"));
        let d = decide(&delivery(Kind::Failed, Some(7), true)).expect("a case");
        assert_eq!(d.dead_letter_attempts, Some(8));
    }

    #[test]
    fn a_valid_property_replaces_the_body_and_the_redelivery_count_floors_it() {
        let mut d = delivery(Kind::Failed, Some(0), true);
        d.bq_attempts = Some("2");
        assert_eq!(reconciled(&d), 2);
        d.bq_attempts = Some(" 2");
        assert_eq!(reconciled(&d), 0);
        d.redelivery_count = 4;
        assert_eq!(reconciled(&d), 4);
    }

    #[test]
    fn poison_with_dead_lettering_on_is_dead_lettered_at_once() {
        let d = decide(&delivery(Kind::Poison, None, true)).expect("a case");
        assert_eq!(
            (d.outcome, d.reason, d.dead_letter_attempts),
            ("dlq", Some("poison"), None)
        );
        let d = decide(&delivery(Kind::Poison, None, false)).expect("a case");
        assert_eq!(d.outcome, "retry");
    }

    #[test]
    fn unknown_urn_release_is_not_a_case() {
        let mut d = delivery(Kind::UnknownUrn, Some(0), true);
        d.strategy = Strategy::Release;
        assert_eq!(decide(&d), Err(NotACase::UnknownUrnRelease));
    }

    #[test]
    fn extremes_do_not_overflow() {
        let d = delivery(Kind::Failed, Some(u64::MAX), true);
        assert_eq!(
            decide(&d).expect("a case").dead_letter_attempts,
            Some(u64::MAX)
        );
    }
}
