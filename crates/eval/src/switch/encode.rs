//! The variations of the encode mutants: what the model does instead of the rule while
//! one of them is switched on. Their catalogue entries are in [`crate::mutants::encode`].

use serde_json::{Map, Value};

use super::{Mutant, on};

/// True when encode skips its refusal of forbidden and colliding extras.
pub fn emits_forbidden_extras() -> bool {
    on(Mutant::EncodeForbiddenExtrasEmitted)
}

/// True when encode leaves the preserved extras out.
pub fn drops_unknown_keys() -> bool {
    on(Mutant::EncodeDropsUnknownKeys)
}

/// The `data` value encode writes, given the message's data.
pub fn data_value(data: Map<String, Value>) -> Value {
    if data.is_empty() && on(Mutant::EncodeEmptyDataAsList) {
        Value::Array(Vec::new())
    } else {
        Value::Object(data)
    }
}

/// The key encode writes the identity under, given whether it came from the urn alias.
pub fn identity_key(from_urn_alias: bool) -> &'static str {
    if from_urn_alias && on(Mutant::EncodeKeepsUrnAlias) {
        "urn"
    } else {
        "job"
    }
}

/// True when the retry hop leaves attempts as it was.
pub fn skips_attempts_bump() -> bool {
    on(Mutant::EncodeAttemptsNotIncremented)
}

/// True when the meta write API drops a forbidden key silently.
pub fn drops_forbidden_meta() -> bool {
    on(Mutant::MakeForbiddenMetaDropped)
}

/// True when the dead-letter move drops the unknown keys.
pub fn dead_letter_drops_extras() -> bool {
    on(Mutant::DeadLetterDropsUnknownKeys)
}
