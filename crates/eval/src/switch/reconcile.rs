//! The variations of the reconciliation (`reconcile`) mutants: what the model does instead of the
//! rule while one of them is switched on. Their catalogue entries are in
//! [`crate::mutants::reconcile`].

use super::{Mutant, on};
use crate::bindings::broker_table::Authority;

/// The counter's base (1 for a 1-based counter) as the active mutant reads it for `section`.
pub fn base(section: &str, base: u64) -> u64 {
    let raw = (on(Mutant::SqsReceiveCountRaw) && section == "sqs")
        || (on(Mutant::AsbDeliveryCountRaw) && section == "asb");
    let minus_one = (on(Mutant::PulsarRedeliveryMinusOne)
        && (section == "pulsar" || section == "pulsar_exhaustion"))
        || (on(Mutant::ArtemisDeliveryMinusOne) && section == "artemis");
    if raw {
        0
    } else if minus_one {
        1
    } else {
        base
    }
}

/// The counter's authority as the active mutant applies it for `section`.
pub fn authority(section: &str, authority: Authority) -> Authority {
    if on(Mutant::KafkaMaxOfHeaderAndBody) && section == "kafka" {
        Authority::MaxWithBody
    } else {
        authority
    }
}

/// The native counter as the active mutant reads it for `section` (`None`: not read).
pub fn counter_read(section: &str, counter: Option<u64>) -> Option<u64> {
    let kafka = section == "kafka";
    if (on(Mutant::KafkaHeaderIgnored) && kafka)
        || (on(Mutant::KafkaZeroHeaderIgnored) && kafka && counter == Some(0))
    {
        None
    } else {
        counter
    }
}
