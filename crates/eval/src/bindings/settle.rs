//! Settle decisions a consumer takes without running a handler to completion:
//!
//! - the version-gate settle rule (`version_gate_<binding>`, ADR-0037 decision 1): a delivery
//!   whose schema-version property gates is never decoded, never handed to a handler or hook
//!   and never retried. It is written raw to `<queue>.dlq` and then acknowledged (`dlq_raw`)
//!   when the strategy writes, is left unsettled when that write fails (`unsettled`), and
//!   otherwise settled the binding's way for dead-lettering off (`ack`, or `native`: left to
//!   the broker). `delete` acknowledges; `release` behaves as `fail`; `fail` (the default)
//!   writes when dead-lettering is on; `dead_letter` writes wherever a DLQ target exists;
//! - the Pulsar max-attempts decision (`pulsar_exhaustion`, ADR-0036): see [`super::exhaustion`].
//!
//! Outcomes are the manifest's own words, so a mismatch reads as the case does.

use super::broker_table::SettleRule;
use crate::switch::settle as mutant;

/// The `on_unknown_urn` strategy a consumer is configured with (absent = `fail`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Fail,
    Delete,
    Release,
    DeadLetter,
}

impl Strategy {
    /// The manifest spellings, in the order the descriptions list them.
    pub const WORDS: [&'static str; 4] = ["fail", "delete", "release", "dead_letter"];

    pub fn parse(word: &str) -> Option<Strategy> {
        match word {
            "fail" => Some(Strategy::Fail),
            "delete" => Some(Strategy::Delete),
            "release" => Some(Strategy::Release),
            "dead_letter" => Some(Strategy::DeadLetter),
            _ => None,
        }
    }
}

/// A version-gated delivery and the consumer's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GatedDelivery {
    pub strategy: Strategy,
    /// Dead-lettering on (`dead_letter: on`).
    pub dead_letter: bool,
    /// Whether the write of the raw record to `<queue>.dlq` succeeds (`dlq_write`).
    pub dlq_write_ok: bool,
    /// The `bq-attempts` property, when given: it must not matter.
    pub bq_attempts: Option<u64>,
}

/// How a version-gated delivery is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateSettle {
    /// `ack`, `dlq_raw`, `unsettled` or `native` (a mutant may say otherwise).
    pub outcome: &'static str,
    /// What an SDK in which dead-lettering off means no DLQ writer at all does instead, when it
    /// differs: only for the `dead_letter` strategy with dead-lettering off.
    pub outcome_no_writer: Option<&'static str>,
}

/// The version-gate settle rule of a binding whose off-settle is `rule.off`.
pub fn settle_gated(rule: &SettleRule, d: &GatedDelivery) -> GateSettle {
    let off = mutant::gate_off_outcome(rule.off.outcome());
    let no_writer = (d.strategy == Strategy::DeadLetter && !d.dead_letter).then_some(off);
    if let Some(outcome) = mutant::gate_counted(d.bq_attempts.unwrap_or(0)) {
        return GateSettle {
            outcome,
            outcome_no_writer: no_writer,
        };
    }
    let writes = match d.strategy {
        Strategy::Delete => {
            return GateSettle {
                outcome: "ack",
                outcome_no_writer: None,
            };
        }
        Strategy::Release if mutant::gate_release_honoured() => {
            return GateSettle {
                outcome: "release",
                outcome_no_writer: None,
            };
        }
        Strategy::Fail | Strategy::Release => d.dead_letter,
        Strategy::DeadLetter => mutant::gate_strategy_writes(d.dead_letter),
    };
    let outcome = match (writes, d.dlq_write_ok) {
        (false, _) => off,
        (true, true) => "dlq_raw",
        (true, false) => mutant::gate_write_failed(),
    };
    GateSettle {
        outcome,
        outcome_no_writer: no_writer,
    }
}

/// The record a version-gated delivery is dead-lettered as: the incoming body, byte for byte
/// (never decoded, re-encoded or wrapped in a `dead_letter` block).
pub fn gated_record(incoming: &str) -> String {
    mutant::gate_record(incoming).unwrap_or_else(|| incoming.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::broker_table::{OffSettle, SettleRule};

    const ACK: SettleRule = SettleRule {
        off: OffSettle::Ack,
        strategy_option_everywhere: false,
    };
    const NATIVE: SettleRule = SettleRule {
        off: OffSettle::Native,
        strategy_option_everywhere: true,
    };

    fn d(strategy: Strategy, dead_letter: bool, dlq_write_ok: bool) -> GatedDelivery {
        GatedDelivery {
            strategy,
            dead_letter,
            dlq_write_ok,
            bq_attempts: None,
        }
    }

    #[test]
    fn fail_and_release_write_only_with_dead_lettering_on() {
        for s in [Strategy::Fail, Strategy::Release] {
            assert_eq!(settle_gated(&ACK, &d(s, true, true)).outcome, "dlq_raw");
            assert_eq!(settle_gated(&ACK, &d(s, true, false)).outcome, "unsettled");
            assert_eq!(settle_gated(&ACK, &d(s, false, true)).outcome, "ack");
            assert_eq!(settle_gated(&NATIVE, &d(s, false, true)).outcome, "native");
            assert_eq!(
                settle_gated(&NATIVE, &d(s, false, true)).outcome_no_writer,
                None
            );
        }
    }

    #[test]
    fn delete_acks_and_dead_letter_writes_regardless() {
        for rule in [ACK, NATIVE] {
            for on in [true, false] {
                assert_eq!(
                    settle_gated(&rule, &d(Strategy::Delete, on, false)).outcome,
                    "ack"
                );
                let s = settle_gated(&rule, &d(Strategy::DeadLetter, on, true));
                assert_eq!(s.outcome, "dlq_raw");
                assert_eq!(s.outcome_no_writer, (!on).then_some(rule.off.outcome()));
            }
        }
    }

    #[test]
    fn the_record_is_the_incoming_body() {
        let body = "{\n  \"a\": 1.50\n}\n";
        assert_eq!(gated_record(body), body);
    }
}
